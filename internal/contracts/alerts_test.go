package contracts_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"portfolio/internal/contracts"
	"portfolio/internal/db"
	platformclock "portfolio/internal/platform/clock"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// clock is a settable now for the service under test.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// TestDeadlineDigests: who creates a deadline answers for it; the daily
// digest announces each deadline once per horizon it crosses, in the
// user's language, to a real SMTP server; a second run, or two runs at
// once, queue nothing more; a user who turned the digest off gets none.
func TestDeadlineDigests(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		clk := &clock{t: platformclock.Now().UTC()}
		svc := contracts.New(contracts.Deps{DB: d, Engine: ta.Engine, Outbox: ta.Outbox, Catalog: ta.Catalog, Principals: ta.Auth,
			PublicURL: "http://portfolio.test", Now: clk.now})
		if _, err := d.ExecContext(ctx, `INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
			SELECT user_id, 2, 1, 1, 1, 0 FROM users WHERE user_email = ?`, teamMember); err != nil {
			t.Fatal(err)
		}
		if _, err := d.ExecContext(ctx, `UPDATE users SET user_language = 'de' WHERE user_email = ?`, teamMember); err != nil {
			t.Fatal(err)
		}
		contract, _ := contractOf(t, d, 1)
		// A resiliation three months after a day 60 days away: its notice
		// date, by the product's rule, is that day or, when the resiliation
		// date is a month's last day, up to three days later: within 90 days.
		today := contracts.Day(clk.now())
		resiliation := contracts.AddMonths(today.AddDate(0, 0, 60), 3)
		notice := contracts.AddMonths(resiliation, -3)
		r := ta.Do("POST", "/api/", ta.Token(teamMember), obj{"action": "create", "entity": "contractaction", "data": obj{
			"contract_id": contract, "contractaction_acting_by": "mieter", "contractaction_type": "resiliation",
			"contractaction_resiliation_date":    resiliation.Format(time.DateOnly),
			"contractaction_notice_period_value": 3, "contractaction_notice_period_unit": "month"}})
		if r.Status != http.StatusCreated {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		created := written(t, r)
		if created["contractaction_notice_date"] != notice.Format(time.DateOnly) {
			t.Fatalf("notice date %v, want %s", created["contractaction_notice_date"], notice.Format(time.DateOnly))
		}
		if created["contractaction_responsible_user_id"] == nil {
			t.Fatalf("no responsible user: %v", created)
		}

		sent, err := svc.SendDeadlineDigests(ctx)
		if err != nil || sent != 1 {
			t.Fatalf("first digest: %d mails, %v", sent, err)
		}
		m := ta.SMTP.WaitFor(t, 10*time.Second, func(m testkit.Mail) bool { return slices.Contains(m.To, teamMember) })
		if !strings.Contains(m.Subject, "1 Frist braucht") || !strings.Contains(m.Text, "Kündigung") ||
			!strings.Contains(m.Text, "http://portfolio.test/app/table/contract/view/") {
			t.Fatalf("digest: %s\n%s", m.Subject, m.Text)
		}
		if again, err := svc.SendDeadlineDigests(ctx); err != nil || again != 0 {
			t.Fatalf("second run: %d mails, %v", again, err)
		}

		// When the notice date is 25 days away: the 30-day horizon,
		// announced once even by two runs at the same time.
		clk.add(notice.Sub(today) - 25*24*time.Hour)
		var wg sync.WaitGroup
		counts := make([]int, 2)
		for i := range counts {
			wg.Go(func() {
				n, err := svc.SendDeadlineDigests(ctx)
				if err != nil {
					t.Errorf("concurrent run: %v", err)
				}
				counts[i] = n
			})
		}
		wg.Wait()
		if counts[0]+counts[1] != 1 {
			t.Fatalf("two runs queued %v digests, want 1 in all", counts)
		}
		ta.SMTP.WaitFor(t, 10*time.Second, func(m testkit.Mail) bool {
			return slices.Contains(m.To, teamMember) && strings.Contains(m.Text, "(25 Tage)")
		})

		// Turned off: nothing at 7 days.
		ta.Run(t, []apptest.Scenario{
			{Name: "defaults", Method: "GET", Path: "/user/deadline-alerts", As: teamMember, Status: 200,
				Contains: []string{`"digest":true`, `"horizons":[90,30,7]`}},
			{Name: "no horizon", Method: "PUT", Path: "/user/deadline-alerts", As: teamMember, Status: 422,
				Body: obj{"digest": true, "horizons": []int{}}, Contains: []string{"horizons"}},
			{Name: "horizon too long", Method: "PUT", Path: "/user/deadline-alerts", As: teamMember, Status: 422,
				Body: obj{"digest": true, "horizons": []int{400}}},
			{Name: "unknown field", Method: "PUT", Path: "/user/deadline-alerts", As: teamMember, Status: 400,
				Body: obj{"digest": true, "horizons": []int{7}, "sms": true}},
			{Name: "turned off", Method: "PUT", Path: "/user/deadline-alerts", As: teamMember, Status: 200,
				Body: obj{"digest": false, "horizons": []int{7, 14}}, Contains: []string{`"digest":false`, `"horizons":[14,7]`}},
			{Name: "anonymous", Method: "GET", Path: "/user/deadline-alerts", Status: 401},
		})
		clk.add(20 * 24 * time.Hour)
		if n, err := svc.SendDeadlineDigests(ctx); err != nil || n != 0 {
			t.Fatalf("digest off: %d mails, %v", n, err)
		}
		mine := 0
		for _, m := range ta.SMTP.Mails() {
			if slices.Contains(m.To, teamMember) {
				mine++
			}
		}
		if mine != 2 {
			t.Fatalf("%d digests reached the team member, want 2", mine)
		}
	})
}
