package seed_test

import (
	"context"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestDemoPaymentLookups: the demo holds what a recurring payment needs
// (payment types, ledger accounts, both maturity types, tax rates of every
// demo company, document contract types), and seeding again adds nothing.
func TestDemoPaymentLookups(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		counts := func() map[string]int {
			t.Helper()
			got := map[string]int{}
			for _, table := range []string{"recurringpaymenttype", "sachkonto", "maturitytype", "taxrate", "documentcontracttype"} {
				var n int
				if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
					t.Fatal(err)
				}
				got[table] = n
			}
			return got
		}
		first := counts()
		for table, n := range first {
			if n == 0 {
				t.Errorf("no demo %s", table)
			}
		}
		var companies int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(DISTINCT company_id) FROM taxrate`).Scan(&companies); err != nil || companies != 3 {
			t.Errorf("tax rates of %d companies (%v), want the 3 demo companies", companies, err)
		}
		for _, id := range []int64{schema.MaturityFixedDate, schema.MaturityRanges} {
			var n int
			if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM maturitytype WHERE maturitytype_id = ?`, id).Scan(&n); err != nil || n != 1 {
				t.Errorf("maturity type %d: %d rows (%v)", id, n, err)
			}
		}
		if _, err := seed.Demo(ctx, ta.App); err != nil {
			t.Fatal(err)
		}
		for table, n := range counts() {
			if n != first[table] {
				t.Errorf("%s: %d rows after seeding again, %d before", table, n, first[table])
			}
		}
	})
}
