package tickets_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestBoardsPerTeam: a caller sees the boards with a column of one of
// their teams (or of the internal team their external team belongs to),
// administrators every board (decision 0027); every ticket call keeps to
// those boards, reads and writes alike.
func TestBoardsPerTeam(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		// fm may write tickets (crud flags on the tickets table group), so
		// that the board rule, not the right, is what refuses.
		if _, err := d.ExecContext(ctx, `INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
			SELECT user_id, 4, 1, 1, 1, 0 FROM users WHERE user_email = ?`, fm); err != nil {
			t.Fatal(err)
		}
		count := func(where string, args ...any) int64 {
			t.Helper()
			var n int64
			if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM ticket JOIN pos ON pos.pos_id = ticket.pos_id
				JOIN company ON company.company_id = pos.company_id WHERE `+where, args...).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		posA := posOf(t, d, 1)
		nb, nbVersion := ticketOf(t, d, 1, seed.DemoBoardNewBusiness)
		fmTicket, fmVersion := ticketOf(t, d, 1, seed.DemoBoardFM)
		newTicket := func(board, column int64) obj {
			return obj{"ticket_name": "Licht defekt", "pos_id": posA, "priority_id": 1, "board_id": board, "columnx_id": column}
		}
		onlyFM := func(t *testing.T, r apptest.Response) {
			total, rows := listTotal(t, r)
			if want := count("company.customergroup_id = 1 AND ticket.board_id = ?", seed.DemoBoardFM); total != want {
				t.Errorf("fm sees %d tickets, want the %d of the FM board", total, want)
			}
			for _, row := range rows {
				if num(row["board_id"]) != seed.DemoBoardFM {
					t.Errorf("fm sees ticket %v of board %v", row["ticket_id"], row["board_id"])
				}
			}
		}
		ta.Run(t, []apptest.Scenario{
			{Name: "fm sees the FM board only", Method: "GET", Path: "/tickets/kanban/user", As: fm, Status: 200,
				Check: func(t *testing.T, r apptest.Response) {
					body := string(r.Body)
					if !strings.Contains(body, `"board_name":"Facility Management"`) || strings.Contains(body, `"board_name":"New Business"`) {
						t.Errorf("fm's boards: %s", body)
					}
				}},
			{Name: "an administrator sees every board", Method: "GET", Path: "/tickets/kanban/user", As: admin, Status: 200,
				Contains: []string{`"board_name":"Facility Management"`, `"board_name":"New Business"`}},
			{Name: "an internal member sees the boards of their team's columns", Method: "GET", Path: "/tickets/kanban/user", As: teamMember,
				Status: 200, Contains: []string{`"board_name":"Facility Management"`, `"board_name":"New Business"`}},
			{Name: "the list keeps to fm's boards", Method: "GET", Path: "/tickets?per_page=100", As: fm, Status: 200, Check: onlyFM},
			{Name: "another board's list is not found", Method: "GET", Path: fmt.Sprintf("/tickets?board_id=%d", seed.DemoBoardNewBusiness),
				As: fm, Status: 404},
			{Name: "the slims keep to fm's boards", Method: "GET", Path: fmt.Sprintf("/tickets/slims?pos_id=%d&per_page=100", posA), As: fm, Status: 200,
				Check: func(t *testing.T, r apptest.Response) {
					_, rows := listTotal(t, r)
					for _, row := range rows {
						if num(row["board_id"]) != seed.DemoBoardFM {
							t.Errorf("fm sees ticket %v of board %v", row["ticket_id"], row["board_id"])
						}
					}
				}},
			{Name: "no ticket created on another board", Method: "POST", Path: "/tickets", As: fm, Status: 422,
				Body: newTicket(seed.DemoBoardNewBusiness, 6), Contains: []string{`"loc":["body","board_id"]`}},
			{Name: "nor through the generic API", Method: "POST", Path: "/api/", As: fm, Status: 422,
				Body: obj{"action": "create", "entity": "ticket", "data": newTicket(seed.DemoBoardNewBusiness, 6)}, Contains: []string{`"loc":["body","board_id"]`}},
			{Name: "a ticket of another board is not found", Method: "PUT", Path: "/tickets/update", As: fm, Status: 404,
				Body: obj{"ticket_id": nb, "row_version": nbVersion, "ticket_name": "x"}},
			{Name: "nor moved onto fm's board", Method: "PUT", Path: "/tickets/update", As: fm, Status: 404,
				Body: obj{"ticket_id": nb, "row_version": nbVersion, "board_id": seed.DemoBoardFM, "columnx_id": 1}},
			{Name: "fm's own ticket not moved to another board", Method: "PUT", Path: "/tickets/update", As: fm, Status: 422,
				Body:     obj{"ticket_id": fmTicket, "row_version": fmVersion, "board_id": seed.DemoBoardNewBusiness, "columnx_id": 6},
				Contains: []string{`"loc":["body","board_id"]`}},
			{Name: "a ticket on fm's board is fm's to create", Method: "POST", Path: "/tickets", As: fm, Status: 201,
				Body: newTicket(seed.DemoBoardFM, 1), Contains: []string{`"board_id":1`}},
		})
		if n := count("ticket.ticket_name = 'Licht defekt' AND ticket.board_id = ?", seed.DemoBoardNewBusiness); n != 0 {
			t.Errorf("%d tickets written on a board fm does not see", n)
		}
		var name string
		if err := d.QueryRowContext(ctx, `SELECT ticket_name FROM ticket WHERE ticket_id = ?`, nb).Scan(&name); err != nil || name == "x" {
			t.Errorf("ticket %d of another board changed: %q %v", nb, name, err)
		}
	})
}
