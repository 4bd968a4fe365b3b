package events_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// ended waits until the stream s ends, failing after within.
func (s *sse) ended(who string, within time.Duration) {
	s.t.Helper()
	deadline := time.After(within)
	for {
		select {
		case _, ok := <-s.events:
			if !ok {
				return
			}
		case <-deadline:
			s.t.Fatalf("%s: the stream is still open after %s", who, within)
		}
	}
}

// TestStreamsEndWithTheirSession: a session ends everywhere at once
// (issue 42). An open stream ends within about a second of the logout or
// the lock of its session, and a stream ticket issued before a logout
// opens nothing afterwards; the streams of other sessions stay open.
func TestStreamsEndWithTheirSession(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		bearer := func(token string) map[string]string { return map[string]string{"Authorization": "Bearer " + token} }

		// Logout: the stream of that session ends, another session's stays.
		mine, other := ta.Login(lead), ta.Login(lead)
		s1, _ := connect(t, ta, "", bearer(mine.AccessToken))
		s2, _ := connect(t, ta, "", bearer(other.AccessToken))
		var tk struct {
			Ticket string `json:"ticket"`
		}
		ta.Do("POST", "/events/ticket", mine.AccessToken, nil).JSON(t, &tk)
		if r := ta.Do("POST", "/logout", mine.AccessToken, nil); r.Status != 204 {
			t.Fatalf("logout: %d %s", r.Status, r.Body)
		}
		s1.ended("the logged-out session's stream", 3*time.Second)
		if _, status := connect(t, ta, "?ticket="+tk.Ticket, nil); status != 401 {
			t.Fatalf("a ticket issued before the logout opened a stream: %d", status)
		}
		// The other session still streams: a write reaches it.
		id, v := ticketOf(t, d, 1)
		if r := ta.Do("PUT", "/tickets/update", ta.Token(admin), obj{"ticket_id": id, "row_version": v, "ticket_name": "Noch offen"}); r.Status != 200 {
			t.Fatalf("update: %d %s", r.Status, r.Body)
		}
		s2.expect("the other session's stream", id, "update")

		// Lock: every stream of the user ends, whichever way it opened.
		ta.Do("POST", "/events/ticket", other.AccessToken, nil).JSON(t, &tk)
		s3, _ := connect(t, ta, "?ticket="+tk.Ticket, nil)
		var user int64
		if err := d.QueryRowContext(context.Background(), `SELECT user_id FROM users WHERE user_email = ?`, lead).Scan(&user); err != nil {
			t.Fatal(err)
		}
		if r := ta.Do("POST", fmt.Sprintf("/users/%d/lock", user), ta.Token(admin), nil); r.Status != 200 && r.Status != 204 {
			t.Fatalf("lock: %d %s", r.Status, r.Body)
		}
		ta.ForgetToken(lead)
		s2.ended("the locked user's bearer stream", 3*time.Second)
		s3.ended("the locked user's ticket stream", 3*time.Second)
	})
}

// TestStreamsEndWhenTheirUserChanges (issue 42): a stream holds what its
// user saw when it opened; moving the user to another customer group or
// changing their role ends it within a second, and the next stream, as
// the client opens it again, streams as the user is now.
func TestStreamsEndWhenTheirUserChanges(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		bearer := func(token string) map[string]string { return map[string]string{"Authorization": "Bearer " + token} }
		var user int64
		if err := d.QueryRowContext(ctx, `SELECT user_id FROM users WHERE user_email = ?`, leadB).Scan(&user); err != nil {
			t.Fatal(err)
		}
		exec := func(q string, args ...any) {
			if _, err := d.ExecContext(ctx, q, args...); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}

		moved, _ := connect(t, ta, "", bearer(ta.Token(leadB)))
		exec(`UPDATE users SET customergroup_id = 1 WHERE user_id = ?`, user)
		moved.ended("the stream of a user moved to another customer group", 3*time.Second)

		// Opened again after the move, the stream is the new group's.
		again, _ := connect(t, ta, "", bearer(ta.Token(leadB)))
		id, v := ticketOf(t, d, 1)
		if r := ta.Do("PUT", "/tickets/update", ta.Token(admin), obj{"ticket_id": id, "row_version": v, "ticket_name": "Umgezogen"}); r.Status != 200 {
			t.Fatalf("update: %d %s", r.Status, r.Body)
		}
		again.expect("the stream opened after the move", id, "update")

		exec(`UPDATE user_role SET role_id = (SELECT role_id FROM role WHERE role_code = 'store_manager') WHERE user_id = ?`, user)
		again.ended("the stream of a user whose role changed", 3*time.Second)
	})
}
