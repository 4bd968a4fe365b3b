package tables

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// Page sizes. per_page defaults to the specification's page size of
// 100,000 (areas, companies, points of sale) and is capped there.
const (
	MaxPerPage     = 100000
	DefaultPerPage = MaxPerPage
)

// ListQuery asks for a page of rows of an entity, or of the rows of a
// relation of one record.
type ListQuery struct {
	// Entity is an entity name (pos) or a relation's API name
	// (pos_location_rel).
	Entity string
	// Filter is the filter language (see ParseFilter), Search the
	// filter_all keyword.
	Filter json.RawMessage
	Search string
	// Data are equality conditions (field → value as decoded with
	// UseNumber; null: is empty; a list: one of). A relation read names
	// its owner here: {"<owner key>": id}.
	Data map[string]any
	// OrderBy is a sortable column (a stored field or a foreign key's
	// <field>__label), OrderDir ASC or DESC.
	OrderBy, OrderDir string
	// Page (1-based) or From (1-based position of the first row) and
	// PerPage select the page.
	Page, From, PerPage int
	// After is the "next" token of the previous page (keyset.go): the page
	// starts after that page's last row; Page and From are then ignored.
	After string
	// Count asks for the total number of matching rows.
	Count bool
	// Columns limits the answer to these columns (the key and row_version
	// are always included); empty means all.
	Columns []string
	// Lang is the language of the served attribute definitions.
	Lang string
}

// target is what a list reads: an entity's rows or a relation's rows.
type target struct {
	ent     *schema.Entity
	owner   *schema.Entity
	rel     *schema.Relation
	link    *schema.Link
	cat     *catalog
	ownerID int64
}

func errUnknownEntity(name string) error {
	return apperr.NotFound("server.tables.unknown_entity").With(map[string]string{"entity": quoteShort(name)})
}

// resolveTarget finds an entity or a relation by its API name.
func (e *Engine) resolveTarget(name string) (*target, error) {
	if ent, ok := e.reg.Entity(name); ok {
		return &target{ent: ent, cat: e.cats[ent.Name]}, nil
	}
	owner, rel, ok := e.reg.RelationByAPIName(name)
	if !ok {
		return nil, errUnknownEntity(name)
	}
	ent, _ := e.reg.Entity(rel.Target)
	t := &target{ent: ent, owner: owner, rel: rel, cat: e.relCats[name]}
	if rel.Kind == schema.ManyToMany {
		t.link, _ = e.reg.Link(rel.Link)
	}
	return t, nil
}

// errLimit is the answer to an operation the definitions rule out for an
// entity (405 with a clear detail naming the entity in lang).
func (e *Engine) errLimit(lang, key string, ent *schema.Entity) error {
	return apperr.New(apperr.KindMethodNotAllowed, key).With(map[string]string{"entity": e.entityLabel(lang, ent, false)})
}

// entityLabel is the translated name of an entity (plural: of several).
func (e *Engine) entityLabel(lang string, ent *schema.Entity, plural bool) string {
	key := "entity." + ent.Name
	if plural {
		key += ".plural"
	}
	if !e.texts.Has(lang, key) && !e.texts.Has("en", key) {
		return ent.Name
	}
	return e.texts.T(lang, key, nil)
}

// authorizeList checks the rights of a list: list on the entity; for a
// relation read, see caller.requireTab. An entity that is not listed on
// its own (documents) is still read as a relation of its owners (a point
// of sale's documents tab).
func (e *Engine) authorizeList(c *caller, t *target) error {
	if t.owner != nil {
		return c.requireTab(access.ActionList, t)
	}
	if t.ent.Limits.NoGenericList {
		return e.errLimit(c.lang, "server.tables.limit.list", t.ent)
	}
	return e.requireRows(c, access.ActionList, t.ent)
}

// requireRows answers 403 unless the caller may do action (list, read) on
// the rows of ent. The rows of a listed link (decision 0012) are also the
// rows of their owners' relation tab, so reading them needs, besides the
// right on the list's own subject, what reading that tab needs: read on
// the owner and list on the tab (or on the related entity).
func (e *Engine) requireRows(c *caller, action string, ent *schema.Entity) error {
	if err := c.require(action, ent); err != nil {
		return err
	}
	if ent.Listed == nil {
		return nil
	}
	owner, ok := e.reg.Entity(ent.Listed.Owner)
	if !ok {
		return fmt.Errorf("tables: listed link %s: unknown owner %s", ent.Name, ent.Listed.Owner)
	}
	rel, ok := owner.Relation(ent.Listed.Relation)
	if !ok {
		return fmt.Errorf("tables: listed link %s: %s has no relation %s", ent.Name, owner.Name, ent.Listed.Relation)
	}
	related, ok := e.reg.Entity(rel.Target)
	if !ok {
		return fmt.Errorf("tables: listed link %s: unknown entity %s", ent.Name, rel.Target)
	}
	return c.requireTab(access.ActionList, &target{ent: related, owner: owner, rel: rel})
}

// attach adds the relation's link table and owner condition to s.
func (t *target) attach(s *source) error {
	if t.rel == nil {
		return nil
	}
	if t.link != nil {
		own, other, _ := t.link.End(t.owner.Name)
		s.link = &linkJoin{link: t.link, alias: "l", own: own, other: other}
		s.fixed = append(s.fixed, frag{sql: col("l", own.Column) + " = ?", args: []any{t.ownerID}})
		return nil
	}
	via, err := s.viaCond(t.ent, s.alias, t.rel.Via, "?")
	if err != nil {
		return err
	}
	s.fixed = append(s.fixed, frag{sql: via, args: []any{t.ownerID}})
	return nil
}

// listPlan is a checked list request: every name resolved, every value
// typed; it renders the statements.
type listPlan struct {
	t      *target
	out    []*colSpec
	filter *Node
	search string
	order  *colSpec
	desc   bool
	limit  int
	offset int
	// after is the decoded After token (keyset.go); nextable is set by
	// selectWith when the page reads its last row's sort value for the next
	// token.
	after    *keysetToken
	nextable bool
	// computed, when set, has the page read its computed columns from the
	// cache (computedcache.go) and NULL in their place.
	computed *computedRead
	// refs, when set, has the page read values of referenced rows of few
	// rows from the cache (refcache.go) and NULL in their place.
	refs *refRead
	// labelFromWalk, while set, is what a label walk's page reads its
	// order's label column as: the label each row was found by, which
	// equals the label (labelsPresent) or is NULL with the reference.
	labelFromWalk string
	// probeAfresh: the page is read again because a remembered probe of
	// its walk's labels turned out stale; probe without remembering
	// (labelsPresent).
	probeAfresh bool
}

// List checks q (rights, tenant, names, values) and opens a cursor over the
// page. Refusals (403, 404, 405, 422) come before any row is read.
func (e *Engine) List(ctx context.Context, q ListQuery) (*Cursor, error) {
	c, err := e.callerOf(ctx)
	if err != nil {
		return nil, err
	}
	t, err := e.resolveTarget(q.Entity)
	if err != nil {
		return nil, err
	}
	if err := e.authorizeList(c, t); err != nil {
		return nil, err
	}
	p, err := e.plan(ctx, c, t, q)
	if err != nil {
		return nil, err
	}
	// The definitions are read before the rows: a cursor holds its
	// connection until the answer is streamed, and a second query meanwhile
	// would wait for a free connection — with a full pool, forever.
	attrs, err := e.servedAttributesJSON(ctx, t, q.Lang)
	if err != nil {
		return nil, err
	}
	cur, err := e.open(ctx, e.db, c, p, q.Count)
	if err != nil {
		return nil, err
	}
	cur.attributesJSON = attrs
	return cur, nil
}

// plan resolves a list request against target t.
func (e *Engine) plan(ctx context.Context, c *caller, t *target, q ListQuery) (*listPlan, error) {
	data := q.Data
	if t.owner != nil {
		rest, err := e.takeOwner(ctx, c, t, data)
		if err != nil {
			return nil, err
		}
		data = rest
	}
	p := &listPlan{t: t, search: q.Search}
	var err error
	if p.filter, err = parseWithData(q.Filter, data); err != nil {
		return nil, filterFieldError(err)
	}
	if err := p.resolveOrder(q.OrderBy, q.OrderDir); err != nil {
		return nil, err
	}
	if err := p.resolveColumns(q.Columns); err != nil {
		return nil, err
	}
	p.limit, p.offset = pageWindow(q.Page, q.From, q.PerPage)
	if q.After != "" {
		if p.after, err = p.decodeAfter(q.After); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// takeOwner reads and checks the owner key of a relation read and returns
// the remaining data conditions. The owner must be visible to the caller:
// an invisible owner answers 404 like a missing one.
func (e *Engine) takeOwner(ctx context.Context, c *caller, t *target, data map[string]any) (map[string]any, error) {
	raw, ok := data[t.owner.PK]
	id, err := idValue(raw)
	if !ok || err != nil {
		return nil, apperr.Validation(apperr.FieldError{Field: t.owner.PK, Key: "validation.required", Type: "missing",
			Args: map[string]string{"field": t.owner.PK}})
	}
	if err := e.mustSee(ctx, e.db, c, t.owner, id); err != nil {
		return nil, err
	}
	t.ownerID = id
	rest := make(map[string]any, len(data))
	for k, v := range data {
		if k != t.owner.PK {
			rest[k] = v
		}
	}
	return rest, nil
}

// parseWithData parses the filter and adds the data equality conditions.
func parseWithData(raw json.RawMessage, data map[string]any) (*Node, error) {
	n, err := ParseFilter(raw)
	if err != nil || len(data) == 0 {
		return n, err
	}
	all := &Node{kind: nodeAnd}
	if n != nil {
		all.kids = append(all.kids, n)
	}
	for _, k := range sortedKeys(data) {
		cond := &Node{kind: nodeCond, field: k, op: OpEq, value: data[k]}
		switch data[k].(type) {
		case nil:
			cond.op = OpIsNull
		case []any:
			cond.op = OpIn
		}
		if err := checkValueShape(cond); err != nil {
			return nil, err
		}
		all.kids = append(all.kids, cond)
	}
	if len(all.kids) > MaxFilterNodes {
		return nil, filterErr("server.tables.filter.too_big", "max", fmt.Sprint(MaxFilterNodes))
	}
	return all, nil
}

// filterFieldError turns a filter refusal into the 422 answer.
func filterFieldError(err error) error {
	var fe *FilterError
	if errors.As(err, &fe) {
		return apperr.Validation(apperr.FieldError{Field: "filter", Key: fe.Key, Args: withField(fe.Args, "filter"), Type: "filter"})
	}
	return err
}

func withField(args map[string]string, field string) map[string]string {
	out := map[string]string{"field": field}
	for k, v := range args {
		out[k] = v
	}
	return out
}

func (p *listPlan) resolveOrder(by, dir string) error {
	switch strings.ToUpper(strings.TrimSpace(dir)) {
	case "", "ASC":
	case "DESC":
		p.desc = true
	default:
		return apperr.Validation(apperr.FieldError{Field: "order_dir", Key: "validation.one_of", Type: "enum",
			Args: map[string]string{"field": "order_dir", "values": "ASC, DESC"}})
	}
	if by == "" {
		by = p.t.ent.PK
	}
	c, ok := p.t.cat.lookup(by)
	if !ok || !c.sortable() {
		return apperr.Validation(apperr.FieldError{Field: "order_by", Key: "server.tables.unknown_column", Type: "enum",
			Args: map[string]string{"field": "order_by", "column": quoteShort(by)}})
	}
	p.order = c
	return nil
}

// resolveColumns picks the answer's columns; the key and row_version are
// always there.
func (p *listPlan) resolveColumns(names []string) error {
	if len(names) == 0 {
		for i := range p.t.cat.specs {
			p.out = append(p.out, &p.t.cat.specs[i])
		}
		return nil
	}
	seen := map[string]bool{}
	add := func(c *colSpec) {
		if !seen[c.name] {
			seen[c.name] = true
			p.out = append(p.out, c)
		}
	}
	pk, _ := p.t.cat.lookup(p.t.ent.PK)
	add(pk)
	for _, n := range names {
		c, ok := p.t.cat.lookup(n)
		if !ok {
			return apperr.Validation(apperr.FieldError{Field: "columns", Key: "server.tables.unknown_column", Type: "enum",
				Args: map[string]string{"field": "columns", "column": quoteShort(n)}})
		}
		add(c)
	}
	if v, ok := p.t.cat.lookup(schema.RowVersionColumn); ok {
		add(v)
	}
	return nil
}

// pageWindow turns the paging members into LIMIT and OFFSET.
func pageWindow(page, from, perPage int) (limit, offset int) {
	limit = perPage
	if limit <= 0 {
		limit = DefaultPerPage
	}
	limit = min(limit, MaxPerPage)
	switch {
	case page >= 1:
		offset = (page - 1) * limit
	case from >= 1:
		offset = from - 1
	}
	return limit, offset
}

// source builds the source of one statement of the plan.
func (p *listPlan) source(x *env, sc Scope) (*source, error) {
	s := newSource(x, sc, p.t.ent)
	return s, p.t.attach(s)
}

// conditions renders the WHERE of the plan in s: scope and relation owner,
// filter, keyword search.
func (p *listPlan) conditions(s *source) (frag, error) {
	base, err := s.where()
	if err != nil {
		return frag{}, err
	}
	f, err := compileFilter(p.filter, p.t.cat, s)
	if err != nil {
		return frag{}, filterFieldError(err)
	}
	search, err := compileSearch(p.search, p.t.cat, s)
	if err != nil {
		return frag{}, filterFieldError(err)
	}
	return and(base, f, search), nil
}

// selectStatement renders the page query.
func (p *listPlan) selectStatement(x *env, sc Scope) (frag, error) {
	return p.selectWith(x, sc, nil, false)
}

// selectWith renders the page query with the columns extra at the end of
// each row (the data generations of a cached count and of cached computed
// values).
// walk tests the keyword per row on a walk of the sort index
// (Engine.walkSearch). A page whose order no index gives finds its keys
// first and reads their columns afterwards (materializesLate, lateSelect).
func (p *listPlan) selectWith(x *env, sc Scope, extra []frag, walk bool) (frag, error) {
	if p.materializesLate(x.dialect, walk) {
		return p.lateSelect(x, sc, extra, walk)
	}
	s, err := p.source(x, sc)
	if err != nil {
		return frag{}, err
	}
	s.walkSearch = walk
	cols, err := p.columns(s)
	if err != nil {
		return frag{}, err
	}
	where, offset, err := p.pageWhere(s)
	if err != nil {
		return frag{}, err
	}
	order, err := p.orderBy(s)
	if err != nil {
		return frag{}, err
	}
	cols, outer, err := p.withMore(s, cols, extra)
	if err != nil {
		return frag{}, err
	}
	var b sqlb
	b.add("SELECT ").frag(join(cols, ", ")).add(" FROM " + s.from())
	if !where.empty() {
		b.add(" WHERE ").frag(where)
	}
	b.add(" ORDER BY ").frag(order)
	if p.limit > 0 {
		b.add(" LIMIT ? OFFSET ?", p.limit+1, offset)
	}
	return projected(outer, b.done()), nil
}

// columns renders the answer's columns in s.
func (p *listPlan) columns(s *source) ([]frag, error) {
	cols := make([]frag, len(p.out))
	for i, c := range p.out {
		if p.computedPlaceholder(c) || p.refPlaceholder(i) {
			cols[i] = frag{sql: "NULL"}
			continue
		}
		if p.labelFromWalk != "" && c == p.order {
			cols[i] = frag{sql: p.labelFromWalk}
			continue
		}
		var err error
		if cols[i], err = c.selectExpr(s); err != nil {
			return nil, err
		}
	}
	return cols, nil
}

// pageWhere renders the page's conditions in s, with the keyset token's
// when the page starts after one (then from the first row: offset 0).
func (p *listPlan) pageWhere(s *source) (frag, int, error) {
	where, err := p.conditions(s)
	if err != nil || p.after == nil {
		return where, p.offset, err
	}
	if !p.keysetable(s) {
		return frag{}, 0, errBadAfter()
	}
	after, err := p.afterCond(s, p.after)
	if err != nil {
		return frag{}, 0, err
	}
	return and(where, after), 0, nil
}

// withMore adds to the answer's columns cols (rendered in s) the columns
// after them: extra, and the sort value of a page with a next token
// (nextable). On PostgreSQL sums over one relation are read together
// (packSums): then outer is the projection to put over the statement.
func (p *listPlan) withMore(s *source, cols []frag, extra []frag) ([]frag, []string, error) {
	more := slices.Clone(extra)
	if p.nextable = p.limit > 0 && p.keysetable(s); p.nextable {
		selectOrder := p.order.selectExpr
		if p.sortsByPrefix() {
			selectOrder = p.sortExpr // the token carries what the rows are ordered by
		}
		o, err := selectOrder(s)
		if err != nil {
			return nil, nil, err
		}
		more = append(more, o)
	}
	if groups := p.sumGroups(s.env.dialect); len(groups) > 0 && p.limit > 0 {
		return p.packSums(s, cols, more, groups)
	}
	return append(cols, more...), nil, nil
}

func (p *listPlan) orderBy(s *source) (frag, error) {
	exprs, err := p.orderExprs(s)
	if err != nil {
		return frag{}, err
	}
	dir := p.direction()
	for i := range exprs {
		exprs[i].sql += dir
	}
	return join(exprs, ", "), nil
}

func (p *listPlan) direction() string {
	if p.desc {
		return " DESC"
	}
	return " ASC"
}

// orderExprs are the expressions the page is ordered by, in s: the order
// column, for a label the foreign key, then the key (and a link row's).
func (p *listPlan) orderExprs(s *source) ([]frag, error) {
	o, err := p.sortExpr(s)
	if err != nil {
		return nil, err
	}
	parts := []frag{o}
	if p.order.kind == kindLabel && p.order.field != nil {
		// Rows of one referenced row stay together when labels repeat (two
		// points of sale named "Mitte"): the order the label walk reads.
		a := s.alias
		if p.order.onLink {
			a = s.link.alias
		}
		parts = append(parts, frag{sql: col(a, p.order.field.Name)})
	}
	if p.order.kind != kindField || p.order.name != p.t.ent.PK || p.order.onLink {
		parts = append(parts, frag{sql: col(s.alias, p.t.ent.PK)})
	}
	if s.link != nil && s.link.link.ID != "" {
		parts = append(parts, frag{sql: col(s.link.alias, s.link.link.ID)})
	}
	return parts, nil
}

// countStatement renders the count of the plan's rows.
func (p *listPlan) countStatement(x *env, sc Scope) (frag, error) {
	s, err := p.source(x, sc)
	if err != nil {
		return frag{}, err
	}
	where, err := p.conditions(s)
	if err != nil {
		return frag{}, err
	}
	var b sqlb
	b.add("SELECT COUNT(*) FROM " + s.from())
	if !where.empty() {
		b.add(" WHERE ").frag(where)
	}
	return b.done(), nil
}

// open counts (when asked) and opens the cursor over the plan's page.
// Outside a transaction totals come from the count cache (countcache.go)
// when the page's own statement confirms their data generation.
func (e *Engine) open(ctx context.Context, q db.Querier, c *caller, p *listPlan, count bool) (*Cursor, error) {
	x := e.env()
	var total *int64
	var cached *countEntry
	var key countKey
	var cst frag
	cacheable := false
	if count && e.counts != nil {
		if _, outside := q.(*db.DB); outside {
			var err error
			if cst, err = p.countStatement(x, c.scope); err != nil {
				return nil, err
			}
			if key, cacheable = e.counts.keyOf(cst); cacheable {
				if entry, ok := e.counts.get(key.key); ok {
					cached = &entry
				} else {
					n, err := e.countFresh(ctx, q, p.t.ent.Name, cst, key, 0)
					if err != nil {
						return nil, err
					}
					total = &n
				}
			}
		}
	}
	if count && !cacheable {
		n, err := e.count(ctx, q, x, c, p)
		if err != nil {
			return nil, err
		}
		total = &n
	}
	// The data generations the page's rows confirm, in the order of the
	// cursor's destinations: the cached total's, the computed columns',
	// the referenced values', a remembered label probe's.
	var gens []countKey
	if cached != nil {
		gens = append(gens, key)
	}
	sc := e.scopeFor(ctx, q, c, p)
	if e.cachesComputed(q, p) {
		r, ok, err := e.computedReadOf(x, sc, p)
		if err != nil {
			return nil, err
		}
		if ok {
			p.computed = r
			gens = append(gens, r.key)
		}
	}
	if e.cachesRefs(q, p) {
		r, ok, err := e.refReadOf(x, sc, p)
		if err != nil {
			return nil, err
		}
		if ok {
			p.refs = r
			gens = append(gens, r.gens...)
		}
	}
	matches := int64(-1)
	switch {
	case total != nil:
		matches = *total
	case cached != nil:
		matches = cached.n
	}
	if sc.walkRows = e.walksFilters(ctx, q, sc, p, matches); sc.walkRows {
		e.filterWalks.Add(1)
	}
	w, walks := e.labelWalkFor(ctx, q, sc, p, matches)
	if w.probe != nil {
		gens = append(gens, w.probe.gen)
	}
	var extra []frag
	if len(gens) > 0 {
		extra = append(extra, generationsColumn(gens))
	}
	var st frag
	var err error
	if walks {
		st, err = p.labelWalkSelect(x, sc, extra, w)
	} else {
		walk := e.walkSearch(ctx, q, p)
		if p.materializesLate(x.dialect, walk) {
			e.lateReads.Add(1)
		}
		st, err = p.selectWith(x, sc, extra, walk)
	}
	if err != nil {
		return nil, err
	}
	// A page whose arguments are all numbers is planned once per
	// connection and value set, not per request, and for those values
	// (db.InlineInts, decisions 0022 and 0041).
	st.sql, st.args = db.InlineInts(st.sql, st.args)
	e.log.DebugContext(ctx, "tables: list statement", "entity", p.t.ent.Name, "sql", st.sql, "args", st.args)
	rows, err := q.QueryRows(ctx, st.sql, st.args...)
	if err != nil {
		return nil, fmt.Errorf("tables: list %s: %w", p.t.ent.Name, err)
	}
	start := p.offset
	if p.after != nil {
		start = p.after.Pos
	}
	cur := newCursor(rows, p.out, p.limit, start)
	cur.page.Total = total
	cur.fromToken = p.after != nil
	if cached != nil {
		cur.served = &e.counts.served
		entry := *cached
		cur.confirm(entry, func(minGeneration int64) (int64, *time.Time, error) {
			return e.settleTotal(ctx, q, p.t.ent.Name, cst, key, entry, minGeneration)
		})
	}
	if p.computed != nil {
		cur.computedAt = len(cur.dest)
		cur.dest = append(cur.dest, &cur.computedGen)
	}
	if p.refs != nil {
		cur.refs = e.newRefFill(ctx, q, p.refs)
		for i := range cur.refs.gens {
			cur.dest = append(cur.dest, &cur.refs.gens[i])
		}
	}
	if w.probe != nil {
		cur.dest = append(cur.dest, &cur.probeGen)
	}
	if len(gens) > 1 {
		cur.rows = &splitGenerations{rowSource: cur.rows, at: len(cur.cols), n: len(gens)}
	}
	if p.nextable {
		cur.keyset(p)
	}
	if p.computed != nil {
		if err := e.prefetch(ctx, q, cur, p, p.computed); err != nil {
			return nil, errors.Join(err, cur.Close())
		}
	}
	if w.probe != nil && probeChanged(cur, w.probe) {
		// The walk was chosen by a remembered probe of labels that have
		// changed since (or the page is empty, which cannot tell): probe
		// again and read the page by what it finds.
		e.probes.forget(w.probe.key, w.probe.at)
		if err := cur.Close(); err != nil {
			return nil, err
		}
		p.probeAfresh = true
		return e.open(ctx, q, c, p, count)
	}
	if walks {
		e.labelWalks.Add(1)
	}
	return cur, nil
}

func (e *Engine) count(ctx context.Context, q db.Querier, x *env, c *caller, p *listPlan) (int64, error) {
	st, err := p.countStatement(x, c.scope)
	if err != nil {
		return 0, err
	}
	st.sql, st.args = db.InlineInts(st.sql, st.args)
	var n int64
	if err := q.QueryRowContext(ctx, st.sql, st.args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("tables: count %s: %w", p.t.ent.Name, err)
	}
	return n, nil
}

// servedAttributesJSON is servedAttributes encoded, kept with the labels
// it was rendered from (same lifetime, cleared by a label edit): every page
// of a list answers the same definitions.
func (e *Engine) servedAttributesJSON(ctx context.Context, t *target, lang string) (json.RawMessage, error) {
	entry, err := e.labelEntry(ctx, lang)
	if err != nil {
		return nil, err
	}
	key := t.ent.Name
	if t.owner != nil && t.rel != nil {
		key = t.rel.APIName(t.owner.Name)
	}
	if v, ok := entry.served.Load(key); ok {
		return v.(json.RawMessage), nil
	}
	attrs, err := e.servedAttributes(ctx, t, lang)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(attrs)
	if err != nil {
		return nil, fmt.Errorf("tables: encode attributes: %w", err)
	}
	entry.served.Store(key, json.RawMessage(b))
	return b, nil
}

// servedAttributes are the attribute definitions of a list's rows: the
// entity's, and for a many-to-many relation also the link's attributes.
func (e *Engine) servedAttributes(ctx context.Context, t *target, lang string) ([]schema.AttributeDefinition, error) {
	texts, err := e.labels(ctx, lang)
	if err != nil {
		return nil, err
	}
	labels := texts.fn()
	def, err := e.reg.Serve(t.ent.Name, lang, labels)
	if err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	attrs := def.Attributes
	if t.owner != nil && t.link != nil {
		odef, err := e.reg.Serve(t.owner.Name, lang, labels)
		if err != nil {
			return nil, fmt.Errorf("tables: %w", err)
		}
		for _, r := range odef.Relations {
			if r.Name == t.rel.Name {
				attrs = append(attrs, r.Attributes...)
			}
		}
	}
	return attrs, nil
}
