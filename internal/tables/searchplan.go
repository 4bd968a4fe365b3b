package tables

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// Why a keyword page may walk the sort index instead of asking the text
// index (SQLite): "IN (SELECT rowid FROM pos_search WHERE ... MATCH ?)"
// makes SQLite collect every match before the first row of the page. For a
// frequent keyword ("berlin": 3,093 of 100,000 points of sale) that costs
// more than walking the sort index and testing each row until the page is
// full, which reads about page·rows/matches rows. The engine counts the
// keyword's matches in the text index once per searchEstimateTTL and walks
// when that reads fewer rows than walkSearchFactor times the matches.
// Both forms find the same rows (the walk's test, scanMatch, folds as
// the index does): only the cost differs. Counts always use the index.
//
// PostgreSQL (decision 0022): the indexed form is a key set, "t.pk IN
// (SELECT ... UNION ALL ...)" with one branch per trigram-indexed part,
// which collects every match first just as FTS5 does; the walk form is the
// OR of the row's folded columns and label sub-queries, which the planner
// runs as a walk of the sort index with a filter (or, for a rare keyword,
// as a test of every row of the scope). The same estimate decides, with
// the matches counted through the trigram indexes (a bitmap OR).

// searchEstimateTTL is how long a measured match count is trusted.
const searchEstimateTTL = 5 * time.Minute

// walkSearchFactor weighs a row tested by the walk (an index step, a key
// lookup, a C instr over ASCII text) against a match collected from the
// trigram index (merging the doclists of the keyword's trigrams).
const walkSearchFactor = 2

// maxSearchEstimates bounds the cache; when full it is emptied.
const maxSearchEstimates = 4096

type searchEstimate struct {
	matches, all int64
	until        time.Time
}

// searchEstimates caches, per text index query, its matches and the rows
// of the indexed table.
type searchEstimates struct {
	mu sync.Mutex
	m  map[string]searchEstimate
}

// WalkSearch reports whether a page of limit rows after offset, of a
// keyword matching matches of all rows, is cheaper found by walking the
// sort index and testing each row than through the text index.
func WalkSearch(matches, all int64, limit, offset int) bool {
	if matches <= 0 || all <= 0 || limit <= 0 {
		return false
	}
	walked := float64(limit+offset+1) * float64(all) / float64(matches)
	return walked <= walkSearchFactor*float64(matches)
}

// walkSearch decides for the page of p whether its own searchable fields
// are tested per row (true) or found through the text index.
func (e *Engine) walkSearch(ctx context.Context, q db.Querier, p *listPlan) bool {
	if e.search == nil || p.limit <= 0 || p.limit > pageWalkLimit || p.t.rel != nil {
		return false
	}
	if !db.IndexedTerm(p.search) || !p.orderWalksIndex() {
		return false
	}
	x := e.search[p.t.ent.Name]
	if x == nil {
		return false
	}
	own := ownSearchFields(p.t.cat, x)
	if len(own) == 0 {
		return false
	}
	if e.walkForced != nil {
		return *e.walkForced
	}
	matches, all, err := e.searchEstimate(ctx, q, x, own, p.search)
	if err != nil {
		e.log.WarnContext(ctx, "tables: estimating a keyword failed; using the text index", "entity", p.t.ent.Name, "error", err)
		return false
	}
	return WalkSearch(matches, all, p.limit, p.offset)
}

// orderWalksIndex reports whether the page's order is served by an index
// of the base table, so a walk stops once the page is full.
func (p *listPlan) orderWalksIndex() bool {
	o, ent := p.order, p.t.ent
	if o == nil || o.kind != kindField || o.onLink || o.field == nil {
		return false
	}
	f := o.field
	if f.Name == ent.PK || f.Indexed || f.Ref != "" || (len(ent.Label) > 0 && ent.Label[0] == f.Name) {
		return true
	}
	if !slices.Contains(bigEntities, ent.Name) {
		return false
	}
	every, sqliteOnly, _ := moreSortIndexFields(ent)
	return slices.Contains(sortIndexFields(ent), f.Name) || slices.Contains(every, f.Name) || slices.Contains(sqliteOnly, f.Name)
}

// ownSearchFields are the searchable columns of cat that x indexes.
func ownSearchFields(cat *catalog, x *searchIndex) []string {
	var own []string
	for i := range cat.specs {
		c := &cat.specs[i]
		if c.searchable() && c.kind == kindField && !c.onLink && slices.Contains(x.fields, c.name) {
			own = append(own, c.name)
		}
	}
	return own
}

// searchEstimate counts the rows of x's entity whose fields own contain
// the keyword (through the text index: SQLite's FTS table, PostgreSQL's
// trigram indexes, combined by a bitmap OR) and the rows of its table,
// measured once per searchEstimateTTL.
func (e *Engine) searchEstimate(ctx context.Context, q db.Querier, x *searchIndex, own []string, keyword string) (matches, all int64, err error) {
	var st frag
	if q.Dialect() == db.SQLite {
		fts := ident(x.ftsTable())
		st = frag{sql: "SELECT COUNT(*) FROM " + fts + " WHERE " + fts + " MATCH ?", args: []any{x.ftsQuery(own, keyword)}}
	} else {
		a := "t"
		where := x.pgOwnMatch(a, own, keyword)
		st = frag{sql: "SELECT COUNT(*) FROM " + ident(x.ent.Table) + " " + a + " WHERE " + where.sql, args: where.args}
	}
	key := x.ent.Name + "\x00" + st.sql + "\x00" + fmt.Sprint(st.args...)
	now := e.now()
	e.estimates.mu.Lock()
	entry, ok := e.estimates.m[key]
	e.estimates.mu.Unlock()
	if ok && now.Before(entry.until) {
		return entry.matches, entry.all, nil
	}
	if err := q.QueryRowContext(ctx, st.sql, st.args...).Scan(&matches); err != nil {
		return 0, 0, fmt.Errorf("tables: count the keyword's matches in %s: %w", x.ent.Name, err)
	}
	if all, err = e.tableRows(ctx, q, x.ent); err != nil {
		return 0, 0, err
	}
	e.estimates.mu.Lock()
	if e.estimates.m == nil || len(e.estimates.m) >= maxSearchEstimates {
		e.estimates.m = map[string]searchEstimate{}
	}
	e.estimates.m[key] = searchEstimate{matches: matches, all: all, until: now.Add(searchEstimateTTL)}
	e.estimates.mu.Unlock()
	return matches, all, nil
}

// tableRows counts the rows of ent's table.
func (e *Engine) tableRows(ctx context.Context, q db.Querier, ent *schema.Entity) (int64, error) {
	var n int64
	if err := q.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+ident(ent.Table)).Scan(&n); err != nil {
		return 0, fmt.Errorf("tables: count %s: %w", ent.Name, err)
	}
	return n, nil
}

// scanMatch renders the per-row keyword test of a walk over text column
// expr (SQLite): ASCII text (as many bytes as characters) is tested with
// TextMatch's LIKE, which folds ASCII letters as FoldText does; other text
// goes to pf_match, which folds as the index does (db.SearchMatch). A
// keyword that is not ASCII goes to pf_match for every row.
func scanMatch(expr, keyword string) frag {
	match, arg := db.SearchMatch(db.SQLite, expr, keyword)
	like, pattern := db.TextMatch(db.SQLite, expr, keyword, false)
	if like == match {
		return frag{sql: match, args: []any{arg}}
	}
	return frag{sql: "(CASE WHEN length(" + expr + ") = octet_length(" + expr + ") THEN " + like + " ELSE " +
		match + " END)", args: []any{pattern, arg}}
}
