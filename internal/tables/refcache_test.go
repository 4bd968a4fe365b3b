package tables_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
)

// TestReferencedValuesTakeEffectOnNextRequest: the labels and names a
// ticket page shows of its priority, board, column, team and users come
// from memory (refcache.go). Every page must equal the same page read with
// those rows joined, on the very next request after a plain SQL write to a
// referenced row or to the ticket's own foreign key; a repeated page is
// answered from the cache, and a write to a table the values do not read
// keeps them cached.
func TestReferencedValuesTakeEffectOnNextRequest(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		exec := func(q string, args ...any) {
			t.Helper()
			mustExec(t, d, q, args...)
		}
		pages := []obj{
			{"entity": "ticket", "per_page": 20, "order_by": "ticket_id", "count": true},
			{"entity": "ticket", "per_page": 7, "current_page": 2, "order_by": "priority_id__label", "order_dir": "DESC", "count": true},
			{"entity": "ticket", "per_page": 10, "order_by": "pos_id__label", "count": true},
			{"entity": "ticket", "per_page": 10, "order_by": "user_id__label", "filter_all": "a"},
			{"entity": "ticket", "per_page": 5, "order_by": "ticket_id", "columns": []string{"ticket_id", "priority_id", "priority_id__label", "board_name"}},
			{"entity": "user", "per_page": 10, "order_by": "user_id", "count": true},
			{"entity": "contract", "per_page": 10, "order_by": "contract_name", "count": true},
		}
		// answer reads a page as a JSON text, its values from the cache or
		// joined.
		answer := func(as string, page obj, cached bool) string {
			t.Helper()
			if !cached {
				var out string
				tables.WithoutRefCache(e.Engine, func() { out = answer1(t, e, as, page) })
				return out
			}
			return answer1(t, e, as, page)
		}
		check := func(step string) {
			t.Helper()
			for _, as := range []string{"lead@demo.test", "admin@demo.test"} {
				for _, page := range pages {
					if page["entity"] == "user" && as != "admin@demo.test" {
						continue // the lead does not list users
					}
					joined := answer(as, page, false)
					first := answer(as, page, true)
					served, fetched := tables.RefsServed(e.Engine), tables.RefsFetched(e.Engine)
					second := answer(as, page, true)
					if first != joined || second != joined {
						t.Errorf("%s, %s, %v:\ncached %s\nthen   %s\njoined %s", step, as, page, first, second, joined)
					}
					if tables.RefsServed(e.Engine) == served || tables.RefsFetched(e.Engine) != fetched {
						t.Errorf("%s, %s, %v: the repeated page did not take its values from the cache", step, as, page)
					}
				}
			}
		}
		check("start")

		ticket := queryInt(t, d, `SELECT MIN(ticket_id) FROM ticket`)
		priority := queryInt(t, d, `SELECT priority_id FROM ticket WHERE ticket_id = ?`, ticket)
		exec(`UPDATE priority SET priority_name = 'Renamed priority' WHERE priority_id = ?`, priority)
		user := queryInt(t, d, `SELECT MIN(user_id) FROM users WHERE user_id IN (SELECT user_id FROM ticket)`)
		exec(`UPDATE users SET user_firstname = 'Renamed' WHERE user_id = ?`, user)
		exec(`UPDATE ticket SET team_id = NULL WHERE ticket_id = ?`, ticket)
		exec(`UPDATE ticket SET columnx_id = (SELECT MAX(columnx_id) FROM columnx) WHERE ticket_id = ?`, ticket)
		exec(`INSERT INTO priority (priority_name, priority_order, priority_smiley, priority_color) VALUES ('Brand-new priority', 99, '', '#000000')`)
		exec(`UPDATE ticket SET priority_id = (SELECT MAX(priority_id) FROM priority) WHERE ticket_id = ?`, ticket)
		check("after writes to referenced rows and to a ticket's keys")

		// The values stay cached across a write to a table they do not
		// read: the second page after it comes from the cache.
		page := pages[0]
		answer("lead@demo.test", page, true)
		exec(`UPDATE ticket SET ticket_name = ticket_name || '.' WHERE ticket_id = ?`, ticket)
		fetched := tables.RefsFetched(e.Engine)
		got := answer("lead@demo.test", page, true)
		if tables.RefsFetched(e.Engine) != fetched {
			t.Error("a ticket's new name made the page read its priorities, boards and users again")
		}
		joined := answer("lead@demo.test", page, false)
		if got != joined {
			t.Errorf("after a ticket's rename:\ncached %s\njoined %s", got, joined)
		}
		var a struct {
			Data []map[string]any `json:"data"`
		}
		if err := json.Unmarshal([]byte(got), &a); err != nil {
			t.Fatal(err)
		}
		first := a.Data[0]
		if fmt.Sprint(first["priority_id__label"], "|", first["priority_name"], "|", first["team_id__label"]) != "Brand-new priority|Brand-new priority|<nil>" {
			t.Errorf("ticket %d reads priority %v (%v), team %v; want the new priority and no team",
				ticket, first["priority_id__label"], first["priority_name"], first["team_id__label"])
		}
	})
}

// answer1 reads a page as the JSON text of its "data" member.
func answer1(t *testing.T, e *env, as string, page obj) string {
	t.Helper()
	body := obj{}
	for k, v := range page {
		body[k] = v
	}
	a := e.list(as, body)
	out, err := json.Marshal(a.Data)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
