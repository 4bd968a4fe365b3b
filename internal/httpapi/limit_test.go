package httpapi_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
)

// TestOverloadAnswers503: with two requests in flight and a bound of two,
// a third waits its short turn and is turned away with 503, Retry-After
// and a localized detail; health probes still answer; once the two are
// done, requests are served again.
func TestOverloadAnswers503(t *testing.T) {
	s := httpapi.New(httpapi.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Catalog: i18n.MustLoad(),
		MaxBodyBytes: 1024, MaxInFlight: 2, QueueWait: 20 * time.Millisecond})
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	s.Handle("GET /api/slow", func(w http.ResponseWriter, r *http.Request) error {
		started <- struct{}{}
		<-release
		httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "done"})
		return nil
	}, httpapi.Public())
	s.Handle("GET /api/fast", func(w http.ResponseWriter, r *http.Request) error {
		httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
		return nil
	}, httpapi.Public())
	s.Handle("GET /healthz", func(w http.ResponseWriter, r *http.Request) error {
		httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
		return nil
	}, httpapi.Public())
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()

	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			res, err := http.Get(srv.URL + "/api/slow")
			if err != nil || res.StatusCode != http.StatusOK {
				t.Errorf("slow request: %v %v", err, res)
			}
			if res != nil {
				res.Body.Close()
			}
		})
	}
	<-started
	<-started

	req, _ := http.NewRequest("GET", srv.URL+"/api/fast", nil)
	req.Header.Set("Accept-Language", "de")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Detail string `json:"detail"`
	}
	json.NewDecoder(res.Body).Decode(&body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" || body.Detail != "Der Server ist ausgelastet. Bitte versuchen Sie es gleich noch einmal." {
		t.Fatalf("over the bound: %d Retry-After=%q %q", res.StatusCode, res.Header.Get("Retry-After"), body.Detail)
	}
	if res, err := http.Get(srv.URL + "/healthz"); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("health probe under overload: %v %v", err, res)
	} else {
		res.Body.Close()
	}

	close(release)
	wg.Wait()
	if res, err := http.Get(srv.URL + "/api/fast"); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("after the load: %v %v", err, res)
	} else {
		res.Body.Close()
	}
}
