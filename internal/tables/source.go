package tables

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/platform/deadline"
	"portfolio/internal/schema"
)

// env is what statement building needs besides the caller: the
// definitions, the dialect and the clock.
type env struct {
	reg     *schema.Registry
	dialect db.Dialect
	now     time.Time
	// search are the keyword search indexes (nil: scan; searchindex.go).
	search map[string]*searchIndex
}

// source is the FROM part of one statement over entity base, aliased "t":
// the LEFT JOINs that label and derived columns need, the link table of a
// many-to-many relation read and the conditions every row satisfies. It
// always adds the tenant scope of its base rows (see where), which is what
// makes Scope the single chokepoint: no statement is built without a
// source.
type source struct {
	env    *env
	scope  Scope
	base   *schema.Entity
	alias  string
	n      *aliases
	joins  []string
	joinAt map[string]string
	// entityAt names the entity of each join alias.
	entityAt map[string]string
	fixed    []frag
	link     *linkJoin
	// walkSearch tests the keyword on the base rows' own fields per row
	// instead of through the text index (Engine.walkSearch).
	walkSearch bool
}

// linkJoin is the link table joined to the target rows of a many-to-many
// relation read.
type linkJoin struct {
	link       *schema.Link
	alias      string
	own, other schema.LinkEnd
}

func newSource(x *env, sc Scope, e *schema.Entity) *source {
	return &source{env: x, scope: sc, base: e, alias: "t", n: &aliases{},
		joinAt: map[string]string{}, entityAt: map[string]string{}}
}

// where renders the conditions of the source: the tenant scope of the base
// rows and the fixed conditions (a relation's owner).
func (s *source) where() (frag, error) {
	sc, err := s.scope.condVia(s.env, s.base, s.alias, s.n, s.joinAt)
	if err != nil {
		return frag{}, err
	}
	return and(append([]frag{sc}, s.fixed...)...), nil
}

// from renders "table t [JOIN link l ...] LEFT JOIN ...".
func (s *source) from() string {
	var b strings.Builder
	b.WriteString(ident(s.base.Table) + " " + s.alias)
	if s.link != nil {
		b.WriteString(" JOIN " + ident(s.link.link.Table) + " " + s.link.alias + " ON " +
			col(s.link.alias, s.link.other.Column) + " = " + col(s.alias, s.base.PK))
	}
	for _, j := range s.joins {
		b.WriteString(" ")
		b.WriteString(j)
	}
	return b.String()
}

// joinRef LEFT JOINs the row the foreign key field (a column of the row
// aliased fromAlias) references, once per statement, and returns its alias.
func (s *source) joinRef(fromAlias, field, ref string) (string, *schema.Entity, error) {
	target, ok := s.env.reg.Entity(ref)
	if !ok {
		return "", nil, fmt.Errorf("tables: %s references unknown entity %s", field, ref)
	}
	key := fromAlias + "." + field
	if a, ok := s.joinAt[key]; ok {
		return a, target, nil
	}
	a := s.n.next("j")
	s.joinAt[key] = a
	s.entityAt[a] = target.Name
	s.joins = append(s.joins, "LEFT JOIN "+ident(target.Table)+" "+a+" ON "+col(a, target.PK)+" = "+col(fromAlias, field))
	return a, target, nil
}

// maxLabelDepth bounds how far a label follows references inside labels
// (a crud row is labelled by its role's and table group's names).
const maxLabelDepth = 2

// labelExpr renders the default label of the row that foreign key f (a
// column of the row aliased fromAlias) references: the referenced entity's
// Label fields joined by spaces, NULL when the key is NULL.
func (s *source) labelExpr(fromAlias string, f *schema.Field, depth int) (string, error) {
	a, target, err := s.joinRef(fromAlias, f.Name, f.Ref)
	if err != nil {
		return "", err
	}
	label, err := s.labelOf(a, target, depth)
	if label == "" && err == nil {
		label = "NULL"
	}
	return label, err
}

// labelOf renders the label of the row of e aliased a: its Label fields
// joined by spaces, "" when none is part of a label. A label of several
// plain columns is rendered as its label sort index holds it
// (indexedLabel); others by db.JoinText.
func (s *source) labelOf(a string, e *schema.Entity, depth int) (string, error) {
	// A label of one text column renders the same way (NULLIF(column,
	// '')): the value db.JoinText gives, without a call to concat_ws and
	// the copy of the text it makes for every row of a page.
	if (indexableLabel(e) || textColumnLabel(e)) && !s.hidesAny(e, e.Label) {
		return indexedLabel(s.env.dialect, e, a), nil
	}
	parts := make([]string, 0, len(e.Label))
	for _, name := range e.Label {
		lf, ok := e.Field(name)
		if !ok {
			return "", fmt.Errorf("tables: label field %s of %s missing", name, e.Name)
		}
		part, err := s.labelPart(a, e, lf, depth)
		if err != nil {
			return "", err
		}
		if part != "" {
			parts = append(parts, part)
		}
	}
	if len(parts) == 0 {
		return "", nil
	}
	return db.JoinText(parts), nil
}

// hidesAny reports whether any of the named fields of e is masked for the
// caller.
func (s *source) hidesAny(e *schema.Entity, names []string) bool {
	for _, name := range names {
		if f, ok := e.Field(name); ok && s.hidesField(e, f) {
			return true
		}
	}
	return false
}

// indexableLabel reports whether e's label is several stored text or date
// columns, the key perhaps among them (a person's two names, an invoice's
// id, number and date): then an expression index can hold it
// (LabelSortIndexMigration).
func indexableLabel(e *schema.Entity) bool {
	if len(e.Label) < 2 {
		return false
	}
	for _, name := range e.Label {
		lf, ok := e.Field(name)
		if ok && name == e.PK {
			continue // its digits (indexedLabel)
		}
		if !ok || !ownColumn(e, lf) || lf.Type != schema.TypeString && lf.Type != schema.TypeDate {
			return false
		}
	}
	return true
}

// textColumnLabel reports whether e's label is one stored text column of
// its own rows (a point of sale's name).
func textColumnLabel(e *schema.Entity) bool {
	if len(e.Label) != 1 {
		return false
	}
	lf, ok := e.Field(e.Label[0])
	return ok && ownColumn(e, lf) && lf.Type == schema.TypeString
}

// ownColumn reports whether label field lf of e is a column of e's own
// rows that an index of e can hold: stored, not a reference, not the key.
func ownColumn(e *schema.Entity, lf *schema.Field) bool {
	return lf.Stored() && lf.Ref == "" && lf.Name != e.PK
}

// indexedLabel renders the label of an indexableLabel entity's row aliased
// a ("": the bare columns, as its index holds them): the same text as
// db.JoinText of its fields, in a form PostgreSQL can index
// (db.JoinTextColumns, db.DateText, the key's digits by a cast to text,
// which is immutable where || on a number is not).
func indexedLabel(d db.Dialect, e *schema.Entity, a string) string {
	parts := make([]string, len(e.Label))
	for i, name := range e.Label {
		parts[i] = ident(name)
		if a != "" {
			parts[i] = col(a, name)
		}
		switch lf, _ := e.Field(name); {
		case name == e.PK:
			parts[i] = "CAST(" + parts[i] + " AS TEXT)"
		case lf.Type == schema.TypeDate:
			parts[i] = db.DateText(d, parts[i])
		}
	}
	return db.JoinTextColumns(parts)
}

func (s *source) labelPart(a string, e *schema.Entity, lf *schema.Field, depth int) (string, error) {
	switch {
	case lf.Stored() && lf.Ref != "" && lf.Name != e.PK && depth < maxLabelDepth:
		return s.labelExpr(a, lf, depth+1)
	case lf.Stored() && lf.Type == schema.TypeDecimal:
		return db.DecimalText(s.env.dialect, col(a, lf.Name)), nil
	case lf.Stored() && s.hidesField(e, lf):
		return maskExpr(col(a, lf.Name), lf.MaxLen), nil
	case lf.Stored():
		return col(a, lf.Name), nil
	case lf.Derived != nil && lf.Derived.Func == schema.DeriveRef:
		return s.refExpr(a, lf.Derived)
	}
	return "", nil // other computed fields are not part of labels
}

// refExpr renders a RefOf derivation from the row aliased a: the field at
// the end of its foreign-key path.
func (s *source) refExpr(a string, d *schema.Derivation) (string, error) {
	cur, ok := s.env.reg.Entity(s.entityOf(a))
	if !ok {
		return "", fmt.Errorf("tables: unknown alias %s", a)
	}
	for _, step := range d.Args {
		f, ok := cur.Field(step)
		if !ok || f.Ref == "" {
			return "", fmt.Errorf("tables: %s.%s is not a reference", cur.Name, step)
		}
		if a, cur, ok = s.mustJoin(a, f); !ok {
			return "", fmt.Errorf("tables: cannot join %s.%s", cur.Name, step)
		}
	}
	f, ok := cur.Field(d.Field)
	if !ok || !f.Stored() {
		return "NULL", nil
	}
	return col(a, d.Field), nil
}

func (s *source) mustJoin(a string, f *schema.Field) (string, *schema.Entity, bool) {
	next, target, err := s.joinRef(a, f.Name, f.Ref)
	return next, target, err == nil
}

// entityOf returns the entity name of alias a: the base or a joined row.
func (s *source) entityOf(a string) string {
	if a == s.alias {
		return s.base.Name
	}
	return s.entityAt[a]
}

// derivedExpr renders a field computed when reading (no column), for the
// row of e aliased a. Aggregates over relations only see rows of the
// caller's tenant.
func (s *source) derivedExpr(a string, e *schema.Entity, f *schema.Field) (frag, error) {
	d := f.Derived
	switch d.Func {
	case schema.DeriveRef:
		expr, err := s.refExpr(a, d)
		return frag{sql: expr}, err
	case schema.DeriveDeadlineStatus:
		closed := "" // a closed record has no deadline status
		if len(d.Args) > 2 {
			closed = col(a, d.Args[2])
		}
		sql, args := deadline.TicketStatusSQL(col(a, d.Args[0]), col(a, d.Args[1]), closed, s.env.now)
		return frag{sql: sql, args: args}, nil
	case schema.DeriveCount, schema.DeriveSum, schema.DeriveMin, schema.DeriveNext, schema.DeriveList:
		return s.aggregate(a, e, d)
	}
	return frag{}, fmt.Errorf("tables: %s.%s: derivation %s is stored, not computed", e.Name, f.Name, d.Func)
}

// aggregate renders COUNT, SUM, MIN or the joined list over a relation.
func (s *source) aggregate(a string, e *schema.Entity, d *schema.Derivation) (frag, error) {
	rows, value, err := s.aggregated(a, e, d)
	if err != nil {
		return frag{}, err
	}
	switch d.Func {
	case schema.DeriveCount:
		return frag{sql: "(SELECT COUNT(*) " + rows.sql + ")", args: rows.args}, nil
	case schema.DeriveSum:
		return frag{sql: "(SELECT COALESCE(SUM(" + value + "), 0) " + rows.sql + ")", args: rows.args}, nil
	case schema.DeriveMin:
		return frag{sql: "(SELECT MIN(" + value + ") " + rows.sql + ")", args: rows.args}, nil
	case schema.DeriveNext:
		return frag{sql: "(SELECT MIN(" + value + ") " + rows.sql + " AND " + value + " >= ?)",
			args: append(append([]any{}, rows.args...), s.env.now.UTC().Format("2006-01-02"))}, nil
	}
	z := s.n.next("z")
	return frag{sql: "(SELECT " + db.StringAgg(s.env.dialect, z+".v") + " FROM (SELECT DISTINCT " + value +
		" AS v " + rows.sql + " ORDER BY 1) " + z + ")", args: rows.args}, nil
}

// aggregated renders the relation rows an aggregate of the row of e
// aliased a reads ("FROM ... WHERE ...") and the value it aggregates (""
// for a count).
func (s *source) aggregated(a string, e *schema.Entity, d *schema.Derivation) (frag, string, error) {
	rows, value, err := s.aggregateRows(a, e, d)
	if err != nil {
		return frag{}, "", err
	}
	return rows, value(d), nil
}

// aggregateRows renders the relation rows an aggregate of the row of e
// aliased a reads, and how to read the value of an aggregate d over them
// (of the same relation and Only).
func (s *source) aggregateRows(a string, e *schema.Entity, d *schema.Derivation) (frag, func(*schema.Derivation) string, error) {
	rel, ok := e.Relation(d.Relation)
	if !ok {
		return frag{}, nil, fmt.Errorf("tables: %s has no relation %s", e.Name, d.Relation)
	}
	rows, x, l, err := s.relationRows(a, e, rel)
	if err != nil {
		return frag{}, nil, err
	}
	if d.Only != nil {
		rows.sql += " AND " + col(x, d.Only.Field) + " = ?"
		rows.args = append(append([]any{}, rows.args...), d.Only.Value)
	}
	lk, isLink := s.env.reg.Link(rel.Link)
	value := func(d *schema.Derivation) string {
		if d.Func == schema.DeriveCount {
			return ""
		}
		if isLink && rel.Kind == schema.ManyToMany {
			if _, isAttr := lk.Attr(d.Field); isAttr {
				return col(l, d.Field)
			}
		}
		return col(x, d.Field)
	}
	return rows, value, nil
}

// sumsArray renders the sums ds (one relation, one Only) of the row of e
// aliased a in one sub-query, as a PostgreSQL array in the order of ds:
// the relation's rows are read and tested against the caller's tenant
// once for all of them (packedSums).
func (s *source) sumsArray(a string, e *schema.Entity, ds []*schema.Derivation) (frag, error) {
	rows, value, err := s.aggregateRows(a, e, ds[0])
	if err != nil {
		return frag{}, err
	}
	sums := make([]string, len(ds))
	for i, d := range ds {
		sums[i] = "COALESCE(SUM(" + value(d) + "), 0)"
	}
	return frag{sql: "(SELECT ARRAY[" + strings.Join(sums, ", ") + "] " + rows.sql + ")", args: rows.args}, nil
}

// relationRows renders "FROM ... WHERE ..." over the rows of relation rel
// of the owner row aliased ownerAlias, restricted to the caller's tenant.
// It returns the alias of the target rows and of the link rows ("" for
// has-many).
func (s *source) relationRows(ownerAlias string, owner *schema.Entity, rel *schema.Relation) (frag, string, string, error) {
	target, ok := s.env.reg.Entity(rel.Target)
	if !ok {
		return frag{}, "", "", fmt.Errorf("tables: unknown entity %s", rel.Target)
	}
	x := s.n.next("r")
	sc, err := s.relationScope(owner, target, rel, x)
	if err != nil {
		return frag{}, "", "", err
	}
	if rel.Kind == schema.ManyToMany {
		lk, ok := s.env.reg.Link(rel.Link)
		if !ok {
			return frag{}, "", "", fmt.Errorf("tables: unknown link %s", rel.Link)
		}
		own, other, _ := lk.End(owner.Name)
		l := s.n.next("l")
		w := and(frag{sql: col(l, own.Column) + " = " + col(ownerAlias, owner.PK)}, sc)
		return frag{sql: "FROM " + ident(lk.Table) + " " + l + " JOIN " + ident(target.Table) + " " + x +
			" ON " + col(x, target.PK) + " = " + col(l, other.Column) + " WHERE " + w.sql, args: w.args}, x, l, nil
	}
	via, err := s.viaCond(target, x, rel.Via, col(ownerAlias, owner.PK))
	if err != nil {
		return frag{}, "", "", err
	}
	w := and(frag{sql: via}, sc)
	return frag{sql: "FROM " + ident(target.Table) + " " + x + " WHERE " + w.sql, args: w.args}, x, "", nil
}

// relationScope renders the scope of the target rows aliased x of
// relation rel, read for an owner row the statement already holds in the
// caller's scope. A has-many relation whose target reaches its tenant only
// through the owner (tenantFollowsOwner) needs no tenant test of its own:
// each of its rows is in scope because its owner is, and a page of
// contracts skips two key look-ups per deadline for its next notice date.
// The row rules of the target still apply.
func (s *source) relationScope(owner, target *schema.Entity, rel *schema.Relation, x string) (frag, error) {
	if rel.Kind == schema.HasMany && len(rel.Via) == 1 && tenantFollowsOwner(owner, target, rel.Via[0]) {
		return s.scope.rowCond(s.env, target, x, s.n)
	}
	return s.scope.cond(s.env, target, x, s.n)
}

// tenantFollowsOwner reports whether a row of target whose foreign key fk
// names a row of owner is in every caller's tenant scope whenever that
// owner row is: owner is tenant-scoped, fk refers to it, and each of the
// owner's tenant paths, behind fk, is one of target's paths of the same
// kind.
func tenantFollowsOwner(owner, target *schema.Entity, fk string) bool {
	if owner.Tenant.Global || target.Tenant.Global {
		return false
	}
	f, ok := target.Field(fk)
	if !ok || f.Ref != owner.Name {
		return false
	}
	extends := func(ownerPaths, targetPaths []schema.Path) bool {
		for _, p := range ownerPaths {
			behind := append(schema.Path{fk}, p...)
			if !slices.ContainsFunc(targetPaths, func(q schema.Path) bool { return slices.Equal(q, behind) }) {
				return false
			}
		}
		return true
	}
	return extends(owner.Tenant.Customer, target.Tenant.Customer) && extends(owner.Tenant.Partner, target.Tenant.Partner) &&
		extends(owner.Tenant.CustomerRead, target.Tenant.CustomerRead)
}

// viaCond renders "the row of e aliased a leads to key through the foreign
// keys via": a.via0 = key, or a.via0 IN (SELECT ... WHERE ... = key).
func (s *source) viaCond(e *schema.Entity, a string, via schema.Path, key string) (string, error) {
	f, ok := e.Field(via[0])
	if !ok || f.Ref == "" {
		return "", fmt.Errorf("tables: %s.%s is not a reference", e.Name, via[0])
	}
	if len(via) == 1 {
		return col(a, f.Name) + " = " + key, nil
	}
	next, ok := s.env.reg.Entity(f.Ref)
	if !ok {
		return "", fmt.Errorf("tables: unknown entity %s", f.Ref)
	}
	y := s.n.next("v")
	inner, err := s.viaCond(next, y, via[1:], key)
	if err != nil {
		return "", err
	}
	return col(a, f.Name) + " IN (SELECT " + col(y, next.PK) + " FROM " + ident(next.Table) + " " + y + " WHERE " + inner + ")", nil
}
