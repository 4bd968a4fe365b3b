package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func backendServer(name string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/readyz":
			w.WriteHeader(200)
		case "/die":
			// Answer nothing and drop the connection, as a killed server.
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
		default:
			b, _ := io.ReadAll(r.Body)
			io.WriteString(w, name+":"+string(b))
		}
	}))
}

func get(t *testing.T, url, body string) (int, string, http.Header) {
	t.Helper()
	res, err := http.Post(url, "text/plain", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

func TestProxy(t *testing.T) {
	a, b := backendServer("a"), backendServer("b")
	defer a.Close()
	defer b.Close()
	// c refuses connections: a port nobody listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String()
	l.Close()
	p, err := newProxy([]string{a.URL, b.URL, dead}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	front := httptest.NewServer(p)
	defer front.Close()

	// Before any health check every backend counts as up: requests that
	// reach the dead one go on to the next with their body, and it is
	// marked down.
	seen := map[string]int{}
	for i := 0; i < 9; i++ {
		st, body, _ := get(t, front.URL+"/x", "hello")
		if st != 200 || !strings.HasSuffix(body, ":hello") {
			t.Fatalf("request %d: %d %q", i, st, body)
		}
		seen[body[:1]]++
	}
	if seen["a"] == 0 || seen["b"] == 0 {
		t.Errorf("not spread over both live backends: %v", seen)
	}
	if p.backends[2].up.Load() {
		t.Error("the refusing backend is still taken to be up")
	}

	// A backend dying while it answers: 502 with the header, no retry.
	st, _, h := get(t, front.URL+"/die", "x")
	if st != http.StatusBadGateway || h.Get(ErrorHeader) == "" {
		t.Errorf("a backend dying mid-request: %d %v, want 502 with %s", st, h, ErrorHeader)
	}

	// Health checks take a stopped backend out and bring it back.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.check(ctx, 20*time.Millisecond)
	b.Close()
	deadline := time.Now().Add(5 * time.Second)
	for p.backends[1].up.Load() {
		if time.Now().After(deadline) {
			t.Fatal("the stopped backend was not marked down")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for i := 0; i < 4; i++ {
		if st, body, _ := get(t, front.URL+"/x", "y"); st != 200 || body != "a:y" {
			t.Fatalf("with one backend left: %d %q", st, body)
		}
	}
	st, body, _ := get(t, front.URL+"/_proxy/status", "")
	if st != 200 || !strings.Contains(body, `"up":false`) || !strings.Contains(body, `"up":true`) {
		t.Errorf("status: %d %s", st, body)
	}
}
