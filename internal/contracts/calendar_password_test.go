package contracts_test

import (
	"net/http"
	"net/url"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestCalendarLinkEndsWithThePassword: a calendar program subscribed with
// the old password's link reads nothing once the password changed (issue
// 42); the user makes a new link, which works.
func TestCalendarLinkEndsWithThePassword(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		token := ta.Login(leadB).AccessToken
		link := func() string {
			t.Helper()
			var l struct{ URL string }
			r := ta.Do("POST", "/user/calendar", token, nil)
			if r.Status != http.StatusOK {
				t.Fatalf("create link: %d %s", r.Status, r.Body)
			}
			r.JSON(t, &l)
			u, err := url.Parse(l.URL)
			if err != nil {
				t.Fatal(err)
			}
			return u.Path
		}
		old := link()
		if r := ta.Do("GET", old, "", nil); r.Status != http.StatusOK {
			t.Fatalf("feed before: %d %s", r.Status, r.Body)
		}
		if r := ta.Do("PUT", "/user/password", token, map[string]string{"old_password": seed.DemoPassword, "new_password": "Another-pass-42"}); r.Status != http.StatusOK {
			t.Fatalf("change password: %d %s", r.Status, r.Body)
		}
		if r := ta.Do("GET", old, "", nil); r.Status != http.StatusNotFound {
			t.Fatalf("the old link after the password change: %d, want 404", r.Status)
		}
		if r := ta.Do("GET", link(), "", nil); r.Status != http.StatusOK {
			t.Fatalf("a new link: %d %s", r.Status, r.Body)
		}
	})
}
