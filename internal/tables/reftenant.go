package tables

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// A reference stays in the record's own customer group. checkRefs proves
// that a reference names a row the caller can see; for a caller who sees
// every tenant (the provider's staff) that alone would let a contract of
// one customer group name another group's tax rate. So a reference to a
// row of a customer-scoped entity is also refused (422 not_available)
// unless the customer groups that row reaches through its entity's
// Customer paths include one the record reaches through its anchors, or
// the row reaches none (a partner company's bank account, an internal
// user, an address nobody uses yet).
//
// A record's anchors are the foreign keys its entity's Customer paths
// start with (a recurring payment: its contract; an e-mail: its point of
// sale, contract and ticket, which must then agree with one another); a
// link row's anchor is its owner. A record reaching its tenant only
// through links (a document) has no anchor, and its references are left
// to the caller's scope. Only the owning paths count: a partner company a
// customer group reads because it manages one of the group's locations
// (TenantPath.CustomerRead) still belongs to no customer group.

// anchor is a field of the record whose referenced row decides the
// record's customer group.
type anchor struct {
	field  string
	entity *schema.Entity
}

// anchors are the record's anchors: ch.anchors when the write set them (a
// link row's owner), otherwise the foreign keys the entity's Customer
// paths start with.
func (e *Engine) anchors(ch *change) []anchor {
	if ch.anchors != nil {
		return ch.anchors
	}
	var out []anchor
	for _, f := range ch.ent.TenantAnchors() {
		if target, ok := e.reg.Entity(f.Ref); ok {
			out = append(out, anchor{field: f.Name, entity: target})
		}
	}
	return out
}

// checkTenant refuses the ids of list field f (target: its entity) that
// lie in another customer group than the record (see above). Like
// checkChoice, only the ids the write adds are checked, or all of them
// when an anchor of the record changes.
//
// A derived reference (a ticket's creator) records a fact the server set,
// not a choice: it stays what it was when the record moves to another
// customer group.
func (e *Engine) checkTenant(ctx context.Context, q db.Querier, c *caller, ch *change, f *schema.Field, target *schema.Entity) error {
	if f.Derived != nil || target.Tenant.Global || len(target.Tenant.Customer) == 0 {
		return nil
	}
	anchors := e.anchors(ch)
	ids := e.addedIDs(ch, f, anchorChanged(ch, anchors))
	if len(ids) == 0 {
		return nil
	}
	own, err := e.recordGroups(ctx, q, c, ch, anchors, f.Name)
	if err != nil || len(own) == 0 {
		return err
	}
	for _, id := range ids {
		groups, err := e.rowGroups(ctx, q, c, target, id)
		if err != nil {
			return err
		}
		if !inTenant(groups, own, ch.anchors != nil) {
			ch.fail(f.Name, "validation.not_available", "not_available", nil)
			return nil
		}
	}
	return nil
}

// inTenant reports whether a row reaching groups may be named by a record
// reaching own: a row of no customer group always; a reference when one
// of its groups is the record's; the other side of a link only when all
// of them are, as the link makes the row the owner's too (a document of
// one group linked to a ticket of another would then belong to both, or
// one filed with two groups already to a third).
func inTenant(groups, own []int64, link bool) bool {
	in := func(g int64) bool { return slices.Contains(own, g) }
	if len(groups) == 0 {
		return true
	}
	if link {
		return !slices.ContainsFunc(groups, func(g int64) bool { return !in(g) })
	}
	return slices.ContainsFunc(groups, in)
}

// addedIDs are the ids of list field f the write adds: all of them on
// create or when all is set, else those the stored record does not hold.
func (e *Engine) addedIDs(ch *change, f *schema.Field, all bool) []int64 {
	ids := idsOf(ch.rec[f.Name])
	if ch.creating || all {
		return ids
	}
	old := idsOf(ch.stored[f.Name])
	kept := ids[:0:0]
	for _, id := range ids {
		if !containsID(old, id) {
			kept = append(kept, id)
		}
	}
	return kept
}

// anchorChanged reports whether an update changes one of the anchors.
func anchorChanged(ch *change, anchors []anchor) bool {
	if ch.creating {
		return false
	}
	for _, a := range anchors {
		if !validate.Equal(ch.rec[a.field], ch.stored[a.field]) {
			return true
		}
	}
	return false
}

// recordGroups are the customer groups the record reaches through its
// filled anchors other than field except (a field is not compared with
// itself).
func (e *Engine) recordGroups(ctx context.Context, q db.Querier, c *caller, ch *change, anchors []anchor, except string) ([]int64, error) {
	var out []int64
	for _, a := range anchors {
		if a.field == except {
			continue
		}
		for _, id := range idsOf(ch.rec[a.field]) {
			groups, err := e.rowGroups(ctx, q, c, a.entity, id)
			if err != nil {
				return nil, err
			}
			out = append(out, groups...)
		}
	}
	return out, nil
}

// rowGroups answers the customer groups row id of ent reaches through its
// entity's Customer paths, in one statement (remembered for the caller of
// a Batch, like the rows it found visible).
func (e *Engine) rowGroups(ctx context.Context, q db.Querier, c *caller, ent *schema.Entity, id int64) ([]int64, error) {
	if ent.Tenant.Global || len(ent.Tenant.Customer) == 0 {
		return nil, nil
	}
	key := createdRow{entity: ent.Name, id: id}
	if groups, ok := c.groups[key]; ok {
		return groups, nil
	}
	stmt, n, err := e.groupsStatement(ent)
	if err != nil {
		return nil, err
	}
	args := make([]any, n)
	for i := range args {
		args[i] = id
	}
	rows, err := q.QueryContext(ctx, stmt, args...)
	if err != nil {
		return nil, fmt.Errorf("tables: customer groups of %s: %w", ent.Name, err)
	}
	defer rows.Close()
	var groups []int64
	for rows.Next() {
		var g sql.NullInt64
		if err := rows.Scan(&g); err != nil {
			return nil, fmt.Errorf("tables: customer groups of %s: %w", ent.Name, err)
		}
		if g.Valid && !slices.Contains(groups, g.Int64) {
			groups = append(groups, g.Int64)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("tables: customer groups of %s: %w", ent.Name, err)
	}
	if c.seen != nil {
		if c.groups == nil {
			c.groups = map[createdRow][]int64{}
		}
		c.groups[key] = groups
	}
	return groups, nil
}

// groupsStatement renders the union of the customer groups a row of ent
// (its key the statement's n parameters, one per path) reaches through
// each of its Customer paths: joins along the path's foreign keys and
// relations, any link row counting whatever its validity.
func (e *Engine) groupsStatement(ent *schema.Entity) (string, int, error) {
	parts := make([]string, 0, len(ent.Tenant.Customer))
	for _, p := range ent.Tenant.Customer {
		hops, err := e.reg.Hops(ent.Name, p, true)
		if err != nil {
			return "", 0, fmt.Errorf("tables: tenant path of %s: %w", ent.Name, err)
		}
		part, err := e.groupsAlong(ent, hops)
		if err != nil {
			return "", 0, fmt.Errorf("tables: tenant path of %s: %w", ent.Name, err)
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, " UNION "), len(parts), nil
}

// groupsAlong renders "SELECT <the group> FROM <ent joined along hops>
// WHERE <ent's key> = ?".
func (e *Engine) groupsAlong(ent *schema.Entity, hops []schema.Hop) (string, error) {
	from, cur, curEnt := ident(ent.Table)+" g0", "g0", ent
	terminal := col("g0", ent.PK)
	for i, h := range hops {
		if h.Field != "" && i == len(hops)-1 {
			terminal = col(cur, h.Field)
			break
		}
		next, ok := e.reg.Entity(h.To)
		if !ok {
			return "", fmt.Errorf("unknown entity %s", h.To)
		}
		a := fmt.Sprintf("g%d", i+1)
		join, err := e.hopJoin(curEnt, cur, h, next, a)
		if err != nil {
			return "", err
		}
		from += join
		cur, curEnt, terminal = a, next, col(a, next.PK)
	}
	return "SELECT " + terminal + " FROM " + from + " WHERE " + col("g0", ent.PK) + " = ?", nil
}

// hopJoin renders the JOIN from the row aliased cur (of ent) along hop h
// to the row of next aliased a.
func (e *Engine) hopJoin(ent *schema.Entity, cur string, h schema.Hop, next *schema.Entity, a string) (string, error) {
	if h.Field != "" {
		return " JOIN " + ident(next.Table) + " " + a + " ON " + col(a, next.PK) + " = " + col(cur, h.Field), nil
	}
	rel, ok := ent.Relation(h.Relation)
	if !ok {
		return "", fmt.Errorf("%s has no relation %s", ent.Name, h.Relation)
	}
	switch {
	case rel.Kind == schema.ManyToMany:
		l, ok := e.reg.Link(rel.Link)
		if !ok {
			return "", fmt.Errorf("unknown link %s", rel.Link)
		}
		own, other, _ := l.End(ent.Name)
		la := a + "l"
		return " JOIN " + ident(l.Table) + " " + la + " ON " + col(la, own.Column) + " = " + col(cur, ent.PK) +
			" JOIN " + ident(next.Table) + " " + a + " ON " + col(a, next.PK) + " = " + col(la, other.Column), nil
	case rel.Kind == schema.HasMany && len(rel.Via) == 1:
		return " JOIN " + ident(next.Table) + " " + a + " ON " + col(a, rel.Via[0]) + " = " + col(cur, ent.PK), nil
	}
	return "", fmt.Errorf("relation %s of %s is no one-step tenant hop", rel.Name, ent.Name)
}
