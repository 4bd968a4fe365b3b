package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeServer answers /token and a protected /user/; the first token stops
// working after expireAfter requests, as an expired access token would.
type fakeServer struct {
	logins, requests atomic.Int64
	expireAfter      int64
	mu               sync.Mutex
	bodies           []string
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/token":
		if r.FormValue("username") != "admin@demo.test" || r.FormValue("password") != demoPassword || r.FormValue("user_browser_hash") == "" {
			http.Error(w, `{"detail":"wrong"}`, http.StatusUnauthorized)
			return
		}
		n := f.logins.Add(1)
		fmt.Fprintf(w, `{"access_token":"token-%d","refresh_token":"r"}`, n)
	case "/user/":
		auth := r.Header.Get("Authorization")
		if !strings.HasPrefix(auth, "Bearer token-") || (auth == "Bearer token-1" && f.requests.Load() >= f.expireAfter) {
			http.Error(w, `{"detail":"expired"}`, http.StatusUnauthorized)
			return
		}
		f.requests.Add(1)
		io.WriteString(w, `{"user_id":1,"user_email":"admin@demo.test"}`)
	case "/api/":
		b, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.bodies = append(f.bodies, string(b))
		f.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, `{"data":{}}`)
	default:
		http.NotFound(w, r)
	}
}

func TestLoadAgainstFakeServer(t *testing.T) {
	f := &fakeServer{expireAfter: 50}
	srv := httptest.NewServer(f)
	defer srv.Close()

	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"-url", srv.URL, "-scenario", "raw", "-method", "get", "-path", "/user/",
		"-c", "4", "-n", "200", "-warmup", "0"}, &out, &errOut)
	if err != nil {
		t.Fatalf("run: %v\n%s", err, errOut.String())
	}
	report := out.String()
	t.Log(report)
	if f.logins.Load() != 2 {
		t.Errorf("logins: %d, want 2 (start, and once after the token expired)", f.logins.Load())
	}
	for _, want := range []string{"requests   200 (", "200×", "401×", "summary    raw GET /user/: c=4"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if lines := strings.Split(strings.TrimSpace(report), "\n"); !strings.HasPrefix(lines[len(lines)-1], "summary") {
		t.Errorf("the summary is not the last line")
	}
}

func TestCreateBodiesAreUnique(t *testing.T) {
	f := &fakeServer{}
	srv := httptest.NewServer(f)
	defer srv.Close()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-url", srv.URL, "-scenario", "create", "-c", "3", "-n", "30", "-warmup", "0"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, b := range f.bodies {
		var req struct {
			Action string `json:"action"`
			Entity string `json:"entity"`
			Data   struct {
				Name string `json:"tag_name"`
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(b), &req); err != nil {
			t.Fatalf("body %s: %v", b, err)
		}
		if req.Action != "create" || req.Entity != "tag" || !strings.HasPrefix(req.Data.Name, "load-") || seen[req.Data.Name] {
			t.Errorf("unexpected or repeated body %s", b)
		}
		seen[req.Data.Name] = true
	}
	if len(seen) != 30 {
		t.Errorf("%d distinct tags created, want 30", len(seen))
	}
}

func TestDurationAndWarmup(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer srv.Close()
	var out bytes.Buffer
	start := time.Now()
	if err := run(context.Background(), []string{"-url", srv.URL, "-scenario", "raw", "-path", "/healthz", "-login=false",
		"-c", "2", "-d", "300ms", "-warmup", "100ms"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < 400*time.Millisecond || took > 5*time.Second {
		t.Errorf("took %s for 100ms warm-up and 300ms measurement", took)
	}
	// The window measured is at least the 300 ms asked for; requests in
	// flight when it closes may stretch it on a busy machine.
	m := regexp.MustCompile(`measured (\d+\.\d)s after 100ms warm-up`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("report: %s", out.String())
	}
	if secs, _ := strconv.ParseFloat(m[1], 64); secs < 0.3 {
		t.Errorf("measured %ss, asked for 0.3s: %s", m[1], out.String())
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-scenario", "nope"}, {"-c", "0"}, {"-body", "{not json"}, {"-d", "0s"}, {"extra"},
	} {
		if err := run(context.Background(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	for p, want := range map[float64]time.Duration{50: 50 * time.Millisecond, 90: 90 * time.Millisecond,
		99: 99 * time.Millisecond, 100: 100 * time.Millisecond} {
		if got := percentile(d, p); got != want {
			t.Errorf("p%g = %s, want %s", p, got, want)
		}
	}
	if percentile(nil, 50) != 0 {
		t.Error("empty percentile")
	}
}

func TestStalledServerDoesNotStretchTheRun(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	var out bytes.Buffer
	start := time.Now()
	if err := run(context.Background(), []string{"-url", srv.URL, "-scenario", "raw", "-path", "/slow", "-login=false",
		"-c", "3", "-d", "200ms", "-warmup", "0", "-grace", "100ms", "-timeout", "1m"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("run took %s with a stalled server", took)
	}
	if !strings.Contains(out.String(), "3 unfinished (cut off 100ms after the end)") {
		t.Errorf("report: %s", out.String())
	}
}

func TestListFlagsRewriteTheBody(t *testing.T) {
	cfg, err := parseFlags([]string{"-scenario", "range-sort-count", "-entity", "contract", "-order", "contract_end", "-dir", "desc",
		"-keyword", "Süd", "-filter", `[{"field":"contract_end","op":"gt","value":"2020-01-01"}]`}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(cfg.body), &body); err != nil {
		t.Fatal(err)
	}
	if cfg.path != "/api/?contract" || body["entity"] != "contract" || body["order_by"] != "contract_end" ||
		body["order_dir"] != "DESC" || body["filter_all"] != "Süd" || body["count"] != true || body["per_page"] != float64(50) {
		t.Errorf("path %s, body %s", cfg.path, cfg.body)
	}
	if f, _ := body["filter"].([]any); len(f) != 1 {
		t.Errorf("filter %v", body["filter"])
	}
	cfg, err = parseFlags([]string{"-scenario", "list-page", "-filter", "[]", "-order", "pos_first_year"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(cfg.body, `"filter"`) || !strings.Contains(cfg.body, `"order_by":"pos_first_year"`) || cfg.path != "/api/?pos" {
		t.Errorf("path %s, body %s", cfg.path, cfg.body)
	}
	for _, args := range [][]string{
		{"-scenario", "create", "-order", "x"},
		{"-scenario", "range-sort", "-entity", "contract", "-order", "contract_end"},
		{"-scenario", "sort", "-entity", "contract"},
		{"-scenario", "sort", "-dir", "up"},
		{"-scenario", "sort", "-filter", "{}"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

// sweepServer answers /token and a list whose attributes hold a plain
// sortable field, a sortable reference, a field that is not sortable and
// one column (failing) whose pages fail; it records the orders asked for.
type sweepServer struct {
	mu     sync.Mutex
	orders map[string]int
}

func (f *sweepServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/token":
		io.WriteString(w, `{"access_token":"token-1"}`)
	case "/api/":
		var body map[string]any
		json.NewDecoder(r.Body).Decode(&body)
		order, _ := body["order_by"].(string)
		if body["per_page"] == float64(1) {
			io.WriteString(w, `{"data":{"data":[]},"attributes":[`+
				`{"attribute":"contract_id","sortable":true},`+
				`{"attribute":"pos_id","sortable":true,"ref":{"table":"pos"}},`+
				`{"attribute":"contract_rentalspace_sum"},`+
				`{"attribute":"failing","sortable":true}]}`)
			return
		}
		f.mu.Lock()
		f.orders[order]++
		f.mu.Unlock()
		if order == "failing" {
			http.Error(w, `{"detail":"boom"}`, http.StatusInternalServerError)
			return
		}
		io.WriteString(w, `{"data":{"data":[]}}`)
	default:
		http.NotFound(w, r)
	}
}

func TestSweepRunsEverySortableColumnAsTheScreenSortsIt(t *testing.T) {
	f := &sweepServer{orders: map[string]int{}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	args := []string{"-url", srv.URL, "-scenario", "sort-count", "-entity", "contract", "-filter", "[]", "-sweep",
		"-c", "2", "-n", "10", "-warmup", "0"}

	var out, errOut bytes.Buffer
	err := run(context.Background(), append(args, "-min-rps", "0.001", "-max-p99", "1h"), &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "1 of 3 columns") || !strings.Contains(err.Error(), ": failing") {
		t.Fatalf("a column whose pages fail must fail the sweep, got %v\n%s", err, out.String())
	}
	for _, want := range []string{"sweep      3 columns", "| `contract_id` | ", "| `pos_id__label` | ", "| `failing` (misses) | "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	f.mu.Lock()
	orders := maps.Clone(f.orders)
	f.mu.Unlock()
	if orders["contract_id"] != 10 || orders["pos_id__label"] != 10 || orders["pos_id"] != 0 || orders["contract_rentalspace_sum"] != 0 {
		t.Errorf("orders asked for: %v; want 10 pages each of contract_id and pos_id__label (a reference by its label), none of the rest", orders)
	}

	// Without -min-rps the sweep only reports.
	out.Reset()
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("a sweep without -min-rps reports only, got %v", err)
	}
}

func TestSweepFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-scenario", "create", "-sweep"},
		{"-scenario", "sort-count", "-sweep", "-order", "pos_name"},
		{"-scenario", "sort-count", "-min-rps", "10"},
		{"-scenario", "sort-count", "-sweep", "-min-rps", "-1"},
		{"-scenario", "sort-count", "-max-p99", "40ms"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("parseFlags(%v) accepted", args)
		}
	}
}

func TestSweepTarget(t *testing.T) {
	rows := []sweepRow{
		{column: "fast", rps: 2000, p99: 20 * time.Millisecond, count: 100},
		{column: "slow_tail", rps: 2000, p99: 50 * time.Millisecond, count: 100},
		{column: "low_rate", rps: 900, p99: 20 * time.Millisecond, count: 100},
		{column: "failed", rps: 2000, p99: 20 * time.Millisecond, count: 100, fail: 1},
	}
	var out bytes.Buffer
	err := reportSweep(&out, rows, target{minRPS: 1500, maxP99: 40 * time.Millisecond})
	if err == nil || !strings.HasSuffix(err.Error(), "slow_tail, low_rate, failed") {
		t.Fatalf("want the three columns that miss, got %v", err)
	}
	if !strings.Contains(out.String(), "| `fast` | 2000.0 | 20.0 ms | 0/100 |") {
		t.Errorf("table:\n%s", out.String())
	}
	if err := reportSweep(io.Discard, rows, target{}); err != nil {
		t.Errorf("without a target the sweep only reports, got %v", err)
	}
}
