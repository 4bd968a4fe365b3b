package seed_test

import (
	"context"
	"testing"
	"time"

	"portfolio/internal/contracts"
	"portfolio/internal/db"
	platformclock "portfolio/internal/platform/clock"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestDemoDeadlines: after `seed --demo` the demo shows active deadlines
// with a responsible user whose notice dates fall within the next 30, 90
// and 365 days and one overdue, each notice date as the contracts module
// computes it, and one option exercised; running it again changes nothing
// more.
func TestDemoDeadlines(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		apptest.NewApp(t, d)
		ctx := context.Background()
		now := platformclock.Now()
		for range 2 {
			if err := seed.DemoDeadlines(ctx, d, now); err != nil {
				t.Fatal(err)
			}
		}
		today := contracts.Day(now)
		count := func(from, to int) int {
			t.Helper()
			var n int
			err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM contractaction WHERE contractaction_status = 'active'
				AND contractaction_responsible_user_id IS NOT NULL
				AND contractaction_notice_date >= ? AND contractaction_notice_date <= ?`,
				today.AddDate(0, 0, from).Format(time.DateOnly), today.AddDate(0, 0, to).Format(time.DateOnly)).Scan(&n)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		for _, w := range []struct{ from, to, want int }{{0, 30, 4}, {31, 90, 4}, {91, 365, 4}, {-30, -1, 1}} {
			if got := count(w.from, w.to); got != w.want {
				t.Errorf("responsible active deadlines %d to %d days ahead: %d, want %d", w.from, w.to, got, w.want)
			}
		}
		// Every planned notice date is the computed one.
		rows, err := d.QueryContext(ctx, `SELECT contractaction_resiliation_date, contractaction_notice_date FROM contractaction
			WHERE contractaction_responsible_user_id IS NOT NULL`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var res, notice string
			if err := rows.Scan(&res, &notice); err != nil {
				t.Fatal(err)
			}
			r, _ := time.Parse(time.DateOnly, res[:10])
			n, err := contracts.NoticeDate(contracts.Deadline{Type: contracts.TypeResiliation, ResiliationDate: &r,
				Notice: contracts.Period{Value: 3, Unit: contracts.UnitMonth}}, today)
			if err != nil || n.Date.Format(time.DateOnly) != notice[:10] {
				t.Errorf("resiliation %s: notice %s, computed %v (%v)", res, notice, n.Date, err)
			}
		}
		var quiet int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM contractaction WHERE contractaction_status IN ('unactive', 'stopped')`).
			Scan(&quiet); err != nil || quiet != 2 {
			t.Fatalf("%d deadlines not active (%v), want 2", quiet, err)
		}
		// One option exercised, twice run: its contract runs past its agreed
		// end to the end the option reached (decision 0064).
		var exercised int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM contractaction ca JOIN contract c ON c.contract_id = ca.contract_id
			WHERE ca.contractaction_options_exercised = 1 AND ca.contractaction_exercised_date <= ?
				AND c.contract_current_end_date = ca.contractaction_effective_date AND c.contract_current_end_date > c.contract_end_date`,
			today.Format(time.DateOnly)).Scan(&exercised); err != nil || exercised != 1 {
			t.Fatalf("%d exercised options moving their contract's end (%v), want 1", exercised, err)
		}
	})
}
