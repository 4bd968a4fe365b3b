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
	"portfolio/internal/turn"
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

// TestTurnsKeepALine: with one turn, a second request waits in line while
// the first holds it and runs once it is given back; with a short spill,
// a request that waited that long goes ahead beside a turn still held
// (answered, never turned away).
func TestTurnsKeepALine(t *testing.T) {
	serve := func(spill time.Duration) (url string, started chan string, release chan struct{}) {
		s := httpapi.New(httpapi.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Catalog: i18n.MustLoad(),
			MaxBodyBytes: 1024, Turns: 1, TurnSpill: spill})
		started = make(chan string, 4)
		release = make(chan struct{})
		s.Handle("GET /api/hold", func(w http.ResponseWriter, r *http.Request) error {
			started <- "hold"
			<-release
			httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "done"})
			return nil
		}, httpapi.Public())
		s.Handle("GET /api/next", func(w http.ResponseWriter, r *http.Request) error {
			started <- "next"
			httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
			return nil
		}, httpapi.Public())
		srv := httptest.NewServer(s.Handler())
		t.Cleanup(srv.Close)
		return srv.URL, started, release
	}
	get := func(url string, done chan<- int) {
		res, err := http.Get(url)
		if err != nil {
			t.Errorf("GET %s: %v", url, err)
			done <- 0
			return
		}
		res.Body.Close()
		done <- res.StatusCode
	}

	t.Run("in line", func(t *testing.T) {
		url, started, release := serve(time.Hour)
		holdDone, nextDone := make(chan int, 1), make(chan int, 1)
		go get(url+"/api/hold", holdDone)
		if got := <-started; got != "hold" {
			t.Fatalf("first started: %s", got)
		}
		go get(url+"/api/next", nextDone)
		select {
		case got := <-started:
			t.Fatalf("%s ran while the only turn was held", got)
		case <-time.After(300 * time.Millisecond):
		}
		close(release)
		if got := <-started; got != "next" {
			t.Fatalf("after the turn came back: %s", got)
		}
		if a, b := <-holdDone, <-nextDone; a != http.StatusOK || b != http.StatusOK {
			t.Fatalf("answers: %d %d", a, b)
		}
	})

	t.Run("spilled", func(t *testing.T) {
		url, started, release := serve(20 * time.Millisecond)
		defer close(release)
		holdDone, nextDone := make(chan int, 1), make(chan int, 1)
		go get(url+"/api/hold", holdDone)
		<-started
		go get(url+"/api/next", nextDone)
		select {
		case status := <-nextDone:
			if status != http.StatusOK {
				t.Fatalf("the spilled request answered %d", status)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("a request waited past its spill while the turn was held")
		}
	})
}

// TestTurnGivenBackWhileWaiting: with one turn, a request that waits for
// something else (the database's single writer) gives its turn back
// (turn.Release), so the request behind it in line runs meanwhile; it takes
// a turn again before it goes on, so a third request waits in line until it
// is done. Without the hand-back, the second request waits for the first.
func TestTurnGivenBackWhileWaiting(t *testing.T) {
	s := httpapi.New(httpapi.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Catalog: i18n.MustLoad(),
		MaxBodyBytes: 1024, Turns: 1, TurnSpill: time.Hour})
	waiting, resume, retaken, finish := make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{})
	ran := make(chan string, 4)
	s.Handle("GET /api/wait", func(w http.ResponseWriter, r *http.Request) error {
		retake := turn.Release(r.Context())
		close(waiting)
		<-resume
		retake()
		close(retaken)
		<-finish
		httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "done"})
		return nil
	}, httpapi.Public())
	s.Handle("GET /api/next", func(w http.ResponseWriter, r *http.Request) error {
		ran <- r.URL.Query().Get("n")
		httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
		return nil
	}, httpapi.Public())
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	var resumed, finished sync.Once
	defer resumed.Do(func() { close(resume) }) // a failed test must not leave the handler waiting
	defer finished.Do(func() { close(finish) })
	get := func(path string, done chan<- int) {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Errorf("GET %s: %v", path, err)
			done <- 0
			return
		}
		res.Body.Close()
		done <- res.StatusCode
	}

	waitDone, secondDone, thirdDone := make(chan int, 1), make(chan int, 1), make(chan int, 1)
	go get("/api/wait", waitDone)
	<-waiting
	go get("/api/next?n=2", secondDone)
	select {
	case <-ran:
	case <-time.After(30 * time.Second):
		t.Fatal("the request behind a waiting one did not run: the turn was not given back")
	}
	if status := <-secondDone; status != http.StatusOK {
		t.Fatalf("second request: %d", status)
	}
	resumed.Do(func() { close(resume) })
	<-retaken
	go get("/api/next?n=3", thirdDone)
	select {
	case n := <-ran:
		t.Fatalf("request %s ran while the waiting request held the only turn again", n)
	case <-time.After(300 * time.Millisecond):
	}
	finished.Do(func() { close(finish) })
	if status := <-waitDone; status != http.StatusOK {
		t.Fatalf("waiting request: %d", status)
	}
	if n := <-ran; n != "3" {
		t.Fatalf("after the turn came back: request %s ran", n)
	}
	if status := <-thirdDone; status != http.StatusOK {
		t.Fatalf("third request: %d", status)
	}
}
