package tickets_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestTicketRank: the order within a column (decision 0027). A ticket
// entering a column goes to its end; before_ticket_id places it right
// before that ticket, in its column or the one it moves to; a column with
// no gap left is renumbered; a bad placement writes nothing.
func TestTicketRank(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		order := func(column int64) []int64 {
			t.Helper()
			rows, err := d.QueryContext(ctx, `SELECT ticket_id FROM ticket WHERE columnx_id = ? ORDER BY ticket_rank, ticket_id`, column)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var out []int64
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					t.Fatal(err)
				}
				out = append(out, id)
			}
			return out
		}
		do := func(t *testing.T, sc apptest.Scenario) apptest.Response {
			t.Helper()
			r := ta.Do(sc.Method, sc.Path, ta.Token(sc.As), sc.Body)
			if r.Status != sc.Status {
				t.Fatalf("%s: status %d, want %d: %s", sc.Name, r.Status, sc.Status, r.Body)
			}
			return r
		}
		version := func(id int64) int64 {
			t.Helper()
			var v int64
			if err := d.QueryRowContext(ctx, `SELECT row_version FROM ticket WHERE ticket_id = ?`, id).Scan(&v); err != nil {
				t.Fatal(err)
			}
			return v
		}
		place := func(t *testing.T, as string, id int64, before any, status int, extra ...any) apptest.Response {
			t.Helper()
			body := obj{"ticket_id": id, "row_version": version(id), "before_ticket_id": before}
			for i := 0; i+1 < len(extra); i += 2 {
				body[extra[i].(string)] = extra[i+1]
			}
			return do(t, apptest.Scenario{Name: fmt.Sprintf("place %d before %v", id, before), Method: "PUT", Path: "/tickets/update",
				As: as, Body: body, Status: status})
		}
		want := func(t *testing.T, column int64, ids ...int64) {
			t.Helper()
			if got := order(column); !slices.Equal(got, ids) {
				t.Fatalf("column %d in order %v, want %v", column, got, ids)
			}
		}

		// A new ticket goes to the end of its column.
		col1 := order(1)
		if len(col1) < 2 {
			t.Fatalf("column 1 holds %v", col1)
		}
		r := do(t, apptest.Scenario{Name: "create", Method: "POST", Path: "/tickets", As: admin, Status: 201,
			Body: obj{"ticket_name": "Rang", "pos_id": posOf(t, d, 1), "priority_id": 1, "board_id": seed.DemoBoardFM, "columnx_id": 1}})
		x := num(written(t, r)["ticket_id"])
		want(t, 1, append(slices.Clone(col1), x)...)

		// Before the first, then between the first and the second.
		place(t, admin, x, col1[0], 200)
		want(t, 1, append([]int64{x}, col1...)...)
		r = place(t, admin, x, col1[1], 200)
		if got := written(t, r); num(got["ticket_rank"]) == 0 {
			t.Errorf("the answer has no rank: %v", got)
		}
		want(t, 1, append([]int64{col1[0], x}, col1[1:]...)...)
		// null: at the end.
		place(t, admin, x, nil, 200)
		want(t, 1, append(slices.Clone(col1), x)...)

		// Moved to another column, right before one of its tickets.
		col2 := order(2)
		place(t, admin, x, col2[0], 200, "columnx_id", 2)
		want(t, 2, append([]int64{x}, col2...)...)
		want(t, 1, col1...)
		// Moved back without a place: the end.
		place(t, admin, x, nil, 200, "columnx_id", 1)
		want(t, 1, append(slices.Clone(col1), x)...)

		// Refusals write nothing.
		v := version(x)
		place(t, admin, x, col2[0], 422) // a ticket of another column
		place(t, admin, x, x, 422)       // itself
		place(t, admin, x, 99999999, 422)
		idB, _ := ticketOf(t, d, 2, seed.DemoBoardFM)
		if _, err := d.ExecContext(ctx, `INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
			SELECT user_id, 4, 1, 1, 1, 0 FROM users WHERE user_email = ?`, lead); err != nil {
			t.Fatal(err)
		}
		var bCol int64
		if err := d.QueryRowContext(ctx, `SELECT columnx_id FROM ticket WHERE ticket_id = ?`, idB).Scan(&bCol); err != nil {
			t.Fatal(err)
		}
		if bCol == 1 {
			place(t, lead, x, idB, 422) // another tenant's ticket is none the lead may name
		}
		do(t, apptest.Scenario{Name: "stale placement", Method: "PUT", Path: "/tickets/update", As: admin, Status: 409,
			Body: obj{"ticket_id": x, "row_version": v - 1, "before_ticket_id": col1[0]}})
		if version(x) != v {
			t.Fatalf("a refused placement wrote ticket %d", x)
		}
		want(t, 1, append(slices.Clone(col1), x)...)

		// No gap left between the first two: the column is renumbered.
		for i, id := range col1 {
			if _, err := d.ExecContext(ctx, `UPDATE ticket SET ticket_rank = ? WHERE ticket_id = ?`, i+1, id); err != nil {
				t.Fatal(err)
			}
		}
		place(t, admin, x, col1[1], 200)
		want(t, 1, append([]int64{col1[0], x}, col1[1:]...)...)
		var lowest int64
		if err := d.QueryRowContext(ctx, `SELECT MIN(ticket_rank) FROM ticket WHERE columnx_id = 1`).Scan(&lowest); err != nil {
			t.Fatal(err)
		}
		if lowest < 2 {
			t.Errorf("column 1 not renumbered: lowest rank %d", lowest)
		}
	})
}
