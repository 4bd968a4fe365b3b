package errorboard_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/jobs"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

const (
	admin      = "admin@demo.test"
	teamLead   = "team_lead@demo.test"
	teamMember = "team_member@demo.test"
	lead       = "lead@demo.test"
)

type board struct {
	Jobs []struct {
		ID    int64
		Name  string
		Error string
	}
	Mails []struct {
		ID      int64
		To      string
		GivenUp bool `json:"given_up"`
		Error   string
	}
	Responses []struct {
		ID        int64
		RequestID string `json:"request_id"`
		Route     string
		Status    int
		Message   string
	}
}

func getBoard(t *testing.T, ta *apptest.TestApp, user string) board {
	t.Helper()
	r := ta.Do("GET", "/backoffice/errors", ta.Token(user), nil)
	if r.Status != 200 {
		t.Fatalf("%s: GET /backoffice/errors: %d %s", user, r.Status, r.Body)
	}
	var b board
	r.JSON(t, &b)
	return b
}

// TestErrorBoard: a failed answer is recorded with its request id and
// cause (which the caller never sees), a failed job run and an undelivered
// mail are listed; each can be dismissed once, the run and the mail
// retried (the mail then reaches the SMTP server); only administrators and
// team leads open the board.
func TestErrorBoard(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		// A queue of its own on the same database runs the failing job (the
		// app's queue is in use, so it takes no new job).
		failing := jobs.New(d, slog.New(slog.DiscardHandler), jobs.Options{})
		if err := failing.Register(jobs.Job{Name: "always_fails", MaxAttempts: 1,
			Work: func(context.Context) error { return errors.New("the disk is on fire") }}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(failing.Close)
		ta.Server.Handle("GET /backoffice/boom", func(http.ResponseWriter, *http.Request) error {
			return errors.New("boom: a detail for administrators only")
		})

		// A failed answer.
		r := ta.Do("GET", "/backoffice/boom", ta.Token(admin), nil)
		if r.Status != 500 || strings.Contains(string(r.Body), "administrators only") {
			t.Fatalf("boom: %d %s", r.Status, r.Body)
		}
		requestID := r.Header.Get("X-Request-Id")
		// A failed job run.
		if _, err := failing.RunNow(ctx, "always_fails"); err == nil {
			t.Fatal("always_fails succeeded")
		}
		// Two undelivered mails: one given up, one still retrying.
		for i, attempts := range []int{8, 2} {
			if _, err := d.ExecContext(ctx, `INSERT INTO mail_outbox (mail_from, mail_to, mail_subject, mail_text, created_at,
				next_attempt_at, mail_attempts, mail_error) VALUES ('portfolio@demo.test', ?, ?, 'Hello', ?, ?, ?, '550 mailbox unavailable')`,
				fmt.Sprintf("bounce%d@example.test", i), fmt.Sprintf("Undelivered %d", i), time.Now().UTC(), time.Now().UTC().Add(time.Hour), attempts); err != nil {
				t.Fatal(err)
			}
		}

		b := getBoard(t, ta, teamLead)
		if len(b.Responses) == 0 || b.Responses[0].RequestID != requestID || b.Responses[0].Status != 500 ||
			b.Responses[0].Route != "GET /backoffice/boom" || !strings.Contains(b.Responses[0].Message, "administrators only") {
			t.Errorf("responses: %+v, want request %s", b.Responses, requestID)
		}
		if len(b.Jobs) != 1 || b.Jobs[0].Name != "always_fails" || !strings.Contains(b.Jobs[0].Error, "on fire") {
			t.Errorf("jobs: %+v", b.Jobs)
		}
		if len(b.Mails) != 2 || !b.Mails[1].GivenUp || b.Mails[0].GivenUp {
			t.Fatalf("mails: %+v", b.Mails)
		}

		for _, user := range []string{teamMember, lead} {
			if r := ta.Do("GET", "/backoffice/errors", ta.Token(user), nil); r.Status != 403 {
				t.Errorf("%s opens the error board: %d", user, r.Status)
			}
			if r := ta.Do("POST", fmt.Sprintf("/backoffice/errors/responses/%d/dismiss", b.Responses[0].ID), ta.Token(user), nil); r.Status != 403 {
				t.Errorf("%s dismisses: %d", user, r.Status)
			}
		}

		dismiss := func(source string, id int64, want int) {
			t.Helper()
			if r := ta.Do("POST", fmt.Sprintf("/backoffice/errors/%s/%d/dismiss", source, id), ta.Token(admin), nil); r.Status != want {
				t.Errorf("dismiss %s %d: %d %s, want %d", source, id, r.Status, r.Body, want)
			}
		}
		dismiss("responses", b.Responses[0].ID, 204)
		dismiss("responses", b.Responses[0].ID, 404)
		dismiss("mails", b.Mails[0].ID, 204)
		dismiss("mails", b.Mails[0].ID, 404)
		dismiss("nonsense", 1, 404)

		// The given-up mail is retried and delivered by the real SMTP server.
		if r := ta.Do("POST", fmt.Sprintf("/backoffice/errors/mails/%d/retry", b.Mails[1].ID), ta.Token(admin), nil); r.Status != 204 {
			t.Fatalf("retry mail: %d %s", r.Status, r.Body)
		}
		ta.SMTP.WaitFor(t, 10*time.Second, func(m testkit.Mail) bool { return m.Subject == "Undelivered 0" })
		if r := ta.Do("POST", fmt.Sprintf("/backoffice/errors/responses/%d/retry", b.Responses[0].ID), ta.Token(admin), nil); r.Status != 404 {
			t.Errorf("retry a response: %d", r.Status)
		}
		// The failed run is made available again: no longer failed.
		if r := ta.Do("POST", fmt.Sprintf("/backoffice/errors/jobs/%d/retry", b.Jobs[0].ID), ta.Token(admin), nil); r.Status != 204 {
			t.Fatalf("retry job: %d %s", r.Status, r.Body)
		}
		dismiss("jobs", b.Jobs[0].ID, 404)

		after := getBoard(t, ta, admin)
		if len(after.Jobs) != 0 || len(after.Responses) != 0 {
			t.Errorf("after: jobs %+v, responses %+v", after.Jobs, after.Responses)
		}
		deadline := time.Now().Add(10 * time.Second)
		for len(after.Mails) != 0 && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond) // the deliverer marks the mail sent after the SMTP server took it
			after = getBoard(t, ta, admin)
		}
		if len(after.Mails) != 0 {
			t.Errorf("after: mails %+v", after.Mails)
		}
	})
}
