package seed_test

import (
	"context"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestDemoConditions: after `seed --demo` the first six contracts of each
// demo customer group have conditions (three each, and a deposit on every
// other one), choices where the criterion offers them and a value only on
// criteria 1 and 39; running it again adds nothing.
func TestDemoConditions(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		apptest.NewApp(t, d)
		ctx := context.Background()
		for range 2 {
			if err := seed.DemoConditions(ctx, d); err != nil {
				t.Fatal(err)
			}
		}
		for _, group := range []int64{1, 2} {
			var rows, contracts int
			if err := d.QueryRowContext(ctx, `SELECT COUNT(*), COUNT(DISTINCT cc.contract_id) FROM contract_criteria cc
				JOIN contract c ON c.contract_id = cc.contract_id JOIN company co ON co.company_id = c.company_id
				WHERE co.customergroup_id = ?`, group).Scan(&rows, &contracts); err != nil {
				t.Fatal(err)
			}
			if contracts != 6 || rows != 6*3+3 {
				t.Errorf("customer group %d: %d conditions on %d contracts, want 21 on 6", group, rows, contracts)
			}
		}
		var wrong int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM contract_criteria
			WHERE (value IS NOT NULL) <> (criteria_id IN (1, 39)) OR (choice_id IS NULL) <> (criteria_id IN (1, 39))`).Scan(&wrong); err != nil {
			t.Fatal(err)
		}
		if wrong != 0 {
			t.Errorf("%d conditions with a value off criteria 1 and 39, or without their choice", wrong)
		}
	})
}
