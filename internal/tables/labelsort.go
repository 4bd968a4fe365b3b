package tables

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// A page sorted by a reference's label (contracts by contracttype_id__label)
// orders by the referenced row's label, which no index of the listed table
// holds: the plain statement sorts every row of the caller (0 answers in
// 8 s for 100,000 contracts). When the order is the label column of the
// referenced table itself, the page instead walks that table in label
// order (its label index) and, for each referenced row, the listed rows
// through their (foreign key, key) index, so LIMIT stops after the page
// (decision 0031, "Label sorts walk the referenced table"). The walk gives
// the order (label, referenced key, listed key), which is the order of
// every label sort (listPlan.orderBy: rows of one referenced row stay
// together when labels repeat, decision 0044). The label expression turns
// an empty label into NULL and the index does not, so the walk is taken
// only when the referenced table has no NULL or empty label (one probe of
// its label index per request, labelsPresent). Rows whose reference is
// NULL are read by a second walk of the same index at NULL and placed
// where the plain sort puts NULL labels (SQLite: first ascending, last
// descending; PostgreSQL the other way round).
//
// The listed rows come from a source like every other page (scope,
// relation owner, filter all apply); the referenced table only orders
// them and is read unscoped, as the label join of the plain statement
// reads it.

// labelWalk is a label sort the walk can serve.
type labelWalk struct {
	ref *schema.Entity
	fk  *schema.Field // the listed rows' foreign key
	// label is the referenced table's one label column, ordered by its
	// index; "" for a label of several columns, ordered by its whole
	// expression and its label sort index (indexedLabel).
	label string
	// probe, when set, is the remembered answer of labelsPresent the walk
	// was chosen by: the page confirms its data generation.
	probe *probeCheck
}

// order renders what the walk orders the referenced rows aliased a by.
func (w labelWalk) order(d db.Dialect, a string) string {
	if w.label == "" {
		return indexedLabel(d, w.ref, a)
	}
	return col(a, w.label)
}

// labelWalkOf reports whether the plan's order could be walked, from the
// definitions and the caller's masks alone: a label of a stored foreign key
// of the listed rows (not of a link row) whose referenced entity is
// labelled by one stored text field or by several stored text and date
// fields (indexableLabel), none masked for the caller. Labels of a further
// reference or of a number keep the plain sort (their text is computed, no
// index holds it).
func (p *listPlan) labelWalkOf(s *source) (labelWalk, bool) {
	o := p.order
	if o == nil || o.kind != kindLabel || o.onLink || o.field == nil || p.t.link != nil || p.limit <= 0 || p.after != nil {
		return labelWalk{}, false
	}
	ref, ok := s.env.reg.Entity(o.field.Ref)
	if !ok || len(ref.Label) == 0 || s.hidesAny(ref, ref.Label) {
		return labelWalk{}, false
	}
	if indexableLabel(ref) {
		return labelWalk{ref: ref, fk: o.field}, true
	}
	lf, ok := ref.Field(ref.Label[0])
	if len(ref.Label) != 1 || !ok || !ownColumn(ref, lf) || lf.Type != schema.TypeString {
		return labelWalk{}, false
	}
	return labelWalk{ref: ref, fk: o.field, label: lf.Name}, true
}

// labelWalkFor decides whether the page is read by the label walk: the
// order allows it (labelWalkOf), it is not a relation read, the rows it is
// drawn from are many enough to be walked (walksRows: the caller's tenant,
// or the matches of a filter, keyword or row rule; a few rows are sorted
// faster than found one by one on a walk of the whole table), the
// referenced table is not too big for them
// (refWalkable), and every referenced row has a label (labelsPresent).
// matches is the page's total, -1 when unknown.
func (e *Engine) labelWalkFor(ctx context.Context, q db.Querier, sc Scope, p *listPlan, matches int64) (labelWalk, bool) {
	w, ok := p.labelWalkOf(newSource(e.env(), sc, p.t.ent))
	if !ok {
		return labelWalk{}, false
	}
	if e.labelWalkForced != nil {
		if !*e.labelWalkForced {
			return labelWalk{}, false
		}
	} else if p.t.owner != nil || !e.walksRows(ctx, q, sc, p, matches) ||
		!e.refWalkable(ctx, q, sc, p, w, matches) {
		return labelWalk{}, false
	}
	present, err := e.labelsPresent(ctx, q, &w, p.probeAfresh)
	if err != nil {
		e.log.WarnContext(ctx, "tables: checking the labels of a reference failed; sorting", "entity", w.ref.Name, "error", err)
		return labelWalk{}, false
	}
	return w, present
}

// labelWalkMatches: a page with a filter or keyword is walked when its
// matches are at least 1/labelWalkMatches of the table. The walk visits
// about page·rows/matches rows, each tested against filter, keyword and
// scope: at 1 % some 5,000 for a page of 50. The plain statement sorts the
// matches with their labels joined, dearer per row than a field's sort (a
// keyword matching 3.2 % of 100,000 points of sale: 20 req/s sorted, 131
// walked), so the bar is lower than CorrelateScope's 7 %.
const labelWalkMatches = 100

// walksRows reports whether the rows the page is drawn from are many enough
// to be found by walking the table. Without filter, keyword and row rule
// those are the caller's tenant's rows (walksTenant); with them, the
// matches of the page's total (counted or cached, -1 when the request asked
// for none, then the page is sorted), see labelWalkMatches.
func (e *Engine) walksRows(ctx context.Context, q db.Querier, sc Scope, p *listPlan, matches int64) bool {
	if p.filter == nil && p.search == "" && !sc.rows[p.t.ent.Name].Limited {
		return e.walksTenant(ctx, q, sc, p)
	}
	if matches < 0 {
		return false
	}
	_, all, err := e.tenantShare(ctx, q, sc, p.t.ent)
	if err != nil {
		e.log.WarnContext(ctx, "tables: counting the table failed; sorting", "entity", p.t.ent.Name, "error", err)
		return false
	}
	return p.limit <= pageWalkLimit && matches*labelWalkMatches >= all
}

// walksTenant reports whether the caller's rows are many enough to be
// found by walking the table (CorrelateScope, from the tenant's measured
// share). Both databases need it here: the walk fixes the join order, and
// PostgreSQL walked 50 of a small tenant's contracts per contract type
// through the whole (type, key) index (44 req/s instead of 914 for the
// sort of its few rows).
func (e *Engine) walksTenant(ctx context.Context, q db.Querier, sc Scope, p *listPlan) bool {
	if !sc.tenantLimits(p.t.ent) {
		return true
	}
	if q.Dialect() == db.SQLite {
		return sc.correlate // scopeFor measured the share already
	}
	mine, all, err := e.tenantShare(ctx, q, sc, p.t.ent)
	if err != nil {
		e.log.WarnContext(ctx, "tables: measuring the tenant share failed; sorting", "entity", p.t.ent.Name, "error", err)
		return false
	}
	return CorrelateScope(mine, all, p.limit)
}

// refWalkable reports whether the referenced table is small enough to be
// walked for the rows the page is drawn from (drawn: the caller's rows, or
// the matches of a filter or keyword). The walk reads about n·refs/drawn
// referenced rows for the page's last position n, one index probe each; the
// plain statement sorts the drawn rows. Walking pays while n·refs ≤ drawn²:
// a type table always, points of sale for 100,000 contracts, not for a
// tenant's 1,000.
func (e *Engine) refWalkable(ctx context.Context, q db.Querier, sc Scope, p *listPlan, w labelWalk, matches int64) bool {
	drawn := matches
	if drawn < 0 {
		mine, _, err := e.tenantShare(ctx, q, sc, p.t.ent)
		if err != nil {
			e.log.WarnContext(ctx, "tables: measuring the tenant share failed; sorting", "entity", p.t.ent.Name, "error", err)
			return false
		}
		drawn = mine
	}
	_, refs, err := e.tenantShare(ctx, q, sc, w.ref)
	if err != nil {
		e.log.WarnContext(ctx, "tables: counting a referenced table failed; sorting", "entity", w.ref.Name, "error", err)
		return false
	}
	n := int64(p.limit + p.offset + 1)
	return n*refs <= drawn*drawn
}

// labelsPresent reports whether a walk of one label column orders like
// the plain sort: every referenced row has a label that is neither NULL nor
// empty (the label expression turns an empty label into NULL, the label
// column's index keeps it apart). Two probes of that index, at NULL and at
// the empty text. A label of several columns is walked by its whole
// expression and needs no probe.
//
// Outside a transaction the answer is remembered with the data generation
// of the referenced table it was read at, and w.probe asks the page to
// confirm that generation (Engine.open peeks at its first row): a page
// that reads another one forgets the answer and is read again after a
// fresh probe (afresh), which is not remembered for the page. A write
// between the probe and the page's statement may still empty a label; that
// page orders the row as if its label were still set, and the next
// request sorts.
func (e *Engine) labelsPresent(ctx context.Context, q db.Querier, w *labelWalk, afresh bool) (bool, error) {
	if w.label == "" {
		return true, nil // ordered by the label expression itself
	}
	label := ident(w.label)
	probe := "EXISTS (SELECT 1 FROM " + ident(w.ref.Table) + " WHERE " + label
	// Two probes: an OR of both conditions scans the table on SQLite.
	st := "SELECT CASE WHEN " + probe + " IS NULL) OR " + probe + " = '') THEN 1 ELSE 0 END"
	var gen countKey
	remembers := false
	if _, outside := q.(*db.DB); outside && e.probes != nil {
		gen, remembers = e.counts.tableKey(w.ref.Table)
	}
	var missing int
	if !remembers {
		if err := q.QueryRowContext(ctx, st).Scan(&missing); err != nil {
			return false, fmt.Errorf("tables: check the labels of %s: %w", w.ref.Table, err)
		}
		return missing == 0, nil
	}
	key := w.ref.Table + "." + w.label
	known, ok := e.probes.get(key)
	if !ok || afresh {
		if err := q.QueryRowContext(ctx, st+", "+gen.generation().sql).Scan(&missing, &known.generation); err != nil {
			return false, fmt.Errorf("tables: check the labels of %s: %w", w.ref.Table, err)
		}
		known.present = missing == 0
		e.probes.put(key, known)
		if afresh {
			return known.present, nil
		}
	}
	w.probe = &probeCheck{gen: gen, key: key, at: known.generation}
	return known.present, nil
}

// labelProbes are remembered answers of labelsPresent by table and label
// column.
type labelProbes struct {
	mu sync.Mutex
	m  map[string]labelProbe
}

// labelProbe is an answer of labelsPresent and the data generation of the
// referenced table it was read at.
type labelProbe struct {
	present    bool
	generation int64
}

func (l *labelProbes) get(key string) (labelProbe, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p, ok := l.m[key]
	return p, ok
}

func (l *labelProbes) put(key string, p labelProbe) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.m[key] = p
}

// forget forgets the answer under key if it is still the one read at
// generation at.
func (l *labelProbes) forget(key string, at int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if p, ok := l.m[key]; ok && p.generation == at {
		delete(l.m, key)
	}
}

// probeCheck is what a page planned by a remembered probe confirms: the
// data generation gen of the referenced table is still at, the one the
// answer under key was read at.
type probeCheck struct {
	gen countKey
	key string
	at  int64
}

// probeChanged peeks at the page's first row: true when the row read
// another generation of the probed table than the remembered answer's, or
// when the page has no row to tell (and reading did not fail).
func probeChanged(cur *Cursor, pc *probeCheck) bool {
	if !cur.peek() {
		return cur.Err() == nil
	}
	return cur.probeGen != pc.at
}

// labelWalkSelect renders the page of plan p read by the label walk w. On
// PostgreSQL the walk finds the page's keys, and readRows reads their
// columns (late.go); on SQLite each part carries the columns and the union
// is the page (partRows says why):
//
//	SELECT <columns> FROM (
//	  SELECT u.g, u.o1, u.o2, u.o3 FROM (
//	    SELECT * FROM (<rows with a NULL reference, by key, LIMIT n>)
//	    UNION ALL
//	    SELECT * FROM (<rows by label, referenced key, key, LIMIT n>)
//	  ) u ORDER BY u.g, u.o1, u.o2, u.o3 LIMIT <page> OFFSET <offset>
//	) k CROSS JOIN <entity> t LEFT JOIN <labels> … WHERE t.key = k.o3 ORDER BY k.g, …
//
// where n is the page's last position. Each part stops after n rows; the
// sort over the union orders at most 2n keys. g puts the NULL part where
// NULL labels sort. The NULL part is left out when the foreign key is
// never NULL; the labelled part then skips the offset itself (a deep page
// walks to it without sorting what it skips) and the sort over it orders
// one page. On PostgreSQL the part sorting second is read only when the
// first is short of n rows (secondOnlyIfShort); on SQLite the parts are
// concatenated in their order with no sort over them (unionInOrder),
// which starts the second only when the first is short.
func (p *listPlan) labelWalkSelect(x *env, sc Scope, extra []frag, w labelWalk) (frag, error) {
	dir := p.direction()
	n := p.limit + 1 + p.offset
	nullable := !neverNull(w.fk)
	limit, offset := p.limit+1, p.offset
	if nullable {
		limit, offset = n, 0
	}
	names := &aliases{}
	byLabel, err := p.labelPart(x, sc, names, extra, w, dir, n, limit, offset)
	if err != nil {
		return frag{}, err
	}
	parts := []frag{byLabel} // in the order they sort (by g)
	if nullable {
		nulls, err := p.nullPart(x, sc, names, extra, w, dir, n)
		if err != nil {
			return frag{}, err
		}
		if nullsFirst(x.dialect, p.desc) {
			parts = []frag{nulls, byLabel}
		} else {
			parts = append(parts, nulls)
		}
	}
	var b sqlb
	if x.dialect == db.SQLite {
		// The parts carry the columns (partRows).
		b.add("SELECT ")
		for i := range len(p.out) + len(extra) {
			if i > 0 {
				b.add(", ")
			}
			b.add("u.c" + strconv.Itoa(i))
		}
	} else {
		b.add("SELECT u.g, u.o1, u.o2, u.o3")
	}
	b.add(" FROM (")
	if x.dialect == db.Postgres && len(parts) == 2 {
		secondOnlyIfShort(&b, parts, n)
	} else {
		unionInOrder(&b, parts)
	}
	if x.dialect == db.SQLite {
		// No sort over the parts (unionInOrder says why).
		b.add(") u LIMIT ? OFFSET ?", p.limit+1, p.offset-offset)
		return b.done(), nil
	}
	b.add(") u ORDER BY u.g, u.o1" + dir + ", u.o2" + dir + ", u.o3" + dir)
	b.add(" LIMIT ? OFFSET ?", p.limit+1, p.offset-offset)
	// The walked label is the one each key was found by: read it from
	// there rather than join the referenced row again.
	p.labelFromWalk = "k.o1"
	defer func() { p.labelFromWalk = "" }()
	return p.readRows(x, sc, names, extra, b.done(), "o3", []string{"k.g", "k.o1" + dir, "k.o2" + dir, "k.o3" + dir})
}

// secondOnlyIfShort renders the union of a label walk's two parts on
// PostgreSQL so that the part sorting second (by g) is read only when the
// first yields fewer than n rows, the page's last position: otherwise none
// of its rows can be on the page. PostgreSQL reads both branches of a plain
// UNION ALL before sorting them; here the first is a materialized CTE and
// the second sits under a one-time filter on its row count (tickets by
// assigned user: the part without an assignee was a third of the
// statement's buffers on every page).
func secondOnlyIfShort(b *sqlb, parts []frag, n int) {
	first, second := parts[0], parts[1]
	b.add("WITH w0 AS MATERIALIZED (").frag(first).add(") SELECT * FROM w0 UNION ALL SELECT * FROM (").frag(second)
	b.add(") a1 WHERE (SELECT COUNT(*) FROM w0) < ?", n)
}

// unionInOrder renders a label walk's parts, given in the order they sort
// (by g), as one UNION ALL. On SQLite nothing sorts over it: the parts never
// interleave (g sets them apart), each is ordered by its own ORDER BY under
// its LIMIT, and SQLite runs a UNION ALL's arms left to right as
// co-routines, so the LIMIT over the union stops before the right arm is
// started when the left one fills the page. An ORDER BY over the union made
// SQLite compute every column of both parts and sort them: tickets by
// assigned user read 102 rows for 51 (1.0 → 0.55–0.72 ms a statement).
// SQLite leaves the order of a UNION ALL without ORDER BY undocumented:
// TestLabelWalkEqualsSort pages through against a plain sort, so a SQLite
// that changed it fails there (decision 0056).
func unionInOrder(b *sqlb, parts []frag) {
	for i, part := range parts {
		if i > 0 {
			b.add(" UNION ALL ")
		}
		b.add("SELECT * FROM (").frag(part).add(") a" + strconv.Itoa(i))
	}
}

// nullsFirst reports whether NULL labels sort before the others: SQLite
// sorts NULLs first ascending, PostgreSQL last.
func nullsFirst(d db.Dialect, desc bool) bool { return (d == db.SQLite) != desc }

// partRows renders the columns, FROM and WHERE of one part over the
// listed rows: the plan's conditions plus cond on the row aliased t; walked
// is the foreign key whose referenced row the part walks as r (nil: none). On
// PostgreSQL the parts find keys only and readRows reads their columns
// (its LATERAL sub-query would compute them per referenced row). On SQLite
// each part carries the page's columns as c0, c1, … (and extra last): their
// label joins let the scope test the joined company, where a part of keys
// alone tests an EXISTS over the contract, which SQLite turned into a Bloom
// filter over every contract for a part of deadlines without a responsible
// user (10 ms against 0.4 ms).
func (p *listPlan) partRows(x *env, sc Scope, names *aliases, extra []frag, walked *schema.Field, cond func(t string) frag) (*source, []frag, frag, error) {
	s, err := p.source(x, sc)
	if err != nil {
		return nil, nil, frag{}, err
	}
	s.n = names
	if walked != nil && x.dialect == db.Postgres {
		// The walked row r is the one the foreign key references: the
		// tenant test reads it (Scope.viaJoined) instead of looking it up.
		// Not on SQLite: there a test on r's own columns (points of sale
		// by company: r.customergroup_id = 1) made SQLite find r by that
		// column's index instead of walking the label index, and sort
		// every row: 3,477 → 13 req/s (decision 0055).
		s.joinAt[s.alias+"."+walked.Name] = "r"
	}
	var cols []frag
	if x.dialect == db.SQLite {
		if cols, err = p.columns(s); err != nil {
			return nil, nil, frag{}, err
		}
		cols = append(cols, extra...)
		for i := range cols {
			cols[i].sql += " AS c" + strconv.Itoa(i)
		}
	}
	where, err := p.conditions(s)
	if err != nil {
		return nil, nil, frag{}, err
	}
	return s, cols, and(cond(s.alias), where), nil
}

// selectParts renders the start of a part's select list: its columns, if
// any, and then g.
func selectParts(b *sqlb, cols []frag) {
	b.add("SELECT ")
	if len(cols) > 0 {
		b.frag(join(cols, ", ")).add(", ")
	}
}

// group is the value of u.g for the NULL part (null) or the labelled one.
func group(d db.Dialect, desc, null bool) string {
	if nullsFirst(d, desc) == null {
		return "0"
	}
	return "1"
}

// nullPart renders the keys of the rows whose reference is NULL, by key.
func (p *listPlan) nullPart(x *env, sc Scope, names *aliases, extra []frag, w labelWalk, dir string, n int) (frag, error) {
	p.labelFromWalk = "NULL" // the rows without a reference have no label
	defer func() { p.labelFromWalk = "" }()
	s, cols, where, err := p.partRows(x, sc, names, extra, nil, func(t string) frag {
		return frag{sql: col(t, w.fk.Name) + " IS NULL"}
	})
	if err != nil {
		return frag{}, err
	}
	pk := col(s.alias, p.t.ent.PK)
	var b sqlb
	selectParts(&b, cols)
	b.add(group(x.dialect, p.desc, true) + " AS g, CAST(NULL AS TEXT) AS o1, CAST(NULL AS BIGINT) AS o2, " + pk + " AS o3")
	b.add(" FROM " + s.from() + " WHERE ").frag(where)
	order := pk + dir
	if x.dialect == db.Postgres {
		// The foreign key is NULL on every row of the part, so ordering by
		// it first changes nothing but lets PostgreSQL read the part in
		// order from the (foreign key, key) index: by key alone it walked
		// the primary key and skipped every row with a reference (tickets
		// without an assignee: 12,000 rows for a page, 10.5 → 2.1 ms).
		order = col(s.alias, w.fk.Name) + dir + ", " + order
	}
	b.add(" ORDER BY "+order+" LIMIT ?", n)
	return b.done(), nil
}

// labelPart renders the keys of the rows with a reference in (label,
// referenced key, key) order. SQLite: the referenced table CROSS JOIN the
// listed rows (SQLite keeps a CROSS JOIN's order), its label index and the
// listed table's foreign-key index (which ends in the rowid, the key) give
// the order without a sort. PostgreSQL: a LATERAL sub-query per referenced
// row takes its first n listed keys from the (foreign key, key) index, and
// an incremental sort orders them by the referenced row's label. The part
// ends with LIMIT limit OFFSET offset.
func (p *listPlan) labelPart(x *env, sc Scope, names *aliases, extra []frag, w labelWalk, dir string, n, limit, offset int) (frag, error) {
	// Each row's label is the walked one (labelsPresent), read from the
	// referenced row r rather than joined again (SQLite, whose parts carry
	// the columns).
	p.labelFromWalk = w.order(x.dialect, "r")
	defer func() { p.labelFromWalk = "" }()
	s, cols, where, err := p.partRows(x, sc, names, extra, w.fk, func(a string) frag {
		fk, ref := col(a, w.fk.Name), col("r", w.ref.PK)
		if x.dialect == db.Postgres {
			// The range, not "=", on purpose: PostgreSQL takes an equality
			// with the outer row for a constant, so its plan ignores the
			// (foreign key, key) index for the key order and walks the key
			// index instead, guessing a third of the table per referenced
			// row (one user owns most tickets: each rare user's tickets
			// were read to the end, 256–590 ms a page). The range keeps the
			// index, which gives the order and stops after n rows.
			return frag{sql: fk + " >= " + ref + " AND " + fk + " <= " + ref}
		}
		return frag{sql: fk + " = " + ref}
	})
	if err != nil {
		return frag{}, err
	}
	pk := col(s.alias, p.t.ent.PK)
	g := group(x.dialect, p.desc, false)
	label, refKey := w.order(x.dialect, "r"), col("r", w.ref.PK)
	var b sqlb
	if x.dialect == db.SQLite {
		selectParts(&b, cols)
		b.add(g + " AS g, " + label + " AS o1, " + refKey + " AS o2, " + pk + " AS o3")
		b.add(" FROM " + ident(w.ref.Table) + " r CROSS JOIN " + s.from() + " WHERE ").frag(where)
		b.add(" ORDER BY "+label+dir+", "+refKey+dir+", "+pk+dir+" LIMIT ? OFFSET ?", limit, offset)
		return b.done(), nil
	}
	b.add("SELECT " + g + " AS g, " + label + " AS o1, " + refKey + " AS o2, x.o3")
	b.add(" FROM " + ident(w.ref.Table) + " r CROSS JOIN LATERAL (SELECT " + pk + " AS o3 FROM " + s.from() + " WHERE ").frag(where)
	b.add(" ORDER BY "+col(s.alias, w.fk.Name)+dir+", "+pk+dir+" LIMIT ?", n)
	b.add(") x ORDER BY "+label+dir+", "+refKey+dir+", x.o3"+dir+" LIMIT ? OFFSET ?", limit, offset)
	return b.done(), nil
}

// LabelSortIndexMigration renders migration 0047 from the definitions
// (decision 0044): every entity a stored foreign key of a big entity
// references, labelled by several text or date columns (a user, a contact
// person, an invoice), gets "<table>_label_sort" on its label expression
// exactly as the lists render it (indexedLabel), so a page sorted by that label walks it
// (labelWalk) instead of sorting every row with its label. On SQLite the
// index ends in the rowid, the key; on PostgreSQL the key is added.
// TestLabelSortIndexMigrationIsCurrent keeps the file equal to it.
func LabelSortIndexMigration(reg *schema.Registry) string {
	b, w := generatedMigration("LabelSortIndexMigration",
		"A label of several text or date columns that a big entity's list sorts by has an index on its expression (decision 0044).")
	var sqlite, pg []string
	for _, ref := range labelSortIndexed(reg, func(e *schema.Entity) *schema.Entity { return entityBefore(e, labelSortIndexMigrationFile) }) {
		sqlite = append(sqlite, labelSortIndex(db.SQLite, ref))
		pg = append(pg, labelSortIndex(db.Postgres, ref))
	}
	writePerDialect(w, sqlite, pg)
	return b.String()
}

// labelSortIndexMigrationFile is the migration LabelSortIndexMigration
// renders.
const labelSortIndexMigrationFile = "0047_label_sort_indexes.sql"

// labelSortIndex is the statement that creates ref's label sort index on
// d: on SQLite the index ends in the rowid, the key; on PostgreSQL the key
// is added.
func labelSortIndex(d db.Dialect, ref *schema.Entity) string {
	name, table := ident(ref.Table+"_label_sort"), ident(ref.Table)
	if d == db.Postgres {
		return fmt.Sprintf("CREATE INDEX %s ON %s ((%s), %s);", name, table, indexedLabel(d, ref, ""), ident(ref.PK))
	}
	return fmt.Sprintf("CREATE INDEX %s ON %s ((%s));", name, table, indexedLabel(d, ref, ""))
}

// labelSortIndexed are the entities LabelSortIndexMigration indexes, as
// defined gives them, in the order of the big entities' foreign keys.
func labelSortIndexed(reg *schema.Registry, defined func(*schema.Entity) *schema.Entity) []*schema.Entity {
	var out []*schema.Entity
	seen := map[string]bool{}
	for _, e := range bigEntitiesOf(reg) {
		for i := range e.Fields {
			f := &e.Fields[i]
			ref, ok := reg.Entity(f.Ref)
			if ok {
				ref = defined(ref)
			}
			// A field added by a later migration did not exist when this one ran.
			if !ok || !f.Stored() || !readable(f) || seen[ref.Name] || !indexableLabel(ref) || addedLater(e, f.Name) {
				continue
			}
			seen[ref.Name] = true
			out = append(out, ref)
		}
	}
	return out
}
