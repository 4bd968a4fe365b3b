package app_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"testing"
	"time"

	"portfolio/internal/app"
	"portfolio/internal/config"
	"portfolio/internal/httpapi"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
)

// TestGracefulShutdown: a request in flight when the server is told to stop
// still gets its answer, and Serve returns cleanly.
func TestGracefulShutdown(t *testing.T) {
	cfg := config.Defaults()
	cfg.DataDir = t.TempDir()
	cfg.Addr = "127.0.0.1:0"
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a, err := app.NewWithDB(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), testkit.NewSQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	release := make(chan struct{})
	a.Server.Handle("GET /api/test-slow", func(w http.ResponseWriter, r *http.Request) error {
		close(started)
		<-release
		_, err := io.WriteString(w, "finished")
		return err
	}, httpapi.Public())
	shuttingDown := make(chan struct{})
	a.OnShutdown = func() { close(shuttingDown) }
	ctx, cancel := context.WithCancel(context.Background())
	if err := a.Migrate(ctx); err != nil { // serve does, for the job queue's tables
		t.Fatal(err)
	}
	addrc := make(chan string, 1)
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx, func(addr string) { addrc <- addr }) }()
	var addr string
	select {
	case addr = <-addrc:
	case err := <-served:
		t.Fatalf("Serve: %v", err)
	}

	type result struct {
		body string
		err  error
	}
	got := make(chan result, 1)
	go func() {
		res, err := http.Get("http://" + addr + "/api/test-slow")
		if err != nil {
			got <- result{err: err}
			return
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		got <- result{string(b), err}
	}()
	<-started
	cancel() // SIGTERM arrives while the request is in flight
	<-shuttingDown
	close(release)
	r := <-got
	if r.err != nil || r.body != "finished" {
		t.Fatalf("in-flight request: %q, %v", r.body, r.err)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if _, err := http.Get("http://" + addr + "/healthz"); err == nil {
		t.Fatal("server still answers after shutdown")
	}
}

// TestShutdownEndsEventStreams: an open GET /events stream ends when the
// server is told to stop, so Serve returns without waiting for the
// shutdown timeout.
func TestShutdownEndsEventStreams(t *testing.T) {
	cfg := config.Defaults()
	cfg.DataDir = t.TempDir()
	cfg.Addr = "127.0.0.1:0"
	cfg.ShutdownTimeout = time.Minute
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	a, err := app.NewWithDB(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), testkit.NewSQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := a.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := seed.Demo(ctx, a); err != nil {
		t.Fatal(err)
	}
	addrc := make(chan string, 1)
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx, func(addr string) { addrc <- addr }) }()
	addr := <-addrc
	res, err := http.PostForm("http://"+addr+"/token", url.Values{"username": {"admin@demo.test"}, "password": {seed.DemoPassword},
		"user_browser_hash": {"x"}})
	if err != nil {
		t.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	err = json.NewDecoder(res.Body).Decode(&tok)
	res.Body.Close()
	if err != nil || tok.AccessToken == "" {
		t.Fatalf("login: %d %v", res.StatusCode, err)
	}
	req, _ := http.NewRequest("GET", "http://"+addr+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	stream, err := http.DefaultClient.Do(req)
	if err != nil || stream.StatusCode != http.StatusOK {
		t.Fatalf("stream: %v %v", stream, err)
	}
	defer stream.Body.Close()
	start := time.Now()
	cancel()
	if _, err := io.Copy(io.Discard, stream.Body); err != nil {
		t.Logf("stream ended with %v", err)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("shutdown took %v with an open stream", d)
	}
}
