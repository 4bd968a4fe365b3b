package tables

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// Why the scope has two forms: a page of a tenant's list ("the first 50 by
// name") is fast on SQLite either by walking the sort index and checking
// each row's tenant (when the tenant owns a good share of the table), or by
// collecting the tenant's rows through the foreign-key index and sorting
// them (when it owns few). SQLite's planner cannot tell which from a
// parameter, and the wrong choice costs two orders of magnitude (a 12-row
// tenant in 100,000 rows: 80 ms instead of 0.2 ms; the 100,000-row tenant:
// 60 ms instead of 1 ms). So the engine measures the tenant's share of the
// table, caches it for a few minutes, and picks the form. PostgreSQL plans
// both forms alike, from its own statistics.

// tenantShareTTL is how long a measured share is trusted.
const tenantShareTTL = 5 * time.Minute

// Walking the sort index reads about page/(share·selectivity) rows, each
// with a key lookup; collecting the tenant's rows reads share·total rows and
// sorts them. With a page of 50, a filter keeping about half the rows and a
// key lookup costing some five row reads, walking wins from a share of
// sqrt(500/total): 7 % of 100,000 rows, 2.2 % of a million, 22 % of
// 10,000. So the tenant is "large" when it owns at least sqrt(500·total)
// rows.
const walkFactor = 500

// pageWalkLimit is the largest page the walkFactor rule is made for.
// Beyond it (whole lists, exports) walking visits every index entry and
// collecting sorts every row of the tenant; sorting costs more than a
// probe per row, so walking wins once the tenant owns half the table.
const pageWalkLimit = 1000

type shareKey struct {
	entity        string
	customergroup int64
	partnergroup  int64
}

type shareEntry struct {
	mine, all int64
	until     time.Time
}

// IsLargeTenant reports whether a tenant owning mine of all rows is better
// listed by walking the sort index (see walkFactor).
func IsLargeTenant(mine, all int64) bool {
	return all > 0 && float64(mine) >= math.Sqrt(walkFactor*float64(all))
}

// WalkSortIndex reports whether a tenant owning mine of all rows is better
// listed, limit rows at a time (0: no limit), by walking the sort index.
func WalkSortIndex(mine, all int64, limit int) bool {
	if limit > 0 && limit <= pageWalkLimit {
		return IsLargeTenant(mine, all)
	}
	return all > 0 && mine*2 >= all
}

// tenantShares caches, per entity and tenant, how many of the entity's
// rows the tenant owns. One request at a time measures a share (inflight):
// counting a large tenant's rows takes a good part of a second, and when
// every concurrent request of a busy list measured at once (on start, or
// whenever a share expired) none finished for many seconds. Meanwhile the
// others use the expired share, or wait for the first one.
type tenantShares struct {
	mu       sync.Mutex
	m        map[shareKey]shareEntry
	inflight map[shareKey]chan struct{}
}

// scopeFor returns the scope to list rows of ent with: correlated when the
// database is SQLite and walking the sort index is the cheaper way to the
// caller's rows (WalkSortIndex); on PostgreSQL, for a page, tested through
// the rows the page joins (Scope.viaJoined) when walking is cheaper.
func (e *Engine) scopeFor(ctx context.Context, q db.Querier, c *caller, p *listPlan) Scope {
	sc := c.scope
	if !sc.tenantLimits(p.t.ent) || q.Dialect() == db.Postgres && (p.limit <= 0 || p.limit > pageWalkLimit) {
		return sc
	}
	mine, all, err := e.tenantShare(ctx, q, sc, p.t.ent)
	if err != nil {
		e.log.WarnContext(ctx, "tables: measuring the tenant share failed; using the default plan", "entity", p.t.ent.Name, "error", err)
		return sc
	}
	if q.Dialect() == db.SQLite {
		sc.correlate = CorrelateScope(mine, all, p.limit)
		return sc
	}
	// PostgreSQL: a page of a tenant owning many of the rows walks its sort
	// index and tests each row, best on the rows it joins anyway; a small
	// tenant's rows are better found from its set (the planner's choice).
	sc.viaJoined = WalkSortIndex(mine, all, p.limit)
	if e.viaJoinedForced != nil {
		sc.viaJoined = *e.viaJoinedForced
	}
	return sc
}

// smallTableRows: a table of at most this many rows is always listed with
// the correlated scope. Walking it costs at most that many probes (a few
// milliseconds), while collecting the tenant's keys materializes the
// referenced table's rows of the tenant, which may be far more: 30
// tickets of a tenant owning 100,000 points of sale took 1.5 s a page to
// collect "pos_id IN (the tenant's 100,000 points of sale)" (issue 19).
const smallTableRows = 2000

// CorrelateScope reports whether rows of a table of all rows, mine of them
// the tenant's, are listed limit at a time with the correlated scope
// (per-row EXISTS) rather than collected (IN the tenant's keys).
func CorrelateScope(mine, all int64, limit int) bool {
	return all <= smallTableRows || WalkSortIndex(mine, all, limit)
}

// tenantShare counts the rows of ent in the tenant of sc and in all,
// measured once per tenantShareTTL by one request at a time (see
// tenantShares); the measurement runs to its end even when the request
// that started it goes away.
func (e *Engine) tenantShare(ctx context.Context, q db.Querier, sc Scope, ent *schema.Entity) (mine, all int64, err error) {
	key := shareKey{ent.Name, sc.customergroup, sc.partnergroup}
	sc.rows = nil // the share is the tenant's, the same for all its users
	for {
		now := e.now()
		e.shares.mu.Lock()
		entry, ok := e.shares.m[key]
		if ok && now.Before(entry.until) {
			e.shares.mu.Unlock()
			return entry.mine, entry.all, nil
		}
		wait, busy := e.shares.inflight[key]
		if busy && ok {
			e.shares.mu.Unlock()
			return entry.mine, entry.all, nil // expired, but being measured again
		}
		if !busy {
			if e.shares.inflight == nil {
				e.shares.inflight = map[shareKey]chan struct{}{}
			}
			done := make(chan struct{})
			e.shares.inflight[key] = done
			e.shares.mu.Unlock()
			mine, all, err = e.measureShare(context.WithoutCancel(ctx), q, sc, ent)
			e.shares.mu.Lock()
			if err == nil {
				if e.shares.m == nil {
					e.shares.m = map[shareKey]shareEntry{}
				}
				e.shares.m[key] = shareEntry{mine: mine, all: all, until: now.Add(tenantShareTTL)}
			}
			delete(e.shares.inflight, key)
			close(done)
			e.shares.mu.Unlock()
			return mine, all, err
		}
		e.shares.mu.Unlock()
		select {
		case <-wait: // measured (or failed): look again
		case <-ctx.Done():
			return 0, 0, fmt.Errorf("tables: wait for the tenant's share of %s: %w", ent.Name, ctx.Err())
		}
	}
}

// measureShare counts the rows of ent in the tenant of sc and in all.
func (e *Engine) measureShare(ctx context.Context, q db.Querier, sc Scope, ent *schema.Entity) (mine, all int64, err error) {
	s := newSource(e.env(), sc, ent)
	where, err := s.where()
	if err != nil {
		return 0, 0, err
	}
	var b sqlb
	b.add("SELECT COUNT(*) FROM " + s.from())
	if !where.empty() {
		b.add(" WHERE ").frag(where)
	}
	st := b.done()
	if err := q.QueryRowContext(ctx, st.sql, st.args...).Scan(&mine); err != nil {
		return 0, 0, fmt.Errorf("tables: count the tenant's %s: %w", ent.Name, err)
	}
	if err := q.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+ident(ent.Table)).Scan(&all); err != nil {
		return 0, 0, fmt.Errorf("tables: count %s: %w", ent.Name, err)
	}
	return mine, all, nil
}

// walksFilters reports whether SQLite finds the page's rows by walking the
// sort index of its order, testing the row rules and the equality filters
// on integer fields per row (Scope.walkRows), rather than collecting the
// rows they select through their own indexes and sorting them. SQLite
// takes "board_id IN (…)" of a row rule or a filter as the way in even
// when it selects every row: a page of 50 of 100,000 tickets sorted all
// of them (510 ms instead of 0.9). Walking pays when the matches (the
// page's total, counted or cached; unknown, -1, without one) are many, by
// the rule of the tenant share (IsLargeTenant).
func (e *Engine) walksFilters(ctx context.Context, q db.Querier, sc Scope, p *listPlan, matches int64) bool {
	if q.Dialect() != db.SQLite || matches < 0 || p.limit <= 0 || p.limit > pageWalkLimit {
		return false
	}
	if p.filter == nil && !sc.rows[p.t.ent.Name].Limited {
		return false
	}
	if o := p.order; o == nil || o.kind != kindField || o.onLink || p.t.link != nil {
		return false // the page sorts its rows anyway
	}
	if e.filterWalkForced != nil {
		return *e.filterWalkForced
	}
	_, all, err := e.tenantShare(ctx, q, sc, p.t.ent)
	if err != nil {
		e.log.WarnContext(ctx, "tables: counting the table failed; collecting the rows", "entity", p.t.ent.Name, "error", err)
		return false
	}
	return all <= smallTableRows || IsLargeTenant(matches, all)
}
