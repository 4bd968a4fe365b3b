package events_test

import (
	"bufio"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"portfolio/internal/events"
	"portfolio/internal/httpapi"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestHeartbeatAndLifetime: a quiet stream gets keep-alive comments and
// ends after its lifetime (the client then reconnects with Last-Event-ID).
func TestHeartbeatAndLifetime(t *testing.T) {
	ta := apptest.NewApp(t, testkit.NewSQLite(t))
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	hub, err := events.New(ta.DB, ta.Engine, log, events.Options{Heartbeat: 20 * time.Millisecond, Lifetime: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := httpapi.New(httpapi.Options{Logger: log, Catalog: ta.Catalog})
	srv.SetAuthenticator(ta.Auth)
	events.Bind(srv, hub, ta.Auth)
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { hub.Close(); hs.Close() })

	req, _ := http.NewRequest("GET", hs.URL+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+ta.Token(lead))
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("stream: %v %v", resp, err)
	}
	defer resp.Body.Close()
	start := time.Now()
	pings := 0
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() { // ends when the server ends the stream
		if strings.HasPrefix(sc.Text(), ": ping") {
			pings++
		}
	}
	if pings < 2 {
		t.Errorf("%d heartbeats in %v", pings, time.Since(start))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the stream lasted %v, lifetime 300 ms", d)
	}
}
