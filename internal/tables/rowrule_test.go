package tables_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
)

// TestRowRule: a row rule registered for an entity (here a made-up one on
// priorities: a non-administrator sees the priorities of board 1, through
// a sub-select over the board_priority link) holds in the list, its total,
// the single read, the choices of a list field naming the entity and the
// visibility the event hub asks; the administrator is not limited; a rule
// naming a column that does not exist fails the request (500) instead of
// answering unlimited rows.
func TestRowRule(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		ctx := context.Background()
		var want []int64
		rows, err := d.QueryContext(ctx, `SELECT priority_id FROM board_priority WHERE board_id = 1 ORDER BY priority_id`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			want = append(want, id)
		}
		rows.Close()
		var all int64
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM priority`).Scan(&all); err != nil {
			t.Fatal(err)
		}
		var hidden int64
		if err := d.QueryRowContext(ctx, `SELECT MIN(priority_id) FROM priority WHERE priority_id NOT IN
			(SELECT priority_id FROM board_priority WHERE board_id = 1)`).Scan(&hidden); err != nil || hidden == 0 {
			// the demo links every priority to board 1: unlink one
			hidden = want[len(want)-1]
			if _, err := d.ExecContext(ctx, `DELETE FROM board_priority WHERE board_id = 1 AND priority_id = ?`, hidden); err != nil {
				t.Fatal(err)
			}
			want = want[:len(want)-1]
		}
		board := []any{int64(1)}
		e.Engine.OnRows("priority", func(p *auth.Principal) tables.RowLimit {
			if p.IsAdmin() {
				return tables.RowLimit{}
			}
			return tables.RowLimit{Limited: true, Any: []tables.RowCond{{Column: "priority_id",
				In: &tables.RowSelect{From: "board_priority", Column: "priority_id", Any: []tables.RowCond{{Column: "board_id", Values: board}}}}}}
		})
		ids := func(a listAnswer) []int64 {
			var out []int64
			for _, r := range a.Data.Data {
				out = append(out, int64(r["priority_id"].(float64)))
			}
			slices.Sort(out)
			return out
		}
		for range 2 { // the second total may come from the count cache
			a := e.list(teamMember, obj{"entity": "priority", "count": true, "per_page": 100})
			if got := ids(a); !slices.Equal(got, want) || a.Data.Total == nil || *a.Data.Total != int64(len(want)) {
				t.Errorf("team member's priorities %v (total %v), want %v", got, a.Data.Total, want)
			}
			a = e.list(admin, obj{"entity": "priority", "count": true, "per_page": 100})
			if a.Data.Total == nil || *a.Data.Total != all {
				t.Errorf("admin's total %v, want %d", a.Data.Total, all)
			}
		}
		if r := e.api(teamMember, obj{"action": "read", "entity": "priority", "id": hidden}); r.Status != http.StatusNotFound {
			t.Errorf("read of a hidden priority: %d", r.Status)
		}
		if r := e.api(admin, obj{"action": "read", "entity": "priority", "id": hidden}); r.Status != http.StatusOK {
			t.Errorf("admin's read of priority %d: %d", hidden, r.Status)
		}
		r := e.api(teamMember, obj{"action": "options", "entity": "ticket", "field": "priority_id", "per_page": 100})
		var opts tables.Options
		if err := json.Unmarshal(r.Body, &opts); err != nil || r.Status != http.StatusOK {
			t.Fatalf("options: %d %v", r.Status, err)
		}
		for _, o := range opts.Data {
			if o.Value == hidden {
				t.Errorf("priority %d offered", hidden)
			}
		}
		member := &auth.Principal{UserID: 3}
		if ok, err := e.Engine.VisibleTo(ctx, d, member, "priority", hidden); err != nil || ok {
			t.Errorf("VisibleTo a hidden priority: %v %v", ok, err)
		}
		if k, all := e.Engine.ScopeKey(member, "priority"), e.Engine.ScopeKey(&auth.Principal{}, "pos"); k == all || all != "all" {
			t.Errorf("scope keys %q and %q", k, all)
		}
		// A rule naming no column of the entity fails closed.
		e.Engine.OnRows("priority", func(p *auth.Principal) tables.RowLimit {
			return tables.RowLimit{Limited: true, Any: []tables.RowCond{{Column: "no_such_column", Values: board}}}
		})
		if r := e.api(teamMember, obj{"action": "read-rich", "entity": "priority"}); r.Status != http.StatusInternalServerError {
			t.Errorf("a broken rule: %d", r.Status)
		}
	})
}
