// Package apptest runs the whole product against a test database for API
// tests across modules. It is separate from testkit so that packages the app
// imports can still use testkit in their own tests.
package apptest

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"portfolio/internal/app"
	"portfolio/internal/config"
	"portfolio/internal/db"
	"portfolio/internal/platform/mailer"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/contract"
)

// TestApp is the whole product on a test database behind a real HTTP server.
type TestApp struct {
	*app.App
	URL    string
	SMTP   *testkit.SMTPServer
	t      testing.TB
	client *testkit.Client
	mu     sync.Mutex
	tokens map[string]string
}

// AppOption adjusts the configuration of a test app.
type AppOption func(*config.Config)

// NewApp builds the app on d, migrated, with the demo data seeded, a real
// SMTP server for its mail and an HTTP test server. Mail is delivered as soon
// as it is queued.
//
// d must be fresh from testkit.NewSQLite or testkit.NewPostgres, with
// nothing written to it yet: without options its contents are replaced by a
// copy of a database migrated and seeded once per test process
// (testkit.Seeded), which is what migrating and seeding d would give. A test
// that writes to d first uses NewAppOn.
func NewApp(t testing.TB, d *db.DB, opts ...AppOption) *TestApp {
	t.Helper()
	seeded := len(opts) == 0 && testkit.Seeded(t, d, "demo", seedDemo)
	return newApp(t, d, !seeded, opts)
}

// NewAppOn is NewApp on d as it is: it migrates d and seeds the demo data
// on top of what d already holds. It is slower than NewApp.
func NewAppOn(t testing.TB, d *db.DB, opts ...AppOption) *TestApp {
	t.Helper()
	return newApp(t, d, true, opts)
}

// seedDemo migrates the app on d and seeds the demo data, as NewApp does
// on a fresh database, for testkit.Seeded's snapshot.
func seedDemo(ctx context.Context, d *db.DB, dataDir string) error {
	a, err := app.NewWithDB(testConfig(dataDir), slog.New(slog.NewTextHandler(io.Discard, nil)), d)
	if err != nil {
		return err
	}
	defer a.Jobs.Close()
	defer a.Events.Close()
	if err := a.Migrate(ctx); err != nil {
		return err
	}
	_, err = seed.Demo(ctx, a)
	return err
}

func testConfig(dataDir string) config.Config {
	cfg := config.Defaults()
	cfg.DataDir = dataDir
	cfg.JWTSecret = "test-secret-test-secret-test-secret-0123"
	cfg.PublicURL = "http://portfolio.test"
	return cfg
}

func newApp(t testing.TB, d *db.DB, migrateAndSeed bool, opts []AppOption) *TestApp {
	t.Helper()
	cfg := testConfig(t.TempDir())
	for _, o := range opts {
		o(&cfg)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("config: %v", err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	// A fuzz target may not log through its *testing.F once fuzzing runs.
	if _, fuzzing := t.(*testing.F); testing.Verbose() && !fuzzing {
		log = slog.New(slog.NewTextHandler(&testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	a, err := app.NewWithDB(cfg, log, d)
	if err != nil {
		t.Fatalf("app: %v", err)
	}
	ctx := context.Background()
	if migrateAndSeed {
		if err := a.Migrate(ctx); err != nil {
			t.Fatalf("migrate: %v", err)
		}
		if _, err := seed.Demo(ctx, a); err != nil {
			t.Fatalf("seed demo: %v", err)
		}
	}
	smtpServer := testkit.NewSMTPServer(t)
	a.Mail.Sender = mailer.NewSMTPSender(mailer.SMTPConfig{Host: smtpServer.Host, Port: smtpServer.Port, TLS: "none"})
	a.Mail.Interval = 50 * time.Millisecond
	workers, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { a.Mail.Run(workers); close(done) }()
	// Every exchange is kept; with PORTFOLIO_CONTRACT=1 the answers are
	// checked against docs/api/openapi.yaml when the test ends.
	rec := &contract.Recorder{}
	srv := httptest.NewServer(rec.Wrap(a.Handler()))
	if _, fuzzing := t.(*testing.F); contract.Enabled() && !fuzzing {
		t.Cleanup(func() {
			c, err := contract.Load()
			if err != nil {
				t.Errorf("OpenAPI contract: %v", err)
				return
			}
			for _, p := range rec.Problems(c) {
				t.Errorf("answer breaks docs/api/openapi.yaml: %s", p)
			}
		})
	}
	t.Cleanup(func() {
		a.Events.Close() // ends open event streams, which srv.Close waits for
		srv.Close()
		stop()
		<-done
	})
	ta := &TestApp{App: a, URL: srv.URL, SMTP: smtpServer, t: t, tokens: map[string]string{}}
	ta.client = &testkit.Client{URL: srv.URL, Token: func(_ testing.TB, email string) string { return ta.Token(email) }}
	return ta
}

type testWriter struct{ t testing.TB }

func (w *testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// Response is an answer read completely.
type Response = testkit.Response

// Scenario is one API request and what its answer must show.
type Scenario = testkit.Scenario

// Do sends a request as the holder of token ("": anonymous); body as in
// testkit.Scenario (a string is sent as JSON, url.Values as a form,
// anything else JSON-encoded); headers are name, value pairs.
func (ta *TestApp) Do(method, path, token string, body any, headers ...string) Response {
	ta.t.Helper()
	h := map[string]string{}
	if token != "" {
		h["Authorization"] = "Bearer " + token
	}
	for i := 0; i+1 < len(headers); i += 2 {
		h[headers[i]] = headers[i+1]
	}
	return ta.client.Do(ta.t, method, path, h, body)
}

// Client is the scenario client of the app: it logs demo users in once
// and keeps their access tokens.
func (ta *TestApp) Client() *testkit.Client { return ta.client }

// Run runs API scenarios against the app (testkit.Client.Run), logging in
// as each scenario's demo user.
func (ta *TestApp) Run(t *testing.T, scenarios []Scenario) { ta.client.Run(t, scenarios) }

// Token is the access token of a demo user, logged in once.
func (ta *TestApp) Token(email string) string {
	ta.mu.Lock()
	tk, ok := ta.tokens[email]
	ta.mu.Unlock()
	if ok {
		return tk
	}
	tk = ta.Login(email).AccessToken
	ta.mu.Lock()
	ta.tokens[email] = tk
	ta.mu.Unlock()
	return tk
}

// ForgetToken drops the kept token of email (after its sessions ended).
func (ta *TestApp) ForgetToken(email string) {
	ta.mu.Lock()
	delete(ta.tokens, email)
	ta.mu.Unlock()
}

// Tokens are what a login answers.
type Tokens struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
}

// BrowserHash is the browser id the login helper uses.
const BrowserHash = "test-browser"

// Login logs email in with the demo password and returns its tokens.
func (ta *TestApp) Login(email string) Tokens {
	ta.t.Helper()
	res := ta.Do("POST", "/token", "", url.Values{"username": {email}, "password": {seed.DemoPassword}, "user_browser_hash": {BrowserHash}})
	if res.Status != http.StatusOK {
		ta.t.Fatalf("login %s: %d %s", email, res.Status, res.Body)
	}
	var tok Tokens
	res.JSON(ta.t, &tok)
	return tok
}
