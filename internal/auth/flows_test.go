package auth_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/platform/mailer"
	"portfolio/internal/testkit"
)

func TestRefreshRotationAndReuse(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		t0 := e.login(t, memberEmail)
		t1 := refreshed(t, e.refresh(t, t0.refresh, browser))
		if t1.refresh == t0.refresh {
			t.Fatal("refresh token not rotated")
		}
		// A second tab (or a reload that lost the answer) presents the old
		// token at once: it gets the same refresh token again and a working
		// access token; the session goes on.
		again := refreshed(t, e.refresh(t, t0.refresh, browser))
		if again.refresh != t1.refresh {
			t.Fatal("a reuse within grace got another refresh token than the rotation's answer")
		}
		if e.me(t, again) != 200 {
			t.Fatal("the access token answered again does not work")
		}
		t2 := refreshed(t, e.refresh(t, t1.refresh, browser))
		if e.me(t, t2) != 200 {
			t.Fatal("session ended by a reuse within the grace window")
		}
		// Once the successor was used, the old token is refused within the
		// grace window, without ending the session.
		if a := e.refresh(t, t0.refresh, browser); a.status != 401 {
			t.Fatalf("reuse within grace after the successor rotated: %d %s", a.status, a.body)
		}
		if e.me(t, t2) != 200 {
			t.Fatal("session ended by a refused reuse within the grace window")
		}
		// Reuse after the grace window: the whole family ends.
		e.clock.Advance(auth.RefreshGrace + time.Second)
		if a := e.refresh(t, t1.refresh, browser); a.status != 401 {
			t.Fatalf("reuse after grace: %d %s", a.status, a.body)
		}
		if a := e.refresh(t, t2.refresh, browser); a.status != 401 {
			t.Fatalf("newest token of a revoked family: %d %s", a.status, a.body)
		}
		if got := e.me(t, t2); got != 401 {
			t.Fatalf("access token of a revoked family: %d", got)
		}
		if r := e.queryInt(t, `SELECT COUNT(*) FROM auth_session WHERE revoke_reason = 'refresh_reuse'`); r != 1 {
			t.Fatalf("%d sessions revoked for reuse", r)
		}
		// Other sessions of the user are untouched.
		if e.me(t, e.login(t, memberEmail)) != 200 {
			t.Fatal("new login failed")
		}
	})
}

// Two tabs refreshing with one token at the same moment both go on with
// the same pair, on both databases (SQLite serialises the writes; on
// PostgreSQL the second rotation finds the token rotated under its lock).
func TestConcurrentRefreshesShareOneAnswer(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		t0 := e.login(t, memberEmail)
		const tabs = 4
		answers := make([]answer, tabs)
		var wg sync.WaitGroup
		for i := range tabs {
			wg.Go(func() { answers[i] = e.refresh(t, t0.refresh, browser) })
		}
		wg.Wait()
		first := refreshed(t, answers[0])
		for i, a := range answers[1:] {
			if got := refreshed(t, a); got.refresh != first.refresh {
				t.Fatalf("tab %d got another refresh token", i+1)
			}
		}
		if e.me(t, first) != 200 {
			t.Fatal("session ended by concurrent refreshes")
		}
		if n := e.queryInt(t, `SELECT COUNT(*) FROM refresh_token WHERE rotated_at IS NULL`); n != 1 {
			t.Fatalf("%d unused refresh tokens after one rotation", n)
		}
	})
}

func TestRefreshFromOtherBrowserRevokes(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		tk := e.login(t, memberEmail)
		if a := e.refresh(t, tk.refresh, otherHash); a.status != 401 {
			t.Fatalf("other browser: %d", a.status)
		}
		if a := e.refresh(t, tk.refresh, browser); a.status != 401 {
			t.Fatalf("own browser after theft: %d", a.status)
		}
		if e.me(t, tk) != 401 {
			t.Fatal("access token survived")
		}
	})
}

func TestSessionIdleAndLifetime(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		idle := e.login(t, memberEmail)
		e.clock.Advance(idleTimeout + time.Second)
		if a := e.refresh(t, idle.refresh, browser); a.status != 401 {
			t.Fatalf("idle session refreshed: %d", a.status)
		}
		// Refreshing every hour keeps a session alive until its lifetime.
		tk := e.login(t, memberEmail)
		for elapsed := time.Duration(0); elapsed+time.Hour < maxLifetime; elapsed += time.Hour {
			e.clock.Advance(time.Hour)
			tk = refreshed(t, e.refresh(t, tk.refresh, browser))
		}
		e.clock.Advance(time.Hour)
		if a := e.refresh(t, tk.refresh, browser); a.status != 401 {
			t.Fatalf("session past its lifetime refreshed: %d", a.status)
		}
		if e.me(t, tk) != 401 {
			t.Fatal("access token of an expired session accepted")
		}
	})
}

// attempt is one login of who with password from the test's client.
func (e *env) attempt(t *testing.T, who, password string, headers ...map[string]string) answer {
	t.Helper()
	h := formHeaders()
	for _, extra := range headers {
		for k, v := range extra {
			h[k] = v
		}
	}
	return e.do(t, "POST", "/token", h, url.Values{"username": {who}, "password": {password}, "user_browser_hash": {browser}}.Encode())
}

func expectAnswer(t *testing.T, what string, a answer, status int, retryAfter string) {
	t.Helper()
	if a.status != status || a.header.Get("Retry-After") != retryAfter {
		t.Fatalf("%s: %d (Retry-After %q) %s; want %d (Retry-After %q)", what, a.status, a.header.Get("Retry-After"), a.body, status, retryAfter)
	}
}

func TestFailedLoginsAreThrottledNeverLocked(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		const who = "lockout@portfolio.test"
		before := e.login(t, who)
		var answers []string
		for _, account := range []string{who, "no-such-user@portfolio.test"} {
			for i := 1; i <= 5; i++ {
				a := e.attempt(t, account, "wrong-pass-1")
				expectAnswer(t, fmt.Sprintf("%s attempt %d", account, i), a, 400, "")
				answers = append(answers, a.body)
			}
			a := e.attempt(t, account, "wrong-pass-1")
			expectAnswer(t, account+" sixth attempt", a, 429, "30")
			if !strings.Contains(a.body, `"code":"too_many_attempts"`) {
				t.Fatalf("sixth answer: %s", a.body)
			}
			answers = append(answers, a.body)
		}
		for i := range 6 {
			if answers[i] != answers[i+6] {
				t.Fatalf("answer %d differs for an existing and an unknown address: %s / %s", i+1, answers[i], answers[i+6])
			}
		}
		expectAnswer(t, "right password while waiting", e.attempt(t, who, pw), 429, "30")
		e.clock.Advance(20 * time.Second)
		expectAnswer(t, "the wait counts down", e.attempt(t, who, pw), 429, "10")
		e.clock.Advance(11 * time.Second)
		expectAnswer(t, "a wrong password after the wait doubles it", e.attempt(t, who, "wrong-pass-1"), 429, "60")
		e.clock.Advance(61 * time.Second)
		e.login(t, who)
		if e.me(t, before) != 200 {
			t.Fatal("failed logins ended the account's session")
		}
		if n := e.queryInt(t, `SELECT user_locked FROM users WHERE user_email = ?`, who); n != 0 {
			t.Fatal("failed logins locked the account")
		}
		for i := 1; i <= 5; i++ { // the login cleared the account's buckets
			expectAnswer(t, fmt.Sprintf("after the login, attempt %d", i), e.attempt(t, who, "wrong-pass-1"), 400, "")
		}
	})
}

func TestThrottlePerClientAddress(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		for i := 1; i <= 30; i++ { // spraying one password over many addresses
			expectAnswer(t, fmt.Sprintf("attempt %d", i), e.attempt(t, fmt.Sprintf("user%d@portfolio.test", i), "Summer-2026"), 400, "")
		}
		expectAnswer(t, "31st attempt", e.attempt(t, "user31@portfolio.test", "Summer-2026"), 429, "30")
		forged := map[string]string{"X-Forwarded-For": "198.51.100.77"}
		expectAnswer(t, "another account with its password and a forged forwarding header", e.attempt(t, memberEmail, pw, forged), 429, "30")
	})
}

func TestLockedAccountIsToldOnlyWithItsPassword(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		e.exec(t, `UPDATE users SET user_locked = 1 WHERE user_email = ?`, memberEmail)
		wrong := e.attempt(t, memberEmail, "wrong-pass-1")
		unknown := e.attempt(t, "nobody@portfolio.test", "wrong-pass-1")
		if wrong.status != 400 || wrong.body != unknown.body {
			t.Fatalf("a locked account with a wrong password: %d %s; unknown: %s", wrong.status, wrong.body, unknown.body)
		}
		if a := e.attempt(t, memberEmail, pw); a.status != 403 || !strings.Contains(a.body, `"code":"account_locked"`) {
			t.Fatalf("a locked account with its password: %d %s", a.status, a.body)
		}
	})
}

func TestLockingInDatabaseStopsToken(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		tk := e.login(t, memberEmail)
		if e.me(t, tk) != 200 {
			t.Fatal("fresh token refused")
		}
		e.exec(t, `UPDATE users SET user_locked = 1 WHERE user_email = ?`, memberEmail)
		if got := e.me(t, tk); got != 401 {
			t.Fatalf("locked user's token: %d", got)
		}
		if a := e.refresh(t, tk.refresh, browser); a.status != 401 {
			t.Fatalf("locked user's refresh: %d", a.status)
		}
	})
}

func TestLogoutEndsSession(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		tk := e.login(t, memberEmail)
		other := e.login(t, memberEmail)
		if a := e.do(t, "POST", "/logout", tk.bearer(), ""); a.status != 204 || a.body != "" {
			t.Fatalf("logout: %d %q", a.status, a.body)
		}
		if e.me(t, tk) != 401 {
			t.Fatal("token works after logout")
		}
		if a := e.refresh(t, tk.refresh, browser); a.status != 401 {
			t.Fatalf("refresh after logout: %d", a.status)
		}
		if e.me(t, other) != 200 {
			t.Fatal("logout ended another session")
		}
	})
}

func TestPasswordChangeEndsOtherSessions(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		const who = "pwchange@portfolio.test"
		mine, other := e.login(t, who), e.login(t, who)
		a := e.do(t, "PUT", "/user/password", mine.bearer(), `{"old_password":"`+pw+`","new_password":"Brand-new-pass-7"}`)
		if a.status != 200 {
			t.Fatalf("change: %d %s", a.status, a.body)
		}
		if e.me(t, mine) != 200 {
			t.Fatal("own session ended")
		}
		if e.me(t, other) != 401 {
			t.Fatal("other session survived")
		}
		e.loginWith(t, who, "Brand-new-pass-7", browser)
	})
}

func TestWrongCurrentPasswordIsThrottledLikeALogin(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		tk := e.login(t, "lockout@portfolio.test")
		body := `{"old_password":"wrong-pass-1","new_password":"Brand-new-pass-7"}`
		for i := 1; i <= 5; i++ {
			if a := e.do(t, "PUT", "/user/password", tk.bearer(), body); a.status != 422 {
				t.Fatalf("attempt %d: %d", i, a.status)
			}
		}
		a := e.do(t, "PUT", "/user/password", tk.bearer(), body)
		expectAnswer(t, "sixth wrong current password", a, 429, "30")
		expectAnswer(t, "a login of the account meanwhile", e.attempt(t, "lockout@portfolio.test", pw), 429, "30")
		if e.me(t, tk) != 200 {
			t.Fatal("wrong current passwords ended the session")
		}
	})
}

func TestChangeRequiredPasswordThenLogin(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		const who = "mustchange@portfolio.test"
		a := e.do(t, "POST", "/auth/change-password", nil, `{"username":"`+who+`","old_password":"`+pw+`","new_password":"Brand-new-pass-7"}`)
		if a.status != 200 {
			t.Fatalf("change: %d %s", a.status, a.body)
		}
		e.loginWith(t, who, "Brand-new-pass-7", browser)
		if n := e.queryInt(t, `SELECT user_password_reset_required FROM users WHERE user_email = ?`, who); n != 0 {
			t.Fatal("reset requirement kept")
		}
	})
}

// TestResetMailOverSMTP sends the reset mail through a real SMTP server and
// uses its link, which works exactly once.
func TestResetMailOverSMTP(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		smtp := testkit.NewSMTPServer(t)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		deliverer := &mailer.Deliverer{DB: d, Outbox: e.outbox, Log: slog.New(slog.DiscardHandler), Interval: time.Hour,
			Sender: mailer.NewSMTPSender(mailer.SMTPConfig{Host: smtp.Host, Port: smtp.Port, TLS: "none"})}
		go func() { deliverer.Run(ctx); close(done) }()
		t.Cleanup(func() { cancel(); <-done })

		const who = "reset@portfolio.test"
		before := e.login(t, who)
		e.exec(t, `UPDATE users SET user_locked = 1, user_wrong_password_counter = 5, user_password_reset_required = 1 WHERE user_email = ?`, who)
		a := e.do(t, "POST", "/auth/forgot-password", map[string]string{"Accept-Language": "fr"}, `{"email":"RESET@portfolio.test"}`)
		if a.status != 200 {
			t.Fatalf("forgot: %d %s", a.status, a.body)
		}
		m := smtp.WaitFor(t, 10*time.Second, func(m testkit.Mail) bool { return len(m.To) == 1 && m.To[0] == who })
		if !strings.Contains(m.Subject, "Portfolio") || !strings.Contains(m.Text, "Bonjour Reset User") {
			t.Fatalf("mail not in the request's language: %q\n%s", m.Subject, m.Text)
		}
		token := linkToken(t, m.Text, "http://portfolio.test/auth/reset-password/")
		body := `{"token":"` + token + `","password":"Brand-new-pass-7"}`
		if a := e.do(t, "POST", "/auth/reset-password", nil, body); a.status != 200 || !strings.Contains(a.body, "You can sign in now") {
			t.Fatalf("reset: %d %s", a.status, a.body)
		}
		if a := e.do(t, "POST", "/auth/reset-password", nil, body); a.status != 400 {
			t.Fatalf("second use: %d %s", a.status, a.body)
		}
		if e.me(t, before) != 401 {
			t.Fatal("session survived the reset")
		}
		e.loginWith(t, who, "Brand-new-pass-7", browser) // unlocked, counter and requirement cleared
	})
}

func TestPasswordResetEndsTheWait(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		const who = "reset@portfolio.test"
		for range 6 {
			e.attempt(t, who, "wrong-pass-1")
		}
		expectAnswer(t, "waiting", e.attempt(t, who, pw), 429, "30")
		if a := e.do(t, "POST", "/auth/forgot-password", nil, `{"email":"`+who+`"}`); a.status != 200 {
			t.Fatal(a.body)
		}
		token := e.mailLink(t, who, "/auth/reset-password/")
		if a := e.do(t, "POST", "/auth/reset-password", nil, `{"token":"`+token+`","password":"Brand-new-pass-7"}`); a.status != 200 {
			t.Fatalf("reset: %d %s", a.status, a.body)
		}
		e.loginWith(t, who, "Brand-new-pass-7", browser)
	})
}

func TestResetLinkExpires(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		const who = "reset@portfolio.test"
		if a := e.do(t, "POST", "/auth/forgot-password", nil, `{"email":"`+who+`"}`); a.status != 200 {
			t.Fatal(a.body)
		}
		// A second request within a minute sends nothing more.
		e.do(t, "POST", "/auth/forgot-password", nil, `{"email":"`+who+`"}`)
		if n := e.queryInt(t, `SELECT COUNT(*) FROM mail_outbox WHERE mail_to = ?`, who); n != 1 {
			t.Fatalf("%d mails queued", n)
		}
		token := e.mailLink(t, who, "/auth/reset-password/")
		e.clock.Advance(time.Hour + time.Second)
		if a := e.do(t, "POST", "/auth/reset-password", nil, `{"token":"`+token+`","password":"Brand-new-pass-7"}`); a.status != 400 {
			t.Fatalf("expired link: %d %s", a.status, a.body)
		}
		if n := e.queryInt(t, `SELECT COUNT(*) FROM mail_outbox WHERE mail_to = ?`, "ghost@portfolio.test"); n != 0 {
			t.Fatal("mail to an unknown address")
		}
	})
}

func TestRegisterAndVerify(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		const who = "fresh@portfolio.test"
		a := e.do(t, "POST", "/jwt/register", e.login(t, adminEmail).bearer(),
			`{"user_email":"`+who+`","user_firstname":"Fresh","user_lastname":"Person","usertype_id":1,"role_id":2,"team_ids":[1,7],"user_language":"de"}`)
		if a.status != 201 {
			t.Fatalf("register: %d %s", a.status, a.body)
		}
		var text string
		if err := d.QueryRowContext(context.Background(), `SELECT mail_subject || mail_text FROM mail_outbox WHERE mail_to = ?`, who).Scan(&text); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(text, "Hallo Fresh Person") || !strings.Contains(text, "48 Stunden") {
			t.Fatalf("verification mail:\n%s", text)
		}
		token := linkToken(t, text, "http://portfolio.test/auth/verification/")
		if a := e.do(t, "POST", "/auth/verify", nil, `{"token":"`+token+`"}`); a.status != 422 || !strings.Contains(a.body, `"loc":["body","password"]`) {
			t.Fatalf("verify without password: %d %s", a.status, a.body)
		}
		if a := e.do(t, "POST", "/auth/verify", nil, `{"token":"`+token+`","password":"Brand-new-pass-7"}`); a.status != 200 {
			t.Fatalf("verify: %d %s", a.status, a.body)
		}
		if a := e.do(t, "POST", "/auth/verify", nil, `{"token":"`+token+`","password":"Brand-new-pass-7"}`); a.status != 400 {
			t.Fatalf("second verify: %d %s", a.status, a.body)
		}
		tk := e.loginWith(t, who, "Brand-new-pass-7", browser)
		me := e.do(t, "GET", "/user/", tk.bearer(), "")
		for _, want := range []string{`"team_id":[1,7]`, `"role_code":"team_member"`, `"user_abbreviation":"FP"`, `"user_language":"de"`} {
			if !strings.Contains(me.body, want) {
				t.Errorf("record lacks %s\n%s", want, me.body)
			}
		}
	})
}

func TestOnlyValidRolesAndTeamsCount(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		id := e.ids[memberEmail]
		yesterday := e.clock.Now().AddDate(0, 0, -1).Format(time.DateOnly)
		tomorrow := e.clock.Now().AddDate(0, 0, 1).Format(time.DateOnly)
		today := e.clock.Now().Format(time.DateOnly)
		e.exec(t, `INSERT INTO user_role (user_id, role_id, user_role_rank, valid_to) VALUES (?, 1, -1, ?)`, id, yesterday)
		e.exec(t, `INSERT INTO user_role (user_id, role_id, user_role_rank, valid_from) VALUES (?, 4, 5, ?)`, id, today)
		e.exec(t, `INSERT INTO user_team (user_id, team_id, valid_from) VALUES (?, 1, ?)`, id, tomorrow)
		e.exec(t, `UPDATE user_team SET valid_to = ? WHERE user_id = ? AND team_id = 7`, today, id)
		a := e.do(t, "GET", "/user/", e.login(t, memberEmail).bearer(), "")
		if strings.Contains(a.body, `"role_code":"admin"`) || strings.Contains(a.body, `"action":"manage"`) {
			t.Fatalf("expired admin role counted:\n%s", a.body)
		}
		for _, want := range []string{`"role_code":"team_member"`, `"role_code":"lead"`, `"team_id":[7]`} {
			if !strings.Contains(a.body, want) {
				t.Errorf("lacks %s\n%s", want, a.body)
			}
		}
	})
}

func TestActivityIsRecordedAtMostOnceAMinute(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		tk := e.login(t, memberEmail)
		lastUsed := func() time.Time {
			var ts time.Time
			if err := d.QueryRowContext(context.Background(), `SELECT last_used_at FROM auth_session`).Scan(&ts); err != nil {
				t.Fatal(err)
			}
			return ts.UTC()
		}
		start := lastUsed()
		e.clock.Advance(30 * time.Second)
		e.me(t, tk)
		if !lastUsed().Equal(start) {
			t.Fatal("written within the minute")
		}
		e.clock.Advance(31 * time.Second)
		e.me(t, tk)
		if got := lastUsed(); !got.Equal(e.clock.Now()) {
			t.Fatalf("last use %s, want %s", got, e.clock.Now())
		}
		if n := e.queryInt(t, `SELECT COUNT(*) FROM users WHERE user_last_activity_time IS NOT NULL`); n != 1 {
			t.Fatalf("%d users with activity", n)
		}
	})
}

func TestPurgeExpired(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		old := e.login(t, memberEmail)
		e.do(t, "POST", "/logout", old.bearer(), "")
		e.clock.Advance(48 * time.Hour)
		live := e.login(t, memberEmail)
		n, err := e.svc.PurgeExpired(context.Background(), 24*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if n != 2 { // the session and its refresh token
			t.Fatalf("purged %d rows", n)
		}
		if e.me(t, live) != 200 {
			t.Fatal("live session purged")
		}
	})
}
