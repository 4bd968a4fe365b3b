package tables

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// A ticket page shows, for each of its rows, the labels of its priority,
// board, column, team and two users and the names of its board, column and
// priority: six joins, a quarter of PostgreSQL's work for the page and a
// fifth of SQLite's, for values that come from a few dozen rows which
// hardly ever change. Values read from a referenced entity of few rows
// (schema.Entity.FewRows) are therefore served from memory, cached like
// computed columns (computedcache.go, decision 0049):
//
//   - the page's statement reads NULL in their place (no join) and, per
//     referenced table (per foreign key: a user's activity, recorded every
//     minute, must not make a page read its priorities again), one more
//     column: the data generation of the tables the values read, in the
//     same snapshot as the rows;
//   - each row takes the values cached for its foreign key at that
//     generation; when one is missing, the page is read to its end, the
//     missing keys' values are read by one statement per reference (which
//     reads the generation again) and cached under that generation.
//
// The values are rendered for the caller (masking, language-free labels),
// and the cache key is their statement, so two callers share values only
// when they would read the same ones. A referenced row's label is read
// without the referenced entity's tenant scope, as the LEFT JOIN it
// replaces reads it: the caller sees the label of a row their own row
// references.

// refCacheKeys bounds the values cached per statement; a statement with
// more keys starts over with the ones it reads now.
const refCacheKeys = 20000

// refCacheStatements bounds the cached statements; a full cache starts
// over.
const refCacheStatements = 1000

// refCache holds the values of referenced rows per statement and data
// generation. A published refValues is never changed, so a page reads it
// without a lock.
type refCache struct {
	mu sync.Mutex
	m  map[string]*refValues
	// served counts the pages that took values from the cache, fetched
	// the statements that read missing ones (tests).
	served, fetched atomic.Int64
}

// refValues are the values of one statement at one data generation, by the
// referenced row's key.
type refValues struct {
	generation int64
	byKey      map[int64][][]byte
}

func newRefCache() *refCache { return &refCache{m: map[string]*refValues{}} }

// at answers the values of statement key cached at generation gen, or nil.
func (c *refCache) at(key string, gen int64) *refValues {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[key]; ok && v.generation == gen {
		return v
	}
	return nil
}

// store adds values read at generation gen to those cached for key; values
// of an older generation are dropped, values older than the cached ones are
// not kept.
func (c *refCache) store(key string, gen int64, values map[int64][][]byte) {
	if gen <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old, ok := c.m[key]
	if ok && old.generation > gen {
		return
	}
	merged := maps.Clone(values)
	if ok && old.generation == gen && len(old.byKey)+len(values) <= refCacheKeys {
		merged = maps.Clone(old.byKey)
		maps.Copy(merged, values)
	}
	if !ok && len(c.m) >= refCacheStatements {
		clear(c.m)
	}
	c.m[key] = &refValues{generation: gen, byKey: merged}
}

// refRead is how one page reads the values of its referenced rows of few
// rows from the cache: one refGroup per foreign key, and the data
// generations they are cached at, each selected once (a ticket's assignee
// and author are both users).
type refRead struct {
	groups []refGroup
	gens   []countKey
}

// refGroup are the page's columns read from the row one foreign key
// references.
type refGroup struct {
	fkAt int   // index of the foreign key among the page's columns
	cols []int // indexes of the columns served, among the page's columns
	// key is the cache key: the values' statement.
	key string
	// genAt is the index in refRead.gens of the data generation of the
	// tables the values read.
	genAt int
	// fetch selects key, the values and the generation for the rows
	// whose keys its last argument lists (db.KeysArg).
	fetch frag
}

// cachesRefs reports whether the page may read values of referenced rows
// from the cache (pageCaches).
func (e *Engine) cachesRefs(q db.Querier, p *listPlan) bool {
	return e.refs != nil && e.pageCaches(q, p)
}

// refReadOf renders the statements of the page's columns that a referenced
// entity of few rows gives; ok is false when there are none.
func (e *Engine) refReadOf(x *env, sc Scope, p *listPlan) (*refRead, bool, error) {
	base := newSource(x, sc, p.t.ent)
	byFK := map[string]*refGroup{}
	var order []string
	for i, c := range p.out {
		fk, ok := refServed(x.reg, p.t.ent, c)
		if !ok {
			continue
		}
		g, seen := byFK[fk.Name]
		if !seen {
			at := fieldColumn(p, fk.Name)
			if at < 0 || base.hidesField(p.t.ent, fk) {
				continue // the key is not read as it is stored
			}
			g = &refGroup{fkAt: at}
			byFK[fk.Name] = g
			order = append(order, fk.Name)
		}
		g.cols = append(g.cols, i)
	}
	r := &refRead{}
	for _, name := range order {
		g := byFK[name]
		fk, _ := p.t.ent.Field(name)
		sel, ref, err := refSelect(x, sc, p, fk, g.cols)
		if err != nil {
			return nil, false, err
		}
		k, ok := e.counts.keyOf(sel)
		if !ok {
			continue // a table without a data generation: joined as before
		}
		gen := k.generation()
		g.key, g.genAt = k.key, slices.IndexFunc(r.gens, func(o countKey) bool { return slices.Equal(o.tables, k.tables) })
		if g.genAt < 0 {
			g.genAt = len(r.gens)
			r.gens = append(r.gens, k)
		}
		from := strings.Index(sel.sql, " FROM ")
		g.fetch = frag{sql: sel.sql[:from] + ", " + gen.sql + sel.sql[from:] +
			" WHERE " + db.InKeys(x.dialect, col("t", ref.PK)), args: sel.args}
		r.groups = append(r.groups, *g)
	}
	return r, len(r.groups) > 0, nil
}

// refSelect renders "SELECT t.<key>, <values> FROM <referenced entity> t
// …" for the columns cols of the page, all read from the row foreign key
// fk references.
func refSelect(x *env, sc Scope, p *listPlan, fk *schema.Field, cols []int) (frag, *schema.Entity, error) {
	ref, ok := x.reg.Entity(fk.Ref)
	if !ok {
		return frag{}, nil, fmt.Errorf("tables: %s references unknown entity %s", fk.Name, fk.Ref)
	}
	s := newSource(x, sc, ref)
	exprs := make([]string, len(cols))
	for i, at := range cols {
		expr, err := refValueExpr(s, p.out[at])
		if err != nil {
			return frag{}, nil, err
		}
		exprs[i] = expr
	}
	// The values are rendered first: they add the joins from() lists.
	return frag{sql: "SELECT " + col(s.alias, ref.PK) + ", " + strings.Join(exprs, ", ") + " FROM " + s.from()}, ref, nil
}

// refValueExpr renders column c of the referencing row, read in s from the
// referenced row instead (refServed).
func refValueExpr(s *source, c *colSpec) (string, error) {
	if c.kind == kindLabel {
		label, err := s.labelOf(s.alias, s.base, 0)
		if label == "" && err == nil {
			label = "NULL"
		}
		return label, err
	}
	d := *c.field.Derived
	d.Args = d.Args[1:] // the path from the referenced row on
	return s.refExpr(s.alias, &d)
}

// refServed reports whether column c of entity ent is read from the row
// one of ent's foreign keys references, and that entity has few rows: the
// label of the reference, or a field at the end of a path starting at it
// (schema.DeriveRef). fk is that foreign key.
func refServed(reg *schema.Registry, ent *schema.Entity, c *colSpec) (*schema.Field, bool) {
	if c.onLink || c.field == nil {
		return nil, false
	}
	var fk *schema.Field
	switch {
	case c.kind == kindLabel:
		fk = c.field
	case c.kind == kindDerived && c.field.Derived.Func == schema.DeriveRef && len(c.field.Derived.Args) > 0:
		f, ok := ent.Field(c.field.Derived.Args[0])
		if !ok {
			return nil, false
		}
		fk = f
	default:
		return nil, false
	}
	if !fk.Stored() || fk.Ref == "" || fk.Name == ent.PK {
		return nil, false
	}
	ref, ok := reg.Entity(fk.Ref)
	return fk, ok && ref.FewRows()
}

// fieldColumn is the index of stored field name of the entity among the
// plan's columns, or -1.
func fieldColumn(p *listPlan, name string) int {
	for i, c := range p.out {
		if c.kind == kindField && !c.onLink && c.name == name {
			return i
		}
	}
	return -1
}

// refPlaceholder reports whether the page's statement reads NULL in place
// of its column i, whose value comes from the cache.
func (p *listPlan) refPlaceholder(i int) bool {
	if p.refs == nil {
		return false
	}
	for _, g := range p.refs.groups {
		if slices.Contains(g.cols, i) {
			return true
		}
	}
	return false
}

// refFill fills in a cursor's values of referenced rows, row by row.
type refFill struct {
	read *refRead
	// gens are the data generations the page's rows were read at
	// (refRead.gens); served tells whether the page counted itself among
	// those served from the cache.
	gens   []int64
	served bool
	// values are, per group, the values this page reads: those cached at
	// the page's generation, with the ones read for it.
	values []map[int64][][]byte
	cache  *refCache
	// fetch reads the values of a group's rows by key.
	fetch func(g *refGroup, keys []int64) (map[int64][][]byte, error)
}

// newRefFill builds the filling of the values r reads, run on q.
func (e *Engine) newRefFill(ctx context.Context, q db.Querier, r *refRead) *refFill {
	f := &refFill{read: r, cache: e.refs, gens: make([]int64, len(r.gens))}
	f.fetch = func(g *refGroup, keys []int64) (map[int64][][]byte, error) {
		return e.fetchRefs(ctx, q, g, keys)
	}
	return f
}

// fill sets the current row's values; false when one of them is not in
// the page's values yet (then the caller reads them, see Cursor.readRefs).
func (f *refFill) fill(raw []sql.RawBytes) bool {
	if f.values == nil {
		f.values = make([]map[int64][][]byte, len(f.read.groups))
		for i, g := range f.read.groups {
			if v := f.cache.at(g.key, f.gens[g.genAt]); v != nil {
				f.values[i] = v.byKey
			}
		}
	}
	for i, g := range f.read.groups {
		fk := raw[g.fkAt]
		if fk == nil {
			for _, at := range g.cols {
				raw[at] = nil
			}
			continue
		}
		key, ok := parseKey(fk)
		if !ok {
			return false
		}
		vals, ok := f.values[i][key]
		if !ok {
			return false
		}
		for j, at := range g.cols {
			raw[at] = vals[j]
		}
	}
	if !f.served {
		f.served = true
		f.cache.served.Add(1) // once a page: the counter is shared by every request
	}
	return true
}

// complete reads the values of the keys of rows that the page's values
// lack, caches them, and adds them to the page's values.
func (f *refFill) complete(rows *bufferedRows) error {
	for i := range f.read.groups {
		g := &f.read.groups[i]
		var missing []int64
		for r := range rows.n {
			fk := rows.rawAt(r, g.fkAt)
			if fk == nil {
				continue
			}
			key, ok := parseKey(fk)
			if !ok {
				return fmt.Errorf("tables: referenced values: key %q is not a number", fk)
			}
			if _, have := f.values[i][key]; !have && !slices.Contains(missing, key) {
				missing = append(missing, key)
			}
		}
		if len(missing) == 0 {
			continue
		}
		read, err := f.fetch(g, missing)
		if err != nil {
			return err
		}
		page := make(map[int64][][]byte, len(f.values[i])+len(missing))
		for k, v := range f.values[i] {
			page[k] = v
		}
		for _, k := range missing {
			page[k] = read[k] // nil values: the row is gone by now
		}
		f.values[i] = page
	}
	return nil
}

// fetchRefs runs g's statement for keys, caches the values under the
// generation it read and answers them by key. A key whose row is gone has
// none.
func (e *Engine) fetchRefs(ctx context.Context, q db.Querier, g *refGroup, keys []int64) (map[int64][][]byte, error) {
	args := append(append([]any{}, g.fetch.args...), db.KeysArg(q.Dialect(), keys))
	sqlText, args := db.InlineInts(g.fetch.sql, args)
	e.log.DebugContext(ctx, "tables: referenced values", "rows", len(keys), "sql", sqlText)
	e.refs.fetched.Add(1)
	values, gen, err := queryKeyedValues(ctx, q, sqlText, args)
	if err != nil {
		return nil, fmt.Errorf("tables: referenced values: %w", err)
	}
	n := len(g.cols)
	for _, k := range keys {
		if _, ok := values[k]; !ok {
			values[k] = make([][]byte, n) // gone: NULL, as the LEFT JOIN reads it
		}
	}
	e.refs.store(g.key, gen, values)
	return values, nil
}

// parseKey reads a key as the database answers it ("12", or "12.0" from a
// SQLite expression), without allocating.
func parseKey(b []byte) (int64, bool) {
	b = trimDecimal(b)
	if len(b) > 18 { // may overflow the loop below
		n, err := strconv.ParseInt(string(b), 10, 64)
		return n, err == nil
	}
	if len(b) == 0 {
		return 0, false
	}
	var n int64
	neg := b[0] == '-'
	if neg {
		b = b[1:]
		if len(b) == 0 {
			return 0, false
		}
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}
