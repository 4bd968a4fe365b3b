// Command load puts a running Portfolio server under load and reports
// throughput, latency percentiles, errors and bytes.
//
// It logs in once (POST /token), then runs -c concurrent clients for -d
// (or until -n requests) after an unmeasured -warmup, each issuing the
// scenario's request in a loop over a keep-alive connection:
//
//	list-page  POST /api/?pos, one page of 50 points of sale filtered by name
//	list-all   POST /api/?pos with per_page 100000 (time to last byte, bytes)
//	create     POST /api/?tag creating a tag "load-<n>"
//	create-pos POST /api/?pos creating a point of sale (company 1 of the demo data)
//	raw        -method, -path and -body as given
//
// -path and -body replace a scenario's defaults; in a body, <n> becomes a
// sequence number unique in the run and <run> the run's start time, so
// created rows differ. When the access token expires (401) the tool logs
// in again once and carries on; the 401 still counts as an error. When -d
// is over, requests in flight get -grace to finish and count; any still
// running then are cancelled and reported as unfinished.
//
// Examples:
//
//	go run ./tools/load -url http://127.0.0.1:8080 -scenario list-page -c 32 -d 30s -warmup 5s
//	go run ./tools/load -scenario raw -method GET -path /user/ -c 32 -d 10s
//	go run ./tools/load -scenario raw -path /healthz -method GET -login=false -n 10000
//
// The list scenarios (sort, sort-count, search, search-count, range-sort,
// range-sort-count, list-page, list-page-count) take -entity, -order,
// -dir, -keyword and -filter to read another entity, sort, keyword or
// filter, e.g. every sortable column of contracts with the total:
//
//	go run ./tools/load -scenario sort-count -entity contract -order contract_end -dir DESC -c 32 -d 8s
//
// -sweep runs a list scenario once per sortable column of its entity, as
// the list screen sorts it (a reference by its label), and ends with a
// table; -min-rps and -max-p99 fail the sweep for a column below that
// rate or above that latency (the targets of issue 19):
//
//	go run ./tools/load -scenario sort-count -entity contract -filter '[]' -sweep -min-rps 1500 -max-p99 40ms -c 32 -d 3s -warmup 1s
//
// -page N reads a deeper page; with -keyset the page is read through the
// "next" token of page N-1 (keyset paging, fetched once before the run):
//
//	go run ./tools/load -scenario sort -page 1000 -keyset -c 32 -d 8s
//
// The last line of the report is a one-line summary for docs/performance.md.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// demoPassword is the password of the demo users (seed.DemoPassword), the
// default for load tests against a demo database.
const demoPassword = "Demo-Password-1"

// scenario is a named request.
type scenario struct {
	method, path, body, about string
}

var scenarios = map[string]scenario{
	"list-page": {"POST", "/api/?pos",
		`{"action":"read-rich","entity":"pos","per_page":50,"current_page":1,"order_by":"pos_name","order_dir":"ASC","filter":[{"field":"pos_name","op":"contains","value":"a"}]}`,
		"one page of 50 points of sale, filtered and sorted by name"},
	"list-all": {"POST", "/api/?pos",
		`{"action":"read-rich","entity":"pos","per_page":100000,"current_page":1,"order_by":"pos_name","order_dir":"ASC"}`,
		"up to 100,000 points of sale in one answer"},
	// The paths of issue 19, every one with its total ("count": true).
	"sort-count": {"POST", "/api/?pos",
		`{"action":"read-rich","entity":"pos","per_page":50,"current_page":1,"order_by":"pos_name","order_dir":"ASC","count":true}`,
		"one page of 50 points of sale sorted by name, with the total"},
	"sort": {"POST", "/api/?pos",
		`{"action":"read-rich","entity":"pos","per_page":50,"current_page":1,"order_by":"pos_name","order_dir":"ASC"}`,
		"one page of 50 points of sale sorted by name, without the total"},
	"search-count": {"POST", "/api/?pos",
		`{"action":"read-rich","entity":"pos","per_page":50,"current_page":1,"order_by":"pos_name","order_dir":"ASC","filter_all":"Berlin","count":true}`,
		"keyword search (filter_all) for Berlin, sorted by name, with the total"},
	"search": {"POST", "/api/?pos",
		`{"action":"read-rich","entity":"pos","per_page":50,"current_page":1,"order_by":"pos_name","order_dir":"ASC","filter_all":"Berlin"}`,
		"keyword search for Berlin, sorted by name, without the total"},
	"range-sort-count": {"POST", "/api/?pos",
		`{"action":"read-rich","entity":"pos","per_page":50,"current_page":1,"order_by":"pos_first_year","order_dir":"DESC","filter":[{"field":"pos_first_year","op":"gt","value":2010}],"count":true}`,
		"points of sale opened after 2010, latest first, with the total"},
	"range-sort": {"POST", "/api/?pos",
		`{"action":"read-rich","entity":"pos","per_page":50,"current_page":1,"order_by":"pos_first_year","order_dir":"DESC","filter":[{"field":"pos_first_year","op":"gt","value":2010}]}`,
		"points of sale opened after 2010, latest first, without the total"},
	"list-page-count": {"POST", "/api/?pos",
		`{"action":"read-rich","entity":"pos","per_page":50,"current_page":1,"order_by":"pos_name","order_dir":"ASC","filter":[{"field":"pos_name","op":"contains","value":"a"}],"count":true}`,
		"list-page with the total"},
	// Issue 12: the deadline list of every contract the caller sees.
	"deadlines": {"GET", "/contracts/deadlines?per_page=50&order_by=contractaction_notice_date", "",
		"one page of 50 deadlines sorted by notice date, with the total"},
	"deadlines-window": {"GET", "/contracts/deadlines?per_page=50&from=2027-01-01&to=2027-12-31&status=active", "",
		"one page of 50 active deadlines with a notice date in 2027, by notice date, with the total"},
	"create": {"POST", "/api/?tag", `{"action":"create","entity":"tag","data":{"tag_name":"load-<n>"}}`,
		"create a tag"},
	// Issue 19: generic creates of a point of sale (validation, reference
	// checks, history) on the demo data (company 1, contact person 1001).
	"create-pos": {"POST", "/api/?pos",
		`{"action":"create","entity":"pos","data":{"company_id":1,"contactperson_id":1001,"pos_name":"Load <run> <n>","pos_branchnumber":"LOAD-<n>","pos_first_year":2020,"pos_opening_date":"2020-01-01"}}`,
		"create a point of sale"},
	"raw": {"GET", "/healthz", "", "-method, -path and -body as given"},
}

// config is what the flags set.
type config struct {
	baseURL, user, password, browserHash string
	login                                bool
	scenario, method, path, body         string
	clients, requests                    int
	duration, warmup, timeout, grace     time.Duration
	headers                              headerFlags
	gzip                                 bool
	// entity, order, dir, keyword and filter change a list scenario's
	// body (POST /api/): another entity, sort, keyword or filter.
	entity, order, dir, keyword, filter string
	// page reads that page of a list scenario (current_page); keyset reads
	// the same page through the "after" token of the page before it
	// (fetched once before the run), to compare a deep offset with keyset
	// paging (issue 19).
	page   int
	keyset bool
	// sweep runs a list scenario once per sortable column of its entity
	// (issue 19: every sortable column keeps its page under the target);
	// minRPS fails the sweep for a column answering fewer requests per
	// second, or failing any.
	sweep  bool
	minRPS float64
	maxP99 time.Duration
}

// headerFlags collects repeated -H "Name: value" flags.
type headerFlags []string

func (h *headerFlags) String() string { return strings.Join(*h, ", ") }

func (h *headerFlags) Set(v string) error {
	if name, _, ok := strings.Cut(v, ":"); !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("header %q is not Name: value", v)
	}
	*h = append(*h, v)
	return nil
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "load:", err)
		}
		os.Exit(1)
	}
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("load", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: go run ./tools/load [flags]\n\nScenarios:\n")
		names := make([]string, 0, len(scenarios))
		for n := range scenarios {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			s := scenarios[n]
			fmt.Fprintf(stderr, "  %-10s %s %s: %s\n", n, s.method, s.path, s.about)
		}
		fmt.Fprintf(stderr, "\nFlags:\n")
		fs.PrintDefaults()
	}
	fs.StringVar(&cfg.baseURL, "url", "http://127.0.0.1:8080", "base URL of the running server")
	fs.StringVar(&cfg.user, "user", "admin@demo.test", "login e-mail")
	fs.StringVar(&cfg.password, "password", demoPassword, "login password (default: the demo password; env PORTFOLIO_LOAD_PASSWORD)")
	fs.StringVar(&cfg.browserHash, "browser-hash", "load-tool", "user_browser_hash sent at login")
	fs.BoolVar(&cfg.login, "login", true, "log in and send the access token (false for public endpoints such as /healthz)")
	fs.StringVar(&cfg.scenario, "scenario", "list-page", "list-page, list-page-count, list-all, sort, sort-count, search, search-count, range-sort, range-sort-count, deadlines, deadlines-window, create or raw")
	fs.StringVar(&cfg.method, "method", "", "HTTP method (default: the scenario's)")
	fs.StringVar(&cfg.path, "path", "", "path and query, e.g. /api/?contract (default: the scenario's)")
	fs.StringVar(&cfg.body, "body", "", "request body, JSON (default: the scenario's); <n> and <run> are replaced")
	fs.IntVar(&cfg.clients, "c", 8, "concurrent clients")
	fs.DurationVar(&cfg.duration, "d", 10*time.Second, "measured duration (ignored when -n is set)")
	fs.IntVar(&cfg.requests, "n", 0, "measured requests in total instead of a duration")
	fs.DurationVar(&cfg.warmup, "warmup", 2*time.Second, "unmeasured warm-up before measuring")
	fs.DurationVar(&cfg.timeout, "timeout", 2*time.Minute, "timeout of one request")
	fs.DurationVar(&cfg.grace, "grace", 5*time.Second, "how long requests in flight at the end of -d may still finish")
	fs.Var(&cfg.headers, "H", "extra request header \"Name: value\" (repeatable), e.g. -H 'Accept-Language: de'")
	fs.BoolVar(&cfg.gzip, "gzip", false, "ask for gzip answers (bytes are then counted compressed)")
	fs.StringVar(&cfg.entity, "entity", "", "list scenarios: read this entity instead of pos (path /api/?<entity>; give -order, and -filter for the range scenarios)")
	fs.StringVar(&cfg.order, "order", "", "list scenarios: sort by this field (order_by)")
	fs.StringVar(&cfg.dir, "dir", "", "list scenarios: ASC or DESC (order_dir)")
	fs.StringVar(&cfg.keyword, "keyword", "", "list scenarios: this keyword (filter_all) instead of the scenario's")
	fs.IntVar(&cfg.page, "page", 0, "list scenarios: read this page (current_page) instead of the first")
	fs.BoolVar(&cfg.keyset, "keyset", false, "list scenarios with -page: read the page through the next token (after) of the page before it, fetched once before the run")
	fs.StringVar(&cfg.filter, "filter", "", "list scenarios: this filter (JSON array, or [] for none) instead of the scenario's")
	fs.BoolVar(&cfg.sweep, "sweep", false, "list scenarios: run once per sortable column of the entity, ordered as the list screen orders it (a reference by its label), and print a table")
	fs.Float64Var(&cfg.minRPS, "min-rps", 0, "with -sweep: fail when a column answers fewer requests per second than this, or fails any request")
	fs.DurationVar(&cfg.maxP99, "max-p99", 0, "with -sweep: fail when a column's 99th percentile latency is above this, or it fails any request")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %v", fs.Args())
	}
	if p := os.Getenv("PORTFOLIO_LOAD_PASSWORD"); p != "" && !flagSet(fs, "password") {
		cfg.password = p
	}
	s, ok := scenarios[cfg.scenario]
	if !ok {
		return cfg, fmt.Errorf("unknown scenario %q (see -h)", cfg.scenario)
	}
	if cfg.method == "" {
		cfg.method = s.method
	}
	if cfg.path == "" {
		cfg.path = s.path
	}
	if !flagSet(fs, "body") {
		cfg.body = s.body
	}
	cfg.method = strings.ToUpper(cfg.method)
	if err := cfg.adjustList(fs); err != nil {
		return cfg, err
	}
	if err := cfg.checkSweep(); err != nil {
		return cfg, err
	}
	if cfg.body != "" && !json.Valid([]byte(strings.NewReplacer("<n>", "0", "<run>", "0").Replace(cfg.body))) {
		return cfg, errors.New("-body is not valid JSON")
	}
	if cfg.clients < 1 || cfg.requests < 0 || cfg.duration <= 0 || cfg.warmup < 0 || cfg.timeout <= 0 || cfg.grace < 0 {
		return cfg, errors.New("-c must be at least 1, -n not negative, -d and -timeout positive, -warmup and -grace not negative")
	}
	if _, err := url.Parse(cfg.baseURL + cfg.path); err != nil {
		return cfg, fmt.Errorf("bad -url or -path: %w", err)
	}
	cfg.baseURL = strings.TrimSuffix(cfg.baseURL, "/")
	return cfg, nil
}

// adjustList applies -entity, -order, -dir, -keyword and -filter to a
// list scenario's body (and -entity to its path unless -path is given).
func (cfg *config) adjustList(fs *flag.FlagSet) error {
	set := map[string]any{}
	if cfg.entity != "" {
		set["entity"] = cfg.entity
		if !flagSet(fs, "path") {
			cfg.path = "/api/?" + url.QueryEscape(cfg.entity)
		}
	}
	if cfg.order != "" {
		set["order_by"] = cfg.order
	}
	if cfg.dir != "" {
		d := strings.ToUpper(cfg.dir)
		if d != "ASC" && d != "DESC" {
			return errors.New("-dir must be ASC or DESC")
		}
		set["order_dir"] = d
	}
	if flagSet(fs, "keyword") {
		set["filter_all"] = cfg.keyword
	}
	if cfg.page > 0 {
		set["current_page"] = cfg.page
	}
	if cfg.filter != "" {
		var f []any
		if err := json.Unmarshal([]byte(cfg.filter), &f); err != nil {
			return fmt.Errorf("-filter is not a JSON array: %w", err)
		}
		set["filter"] = f
	}
	if len(set) == 0 {
		return nil
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(cfg.body), &body); err != nil || body["action"] != "read-rich" {
		return errors.New("-entity, -order, -dir, -keyword, -filter and -page apply to the list scenarios (POST /api/ read-rich) only")
	}
	if cfg.entity != "" && cfg.entity != "pos" && cfg.filter == "" {
		if _, ok := body["filter"]; ok {
			return errors.New("the scenario filters points of sale: give -filter (or -filter '[]') with -entity")
		}
	}
	if cfg.entity != "" && cfg.entity != "pos" && cfg.order == "" && !cfg.sweep {
		return errors.New("give -order with -entity")
	}
	for k, v := range set {
		if k == "filter" && len(v.([]any)) == 0 {
			delete(body, "filter")
			continue
		}
		body[k] = v
	}
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	cfg.body = string(b)
	return nil
}

// checkSweep refuses -sweep where it cannot apply and -min-rps without it.
func (cfg *config) checkSweep() error {
	if !cfg.sweep {
		if cfg.minRPS != 0 || cfg.maxP99 != 0 {
			return errors.New("-min-rps and -max-p99 need -sweep")
		}
		return nil
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(cfg.body), &body); err != nil || body["action"] != "read-rich" {
		return errors.New("-sweep applies to the list scenarios (POST /api/ read-rich) only")
	}
	if cfg.order != "" || cfg.keyset {
		return errors.New("-sweep chooses the order itself: leave out -order and -keyset")
	}
	if cfg.minRPS < 0 || cfg.maxP99 < 0 {
		return errors.New("-min-rps and -max-p99 must not be negative")
	}
	return nil
}

func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	client := &http.Client{
		Timeout: cfg.timeout,
		Transport: &http.Transport{
			Proxy:               nil,
			DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        cfg.clients,
			MaxIdleConnsPerHost: cfg.clients,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true, // bytes are counted as sent; -gzip asks for compression explicitly
			ForceAttemptHTTP2:   false,
		},
	}
	l := &loader{cfg: cfg, client: client, run: strconv.FormatInt(time.Now().Unix(), 10)}
	if cfg.login {
		if err := l.logIn(ctx, 0); err != nil {
			return err
		}
	}
	if cfg.keyset {
		if err := l.keysetBody(ctx); err != nil {
			return err
		}
	}
	if cfg.sweep {
		return l.sweep(ctx, stdout)
	}
	res, err := l.load(ctx)
	if err != nil {
		return err
	}
	res.report(stdout, cfg)
	return nil
}

// keysetBody replaces the list body's page by the "after" token of the
// page before it: one request of that page, its "next" member.
func (l *loader) keysetBody(ctx context.Context) error {
	var body map[string]any
	if err := json.Unmarshal([]byte(l.cfg.body), &body); err != nil || body["action"] != "read-rich" || l.cfg.page < 2 {
		return errors.New("-keyset needs a list scenario and -page 2 or more")
	}
	body["current_page"] = l.cfg.page - 1
	b, _ := json.Marshal(body)
	status, raw, err := l.listOnce(ctx, string(b))
	if err != nil {
		return fmt.Errorf("keyset: %w", err)
	}
	var a struct {
		Data struct {
			Next string `json:"next"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &a); err != nil || status != http.StatusOK || a.Data.Next == "" {
		return fmt.Errorf("keyset: page %d answered status %d and no next token", l.cfg.page-1, status)
	}
	body["current_page"] = l.cfg.page
	body["after"] = a.Data.Next
	b, _ = json.Marshal(body)
	l.cfg.body = string(b)
	return nil
}

// loader runs the clients.
type loader struct {
	cfg    config
	client *http.Client
	run    string
	seq    atomic.Int64
	issued atomic.Int64

	mu       sync.Mutex
	token    string
	tokenGen int
}

// logIn fetches a new access token unless another client already replaced
// token generation gen.
func (l *loader) logIn(ctx context.Context, gen int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if gen != l.tokenGen {
		return nil
	}
	form := url.Values{"username": {l.cfg.user}, "password": {l.cfg.password}, "user_browser_hash": {l.cfg.browserHash}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.cfg.baseURL+"/token", strings.NewReader(form.Encode()))
	if err != nil {
		return fmt.Errorf("login: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := l.client.Do(req)
	if err != nil {
		return fmt.Errorf("login: %w", err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("login: read answer: %w", err)
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("login as %s: status %d: %s", l.cfg.user, res.StatusCode, bytes.TrimSpace(body))
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(body, &tok); err != nil || tok.AccessToken == "" {
		return fmt.Errorf("login: no access_token in %s", bytes.TrimSpace(body))
	}
	l.token = tok.AccessToken
	l.tokenGen++
	return nil
}

func (l *loader) currentToken() (string, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.token, l.tokenGen
}

// sample is one measured request.
type sample struct {
	total, ttfb time.Duration
	status      int // 0: transport error
	bytes       int64
	err         string
}

// load runs the warm-up and the measured phase and collects the samples.
// When the measured duration is over no new requests start; those in
// flight get -grace to finish (and count), then they are cancelled and
// reported as unfinished, so a stalled server cannot stretch the run.
func (l *loader) load(ctx context.Context) (*result, error) {
	start := time.Now()
	measureFrom := start.Add(l.cfg.warmup)
	reqCtx, cancelRequests := context.WithCancel(ctx)
	defer cancelRequests()
	issueCtx, stopIssuing := context.WithCancel(reqCtx)
	defer stopIssuing()
	if l.cfg.requests == 0 {
		end := measureFrom.Add(l.cfg.duration)
		stop := time.AfterFunc(time.Until(end), stopIssuing)
		defer stop.Stop()
		cut := time.AfterFunc(time.Until(end.Add(l.cfg.grace)), cancelRequests)
		defer cut.Stop()
	}

	perClient := make([][]sample, l.cfg.clients)
	unfinished := make([]int, l.cfg.clients)
	var fatalMu sync.Mutex
	var fatal error
	fail := func(err error) {
		fatalMu.Lock()
		if fatal == nil {
			fatal = err
		}
		fatalMu.Unlock()
		cancelRequests()
	}
	var wg sync.WaitGroup
	for c := range l.cfg.clients {
		wg.Go(func() {
			var mine []sample
			for issueCtx.Err() == nil {
				measured := !time.Now().Before(measureFrom)
				if measured && l.cfg.requests > 0 && l.issued.Add(1) > int64(l.cfg.requests) {
					break
				}
				s, gen, err := l.do(reqCtx)
				if err != nil {
					fail(err)
					break
				}
				if reqCtx.Err() != nil && s.status == 0 {
					if measured {
						unfinished[c]++
					}
					break
				}
				if s.status == http.StatusUnauthorized && l.cfg.login {
					if err := l.logIn(reqCtx, gen); err != nil {
						fail(err)
						break
					}
				}
				if measured {
					mine = append(mine, s)
				}
			}
			perClient[c] = mine
		})
	}
	wg.Wait()
	finished := time.Now()
	if fatal != nil {
		return nil, fatal
	}
	res := &result{status: map[int]int{}, transport: map[string]int{}}
	res.elapsed = max(finished.Sub(measureFrom), 0)
	for c, ss := range perClient {
		for _, s := range ss {
			res.add(s)
		}
		res.unfinished += unfinished[c]
	}
	return res, nil
}

// do issues one request and reads the whole answer; it also returns the
// generation of the token it sent.
func (l *loader) do(ctx context.Context) (sample, int, error) {
	var body io.Reader
	if l.cfg.body != "" {
		n := strconv.FormatInt(l.seq.Add(1), 10)
		body = strings.NewReader(strings.NewReplacer("<n>", n, "<run>", l.run).Replace(l.cfg.body))
	}
	started := time.Now()
	var s sample
	trace := &httptrace.ClientTrace{GotFirstResponseByte: func() { s.ttfb = time.Since(started) }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), l.cfg.method, l.cfg.baseURL+l.cfg.path, body)
	if err != nil {
		return s, 0, fmt.Errorf("request: %w", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if l.cfg.gzip {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	gen := 0
	if l.cfg.login {
		var tok string
		tok, gen = l.currentToken()
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for _, h := range l.cfg.headers {
		name, value, _ := strings.Cut(h, ":")
		req.Header.Set(strings.TrimSpace(name), strings.TrimSpace(value))
	}
	res, err := l.client.Do(req)
	if err != nil {
		s.total, s.err = time.Since(started), transportError(err)
		return s, gen, nil
	}
	s.bytes, err = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	s.total, s.status = time.Since(started), res.StatusCode
	if err != nil {
		s.status, s.err = 0, transportError(err)
	}
	return s, gen, nil
}

// transportError names a failure briefly for the report.
func transportError(err error) string {
	var netErr net.Error
	switch {
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.As(err, &netErr) && netErr.Timeout():
		return "timeout"
	case strings.Contains(err.Error(), "connection refused"):
		return "connection refused"
	case strings.Contains(err.Error(), "connection reset"):
		return "connection reset"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "unexpected EOF"
	}
	return "other"
}

// result aggregates the measured samples.
type result struct {
	elapsed     time.Duration
	latencies   []time.Duration // completed answers, to the last byte
	ttfbs       []time.Duration
	status      map[int]int
	transport   map[string]int
	bytes       int64
	count, fail int
	unfinished  int // cut off by the end of the run
}

func (r *result) add(s sample) {
	r.count++
	if s.status == 0 {
		r.fail++
		r.transport[s.err]++
		return
	}
	if s.status >= 400 {
		r.fail++
	}
	r.status[s.status]++
	r.latencies = append(r.latencies, s.total)
	r.ttfbs = append(r.ttfbs, s.ttfb)
	r.bytes += s.bytes
}

// percentile returns the p-th percentile (nearest rank) of sorted d.
func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	i := int(math.Ceil(float64(len(d))*p/100)) - 1
	return d[min(max(i, 0), len(d)-1)]
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64) + " ms"
}

func size(b float64) string {
	switch {
	case b >= 1<<30:
		return strconv.FormatFloat(b/(1<<30), 'f', 2, 64) + " GiB"
	case b >= 1<<20:
		return strconv.FormatFloat(b/(1<<20), 'f', 1, 64) + " MiB"
	case b >= 1<<10:
		return strconv.FormatFloat(b/(1<<10), 'f', 1, 64) + " KiB"
	}
	return strconv.FormatFloat(b, 'f', 0, 64) + " B"
}

// rate is the measured requests per second.
func (r *result) rate() float64 {
	if secs := r.elapsed.Seconds(); secs > 0 {
		return float64(r.count) / secs
	}
	return 0
}

func (r *result) report(w io.Writer, cfg config) {
	slices.Sort(r.latencies)
	slices.Sort(r.ttfbs)
	secs := r.elapsed.Seconds()
	rps := r.rate()
	fmt.Fprintf(w, "scenario   %s: %s %s%s, %d clients, measured %.1fs after %s warm-up\n",
		cfg.scenario, cfg.method, cfg.baseURL, cfg.path, cfg.clients, secs, cfg.warmup)
	fmt.Fprintf(w, "requests   %d (%.1f/s), %d failed", r.count, rps, r.fail)
	if r.unfinished > 0 {
		fmt.Fprintf(w, ", %d unfinished (cut off %s after the end)", r.unfinished, cfg.grace)
	}
	fmt.Fprintln(w)
	var codes []int
	for c := range r.status {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	var parts []string
	for _, c := range codes {
		parts = append(parts, fmt.Sprintf("%d×%d", c, r.status[c]))
	}
	for e, n := range r.transport {
		parts = append(parts, fmt.Sprintf("%s×%d", e, n))
	}
	sort.Strings(parts[len(codes):])
	fmt.Fprintf(w, "status     %s\n", strings.Join(parts, "  "))
	var mean time.Duration
	if len(r.latencies) > 0 {
		var sum time.Duration
		for _, d := range r.latencies {
			sum += d
		}
		mean = sum / time.Duration(len(r.latencies))
	}
	fmt.Fprintf(w, "latency    p50 %s  p90 %s  p99 %s  max %s  mean %s (to the last byte)\n",
		ms(percentile(r.latencies, 50)), ms(percentile(r.latencies, 90)), ms(percentile(r.latencies, 99)),
		ms(percentile(r.latencies, 100)), ms(mean))
	fmt.Fprintf(w, "first byte p50 %s  p90 %s  p99 %s  max %s\n",
		ms(percentile(r.ttfbs, 50)), ms(percentile(r.ttfbs, 90)), ms(percentile(r.ttfbs, 99)), ms(percentile(r.ttfbs, 100)))
	perReq := 0.0
	if len(r.latencies) > 0 {
		perReq = float64(r.bytes) / float64(len(r.latencies))
	}
	rate := 0.0
	if secs > 0 {
		rate = float64(r.bytes) / secs
	}
	fmt.Fprintf(w, "bytes      %s received, %s/request, %s/s\n", size(float64(r.bytes)), size(perReq), size(rate))
	fmt.Fprintf(w, "summary    %s %s %s: c=%d, %.1fs, %.1f req/s, p50 %s, p90 %s, p99 %s, max %s, %d/%d failed, %s/req\n",
		cfg.scenario, cfg.method, cfg.path, cfg.clients, secs, rps,
		ms(percentile(r.latencies, 50)), ms(percentile(r.latencies, 90)), ms(percentile(r.latencies, 99)),
		ms(percentile(r.latencies, 100)), r.fail, r.count, size(perReq))
}
