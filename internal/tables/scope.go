package tables

import (
	"fmt"
	"time"

	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// Scope is the tenant scope of one caller. It is the single chokepoint of
// tenant isolation: every statement the engine builds starts from a source
// (see newSource), and a source always adds Scope.cond for its entity, so
// lists, single reads, relation reads, counts, exports, custom lists,
// derived aggregates, reference checks and post-write checks are all
// restricted the same way.
//
// Internal users are unrestricted. External users see the rows of a
// tenant-scoped entity that reach their customer group through one of the
// entity's Customer paths (client users) or their partner group through
// one of its Partner paths (partner users); external users with neither
// group see none. Global entities are unrestricted for reads.
//
// On top of the tenant, the row rules of the modules (OnRows, rowrule.go)
// limit the rows of their entities for every caller, internal ones too.
type Scope struct {
	restricted    bool
	customergroup int64
	partnergroup  int64
	// correlate renders foreign-key hops as correlated EXISTS instead of
	// "IN (SELECT ...)"; see Engine.scopeFor.
	correlate bool
	// viaJoined (PostgreSQL) tests a tenant hop through a foreign key on
	// the row the statement joins for its labels, and the group's own rows
	// as a hashed set; see Engine.scopeFor and pathCond.
	viaJoined bool
	// walkRows renders the row rules as correlated EXISTS and equality
	// filters on integer fields without their index, so that a page of
	// many matches walks its sort index; set on SQLite only
	// (Engine.walksFilters).
	walkRows bool
	// writing leaves out the paths that only let client users read a row
	// (TenantPath.CustomerRead): the scope of the rows a write changes.
	writing bool
	// masked names the entities whose masked fields the caller reads
	// masked (mask.go).
	masked []string
	// rows are the row rules' limits for the caller, by entity.
	rows map[string]RowLimit
}

// ScopeOf returns the scope of principal p (nil: unrestricted, for
// internal jobs).
func ScopeOf(p *auth.Principal) Scope {
	if p == nil || !p.External {
		return Scope{}
	}
	return Scope{restricted: true, customergroup: p.CustomergroupID, partnergroup: p.PartnergroupID}
}

// Restricted reports whether the scope limits tenant-scoped entities.
func (s Scope) Restricted() bool { return s.restricted }

// limits reports whether the scope restricts rows of e: by tenant or by a
// row rule.
func (s Scope) limits(e *schema.Entity) bool { return s.tenantLimits(e) || s.rows[e.Name].Limited }

// tenantLimits reports whether the tenant scope restricts rows of e.
func (s Scope) tenantLimits(e *schema.Entity) bool { return s.restricted && !e.Tenant.Global }

// cond renders the condition limiting rows of e, aliased alias, to the
// caller's tenant and the row rule of e (rowCond), or the empty frag when
// nothing is limited.
func (s Scope) cond(x *env, e *schema.Entity, alias string, n *aliases) (frag, error) {
	return s.condVia(x, e, alias, n, nil)
}

// condVia is cond in a statement that already LEFT JOINs referenced rows
// for its columns: joined maps "alias.field" to the alias of the row that
// foreign key joins (source.joinAt). A correlated tenant hop through such
// a field tests the joined row's columns instead of looking the row up a
// second time (a page of deadlines joins its contract and company for
// their labels, and the tenant path runs through the same two rows). A
// missing row leaves the joined columns NULL, which fails the test as the
// EXISTS would.
func (s Scope) condVia(x *env, e *schema.Entity, alias string, n *aliases, joined map[string]string) (frag, error) {
	tenant, err := s.tenantCond(x, e, alias, n, joined)
	if err != nil {
		return frag{}, err
	}
	row, err := s.rowCond(x, e, alias, n)
	if err != nil {
		return frag{}, err
	}
	return and(tenant, row), nil
}

// tenantCond renders the condition limiting rows of e, aliased alias, to
// the caller's tenant, or the empty frag when nothing is limited. It is a
// disjunction over the entity's tenant paths; each path becomes nested
// "IN (SELECT ...)" sub-queries through its hops (foreign keys, has-many
// relations, link tables valid today), ending in one parameter: the group
// id.
func (s Scope) tenantCond(x *env, e *schema.Entity, alias string, n *aliases, joined map[string]string) (frag, error) {
	if !s.tenantLimits(e) {
		return frag{}, nil
	}
	var alts []frag
	add := func(paths []schema.Path, group int64) error {
		if group <= 0 {
			return nil
		}
		for _, p := range paths {
			hops, err := x.reg.Hops(e.Name, p, true)
			if err != nil {
				return fmt.Errorf("tables: tenant path of %s: %w", e.Name, err)
			}
			if !s.correlate && !s.viaJoined {
				joined = nil
			}
			f, err := pathCond(x, e, alias, hops, group, n, s.correlate, joined)
			if err != nil {
				return err
			}
			alts = append(alts, f)
		}
		return nil
	}
	if err := add(e.Tenant.Customer, s.customergroup); err != nil {
		return frag{}, err
	}
	if !s.writing {
		if err := add(e.Tenant.CustomerRead, s.customergroup); err != nil {
			return frag{}, err
		}
	}
	if err := add(e.Tenant.Partner, s.partnergroup); err != nil {
		return frag{}, err
	}
	return or(alts), nil
}

// pathCond renders "the row of e aliased alias reaches group through hops".
// A hop through a foreign key that joined names is taken through the
// joined row (see condVia): joined is set with correlate, or on PostgreSQL
// with viaJoined.
func pathCond(x *env, e *schema.Entity, alias string, hops []schema.Hop, group int64, n *aliases, correlate bool, joined map[string]string) (frag, error) {
	reg := x.reg
	if len(hops) == 0 {
		return frag{sql: col(alias, e.PK) + " = ?", args: []any{group}}, nil
	}
	h := hops[0]
	next, ok := reg.Entity(h.To)
	if !ok {
		return frag{}, fmt.Errorf("tables: tenant hop to unknown entity %s", h.To)
	}
	if h.Field != "" {
		if len(hops) == 1 {
			return frag{sql: col(alias, h.Field) + " = ?", args: []any{group}}, nil
		}
		if a, ok := joined[alias+"."+h.Field]; ok {
			return pathCond(x, next, a, hops[1:], group, n, correlate, joined)
		}
		if correlate {
			a := n.next("s")
			inner, err := pathCond(x, next, a, hops[1:], group, n, correlate, joined)
			if err != nil {
				return frag{}, err
			}
			return frag{sql: "EXISTS (SELECT 1 FROM " + ident(next.Table) + " " + a + " WHERE " + col(a, next.PK) + " = " +
				col(alias, h.Field) + " AND " + inner.sql + ")", args: inner.args}, nil
		}
		inner, err := subjectRows(x, next, hops[1:], group, n)
		if err != nil {
			return frag{}, err
		}
		in := col(alias, h.Field) + " IN (" + inner.sql + ")"
		if x.dialect == db.Postgres && len(joined) > 0 && len(hops) == 2 {
			// PostgreSQL, a page testing its rows one by one
			// (viaJoined), the group's own rows (its companies): as an
			// expression the test stays a hashed set probed per row, where
			// PostgreSQL would otherwise look each row's company up by its
			// index (a ticket page: 0.55 ms of
			// database time through the point of sale and company, 0.32 ms
			// this way).
			in = "(" + in + ") IS TRUE"
		}
		return frag{sql: in, args: inner.args}, nil
	}
	rel, ok := e.Relation(h.Relation)
	if !ok {
		return frag{}, fmt.Errorf("tables: %s has no relation %s", e.Name, h.Relation)
	}
	targets, err := subjectRows(x, next, hops[1:], group, n)
	if err != nil {
		return frag{}, err
	}
	owners, err := ownersOf(x, e, rel, targets, n)
	if err != nil {
		return frag{}, err
	}
	return frag{sql: col(alias, e.PK) + " IN (" + owners.sql + ")", args: owners.args}, nil
}

// subjectRows renders "SELECT pk FROM e WHERE <reaches group through hops>".
func subjectRows(x *env, e *schema.Entity, hops []schema.Hop, group int64, n *aliases) (frag, error) {
	a := n.next("s")
	c, err := pathCond(x, e, a, hops, group, n, false, nil)
	if err != nil {
		return frag{}, err
	}
	return frag{sql: "SELECT " + col(a, e.PK) + " FROM " + ident(e.Table) + " " + a + " WHERE " + c.sql, args: c.args}, nil
}

// ownersOf renders the keys of owner rows whose relation rel holds one of
// the target keys selected by targets. A link with a validity counts only
// while it is valid: a partner who no longer manages a location no longer
// sees it.
func ownersOf(x *env, owner *schema.Entity, rel *schema.Relation, targets frag, n *aliases) (frag, error) {
	reg := x.reg
	switch rel.Kind {
	case schema.ManyToMany:
		l, ok := reg.Link(rel.Link)
		if !ok {
			return frag{}, fmt.Errorf("tables: unknown link %s", rel.Link)
		}
		own, other, _ := l.End(owner.Name)
		a := n.next("s")
		f := frag{sql: "SELECT " + col(a, own.Column) + " FROM " + ident(l.Table) + " " + a +
			" WHERE " + col(a, other.Column) + " IN (" + targets.sql + ")", args: targets.args}
		if hasValidity(l) {
			today := x.now.UTC()
			f.sql += " AND (" + col(a, "valid_from") + " IS NULL OR " + col(a, "valid_from") + " < ?) AND (" +
				col(a, "valid_to") + " IS NULL OR " + col(a, "valid_to") + " >= ?)"
			f.args = append(f.args, today.AddDate(0, 0, 1).Format(time.DateOnly), today.Format(time.DateOnly))
		}
		return f, nil
	case schema.HasMany:
		// Walk the Via foreign keys from the target back to the owner.
		cur, ok := reg.Entity(rel.Target)
		if !ok {
			return frag{}, fmt.Errorf("tables: unknown entity %s", rel.Target)
		}
		keys := targets
		for _, fk := range rel.Via {
			a := n.next("s")
			keys = frag{sql: "SELECT " + col(a, fk) + " FROM " + ident(cur.Table) + " " + a +
				" WHERE " + col(a, cur.PK) + " IN (" + keys.sql + ")", args: keys.args}
			f, _ := cur.Field(fk)
			if cur, ok = reg.Entity(f.Ref); !ok {
				return frag{}, fmt.Errorf("tables: unknown entity %s", f.Ref)
			}
		}
		return keys, nil
	}
	return frag{}, fmt.Errorf("tables: relation %s of %s has unknown kind %q", rel.Name, owner.Name, rel.Kind)
}

// hasValidity reports whether link l has the valid_from and valid_to
// attributes of a dated link.
func hasValidity(l *schema.Link) bool {
	var from, to bool
	for i := range l.Attrs {
		switch l.Attrs[i].Name {
		case "valid_from":
			from = true
		case "valid_to":
			to = true
		}
	}
	return from && to
}
