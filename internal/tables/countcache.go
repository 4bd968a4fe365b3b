package tables

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// Totals ("Rows 1–50 of 3,158") are cached so that a list does not count
// its rows again on every page. A count is cached under its statement (SQL
// and arguments: entity, filter, keyword, relation owner and the caller's
// tenant scope, dates included) together with the *data generation* it was
// counted at: the sum of the counters of every table the statement reads
// (data_generation, migration 0013; triggers bump a table's counter in
// every transaction that writes to it, so no write path can forget it, and
// since counters only grow, the sum grows with any of them).
//
// A cached total is served only after the database said, in the same
// statement as the page (one round trip, one snapshot), that the generation
// is still the one it was counted at; otherwise, and for empty pages, the
// rows are counted again once the page is read. So a cached total is never
// older than the page it comes with. Counts inside a transaction (module
// calls) are never cached: their generation may never commit.

// countCacheSize bounds the number of cached totals; a full cache starts
// over.
const countCacheSize = 10000

// slowCount and slowCountRows: a total of at least slowCountRows rows whose
// count took slowCount or longer is, after a write, answered as of that
// count while the rows are counted again in the background (decision
// 0057): a million tickets take a second or more to count, and every
// ticket moved on a board would otherwise hold the next page of the list
// that long. The size keeps a small list exact whatever a busy moment made
// its count take.
const (
	slowCount     = 250 * time.Millisecond
	slowCountRows = 10000
)

// recountTimeout bounds a count in the background.
const recountTimeout = 5 * time.Minute

type countEntry struct {
	generation int64
	n          int64
	// at is when the rows were counted; took is how long counting took.
	at   time.Time
	took time.Duration
}

// countCache holds totals per count statement and data generation.
type countCache struct {
	mu      sync.Mutex
	m       map[string]countEntry
	limit   int
	tracked map[string]string // table (or search index) → the table whose generation covers it
	// served counts the totals answered from the cache, stale those
	// answered as of an older count (tests).
	served, stale atomic.Int64
	// slow and slowRows are slowCount and slowCountRows (tests set them
	// lower).
	slow     time.Duration
	slowRows int64
	// counting holds the counts under way by key: one request counts, the
	// others wait for its total (countFresh).
	counting map[string]*pendingCount
	// readsOf remembers, per count statement text, the tables it reads
	// (nil: not cacheable): finding them takes three regular expressions
	// over the text, and the same few statements repeat on every page.
	readsMu sync.Mutex
	readsOf map[string][]string
}

// readsCacheSize bounds readsOf; a full map starts over.
const readsCacheSize = 4096

// pendingCount is a count under way; done closes when n and err are set.
type pendingCount struct {
	done chan struct{}
	n    int64
	gen  int64 // the data generation it was counted at
	err  error
}

func newCountCache(reg *schema.Registry, limit int) *countCache {
	c := &countCache{m: map[string]countEntry{}, limit: max(limit, 1), tracked: map[string]string{},
		slow: slowCount, slowRows: slowCountRows}
	for _, t := range generationTables(reg) {
		c.tracked[t] = t
	}
	for _, x := range searchIndexes(reg) {
		c.tracked[x.ftsTable()] = x.ent.Table // kept in step with its table by trigger
	}
	return c
}

var (
	quotedTable   = regexp.MustCompile(`\b(?:FROM|JOIN) "((?:[^"]|"")+)"`)
	anyFromOrJoin = regexp.MustCompile(`\b(?:FROM|JOIN) `)
	subquery      = regexp.MustCompile(`\b(?:FROM|JOIN) \(`)
)

// countKey is a count statement's cache key and the tables whose
// generations it depends on; ok is false when the statement reads a table
// without a generation (it is then never cached).
type countKey struct {
	key    string
	tables []string
}

func (c *countCache) keyOf(st frag) (countKey, bool) {
	tables := c.reads(st.sql)
	if tables == nil {
		return countKey{}, false
	}
	var b strings.Builder
	b.WriteString(st.sql)
	for _, a := range st.args {
		b.WriteByte(0)
		switch v := a.(type) {
		case string:
			b.WriteString("s" + v)
		case int64:
			b.WriteString("i" + strconv.FormatInt(v, 10))
		case time.Time:
			b.WriteString("t" + v.UTC().Format(time.RFC3339Nano))
		default:
			fmt.Fprintf(&b, "%T%v", v, v)
		}
	}
	return countKey{key: b.String(), tables: tables}, true
}

// reads answers the tables with a generation that statement sql reads, or
// nil when it reads one without (or a FROM or JOIN this parser does not
// understand).
func (c *countCache) reads(sql string) []string {
	c.readsMu.Lock()
	tables, ok := c.readsOf[sql]
	c.readsMu.Unlock()
	if ok {
		return tables
	}
	tables = c.parseReads(sql)
	c.readsMu.Lock()
	if c.readsOf == nil || len(c.readsOf) >= readsCacheSize {
		c.readsOf = map[string][]string{}
	}
	c.readsOf[sql] = tables
	c.readsMu.Unlock()
	return tables
}

func (c *countCache) parseReads(sql string) []string {
	found := quotedTable.FindAllStringSubmatch(sql, -1)
	if len(found)+len(subquery.FindAllStringIndex(sql, -1)) != len(anyFromOrJoin.FindAllStringIndex(sql, -1)) {
		return nil
	}
	seen := map[string]bool{}
	tables := []string{}
	for _, m := range found {
		t, ok := c.tracked[strings.ReplaceAll(m[1], `""`, `"`)]
		if !ok {
			return nil
		}
		if !seen[t] {
			seen[t] = true
			tables = append(tables, t)
		}
	}
	return tables
}

// tableKey is the key of one table's data generation; ok is false for a
// table without one.
func (c *countCache) tableKey(table string) (countKey, bool) {
	if c.tracked[table] != table {
		return countKey{}, false
	}
	return countKey{key: table, tables: []string{table}}, true
}

// generation renders the data generation of k's tables as a scalar
// sub-query.
// The table names (of the registry, never user input) are literals, so
// the page statement carrying it keeps only the arguments of its own
// (db.InlineInts).
func (k countKey) generation() frag {
	return frag{sql: "(SELECT COALESCE(SUM(generation), 0) FROM data_generation WHERE table_name IN (" + tableList(k.tables) + "))"}
}

// generationsColumn renders the data generations of several keys' tables
// as one scalar sub-query answering "g1,g2,…", read apart by
// splitGenerations; of one key, as generation does. PostgreSQL runs each
// sub-query of a page as an init plan of its own, about 18 µs of its CPU
// each: a ticket page carried six, a fifth of its statement's cost.
func generationsColumn(keys []countKey) frag {
	if len(keys) == 1 {
		return keys[0].generation()
	}
	var all []string
	sums := make([]string, len(keys))
	for i, k := range keys {
		sums[i] = "COALESCE(SUM(generation) FILTER (WHERE table_name IN (" + tableList(k.tables) + ")), 0)"
		for _, t := range k.tables {
			if !slices.Contains(all, t) {
				all = append(all, t)
			}
		}
	}
	return frag{sql: "(SELECT " + strings.Join(sums, " || ',' || ") + " FROM data_generation WHERE table_name IN (" + tableList(all) + "))"}
}

// tableList renders table names (of the registry, never user input) as
// SQL literals.
func tableList(tables []string) string {
	names := make([]string, len(tables))
	for i, t := range tables {
		names[i] = "'" + strings.ReplaceAll(t, "'", "''") + "'"
	}
	return strings.Join(names, ", ")
}

func (c *countCache) get(key string) (countEntry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	return e, ok
}

func (c *countCache) put(key string, e countEntry) {
	if e.generation <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[key]; ok && old.generation > e.generation {
		return
	}
	if len(c.m) >= c.limit {
		clear(c.m)
	}
	c.m[key] = e
}

// countFresh counts the rows of count statement st together with the data
// generation of k, in one statement, and caches the total. One request at
// a time counts one statement: the others that miss the cache meanwhile
// (a busy list on start, or after a write) wait for its total instead of
// all counting at once (32 requests counting a tenant's
// 300,000 rows together finished none for many seconds). A total counted at
// a data generation older than minGeneration (the generation of the rows it
// will be shown with) is not taken: the request counts again itself. The
// count runs to its end even when its request goes away.
func (e *Engine) countFresh(ctx context.Context, q db.Querier, name string, st frag, k countKey, minGeneration int64) (int64, error) {
	c := e.counts
	p, mine := c.begin(k.key)
	if !mine {
		select {
		case <-p.done:
			if p.err == nil && p.gen >= minGeneration {
				return p.n, nil
			}
			n, _, err := e.countNow(ctx, q, name, st, k)
			return n, err
		case <-ctx.Done():
			return 0, fmt.Errorf("tables: wait for the count of %s: %w", name, ctx.Err())
		}
	}
	p.n, p.gen, p.err = e.countNow(context.WithoutCancel(ctx), q, name, st, k)
	c.end(k.key, p)
	return p.n, p.err
}

// settleTotal answers the total of a page whose rows did not confirm the
// cached one: counted again now, or, when that count was big and slow
// (decision 0057), the cached total with the moment it was counted while
// the rows are counted again in the background.
func (e *Engine) settleTotal(ctx context.Context, q db.Querier, name string, st frag, k countKey, cached countEntry, minGeneration int64) (int64, *time.Time, error) {
	c := e.counts
	if cached.n >= c.slowRows && cached.took >= c.slow {
		c.stale.Add(1)
		e.recountLater(q, name, st, k)
		at := cached.at.UTC()
		return cached.n, &at, nil
	}
	n, err := e.countFresh(ctx, q, name, st, k, minGeneration)
	return n, nil, err
}

// recountLater counts st again in the background, unless it is being
// counted already: its list answered the total as of an older count
// (settleTotal). Engine.Close stops and waits for these counts.
func (e *Engine) recountLater(q db.Querier, name string, st frag, k countKey) {
	c := e.counts
	p, mine := c.begin(k.key)
	if !mine {
		return
	}
	e.background.Add(1)
	go func() {
		defer e.background.Done()
		ctx, cancel := context.WithTimeout(e.stopping, recountTimeout)
		defer cancel()
		p.n, p.gen, p.err = e.countNow(ctx, q, name, st, k)
		if p.err != nil && e.stopping.Err() == nil {
			e.log.Error("tables: count in the background failed", "entity", name, "error", p.err)
		}
		c.end(k.key, p)
	}()
}

// begin registers a count of key; mine is false when one is under way
// already (p is that one).
func (c *countCache) begin(key string) (p *pendingCount, mine bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.counting[key]; ok {
		return p, false
	}
	if c.counting == nil {
		c.counting = map[string]*pendingCount{}
	}
	p = &pendingCount{done: make(chan struct{})}
	c.counting[key] = p
	return p, true
}

// end publishes the outcome of the count begun for key.
func (c *countCache) end(key string, p *pendingCount) {
	c.mu.Lock()
	delete(c.counting, key)
	c.mu.Unlock()
	close(p.done)
}

// countNow counts st with the data generation of k, caches the total and
// answers it with the generation.
func (e *Engine) countNow(ctx context.Context, q db.Querier, name string, st frag, k countKey) (n, gen int64, err error) {
	g := k.generation()
	e.log.DebugContext(ctx, "tables: count statement", "entity", name, "sql", st.sql, "args", st.args)
	at, start := e.now(), time.Now()
	if err := q.QueryRowContext(ctx, "SELECT ("+st.sql+"), "+g.sql, append(append([]any{}, st.args...), g.args...)...).Scan(&n, &gen); err != nil {
		return 0, 0, fmt.Errorf("tables: count %s: %w", name, err)
	}
	e.counts.put(k.key, countEntry{generation: gen, n: n, at: at, took: time.Since(start)})
	return n, gen, nil
}
