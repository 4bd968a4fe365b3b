package tables

import (
	"context"
	"fmt"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// UseSearchIndexes switches the keyword search indexes of e on or off (off:
// every keyword is matched by scanning), so a test can compare both. Not
// safe while requests run.
func UseSearchIndexes(e *Engine, on bool) {
	if on {
		e.search = searchIndexes(e.reg)
	} else {
		e.search = nil
	}
}

// ForceWalkSearch makes every keyword page that could walk the sort index
// walk it (on) or use the text index (off), whatever the estimate says.
func ForceWalkSearch(e *Engine, on bool) { e.walkForced = &on }

// ForceLabelWalk makes e walk every label sort its order and labels allow
// (on) or none (off), whatever the filter, keyword and tenant share.
func ForceLabelWalk(e *Engine, on bool) { e.labelWalkForced = &on }

// UnforceLabelWalk lets e decide again which label sorts it walks.
func UnforceLabelWalk(e *Engine) { e.labelWalkForced = nil }

// LabelWalks is the number of pages e read by the label walk.
func LabelWalks(e *Engine) int64 { return e.labelWalks.Load() }

// LateReads is the number of pages e read in two steps (late.go).
func LateReads(e *Engine) int64 { return e.lateReads.Load() }

// UseCountCache switches the count cache of e on or off.
func UseCountCache(e *Engine, on bool) {
	if on {
		e.counts = newCountCache(e.reg, countCacheSize)
	} else {
		e.counts = nil
	}
}

// CountsServed is how many totals e answered from its count cache.
func CountsServed(e *Engine) int64 {
	if e.counts == nil {
		return 0
	}
	return e.counts.served.Load()
}

// CountsAnsweredStale counts the totals answered as of an older count.
func CountsAnsweredStale(e *Engine) int64 { return e.counts.stale.Load() }

// SetSlowCount sets how long a count may take, and of how many rows, before
// its total is answered as of that count after a write (slowCount,
// slowCountRows).
func SetSlowCount(e *Engine, d time.Duration, rows int64) { e.counts.slow, e.counts.slowRows = d, rows }

// WaitForRecounts waits for the counts under way in the background.
func WaitForRecounts(e *Engine) { e.background.Wait() }

// ForgetLabels drops the cached attribute labels, as an edit of a label
// through the API does, after a test wrote attribute_i18n directly.
func ForgetLabels(e *Engine) { e.wrote(&schema.Entity{Name: "attribute_i18n"}) }

// ComputedServed is how many rows' computed columns e answered from its
// cache.
func ComputedServed(e *Engine) int64 {
	if e.computed == nil {
		return 0
	}
	return e.computed.served.Load()
}

// ForceFilterWalk makes e render every SQLite page's row rules and equality
// filters for the walk of the sort index (on) or for their own indexes
// (off), whatever the matches; nil lets e decide again.
func ForceFilterWalk(e *Engine, on *bool) { e.filterWalkForced = on }

// FilterWalks is the number of pages e rendered for the walk of the sort
// index (walksFilters).
func FilterWalks(e *Engine) int64 { return e.filterWalks.Load() }

// WithoutRefCache runs f with e's cache of referenced rows' values off
// (every page joins those rows), then puts the cache back as it was.
func WithoutRefCache(e *Engine, f func()) {
	saved := e.refs
	e.refs = nil
	defer func() { e.refs = saved }()
	f()
}

// RefsServed is how many values of referenced rows e answered from its
// cache.
func RefsServed(e *Engine) int64 {
	if e.refs == nil {
		return 0
	}
	return e.refs.served.Load()
}

// RefsFetched is how many statements e ran to read values of referenced
// rows its cache lacked.
func RefsFetched(e *Engine) int64 {
	if e.refs == nil {
		return 0
	}
	return e.refs.fetched.Load()
}

// ForceViaJoined makes e test the tenant of every PostgreSQL page through
// the rows it joins (on), or never (off); nil lets e decide by share.
func ForceViaJoined(e *Engine, on *bool) { e.viaJoinedForced = on }

// CustomerGroups answers the customer groups row id of entity reaches
// through its tenant paths (rowGroups), so a test can build rows of one
// tenant.
func CustomerGroups(ctx context.Context, q db.Querier, entity string, id int64) ([]int64, error) {
	e := &Engine{reg: schema.Default()}
	ent, ok := e.reg.Entity(entity)
	if !ok {
		return nil, fmt.Errorf("unknown entity %s", entity)
	}
	return e.rowGroups(ctx, q, &caller{}, ent, id)
}

// AnchorFields are the fields of entity that decide its rows' customer
// group (checkTenant).
func AnchorFields(entity string) []string {
	e := &Engine{reg: schema.Default()}
	ent, _ := e.reg.Entity(entity)
	var out []string
	for _, a := range e.anchors(&change{ent: ent}) {
		out = append(out, a.field)
	}
	return out
}
