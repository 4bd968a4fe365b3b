// Package apptest runs the whole product against a test database for API
// tests across modules. It is separate from testkit so that packages the app
// imports can still use testkit in their own tests.
package apptest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"portfolio/internal/app"
	"portfolio/internal/config"
	"portfolio/internal/db"
	"portfolio/internal/platform/mailer"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
)

// TestApp is the whole product on a test database behind a real HTTP server.
type TestApp struct {
	*app.App
	URL  string
	SMTP *testkit.SMTPServer
	t    testing.TB
}

// AppOption adjusts the configuration of a test app.
type AppOption func(*config.Config)

// NewApp builds the app on d, migrated, with the demo data seeded, a real
// SMTP server for its mail and an HTTP test server. Mail is delivered as soon
// as it is queued.
func NewApp(t testing.TB, d *db.DB, opts ...AppOption) *TestApp {
	t.Helper()
	cfg := config.Defaults()
	cfg.DataDir = t.TempDir()
	cfg.JWTSecret = "test-secret-test-secret-test-secret-0123"
	cfg.PublicURL = "http://portfolio.test"
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
	if err := a.Migrate(ctx); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	if _, err := seed.Demo(ctx, a); err != nil {
		t.Fatalf("seed demo: %v", err)
	}
	smtpServer := testkit.NewSMTPServer(t)
	a.Mail.Sender = mailer.NewSMTPSender(mailer.SMTPConfig{Host: smtpServer.Host, Port: smtpServer.Port, TLS: "none"})
	a.Mail.Interval = 50 * time.Millisecond
	workers, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { a.Mail.Run(workers); close(done) }()
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(func() {
		srv.Close()
		stop()
		<-done
	})
	return &TestApp{App: a, URL: srv.URL, SMTP: smtpServer, t: t}
}

type testWriter struct{ t testing.TB }

func (w *testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// Response is an answer read completely.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v, failing the test when it cannot.
func (r Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %s: %v", r.Body, err)
	}
}

// Do sends a request; body is JSON-encoded unless it is a string or
// url.Values (sent as a form).
func (ta *TestApp) Do(method, path, token string, body any, headers ...string) Response {
	ta.t.Helper()
	var rdr io.Reader
	contentType := ""
	switch b := body.(type) {
	case nil:
	case string:
		rdr, contentType = strings.NewReader(b), "application/json"
	case url.Values:
		rdr, contentType = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			ta.t.Fatalf("encode body: %v", err)
		}
		rdr, contentType = bytes.NewReader(buf), "application/json"
	}
	req, err := http.NewRequest(method, ta.URL+path, rdr)
	if err != nil {
		ta.t.Fatalf("request: %v", err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		ta.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		ta.t.Fatalf("read answer: %v", err)
	}
	return Response{Status: res.StatusCode, Header: res.Header, Body: b}
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
