package tables

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// checkRefs checks that every reference the write sets or changes names a
// row the caller can see (which also proves it exists): a write can never
// link to another tenant's row. A visible row must also be one of the
// field's choices for the caller and the record (checkChoice) and lie in
// the record's own customer group (checkTenant).
func (e *Engine) checkRefs(ctx context.Context, q db.Querier, c *caller, ch *change) error {
	for _, f := range ch.fields {
		if f.Ref == "" || f.Internal || (!f.Stored() && f.Through == "") {
			continue
		}
		target, _ := e.reg.Entity(f.Ref)
		v := ch.rec[f.Name]
		if !validate.Empty(v) && (ch.creating || !validate.Equal(v, ch.stored[f.Name])) {
			ok, err := e.allVisible(ctx, q, c, target, idsOf(v))
			if err != nil {
				return err
			}
			if !ok {
				ch.fail(f.Name, "validation.unknown_reference", "unknown_reference", nil)
				continue
			}
		}
		if err := e.checkChoice(ctx, q, c, ch, f, target); err != nil {
			return err
		}
	}
	if err := ch.err(); err != nil {
		// A reference the caller cannot see answers as a missing one:
		// nothing is compared with its tenant.
		return err
	}
	for _, f := range ch.fields {
		if f.Ref == "" || f.Internal || (!f.Stored() && f.Through == "") {
			continue
		}
		target, _ := e.reg.Entity(f.Ref)
		if err := e.checkTenant(ctx, q, c, ch, f, target); err != nil {
			return err
		}
		if err := e.checkReader(ctx, q, c, ch, f); err != nil {
			return err
		}
	}
	return ch.err()
}

// allVisible reports whether the caller can see every row ids of ent.
func (e *Engine) allVisible(ctx context.Context, q db.Querier, c *caller, ent *schema.Entity, ids []int64) (bool, error) {
	for _, id := range ids {
		key := createdRow{entity: ent.Name, id: id}
		if slices.Contains(c.created, key) {
			continue
		}
		if ok, known := c.seen[key]; known {
			if !ok {
				return false, nil
			}
			continue
		}
		ok, err := e.visible(ctx, q, c, ent, id)
		if err != nil {
			return false, err
		}
		if c.seen != nil {
			c.seen[key] = ok
		}
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// checkUnique refuses values a unique column set already holds in another
// row (422 naming the set's last column). Uniqueness is global: the check
// reveals only that a value is taken.
func (e *Engine) checkUnique(ctx context.Context, q db.Querier, ch *change, id int64) error {
	for _, set := range ch.ent.Unique {
		changed, conds, args := ch.creating, make([]string, 0, len(set)), make([]any, 0, len(set)+1)
		for _, name := range set {
			v := ch.rec[name]
			if validate.Empty(v) {
				conds = nil
				break
			}
			if !ch.creating && !validate.Equal(v, ch.stored[name]) {
				changed = true
			}
			conds = append(conds, col("t", name)+" = ?")
			args = append(args, v)
		}
		if !changed || conds == nil {
			continue
		}
		if id > 0 {
			conds = append(conds, col("t", ch.ent.PK)+" <> ?")
			args = append(args, id)
		}
		var one int
		err := q.QueryRowContext(ctx, "SELECT 1 FROM "+ident(ch.ent.Table)+" t WHERE "+strings.Join(conds, " AND ")+" LIMIT 1", args...).Scan(&one)
		if err == nil {
			ch.fail(set[len(set)-1], "validation.unique", "unique", nil)
			continue
		}
		if !isNoRows(err) {
			return fmt.Errorf("tables: check unique %s %v: %w", ch.ent.Name, set, err)
		}
	}
	return ch.err()
}

// optionsFilled answers validate's options_filled for list field name of
// fields of ent: whether the caller can see at least one row of the
// referenced entity that is one of the field's choices for rec (its
// OptionsWhere and the caller's limits, choiceConds). A narrowing by an
// empty sibling matches nothing.
func (e *Engine) optionsFilled(ctx context.Context, q db.Querier, c *caller, ent *schema.Entity, fields []*schema.Field) func(string, validate.Record) (bool, error) {
	return func(name string, rec validate.Record) (bool, error) {
		var f *schema.Field
		for _, x := range fields {
			if x.Name == name {
				f = x
			}
		}
		if f == nil || f.Ref == "" {
			return false, fmt.Errorf("tables: options of %s: not a list field", name)
		}
		target, _ := e.reg.Entity(f.Ref)
		s := newSource(e.env(), c.scope, target)
		where, err := s.where()
		if err != nil {
			return false, err
		}
		narrow, ok, err := e.choiceConds(c, ent, f, target, rec)
		if err != nil {
			return false, err
		}
		if !ok {
			return false, nil
		}
		w := and(append([]frag{where}, narrow...)...)
		stmt := "SELECT 1 FROM " + s.from()
		if !w.empty() {
			stmt += " WHERE " + w.sql
		}
		var one int
		err = q.QueryRowContext(ctx, stmt+" LIMIT 1", w.args...).Scan(&one)
		if isNoRows(err) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("tables: options of %s: %w", name, err)
		}
		return true, nil
	}
}

// optionConds renders a list field's OptionsWhere for rec over the
// referenced rows aliased t; ok is false when a sibling it narrows by is
// empty (no options).
func (e *Engine) optionConds(ent *schema.Entity, f *schema.Field, target *schema.Entity, rec validate.Record) ([]frag, bool, error) {
	var conds []frag
	for _, m := range f.OptionsWhere {
		v := rec[m.Source]
		if m.Source == "" {
			v, _ = validate.Coerce(fieldType(target, m.Target), m.Value.String())
		}
		if validate.Empty(v) && m.IfFilled {
			continue
		}
		if validate.Empty(v) {
			return nil, false, nil
		}
		args := valueArgs(v)
		if m.Via != "" {
			fr, err := e.linkedFrag(target, m.Via, args)
			if err != nil {
				return nil, false, fmt.Errorf("tables: options of %s: %w", f.Name, err)
			}
			conds = append(conds, fr)
			continue
		}
		if m.Of != "" {
			fr, err := e.ofFrag(ent, m, args)
			if err != nil {
				return nil, false, fmt.Errorf("tables: options of %s: %w", f.Name, err)
			}
			conds = append(conds, fr)
			continue
		}
		conds = append(conds, inFrag(col("t", m.Target), args))
	}
	return conds, true, nil
}

// valueArgs spreads a canonical value (one value or a list of ids) into
// statement arguments.
func valueArgs(v any) []any {
	ids, isList := v.([]int64)
	if !isList {
		return []any{v}
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return args
}

// inFrag renders "expr is one of args" (one argument: equal).
func inFrag(expr string, args []any) frag {
	if len(args) == 1 {
		return frag{sql: expr + " = ?", args: args}
	}
	return frag{sql: expr + " IN (" + placeholders(len(args)) + ")", args: args}
}

// linkedFrag renders "the target row aliased t is linked through its
// many-to-many relation via to one of the rows args". The link table is
// read bare: it only tells which pairs exist, and the rows on both ends
// are checked for the caller's tenant on their own (the sibling's value
// as a reference, the target row by the statement this joins).
func (e *Engine) linkedFrag(target *schema.Entity, via string, args []any) (frag, error) {
	rel, ok := target.Relation(via)
	if !ok || rel.Kind != schema.ManyToMany {
		return frag{}, fmt.Errorf("%q is not a many-to-many relation of %s", via, target.Name)
	}
	l, ok := e.reg.Link(rel.Link)
	if !ok {
		return frag{}, fmt.Errorf("unknown link %q", rel.Link)
	}
	own, other, ok := l.End(target.Name)
	if !ok {
		return frag{}, fmt.Errorf("link %s does not join %s", l.Table, target.Name)
	}
	far := inFrag(col("nl", other.Column), args)
	return frag{
		sql:  "EXISTS (SELECT 1 FROM " + ident(l.Table) + " nl WHERE " + col("nl", own.Column) + " = " + col("t", target.PK) + " AND " + far.sql + ")",
		args: far.args,
	}, nil
}

// ofFrag renders "the target row aliased t has m.Target equal to field
// m.Of of one of the rows args that sibling m.Source of ent refers to".
// The referenced row is read bare, like a link table: the sibling's value
// is checked for the caller's tenant as a reference of its own.
func (e *Engine) ofFrag(ent *schema.Entity, m schema.Match, args []any) (frag, error) {
	sf, ok := ent.Field(m.Source)
	if !ok || sf.Ref == "" {
		return frag{}, fmt.Errorf("%q is not a list field of %s", m.Source, ent.Name)
	}
	src, ok := e.reg.Entity(sf.Ref)
	if !ok {
		return frag{}, fmt.Errorf("unknown entity %q", sf.Ref)
	}
	in := inFrag(col("ns", src.PK), args)
	return frag{
		sql:  col("t", m.Target) + " IN (SELECT " + col("ns", m.Of) + " FROM " + ident(src.Table) + " ns WHERE " + in.sql + ")",
		args: in.args,
	}, nil
}

func fieldType(e *schema.Entity, name string) schema.DataType {
	if f, ok := e.Field(name); ok {
		return f.Type
	}
	return schema.TypeString
}

// maxCascadeDepth bounds how deep a delete looks through cascading
// children for rows that still hold references.
const maxCascadeDepth = 4

// referrer counts the rows of one entity that still refer to rows being
// deleted.
type referrer struct {
	entity string
	count  int64
}

// referrers counts, per entity, the rows that would keep a delete of the
// rows ids (a frag usable in "IN (...)") of ent from succeeding: foreign
// keys and link ends without a delete action. Children that cascade are
// followed (their own referrers block too); "set null" keys never block.
func (e *Engine) referrers(ctx context.Context, q db.Querier, ent *schema.Entity, ids frag, depth int) ([]referrer, error) {
	var out []referrer
	for _, other := range e.reg.Entities() {
		for i := range other.Fields {
			f := &other.Fields[i]
			if f.Ref != ent.Name || !f.Stored() || f.Through != "" {
				continue
			}
			rows := frag{sql: "FROM " + ident(other.Table) + " x WHERE " + col("x", f.Name) + " IN (" + ids.sql + ")", args: ids.args}
			if other.Name == ent.Name {
				rows.sql += " AND " + col("x", other.PK) + " NOT IN (" + ids.sql + ")"
				rows.args = append(append([]any{}, rows.args...), ids.args...)
			}
			switch f.OnDelete {
			case "":
				n, err := countRows(ctx, q, rows)
				if err != nil {
					return nil, err
				}
				if n > 0 {
					out = append(out, referrer{entity: other.Name, count: n})
				}
			case "cascade":
				if depth >= maxCascadeDepth {
					continue
				}
				sub, err := e.referrers(ctx, q, other, frag{sql: "SELECT " + col("x", other.PK) + " " + rows.sql, args: rows.args}, depth+1)
				if err != nil {
					return nil, err
				}
				out = append(out, sub...)
			}
		}
	}
	links, err := e.linkReferrers(ctx, q, ent, ids)
	return append(out, links...), err
}

// linkReferrers counts the link rows that keep rows of ent from being
// deleted (ends without a delete action), per entity at the other end.
func (e *Engine) linkReferrers(ctx context.Context, q db.Querier, ent *schema.Entity, ids frag) ([]referrer, error) {
	var out []referrer
	for _, l := range e.reg.Links() {
		for _, end := range []schema.LinkEnd{l.Left, l.Right} {
			if end.Entity != ent.Name || end.OnDelete != "" {
				continue
			}
			_, other, _ := l.End(end.Entity)
			n, err := countRows(ctx, q, frag{sql: "FROM " + ident(l.Table) + " x WHERE " + col("x", end.Column) + " IN (" + ids.sql + ")", args: ids.args})
			if err != nil {
				return nil, err
			}
			if n > 0 {
				out = append(out, referrer{entity: other.Entity, count: n})
			}
		}
	}
	return out, nil
}

func countRows(ctx context.Context, q db.Querier, rows frag) (int64, error) {
	var n int64
	if err := q.QueryRowContext(ctx, "SELECT COUNT(*) "+rows.sql, rows.args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("tables: count references: %w", err)
	}
	return n, nil
}

// errReferenced builds the 409 answer naming what still refers to a row:
// "This company is still used by 3 points of sale and 1 user." in the
// request's language.
func (e *Engine) errReferenced(lang string, ent *schema.Entity, refs []referrer) error {
	totals := map[string]int64{}
	var order []string
	for _, r := range refs {
		if _, seen := totals[r.entity]; !seen {
			order = append(order, r.entity)
		}
		totals[r.entity] += r.count
	}
	parts := make([]string, 0, len(order))
	for _, name := range order {
		other, _ := e.reg.Entity(name)
		parts = append(parts, strconv.FormatInt(totals[name], 10)+" "+e.entityLabel(lang, other, totals[name] != 1))
	}
	list := parts[0]
	if len(parts) > 1 {
		list = strings.Join(parts[:len(parts)-1], ", ") + e.texts.T(lang, "server.tables.and", nil) + parts[len(parts)-1]
	}
	return apperr.Conflict("server.tables.referenced").WithCode("referenced").
		With(map[string]string{"entity": e.entityLabel(lang, ent, false), "refs": list})
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
