package tickets_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestBoardRuleInGenericReads: the board rule of decision 0027 holds in
// every generic read of POST /api/ (the engine's row rule registered by
// the ticket module), not only in the ticket calls: fm (FM extern) gets
// nothing of the new-business board through lists, single reads,
// relation reads, options, exports and keyword searches, and the totals
// are the rows seen. A user of the same tenant with another team (MVM
// extern) sees that board: the same statement, another team, another
// total (the count cache keys by the rule).
func TestBoardRuleInGenericReads(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		for _, who := range []string{fm, extMember} {
			if _, err := d.ExecContext(ctx, `INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
				SELECT user_id, 4, 1, 1, 1, 0 FROM users WHERE user_email = ?`, who); err != nil {
				t.Fatal(err)
			}
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
		nb := seed.DemoBoardNewBusiness
		nbA, _ := ticketOf(t, d, 1, nb)
		var nbName string
		var nbPos int64
		if err := d.QueryRowContext(ctx, `SELECT ticket_name, pos_id FROM ticket WHERE ticket_id = ?`, nbA).Scan(&nbName, &nbPos); err != nil {
			t.Fatal(err)
		}
		fmTickets := count("company.customergroup_id = 1 AND ticket.board_id = ?", seed.DemoBoardFM)
		allA := count("company.customergroup_id = 1")
		if fmTickets == 0 || fmTickets == allA {
			t.Fatalf("the demo needs tickets of tenant A on both boards: %d of %d on the FM board", fmTickets, allA)
		}
		api := func(name, as string, body obj, status int, check func(t *testing.T, r apptest.Response)) apptest.Scenario {
			return apptest.Scenario{Name: name, Method: "POST", Path: "/api/", As: as, Body: body, Status: status, Check: check}
		}
		onlyBoard := func(want int64, total int64) func(t *testing.T, r apptest.Response) {
			return func(t *testing.T, r apptest.Response) {
				got, rows := apiRows(t, r)
				if got != total {
					t.Errorf("total %d, want %d", got, total)
				}
				for _, row := range rows {
					if b := num(row["board_id"]); want != 0 && b != want {
						t.Errorf("row %v of board %d", row["ticket_id"], b)
					}
				}
			}
		}
		list := obj{"action": "read-rich", "entity": "ticket", "count": true, "per_page": 500}
		for i := range 2 { // twice: the second total may come from the count cache
			ta.Run(t, []apptest.Scenario{
				api(fmt.Sprintf("fm's ticket list (%d)", i), fm, list, 200, onlyBoard(seed.DemoBoardFM, fmTickets)),
				api(fmt.Sprintf("the same list of an MVM extern member (%d)", i), extMember, list, 200, onlyBoard(0, allA)),
			})
		}
		posNB := count("ticket.pos_id = ?", nbPos)
		posFM := count("ticket.pos_id = ? AND ticket.board_id = ?", nbPos, seed.DemoBoardFM)
		ta.Run(t, []apptest.Scenario{
			api("boards listed", fm, obj{"action": "read-rich", "entity": "board", "count": true}, 200,
				func(t *testing.T, r apptest.Response) {
					total, rows := apiRows(t, r)
					if total != 1 || len(rows) != 1 || num(rows[0]["board_id"]) != seed.DemoBoardFM {
						t.Errorf("fm's boards: %d %v", total, rows)
					}
				}),
			api("the board read", fm, obj{"action": "read", "entity": "board", "id": nb}, 404, nil),
			api("the board filtered for", fm, obj{"action": "read-rich", "entity": "board", "count": true,
				"filter": []obj{{"field": "board_id", "op": "eq", "value": nb}}}, 200, onlyBoard(0, 0)),
			api("its ticket read", fm, obj{"action": "read", "entity": "ticket", "id": nbA}, 404, nil),
			api("its ticket's history", fm, obj{"action": "history", "entity": "ticket", "id": nbA}, 404, nil),
			api("the board's tickets tab", fm, obj{"action": "read-rich", "entity": "board_tickets_rel", "data": obj{"board_id": nb}, "count": true}, 404, nil),
			api("the board's columns tab", fm, obj{"action": "read-rich", "entity": "board_columnx_rel", "data": obj{"board_id": nb}}, 404, nil),
			api("filtered by the board", fm, obj{"action": "read-rich", "entity": "ticket", "count": true,
				"filter": []obj{{"field": "board_id", "op": "eq", "value": nb}}}, 200, onlyBoard(0, 0)),
			api("the point of sale's tickets tab", fm, obj{"action": "read-rich", "entity": "pos_ticket_rel", "data": obj{"pos_id": nbPos},
				"count": true, "per_page": 500}, 200, onlyBoard(seed.DemoBoardFM, posFM)),
			api("the tab as the administrator", admin, obj{"action": "read-rich", "entity": "pos_ticket_rel", "data": obj{"pos_id": nbPos},
				"count": true, "per_page": 500}, 200, onlyBoard(0, posNB)),
			api("the keyword search", fm, obj{"action": "read-rich", "entity": "ticket", "count": true, "filter_all": nbName, "per_page": 500}, 200,
				func(t *testing.T, r apptest.Response) {
					_, rows := apiRows(t, r)
					for _, row := range rows {
						if num(row["ticket_id"]) == nbA || num(row["board_id"]) == nb {
							t.Errorf("keyword %q finds ticket %v of board %v", nbName, row["ticket_id"], row["board_id"])
						}
					}
				}),
			api("the board choices of a ticket", fm, obj{"action": "options", "entity": "ticket", "field": "board_id", "per_page": 100}, 200,
				func(t *testing.T, r apptest.Response) {
					var ans struct {
						Data []struct {
							Value int64 `json:"value"`
						} `json:"data"`
					}
					r.JSON(t, &ans)
					if len(ans.Data) != 1 || ans.Data[0].Value != seed.DemoBoardFM {
						t.Errorf("fm is offered the boards %v", ans.Data)
					}
				}),
			api("the export", fm, obj{"action": "export", "entity": "ticket", "format": "csv"}, 200,
				func(t *testing.T, r apptest.Response) {
					records, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(r.Body, []byte("\ufeff")))).ReadAll()
					if err != nil {
						t.Fatal(err)
					}
					if int64(len(records)-1) != fmTickets {
						t.Errorf("export: %d rows, want %d", len(records)-1, fmTickets)
					}
					if bytes.Contains(r.Body, []byte("New Business")) {
						t.Errorf("the export names the new-business board")
					}
				}),
			api("the administrator reads the board", admin, obj{"action": "read", "entity": "board", "id": nb}, 200, nil),
			api("an MVM extern member reads the ticket", extMember, obj{"action": "read", "entity": "ticket", "id": nbA}, 200, nil),
		})
	})
}

// apiRows reads a generic list answer: {"data": {"data": [...], "total": n}}.
func apiRows(t *testing.T, r apptest.Response) (int64, []obj) {
	t.Helper()
	var out struct {
		Data struct {
			Data  []obj `json:"data"`
			Total int64 `json:"total"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &out); err != nil {
		t.Fatalf("decode a list answer: %v", err)
	}
	return out.Data.Total, out.Data.Data
}
