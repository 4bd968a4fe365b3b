package auth_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/mailer"
	"portfolio/internal/testkit"
)

// Test accounts; every one has password pw unless said otherwise.
const (
	pw          = "Correct-horse-9"
	adminEmail  = "admin@portfolio.test"
	memberEmail = "member@portfolio.test"
	extEmail    = "ext@portfolio.test"
	browser     = "browser-hash-1"
	otherHash   = "browser-hash-2"
	maxBody     = 64 << 10
	accessTTL   = 30 * time.Minute
	idleTimeout = 2 * time.Hour
	maxLifetime = 24 * time.Hour
)

var testSecret = []byte("test-secret-test-secret-test-secret!")

// clock is a settable clock for Deps.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// env is a running API over a fresh database with the fixture loaded.
type env struct {
	db     *db.DB
	svc    *auth.Service
	clock  *clock
	outbox *mailer.Outbox
	url    string
	ids    map[string]int64 // user ids by email
}

func newEnv(t *testing.T, d *db.DB) *env {
	t.Helper()
	e := &env{db: d, clock: &clock{t: time.Now().UTC().Truncate(time.Second)}, ids: map[string]int64{}}
	cat := i18n.MustLoad()
	e.outbox = mailer.NewOutbox("Portfolio <no-reply@portfolio.test>")
	svc, err := auth.NewService(auth.Deps{
		DB: d, Outbox: e.outbox, Catalog: cat, Secret: testSecret, PublicURL: "http://portfolio.test/",
		AccessTokenTTL: accessTTL, SessionIdleTimeout: idleTimeout, SessionMaxLifetime: maxLifetime,
		ResetLinkTTL: time.Hour, VerifyLinkTTL: 48 * time.Hour, Now: e.clock.Now,
	})
	if err != nil {
		t.Fatal(err)
	}
	e.svc = svc
	srv := httpapi.New(httpapi.Options{Logger: slog.New(slog.DiscardHandler), Catalog: cat, MaxBodyBytes: maxBody})
	auth.Bind(srv, svc)
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	e.url = ts.URL
	e.seed(t)
	return e
}

// seed loads organisations, roles, permissions and users.
func (e *env) seed(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	for _, s := range []string{
		`INSERT INTO usertype (usertype_id, usertype_name, usertype_external) VALUES (1, 'INTERN', 0), (2, 'EXTERN', 1)`,
		`INSERT INTO role (role_id, role_name, role_code, role_menu, role_external) VALUES
			(1, 'Administratoren', 'admin', 'admin_menu', 0), (2, 'Team member', 'team_member', 'member_menu', 0),
			(3, 'External member', 'ext_team_member', 'external_menu', 1), (4, 'Lead', 'lead', 'lead_menu', 0)`,
		`INSERT INTO customergroup (customergroup_id, customergroup_name) VALUES (1, 'Retail group')`,
		`INSERT INTO company (company_id, customergroup_id, company_name, company_shortname) VALUES (1, 1, 'Acme Stores', 'ACME')`,
		`INSERT INTO partnergroup (partnergroup_id, partnergroup_name) VALUES (1, 'Facility partners')`,
		`INSERT INTO partnercompany (partnercompany_id, partnergroup_id, partnercompany_name, partnercompany_shortname) VALUES (1, 1, 'Clean & Co', 'CLEAN')`,
		`INSERT INTO team (team_id, team_name, team_type) VALUES (1, 'MVM', 'intern'), (7, 'FM', 'extern_client')`,
		`INSERT INTO tablegroup (tablegroup_id, tablegroup_name) VALUES (1, 'tickets')`,
		`INSERT INTO tablename (tablegroup_id, table_name) VALUES (1, 'ticket'), (1, 'board')`,
		`INSERT INTO crud (role_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d) VALUES (2, 1, 1, 1, 0, 0)`,
		`INSERT INTO access (access_kind, access_subject, access_action, role_code, access_teams) VALUES
			('menu', 'ticket', 'read', 'team_member', ''), ('menu', 'payment', 'read', 'ext_team_member', ''),
			('menu', 'ticket', 'read', 'ext_team_member', 'FM')`,
	} {
		if _, err := e.db.ExecContext(ctx, s); err != nil {
			t.Fatalf("seed: %v\n%s", err, s)
		}
	}
	acme := int64(1)
	users := []auth.NewUser{
		{Email: adminEmail, FirstName: "Ada", LastName: "Admin", UsertypeID: 1, RoleCodes: []string{"admin", "team_member"}, Password: pw, Verified: true},
		{Email: memberEmail, FirstName: "Max", LastName: "Member", UsertypeID: 1, RoleCodes: []string{"team_member"}, TeamIDs: []int64{7}, Password: pw, Verified: true, Language: "de"},
		{Email: extEmail, FirstName: "Eve", LastName: "External", UsertypeID: 2, RoleCodes: []string{"ext_team_member"}, TeamIDs: []int64{7},
			CompanyID: &acme, PartnercompanyIDs: []int64{1}, IsDirector: true, Password: pw, Verified: true},
	}
	for _, name := range []string{"wrong", "locked", "mustchange", "mustchange2", "nopassword", "unverified", "pwchange", "lockout", "reset", "flow", "flow2"} {
		u := auth.NewUser{Email: name + "@portfolio.test", FirstName: strings.ToUpper(name[:1]) + name[1:], LastName: "User",
			UsertypeID: 1, RoleCodes: []string{"lead"}, Password: pw, Verified: true}
		switch name {
		case "mustchange", "mustchange2":
			u.PasswordResetRequired = true
		case "nopassword":
			u.Password = ""
		case "unverified":
			u.Verified = false
		}
		users = append(users, u)
	}
	for _, u := range users {
		id, err := e.svc.CreateUser(ctx, e.db, u)
		if err != nil {
			t.Fatalf("create %s: %v", u.Email, err)
		}
		e.ids[u.Email] = id
	}
	e.exec(t, `UPDATE users SET user_locked = 1 WHERE user_email = ?`, "locked@portfolio.test")
}

func (e *env) exec(t *testing.T, query string, args ...any) {
	t.Helper()
	if _, err := e.db.ExecContext(context.Background(), query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// client is the scenario client of the env: it logs in fresh for every
// scenario, as the scenarios revoke sessions.
func (e *env) client() *testkit.Client {
	return &testkit.Client{URL: e.url, Token: func(t testing.TB, email string) string {
		return e.login(t, email).access
	}}
}

// answer is a received HTTP answer.
type answer struct {
	status int
	body   string
	header http.Header
}

// json decodes the answer's body into a map.
func (a answer) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(a.body), &m); err != nil {
		t.Fatalf("answer %d is not a JSON object: %v\n%s", a.status, err, a.body)
	}
	return m
}

// do sends a request; a body without a Content-Type header is sent as JSON.
func (e *env) do(t testing.TB, method, path string, headers map[string]string, body string) answer {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, e.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{status: resp.StatusCode, body: string(b), header: resp.Header}
}

// tokens are a logged-in session's tokens.
type tokens struct {
	access, refresh string
}

func (tk tokens) bearer() map[string]string {
	return map[string]string{"Authorization": "Bearer " + tk.access}
}

// login logs in through POST /token as a form and fails the test otherwise.
func (e *env) login(t testing.TB, email string) tokens {
	t.Helper()
	return e.loginWith(t, email, pw, browser)
}

func (e *env) loginWith(t testing.TB, email, password, hash string) tokens {
	t.Helper()
	form := url.Values{"username": {email}, "password": {password}, "user_browser_hash": {hash}}
	a := e.do(t, http.MethodPost, "/token", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, form.Encode())
	if a.status != http.StatusOK {
		t.Fatalf("login %s: %d %s", email, a.status, a.body)
	}
	m := a.json(t)
	return tokens{access: m["access_token"].(string), refresh: m["refresh_token"].(string)}
}

// refresh calls POST /auth/refresh/token.
func (e *env) refresh(t *testing.T, refreshToken, hash string) answer {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"user_browser_hash": hash, "user_refresh_token": refreshToken})
	return e.do(t, http.MethodPost, "/auth/refresh/token", nil, string(b))
}

// refreshed returns the tokens of a successful refresh.
func refreshed(t *testing.T, a answer) tokens {
	t.Helper()
	if a.status != http.StatusOK {
		t.Fatalf("refresh: %d %s", a.status, a.body)
	}
	m := a.json(t)
	return tokens{access: m["user_token"].(string), refresh: m["user_refresh_token"].(string)}
}

// me calls GET /user/ and returns the status.
func (e *env) me(t *testing.T, tk tokens) int {
	t.Helper()
	return e.do(t, http.MethodGet, "/user/", tk.bearer(), "").status
}

// queryInt reads one integer.
func (e *env) queryInt(t *testing.T, query string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := e.db.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// signed signs claims with key and method, for forged-token cases.
func signed(t *testing.T, method jwt.SigningMethod, key any, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(method, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// claimsFor returns valid-looking access claims for the session of tk.
func claimsFor(t *testing.T, e *env, tk tokens) jwt.MapClaims {
	t.Helper()
	var c jwt.MapClaims
	if _, _, err := jwt.NewParser().ParseUnverified(tk.access, &c); err != nil {
		t.Fatal(err)
	}
	now := e.clock.Now()
	return jwt.MapClaims{"sub": c["sub"], "sid": c["sid"], "typ": "access", "iss": "portfolio",
		"iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(time.Minute).Unix()}
}

// mailLink finds the newest queued mail to addr and returns the token of
// the link in it after prefix.
func (e *env) mailLink(t *testing.T, addr, prefix string) string {
	t.Helper()
	var text string
	err := e.db.QueryRowContext(context.Background(), `SELECT mail_text FROM mail_outbox WHERE mail_to = ? ORDER BY mail_id DESC LIMIT 1`, addr).Scan(&text)
	if err != nil {
		t.Fatalf("no mail to %s: %v", addr, err)
	}
	return linkToken(t, text, prefix)
}

func linkToken(t *testing.T, text, prefix string) string {
	t.Helper()
	_, rest, ok := strings.Cut(text, prefix)
	if !ok {
		t.Fatalf("no link %s in mail:\n%s", prefix, text)
	}
	token, _, _ := strings.Cut(rest, "\n")
	return strings.TrimSpace(token)
}
