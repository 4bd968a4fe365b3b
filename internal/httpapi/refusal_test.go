package httpapi_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
)

// lockedBuffer is a log sink the server's goroutines write to.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRefusalsAreLoggedWithTheirReason: a 401 and a 403 put their reason
// (key and cause) on the request's log line; a plain 404 does not.
func TestRefusalsAreLoggedWithTheirReason(t *testing.T) {
	var logs lockedBuffer
	s := httpapi.New(httpapi.Options{Logger: slog.New(slog.NewTextHandler(&logs, nil)), Catalog: i18n.MustLoad(), MaxBodyBytes: 1024})
	s.Handle("GET /api/private", func(w http.ResponseWriter, r *http.Request) error { return nil })
	s.Handle("GET /api/forbidden", func(w http.ResponseWriter, r *http.Request) error {
		return apperr.Forbidden("server.masterdata.admin_only").Wrap(errTestCause)
	}, httpapi.Public())
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	for _, p := range []string{"/api/private", "/api/forbidden", "/api/missing"} {
		res, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	lines := strings.Split(logs.String(), "\n")
	find := func(path string) string {
		for _, l := range lines {
			if strings.Contains(l, "path="+path+" ") {
				return l
			}
		}
		t.Fatalf("no log line for %s in %s", path, logs.String())
		return ""
	}
	if l := find("/api/private"); !strings.Contains(l, "status=401") || !strings.Contains(l, "refused=server.auth.not_authenticated") {
		t.Errorf("401 line: %s", l)
	}
	if l := find("/api/forbidden"); !strings.Contains(l, `refused="server.masterdata.admin_only: user 7 is no administrator"`) {
		t.Errorf("403 line: %s", l)
	}
	if l := find("/api/missing"); strings.Contains(l, "refused=") {
		t.Errorf("404 line: %s", l)
	}
}

var errTestCause = testCause("user 7 is no administrator")

type testCause string

func (c testCause) Error() string { return string(c) }
