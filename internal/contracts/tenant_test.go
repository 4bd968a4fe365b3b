package contracts_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestEveryPathStaysInItsTenant: every contract call that names a contract
// of customer group 1, made by lead.b@ (customer group 2, every table
// right and the contract tabs), answers byte for byte as for a missing
// contract (404, or 403 where the lead role may not act at all), and
// changes nothing.
func TestEveryPathStaysInItsTenant(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := d.ExecContext(ctx, q, args...); err != nil {
				t.Fatal(err)
			}
		}
		exec(`DELETE FROM user_tablegroup WHERE user_id = (SELECT user_id FROM users WHERE user_email = ?)`, leadB)
		exec(`INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
			SELECT u.user_id, g.tablegroup_id, 1, 1, 1, 1 FROM users u, tablegroup g WHERE u.user_email = ?`, leadB)
		for _, rel := range []string{"contract_document_rel", "contract_recurring_payment_rel"} {
			exec(`INSERT INTO access (access_kind, access_subject, access_action, role_code, access_teams, access_options)
				VALUES ('table', ?, 'update', 'lead', '', '')`, rel)
		}
		ta := apptest.NewAppOn(t, d)
		foreign, version := contractOf(t, d, 1)
		const missing = int64(999999)
		calls := []struct {
			method string
			path   func(id int64) string
			body   func(id int64) any
		}{
			{"GET", func(id int64) string { return fmt.Sprintf("/contracts/%d", id) }, nil},
			{"PUT", func(id int64) string { return fmt.Sprintf("/contracts/step/0/%d", id) }, func(int64) any {
				return obj{"row_version": version, "contract_name": "Taken"}
			}},
			{"POST", func(int64) string { return "/contracts/step/2" }, func(id int64) any {
				return obj{"contract_id": id, "recurringpayments": []obj{}}
			}},
			{"PUT", func(int64) string { return "/contracts/step/2" }, func(id int64) any {
				return obj{"contract_id": id, "recurringpayments": []obj{}}
			}},
			{"POST", func(int64) string { return "/contracts/step/7" }, func(id int64) any {
				return obj{"contract_id": id, "documentsobjects": []obj{}}
			}},
		}
		token := ta.Token(leadB)
		for _, c := range calls {
			var foreignBody, missingBody any
			if c.body != nil {
				foreignBody, missingBody = c.body(foreign), c.body(missing)
			}
			got := ta.Do(c.method, c.path(foreign), token, foreignBody)
			absent := ta.Do(c.method, c.path(missing), token, missingBody)
			// A lead may not change contracts at all (403 for both, which
			// tells nothing either); every other call answers 404.
			if (got.Status != 404 && got.Status != 403) || got.Status != absent.Status || !bytes.Equal(got.Body, absent.Body) {
				t.Errorf("%s %s: another tenant's contract answers %d %s, a missing one %d %s", c.method, c.path(foreign),
					got.Status, got.Body, absent.Status, absent.Body)
			}
		}
		var n int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM contract WHERE contract_name = 'Taken'`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("a refused call wrote %d contracts (%v)", n, err)
		}
	})
}

// TestDeadlineListStaysInItsTenant: GET /contracts/deadlines shows an
// external lead every deadline of the contracts of the lead's own customer
// group and nothing of another group, whatever the window or the page.
func TestDeadlineListStaysInItsTenant(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		// lead@ belongs to the group of company 1, lead.b@ to that of company 3.
		for user, company := range map[string]int64{lead: 1, leadB: 3} {
			own := map[int64]bool{}
			rows, err := d.QueryContext(ctx, `SELECT a.contractaction_id FROM contractaction a JOIN contract c ON c.contract_id = a.contract_id
				JOIN company co ON co.company_id = c.company_id
				WHERE co.customergroup_id = (SELECT customergroup_id FROM company WHERE company_id = ?)`, company)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					t.Fatal(err)
				}
				own[id] = true
			}
			rows.Close()
			if len(own) == 0 || int64(len(own)) == count(t, d, `SELECT COUNT(*) FROM contractaction`) {
				t.Fatalf("%s: %d own deadlines: nothing to test", user, len(own))
			}
			token := ta.Token(user)
			for _, query := range []string{"?per_page=500", "?per_page=500&order=desc", "?from=2000-01-01&to=2100-12-31&per_page=500",
				"?per_page=500&order_by=contract_id__label&status=active,unactive,cancelled,pulled,stopped"} {
				r := ta.Do("GET", "/contracts/deadlines"+query, token, nil)
				if r.Status != 200 {
					t.Fatalf("%s %s: %d %s", user, query, r.Status, r.Body)
				}
				l := decodeDeadlines(t, r)
				seen := 0
				for _, row := range l.Data {
					if !own[row.ID] {
						t.Fatalf("%s %s: deadline %d of another customer group (contract %d)", user, query, row.ID, row.ContractID)
					}
					seen++
				}
				if seen != len(own) || l.Links.Pagination.Total != int64(len(own)) {
					t.Fatalf("%s %s: %d rows, total %d; want all %d own deadlines", user, query, seen, l.Links.Pagination.Total, len(own))
				}
			}
		}
	})
}
