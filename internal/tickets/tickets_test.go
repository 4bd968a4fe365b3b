package tickets_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"portfolio/internal/db"
	platformclock "portfolio/internal/platform/clock"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

type obj = map[string]any

const (
	admin      = "admin@demo.test"
	teamMember = "team_member@demo.test"
	lead       = "lead@demo.test"   // director, customer group 1
	leadB      = "lead.b@demo.test" // director, customer group 2
	extMember  = "ext_team_member@demo.test"
	fm         = "fm@demo.test"
)

// posOf is the first point of sale of customer group g.
func posOf(t *testing.T, d *db.DB, g int64) int64 {
	t.Helper()
	var id int64
	if err := d.QueryRowContext(context.Background(), `SELECT MIN(pos.pos_id) FROM pos JOIN company ON company.company_id = pos.company_id
		WHERE company.customergroup_id = ?`, g).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// ticketOf is a ticket of customer group g on board b.
func ticketOf(t *testing.T, d *db.DB, g, b int64) (id, version int64) {
	t.Helper()
	if err := d.QueryRowContext(context.Background(), `SELECT ticket.ticket_id, ticket.row_version FROM ticket
		JOIN pos ON pos.pos_id = ticket.pos_id JOIN company ON company.company_id = pos.company_id
		WHERE company.customergroup_id = ? AND ticket.board_id = ? AND ticket.columnx_id IN (1, 6) ORDER BY ticket.ticket_id LIMIT 1`, g, b).Scan(&id, &version); err != nil {
		t.Fatal(err)
	}
	return id, version
}

// written decodes {"data": {...}}.
func written(t *testing.T, r apptest.Response) obj {
	t.Helper()
	var out struct {
		Data obj `json:"data"`
	}
	r.JSON(t, &out)
	return out.Data
}

func num(v any) int64 { f, _ := v.(float64); return int64(f) }

func day(days int) string {
	return platformclock.Now().UTC().AddDate(0, 0, days).Format("2006-01-02 15:04:05")
}

// TestTicketRules: defaults and deadlines of a new ticket, the refusals of
// bad deadlines and columns, quality gates, stamps, column teams and the
// timeline, through POST /tickets, PUT /tickets/update and the generic API.
func TestTicketRules(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		posA, posB := posOf(t, d, 1), posOf(t, d, 2)
		base := obj{"ticket_name": "Tür klemmt", "pos_id": posA, "priority_id": 1, "board_id": seed.DemoBoardFM, "columnx_id": 1}
		with := func(kv ...any) obj {
			out := obj{}
			for k, v := range base {
				out[k] = v
			}
			for i := 0; i+1 < len(kv); i += 2 {
				out[kv[i].(string)] = kv[i+1]
			}
			return out
		}
		var created obj
		before := platformclock.Now().UTC().Truncate(time.Second)
		ta.Run(t, []apptest.Scenario{
			{Name: "create with defaults", Method: "POST", Path: "/tickets", As: admin, Body: base, Status: 201,
				Contains: []string{`"ticket_progress":10`, `"ticket_deadline_status":"before_deadline"`, `"column_name":"Neu"`},
				Check:    func(t *testing.T, r apptest.Response) { created = written(t, r) }},
			{Name: "deadline before today", Method: "POST", Path: "/tickets", As: admin, Status: 422,
				Body: with("ticket_yellow_deadline", day(-2), "ticket_red_deadline", day(3)), Contains: []string{`"loc":["body","ticket_yellow_deadline"]`}},
			{Name: "red before yellow", Method: "POST", Path: "/tickets", As: admin, Status: 422,
				Body: with("ticket_yellow_deadline", day(5), "ticket_red_deadline", day(3)), Contains: []string{`"loc":["body","ticket_red_deadline"]`}},
			{Name: "column of another board", Method: "POST", Path: "/tickets", As: admin, Status: 422,
				Body: with("columnx_id", 7), Contains: []string{`"loc":["body","columnx_id"]`, `"not_available"`}},
			{Name: "column that does not exist", Method: "POST", Path: "/tickets", As: admin, Status: 422,
				Body: with("columnx_id", 9999), Contains: []string{`"loc":["body","columnx_id"]`}},
			{Name: "created into a quality gate without documents", Method: "POST", Path: "/tickets", As: admin, Status: 422,
				Body: with("columnx_id", 3), Contains: []string{`"loc":["body","columnx_id"]`, "Übergabeprotokoll"}},
			{Name: "point of sale of another customer group", Method: "POST", Path: "/tickets", As: lead, Status: 422,
				Body: with("pos_id", posB), Contains: []string{`"loc":["body","pos_id"]`}},
			{Name: "the generic create follows the same rules", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body: obj{"action": "create", "entity": "ticket", "data": with("columnx_id", 7)}, Contains: []string{`"loc":["body","columnx_id"]`}},
			{Name: "only yellow given", Method: "POST", Path: "/tickets", As: admin, Status: 201,
				Body: with("ticket_yellow_deadline", day(2)), Check: func(t *testing.T, r apptest.Response) {
					got := written(t, r)
					y, _ := time.Parse(time.RFC3339, fmt.Sprint(got["ticket_yellow_deadline"]))
					rd, _ := time.Parse(time.RFC3339, fmt.Sprint(got["ticket_red_deadline"]))
					if rd.Sub(y) != 16*time.Hour { // the FM board's red hours
						t.Errorf("red %v - yellow %v = %v, want 16h", rd, y, rd.Sub(y))
					}
				}},
		})
		// Deadlines from the FM board's default values: yellow 8 h after
		// now, red 16 h after yellow.
		y, err := time.Parse(time.RFC3339, fmt.Sprint(created["ticket_yellow_deadline"]))
		if err != nil {
			t.Fatalf("yellow deadline %v: %v", created["ticket_yellow_deadline"], err)
		}
		rd, _ := time.Parse(time.RFC3339, fmt.Sprint(created["ticket_red_deadline"]))
		if d := y.Sub(before); d < 8*time.Hour || d > 8*time.Hour+time.Minute {
			t.Errorf("yellow deadline %v is %v after the create, want 8h", y, d)
		}
		if rd.Sub(y) != 16*time.Hour {
			t.Errorf("red deadline %v, want 16h after yellow %v", rd, y)
		}
		id, version := num(created["ticket_id"]), num(created["row_version"])
		move := func(name string, col int64, v int64, status int, contains ...string) apptest.Scenario {
			return apptest.Scenario{Name: name, Method: "PUT", Path: "/tickets/update", As: admin, Status: status,
				Body: obj{"ticket_id": id, "row_version": v, "columnx_id": col}, Contains: contains}
		}
		ta.Run(t, []apptest.Scenario{
			move("move into the column of FM", 2, version, 200, `"columnx_id":2`, fmt.Sprintf(`"team_id":%d`, seed.TeamFM)),
			move("stale move", 1, version, 409, `"stale"`),
			move("move to a column of another board", 7, version+1, 422, `"loc":["body","columnx_id"]`),
			move("quality gate without documents", 3, version+1, 422, "Übergabeprotokoll"),
			{Name: "missing ticket_id", Method: "PUT", Path: "/tickets/update", As: admin, Status: 422, Body: obj{"row_version": 1},
				Contains: []string{`"ticket_id"`}},
			{Name: "missing ticket", Method: "PUT", Path: "/tickets/update", As: admin, Status: 404, Body: obj{"ticket_id": 99999999, "row_version": 1}},
		})
		// A handover protocol on the ticket opens the quality gate.
		if _, err := d.ExecContext(context.Background(), `INSERT INTO document (document_name, document_mime_type, documenttype_id, document_file, document_size)
			VALUES ('Protokoll', 'application/pdf', 2, 'x', 1)`); err != nil {
			t.Fatal(err)
		}
		if _, err := d.ExecContext(context.Background(), `INSERT INTO ticket_document (ticket_id, document_id) SELECT ?, MAX(document_id) FROM document`, id); err != nil {
			t.Fatal(err)
		}
		ta.Run(t, []apptest.Scenario{
			move("quality gate with the documents", 3, version+1, 200, `"column_name":"Qualitätsprüfung"`),
			move("into the stamp column", 4, version+2, 200, fmt.Sprintf(`"team_id":%d`, seed.TeamMVM)),
			{Name: "the timeline", Method: "POST", Path: "/api/", As: admin, Status: 200,
				Body:     obj{"action": "history", "entity": "ticket", "id": id},
				Contains: []string{`"trackrecord_type":"move"`, `"trackrecord_status":"Freigabe"`, `"trackrecord_type":"stamp"`, "Neu → In Bearbeitung"}},
		})
	})
}

// TestTicketTenant: another customer group's ticket answers 404 like a
// missing one, for every call.
func TestTicketTenant(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		// lead may change tickets (crud flags on the tickets table group),
		// but only those of customer group 1.
		if _, err := d.ExecContext(context.Background(), `INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
			SELECT user_id, 4, 1, 1, 1, 0 FROM users WHERE user_email = ?`, lead); err != nil {
			t.Fatal(err)
		}
		posB := posOf(t, d, 2)
		idB, vB := ticketOf(t, d, 2, seed.DemoBoardFM)
		ta.Run(t, []apptest.Scenario{
			{Name: "move of another tenant's ticket", Method: "PUT", Path: "/tickets/update", As: lead, Status: 404,
				Body: obj{"ticket_id": idB, "row_version": vB, "ticket_name": "x"}},
			{Name: "slims of another tenant's point of sale", Method: "GET", Path: fmt.Sprintf("/tickets/slims?pos_id=%d", posB), As: lead, Status: 404},
			{Name: "the list shows no other tenant's tickets", Method: "GET", Path: "/tickets?per_page=100", As: lead, Status: 200,
				Check: func(t *testing.T, r apptest.Response) {
					if strings.Contains(string(r.Body), fmt.Sprintf(`"ticket_id":%d,`, idB)) {
						t.Errorf("lead sees ticket %d of customer group 2", idB)
					}
				}},
			{Name: "the owner sees it", Method: "GET", Path: fmt.Sprintf("/tickets/slims?pos_id=%d", posB), As: leadB, Status: 200,
				Contains: []string{fmt.Sprintf(`"ticket_id":%d`, idB)}},
		})
	})
}

// listTotal is the total of a custom list answer.
func listTotal(t *testing.T, r apptest.Response) (int64, []obj) {
	t.Helper()
	var out struct {
		Data  []obj `json:"data"`
		Links struct {
			Pagination struct {
				Total int64 `json:"total"`
			} `json:"pagination"`
		} `json:"links"`
	}
	r.JSON(t, &out)
	return out.Links.Pagination.Total, out.Data
}

// TestTicketLists: the slims of a point of sale (with the section 6 limit),
// the kanban boards and the filters of the ticket list.
func TestTicketLists(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		count := func(where string, args ...any) int64 {
			t.Helper()
			var n int64
			if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM ticket WHERE `+where, args...).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		var adminID int64
		if err := d.QueryRowContext(ctx, `SELECT user_id FROM users WHERE user_email = ?`, admin).Scan(&adminID); err != nil {
			t.Fatal(err)
		}
		var memberID int64
		if err := d.QueryRowContext(ctx, `SELECT user_id FROM users WHERE user_email = ?`, extMember).Scan(&memberID); err != nil {
			t.Fatal(err)
		}
		now := platformclock.Now().UTC()
		total := count("1 = 1")
		if total < 28 {
			t.Fatalf("demo tickets: %d", total)
		}
		want := map[string]int64{
			"":                                      total,
			"?status=opened":                        count("ticket_closed = 0"),
			"?status=closed":                        count("ticket_closed = 1"),
			"?status=not_assigned":                  count("ticket_closed = 0 AND user_id IS NULL"),
			"?status=my_tickets":                    count("user_id = ? OR ticket_created_by = ?", adminID, adminID),
			"?status=done":                          count("ticket_progress >= 100"),
			"?deadline_status=over_due_red":         count("ticket_closed = 0 AND ticket_red_deadline <= ?", now),
			"?deadline_status=before_deadline":      count("ticket_closed = 0 AND ticket_yellow_deadline > ?", now),
			"?update_type=not_update_ticket":        count("ticket_updated = 0"),
			"?update_type=update_ticket":            count("ticket_updated = 1"),
			"?source=own":                           count("ticket_created_by = ?", adminID),
			"?source=customer":                      count("ticket_created_by <> ?", adminID),
			"?board_id=2":                           count("board_id = 2"),
			"?board_id=1&status=opened":             count("board_id = 1 AND ticket_closed = 0"),
			"?pos_id=" + fmt.Sprint(posOf(t, d, 2)): count("pos_id = ?", posOf(t, d, 2)),
			"?keyword=Heizung":                      count("ticket_name LIKE '%Heizung%'"),
		}
		var scenarios []apptest.Scenario
		for q, n := range want {
			path := "/tickets" + q
			if strings.Contains(path, "?") {
				path += "&per_page=100"
			} else {
				path += "?per_page=100"
			}
			scenarios = append(scenarios, apptest.Scenario{Name: "list " + q, Method: "GET", Path: path, As: admin, Status: 200,
				Check: func(t *testing.T, r apptest.Response) {
					if got, _ := listTotal(t, r); got != n {
						t.Errorf("%s: %d tickets, want %d", q, got, n)
					}
				}})
		}
		for _, bad := range []string{"status=x", "deadline_status=green", "update_type=x", "source=partner", "board_id=x"} {
			scenarios = append(scenarios, apptest.Scenario{Name: "bad filter " + bad, Method: "GET", Path: "/tickets?" + bad, As: admin, Status: 422})
		}
		ta.Run(t, scenarios)

		posA := posOf(t, d, 1)
		ta.Run(t, []apptest.Scenario{
			{Name: "slims without pos_id: the caller's own tickets", Method: "GET", Path: "/tickets/slims?per_page=500", As: admin, Status: 200,
				Check: func(t *testing.T, r apptest.Response) {
					var adminID int64
					if err := d.QueryRowContext(ctx, `SELECT user_id FROM users WHERE user_email = ?`, admin).Scan(&adminID); err != nil {
						t.Fatal(err)
					}
					want, all := count("user_id = ? OR ticket_created_by = ?", adminID, adminID), count("1 = 1")
					got, rows := listTotal(t, r)
					if got != want || want == 0 || want == all {
						t.Fatalf("admin's own tickets: %d, want %d (of %d)", got, want, all)
					}
					for _, k := range []string{"pos_id", "ticket_description", "contract_id"} {
						if _, ok := rows[0][k]; !ok {
							t.Errorf("a slim row lacks %s: %v", k, rows[0])
						}
					}
				}},
			{Name: "slims without pos_id are paged", Method: "GET", Path: "/tickets/slims?per_page=2&page=2", As: admin, Status: 200,
				Contains: []string{`"current_page":2`},
				Check: func(t *testing.T, r apptest.Response) {
					want := count("user_id = ? OR ticket_created_by = ?", adminID, adminID)
					got, rows := listTotal(t, r)
					if got != want || want < 4 || len(rows) != 2 {
						t.Fatalf("page 2 of 2: %d rows of %d, want 2 of %d (own tickets)", len(rows), got, want)
					}
					for _, row := range rows {
						for _, k := range []string{"pos_id", "ticket_description", "contract_id"} {
							if _, ok := row[k]; !ok {
								t.Errorf("a slim row lacks %s: %v", k, row)
							}
						}
					}
				}},
			{Name: "slims: a bad pos_id", Method: "GET", Path: "/tickets/slims?pos_id=x", As: admin, Status: 422, Contains: []string{`"loc":["query","pos_id"]`}},
			{Name: "slims of a point of sale", Method: "GET", Path: fmt.Sprintf("/tickets/slims?pos_id=%d", posA), As: lead, Status: 200,
				Check: func(t *testing.T, r apptest.Response) {
					if got, _ := listTotal(t, r); got != count("pos_id = ?", posA) {
						t.Errorf("director sees %d tickets of the point of sale, want all %d", got, count("pos_id = ?", posA))
					}
				}},
			{Name: "section 6: a non-director external user sees internal teams' and own tickets", Method: "GET",
				Path: fmt.Sprintf("/tickets/slims?pos_id=%d", posA), As: extMember, Status: 200,
				Check: func(t *testing.T, r apptest.Response) {
					want := count(`pos_id = ? AND (team_id IN (SELECT team_id FROM team WHERE team_type = 'intern')
						OR user_id = ? OR ticket_created_by = ?)`, posA, memberID, memberID)
					all := count("pos_id = ?", posA)
					if got, _ := listTotal(t, r); got != want || want == all {
						t.Errorf("external member sees %d tickets, want %d (of %d)", got, want, all)
					}
				}},
			{Name: "kanban boards with their columns", Method: "GET", Path: "/tickets/kanban/user", As: fm, Status: 200,
				Contains: []string{`"board_name":"Facility Management"`, `"columnx_name":"Qualitätsprüfung","rank_order":3,"is_qualitygate":true`}},
			{Name: "list needs a login", Method: "GET", Path: "/tickets", Status: 401},
			{Name: "kanban needs the read right on boards", Method: "GET", Path: "/tickets/kanban/user", As: "lawyer@demo.test", Status: 403},
			{Name: "update needs the update right", Method: "PUT", Path: "/tickets/update", As: "lawyer@demo.test", Status: 403,
				Body: obj{"ticket_id": 1, "row_version": 1, "ticket_name": "x"}},
			{Name: "a partner user sees no customer's tickets", Method: "GET", Path: "/tickets", As: "partner@demo.test", Status: 200,
				Check: func(t *testing.T, r apptest.Response) {
					if got, _ := listTotal(t, r); got != 0 {
						t.Errorf("partner sees %d tickets", got)
					}
				}},
			{Name: "a partner user cannot create a customer's ticket", Method: "POST", Path: "/tickets", As: "partner@demo.test", Status: 422,
				Body: obj{"ticket_name": "x", "pos_id": posA, "priority_id": 1, "board_id": 1, "columnx_id": 1}, Contains: []string{`"loc":["body","pos_id"]`}},
		})
	})
}
