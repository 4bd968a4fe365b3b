package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"portfolio/internal/config"
	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestMetrics: /metrics on the main listener is unknown without a token,
// refuses a wrong one, and with the right one shows the requests by route
// pattern and status, the database pool, the job queue, the mail outbox
// (a failing mail counted as such) and the live event watchers, on both
// databases.
func TestMetrics(t *testing.T) {
	closed := apptest.NewApp(t, testkit.NewSQLite(t))
	if res := closed.Do("GET", "/metrics", "", nil); res.Status != http.StatusNotFound || !strings.Contains(string(res.Body), `"detail"`) {
		t.Fatalf("metrics without a token configured: %d %s", res.Status, res.Body)
	}
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		const token = "scrape-token-0123456789"
		ta := apptest.NewApp(t, d, func(c *config.Config) { c.MetricsToken = token })
		if res := ta.Do("GET", "/metrics", "", nil, "Authorization", "Bearer wrong"); res.Status != http.StatusUnauthorized {
			t.Fatalf("wrong token: %d", res.Status)
		}
		if res := ta.Do("GET", "/healthz", "", nil); res.Status != http.StatusOK {
			t.Fatal("healthz")
		}
		ta.Do("GET", "/tickets/slims?pos_id=1", "", nil) // 401: counted under its route
		now := time.Now().UTC()
		if _, err := d.ExecContext(context.Background(), `INSERT INTO mail_outbox (mail_from, mail_to, mail_subject, mail_text, created_at,
			next_attempt_at, mail_attempts, mail_error) VALUES ('a@example.com', 'b@example.com', 'S', 'T', ?, ?, 2, 'refused')`,
			now, now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		res := ta.Do("GET", "/metrics", "", nil, "Authorization", "Bearer "+token)
		if res.Status != http.StatusOK {
			t.Fatalf("metrics: %d %s", res.Status, res.Body)
		}
		for _, want := range []string{
			`portfolio_http_requests_total{route="GET /healthz",status="200"} 1`,
			`portfolio_http_requests_total{route="GET /tickets/slims",status="401"} 1`,
			`portfolio_http_request_duration_seconds_bucket{route="GET /healthz"`,
			`go_sql_max_open_connections{db_name="portfolio"}`,
			`portfolio_mail_outbox{state="failing"} 1`,
			`portfolio_event_watchers 0`,
			`go_goroutines`,
		} {
			if !strings.Contains(string(res.Body), want) {
				t.Errorf("metrics lack %s", want)
			}
		}
		if !strings.Contains(string(res.Body), "# HELP portfolio_jobs ") {
			t.Error("metrics lack the job queue")
		}
	})
}
