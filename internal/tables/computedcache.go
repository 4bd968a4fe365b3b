package tables

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// Computed columns (a contract's rental and allocation space summed over
// its areas, each area's tenant tested; its next notice date) cost more
// than the rest of a page: on SQLite 0.3 of a contract page's 0.8 ms, on
// PostgreSQL half of it. They are cached like totals (countcache.go),
// per statement and row, with the data generation of every table they
// read (decision 0045):
//
//   - the page's statement reads NULL in their place and, as its last
//     column, the data generation of the tables the computed columns read
//     (in the same snapshot as the rows);
//   - a row whose values are cached at that generation takes them; the
//     values of the others are computed by one more statement over their
//     keys, which reads the generation again, and cached under it.
//
// The key is the computed columns' statement: their SQL and arguments,
// which hold the caller's tenant scope and today's date, so two callers
// share values only when they would compute the same ones. Triggers bump a
// table's generation in every transaction that writes it, so no write
// path can leave a stale value behind. Only pages are cached (up to
// pageWalkLimit rows), read outside a transaction; the page is read to
// its end before it is answered. Values computed after the page's rows
// were read are at least as new as the rows, never older.

// computedCacheRows bounds the rows whose values are cached; a full cache
// starts over.
const computedCacheRows = 100000

type computedCache struct {
	mu    sync.Mutex
	m     map[string]*computedEntry
	rows  int
	limit int
	// served counts rows answered from the cache (tests).
	served atomic.Int64
}

// computedEntry holds the values of one computed-columns statement at one
// data generation, by row key.
type computedEntry struct {
	generation int64
	values     map[int64][][]byte
}

func newComputedCache(limit int) *computedCache {
	return &computedCache{m: map[string]*computedEntry{}, limit: max(limit, 1)}
}

// lookup answers the cached values of row key at generation gen.
func (c *computedCache) lookup(key string, gen, row int64) ([][]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	if !ok || e.generation != gen {
		return nil, false
	}
	v, ok := e.values[row]
	return v, ok
}

// store caches values computed at generation gen; values of an older
// generation are dropped, values older than the cached ones are not kept.
func (c *computedCache) store(key string, gen int64, values map[int64][][]byte) {
	if gen <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[key]
	switch {
	case ok && e.generation > gen:
		return
	case ok && e.generation < gen:
		c.rows -= len(e.values)
		ok = false
	}
	if !ok {
		e = &computedEntry{generation: gen, values: map[int64][][]byte{}}
		c.m[key] = e
	}
	if c.rows+len(values) > c.limit {
		clear(c.m)
		c.rows = 0
		e = &computedEntry{generation: gen, values: map[int64][][]byte{}}
		c.m[key] = e
	}
	for k, v := range values {
		if _, had := e.values[k]; !had {
			c.rows++
		}
		e.values[k] = v
	}
}

// computedRead is how one page reads its computed columns from the cache.
type computedRead struct {
	cols []int // indexes into listPlan.out
	key  countKey
	// compute selects key, the computed columns and the generation of the
	// rows whose keys its last argument lists (db.KeysArg).
	compute frag
	dialect db.Dialect
}

// computedColumns are the indexes of the plan's cached computed columns.
func (p *listPlan) computedColumns() []int {
	var idx []int
	for i, c := range p.out {
		if cachedComputed(c) {
			idx = append(idx, i)
		}
	}
	return idx
}

// cachedComputed reports whether c's values are cached: aggregates over a
// relation. A value from the row itself or one referenced row costs
// little, and a deadline status depends on the second it is read at.
func cachedComputed(c *colSpec) bool {
	if c.kind != kindDerived || c.onLink {
		return false
	}
	switch c.field.Derived.Func {
	case schema.DeriveCount, schema.DeriveSum, schema.DeriveMin, schema.DeriveNext, schema.DeriveList:
		return true
	}
	return false
}

// cachesComputed reports whether the page may read its computed columns
// from the cache (pageCaches).
func (e *Engine) cachesComputed(q db.Querier, p *listPlan) bool {
	return e.computed != nil && e.pageCaches(q, p)
}

// pageCaches reports whether the page may read values from a cache by data
// generation: a page (not a whole list) of entity rows, outside a
// transaction (whose generation may never commit).
func (e *Engine) pageCaches(q db.Querier, p *listPlan) bool {
	if e.counts == nil || p.t.link != nil || p.limit <= 0 || p.limit > pageWalkLimit {
		return false
	}
	_, outside := q.(*db.DB)
	return outside
}

// computedReadOf renders the computed columns' statement for the caller's
// scope; ok is false when the page has none or a table they read has no
// data generation.
func (e *Engine) computedReadOf(x *env, sc Scope, p *listPlan) (*computedRead, bool, error) {
	r := &computedRead{cols: p.computedColumns(), dialect: x.dialect}
	if len(r.cols) == 0 {
		return nil, false, nil
	}
	s := newSource(x, sc, p.t.ent)
	exprs := make([]frag, len(r.cols))
	for i, at := range r.cols {
		f, err := p.out[at].selectExpr(s)
		if err != nil {
			return nil, false, err
		}
		exprs[i] = f
	}
	pk := col(s.alias, p.t.ent.PK)
	var b sqlb
	b.add("SELECT " + pk + ", ").frag(join(exprs, ", ")).add(" FROM " + s.from())
	stmt := b.done()
	key, ok := e.counts.keyOf(stmt)
	if !ok {
		return nil, false, nil
	}
	r.key = key
	gen := key.generation()
	var c sqlb
	c.add("SELECT " + pk + ", ").frag(join(exprs, ", ")).add(", ").frag(gen)
	c.add(" FROM " + s.from() + " WHERE " + db.InKeys(x.dialect, pk))
	r.compute = c.done()
	return r, true, nil
}

// prefetch reads the page to its end and fills in its computed columns:
// from the cache where the row's generation matches, else computed by one
// statement over the missing rows' keys.
func (e *Engine) prefetch(ctx context.Context, q db.Querier, cur *Cursor, p *listPlan, r *computedRead) error {
	buf, err := bufferRows(cur.rows, cur.dest, false, cur.limit+1)
	if err != nil {
		return err
	}
	cur.rows = buf
	pk := keyColumn(p)
	if pk < 0 {
		return fmt.Errorf("tables: computed columns: the page has no key column")
	}
	genAt := cur.computedAt
	// An entity page lists each key once (cachesComputed: no link rows).
	var missing []int64
	missingAt := map[int64]int{}
	for i := range buf.n {
		key, ok := parseKey(buf.rawAt(i, pk))
		if !ok {
			return fmt.Errorf("tables: computed columns: row key %q is not a number", buf.rawAt(i, pk))
		}
		if vals, ok := e.computed.lookup(r.key.key, buf.intAt(i, genAt), key); ok {
			buf.fill(i, r.cols, vals)
			e.computed.served.Add(1)
			continue
		}
		missing = append(missing, key)
		missingAt[key] = i
	}
	if len(missing) == 0 {
		return nil
	}
	values, err := e.computeRows(ctx, q, r, missing)
	if err != nil {
		return err
	}
	for key, i := range missingAt {
		buf.fill(i, r.cols, values[key])
	}
	return nil
}

// keyColumn is the index of the entity's own key among the plan's columns
// (always read, resolveColumns), or -1.
func keyColumn(p *listPlan) int { return fieldColumn(p, p.t.ent.PK) }

// computeRows runs r's statement for keys, caches its values and answers
// them by key. A key whose row is gone by now has no values (NULL).
func (e *Engine) computeRows(ctx context.Context, q db.Querier, r *computedRead, keys []int64) (map[int64][][]byte, error) {
	args := append(append([]any{}, r.compute.args...), db.KeysArg(r.dialect, keys))
	sqlText, args := db.InlineInts(r.compute.sql, args)
	e.log.DebugContext(ctx, "tables: computed columns", "rows", len(keys), "sql", sqlText)
	values, gen, err := queryKeyedValues(ctx, q, sqlText, args)
	if err != nil {
		return nil, fmt.Errorf("tables: computed columns: %w", err)
	}
	e.computed.store(r.key.key, gen, values)
	return values, nil
}

// queryKeyedValues runs a statement selecting a key, values and a data
// generation per row, and answers the values (copied) by key and the
// generation.
func queryKeyedValues(ctx context.Context, q db.Querier, sqlText string, args []any) (map[int64][][]byte, int64, error) {
	rows, err := q.QueryContext(ctx, sqlText, args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, 0, err
	}
	n := len(cols) - 2 // key, values, generation
	raw := make([]sql.RawBytes, n+1)
	var gen int64
	dest := make([]any, n+2)
	for i := range raw {
		dest[i] = &raw[i]
	}
	dest[n+1] = &gen
	values := map[int64][][]byte{}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, 0, fmt.Errorf("scan: %w", err)
		}
		key, ok := parseKey(raw[0])
		if !ok {
			return nil, 0, fmt.Errorf("row key %q is not a number", raw[0])
		}
		vals := make([][]byte, n)
		for i := range n {
			vals[i] = copyRaw(raw[i+1])
		}
		values[key] = vals
	}
	return values, gen, rows.Err()
}

// copyRaw copies a raw value, keeping NULL (nil) apart from empty text.
func copyRaw(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append(make([]byte, 0, len(b)), b...)
}

// computedPlaceholder reports whether the page's statement reads NULL in
// place of column c, whose value comes from the cache (prefetch).
func (p *listPlan) computedPlaceholder(c *colSpec) bool {
	return p.computed != nil && cachedComputed(c)
}
