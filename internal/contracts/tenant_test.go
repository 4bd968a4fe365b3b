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
		ta := apptest.NewApp(t, d)
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
