package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"
)

// sweepRow is one column's outcome in a sweep.
type sweepRow struct {
	column      string
	rps         float64
	p99         time.Duration
	count, fail int
}

// target is what -min-rps and -max-p99 ask of every column (zero: not
// asked).
type target struct {
	minRPS float64
	maxP99 time.Duration
}

func (t target) set() bool { return t.minRPS > 0 || t.maxP99 > 0 }

func (t target) String() string {
	var parts []string
	if t.minRPS > 0 {
		parts = append(parts, fmt.Sprintf("at least %.0f req/s", t.minRPS))
	}
	if t.maxP99 > 0 {
		parts = append(parts, "p99 at most "+ms(t.maxP99))
	}
	return strings.Join(parts, " and ")
}

// misses reports whether the row misses target t: too slow, or any
// request failed (or none was made).
func (r sweepRow) misses(t target) bool {
	if !t.set() {
		return false
	}
	return r.fail > 0 || r.count == 0 || (t.minRPS > 0 && r.rps < t.minRPS) || (t.maxP99 > 0 && r.p99 > t.maxP99)
}

// sweep runs the list scenario once per sortable column of its entity,
// each ordered as the list screen orders it (sortColumns), reports each
// run and then a table of all columns. With -min-rps or -max-p99 a
// column missing them, or with a failed request, fails the sweep after
// the table.
func (l *loader) sweep(ctx context.Context, w io.Writer) error {
	columns, err := l.sortColumns(ctx)
	if err != nil {
		return err
	}
	if len(columns) == 0 {
		return fmt.Errorf("sweep: %s lists no sortable column", l.cfg.path)
	}
	rows := make([]sweepRow, 0, len(columns))
	cur := l
	for _, column := range columns {
		cfg := l.cfg
		cfg.order = column
		if cfg.body, err = withBody(cfg.body, map[string]any{"order_by": column}); err != nil {
			return err
		}
		cur = cur.with(cfg)
		res, err := cur.load(ctx)
		if err != nil {
			return fmt.Errorf("sweep %s: %w", column, err)
		}
		res.report(w, cfg)
		rows = append(rows, sweepRow{column: column, rps: res.rate(), p99: percentile(res.latencies, 99),
			count: res.count, fail: res.fail})
	}
	return reportSweep(w, rows, target{minRPS: l.cfg.minRPS, maxP99: l.cfg.maxP99})
}

// reportSweep prints the sweep's table and fails when a row misses t.
func reportSweep(w io.Writer, rows []sweepRow, t target) error {
	fmt.Fprintf(w, "\nsweep      %d columns\n", len(rows))
	fmt.Fprintln(w, "| column | req/s | p99 | failed |")
	fmt.Fprintln(w, "|---|---|---|---|")
	var low []string
	for _, r := range rows {
		mark := ""
		if r.misses(t) {
			mark = " (misses)"
			low = append(low, r.column)
		}
		fmt.Fprintf(w, "| `%s`%s | %.1f | %s | %d/%d |\n", r.column, mark, r.rps, ms(r.p99), r.fail, r.count)
	}
	if len(low) > 0 {
		return fmt.Errorf("sweep: %d of %d columns miss %s, or fail: %s",
			len(low), len(rows), t, strings.Join(low, ", "))
	}
	return nil
}

// sortColumns asks the list for its attribute definitions (one row) and
// returns the columns a user can sort by, as the list screen sends them:
// a reference by its label (<field>__label), other fields by name.
func (l *loader) sortColumns(ctx context.Context) ([]string, error) {
	// The scenario's own order may name a column of another entity.
	body, err := withBody(l.cfg.body, map[string]any{"per_page": 1, "current_page": 1, "count": false, "order_by": nil, "order_dir": nil})
	if err != nil {
		return nil, err
	}
	status, raw, err := l.listOnce(ctx, body)
	if err != nil {
		return nil, fmt.Errorf("sweep: read the attributes: %w", err)
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("sweep: the list answered status %d: %s", status, bytes.TrimSpace(raw))
	}
	var a struct {
		Attributes []struct {
			Attribute string          `json:"attribute"`
			Sortable  bool            `json:"sortable"`
			Ref       json.RawMessage `json:"ref"`
		} `json:"attributes"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("sweep: the list's answer: %w", err)
	}
	var columns []string
	for _, at := range a.Attributes {
		switch {
		case !at.Sortable:
		case len(at.Ref) > 0 && string(at.Ref) != "null":
			columns = append(columns, at.Attribute+"__label")
		default:
			columns = append(columns, at.Attribute)
		}
	}
	return slices.Compact(columns), nil
}

// withBody returns the JSON object body with the members of set replaced
// (a nil value removes the member).
func withBody(body string, set map[string]any) (string, error) {
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		return "", fmt.Errorf("sweep: the scenario's body: %w", err)
	}
	for k, v := range set {
		if v == nil {
			delete(m, k)
			continue
		}
		m[k] = v
	}
	b, err := json.Marshal(m)
	return string(b), err
}

// with returns a loader for cfg that shares l's client, run and access
// token (and so logs in again only when that token expires).
func (l *loader) with(cfg config) *loader {
	tok, gen := l.currentToken()
	return &loader{cfg: cfg, client: l.client, run: l.run, token: tok, tokenGen: gen}
}

// listOnce posts body to the scenario's path once, outside the measured
// run, with the current access token, and returns the status and answer.
func (l *loader) listOnce(ctx context.Context, body string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.cfg.baseURL+l.cfg.path, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if tok, _ := l.currentToken(); tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	res, err := l.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 8<<20))
	return res.StatusCode, raw, err
}
