package tables

import (
	"bytes"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// Fields stored through a many-to-many relation (multi-selects such as an
// invoice's areas, and the single role of a user) have no column. Lists
// and reads answer them like any other reference:
//
//	area_id         [1, 2]                (a single select: 1 or null)
//	area_id__label  ["Hall A", "Hall B"]  (same order; null for a row the caller cannot see;
//	                                       a single select: "Hall A" or null)
//
// Both are correlated subqueries over the link rows ordered by the target
// key, aggregated with db.ListAgg and split again when encoding. They are
// neither sortable nor filterable: a list of values has no order of its
// own, and the definitions serve such fields as not sortable.

// throughRelation returns the link table of field f of entity e, stored
// through a relation, and the link's ends (own: e's key, other: the target's).
func throughRelation(reg *schema.Registry, e *schema.Entity, f *schema.Field) (*schema.Link, schema.LinkEnd, schema.LinkEnd, error) {
	rel, ok := e.Relation(f.Through)
	if !ok {
		return nil, schema.LinkEnd{}, schema.LinkEnd{}, fmt.Errorf("tables: %s.%s: no relation %s", e.Name, f.Name, f.Through)
	}
	l, ok := reg.Link(rel.Link)
	if !ok {
		return nil, schema.LinkEnd{}, schema.LinkEnd{}, fmt.Errorf("tables: relation %s has no link", rel.Name)
	}
	own, other, _ := l.End(e.Name)
	return l, own, other, nil
}

// throughIDsExpr renders the ids field f of the row aliased s.alias holds,
// ordered, joined by db.ListSep (NULL when none).
func (s *source) throughIDsExpr(f *schema.Field) (frag, error) {
	l, own, other, err := throughRelation(s.env.reg, s.base, f)
	if err != nil {
		return frag{}, err
	}
	la, z := s.n.next("m"), s.n.next("z")
	return frag{sql: "(SELECT " + db.ListAgg(s.env.dialect, z+".v") + " FROM (SELECT " + col(la, other.Column) + " AS v FROM " +
		ident(l.Table) + " " + la + " WHERE " + col(la, own.Column) + " = " + col(s.alias, s.base.PK) +
		" ORDER BY 1) " + z + ")"}, nil
}

// throughLabelsExpr renders the default labels of the rows field f of the
// row aliased s.alias holds, in the order of throughIDsExpr, joined by
// db.ListSep; a row outside the caller's tenant gives an empty item.
func (s *source) throughLabelsExpr(f *schema.Field) (frag, error) {
	l, own, other, err := throughRelation(s.env.reg, s.base, f)
	if err != nil {
		return frag{}, err
	}
	target, ok := s.env.reg.Entity(f.Ref)
	if !ok {
		return frag{}, fmt.Errorf("tables: %s references unknown entity %s", f.Name, f.Ref)
	}
	la, x, z := s.n.next("m"), s.n.next("x"), s.n.next("z")
	// The labels are built in a source of their own: their joins belong
	// to the subquery, not to the outer statement.
	sub := &source{env: s.env, scope: s.scope, base: target, alias: x, n: s.n,
		joinAt: map[string]string{}, entityAt: map[string]string{}}
	label, err := sub.labelOf(x, target, 0)
	if err != nil {
		return frag{}, err
	}
	if label == "" {
		label = "CAST(" + col(la, other.Column) + " AS TEXT)"
	}
	sc, err := s.scope.cond(s.env, target, x, s.n)
	if err != nil {
		return frag{}, err
	}
	on := and(frag{sql: col(x, target.PK) + " = " + col(la, other.Column)}, sc)
	var b strings.Builder
	b.WriteString("(SELECT " + db.ListAgg(s.env.dialect, z+".v") + " FROM (SELECT COALESCE(" + label + ", '') AS v, " +
		col(la, other.Column) + " AS k FROM " + ident(l.Table) + " " + la + " LEFT JOIN " + ident(target.Table) + " " + x +
		" ON " + on.sql)
	for _, j := range sub.joins {
		b.WriteString(" " + j)
	}
	b.WriteString(" WHERE " + col(la, own.Column) + " = " + col(s.alias, s.base.PK) + " ORDER BY 2) " + z + ")")
	return frag{sql: b.String(), args: on.args}, nil
}

// splitList splits a db.ListAgg value; nil gives no items.
func splitList(raw sql.RawBytes) [][]byte {
	if len(raw) == 0 {
		return nil
	}
	return bytes.Split(raw, []byte(db.ListSep))
}

// appendThroughValue appends the JSON of a through column: the ids as an
// array, the labels as an array of strings (null for an empty item); a
// single select stored through a relation gives its first id and label
// (or null).
func appendThroughValue(dst []byte, c *colSpec, raw sql.RawBytes) []byte {
	items := splitList(raw)
	if !c.field.Multiple {
		switch {
		case len(items) == 0 || len(items[0]) == 0:
			return append(dst, "null"...)
		case c.kind == kindThrough:
			return appendValue(dst, schema.TypeID, items[0])
		}
		return appendString(dst, items[0])
	}
	dst = append(dst, '[')
	for i, it := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		switch {
		case c.kind == kindThrough:
			dst = appendValue(dst, schema.TypeID, it)
		case len(it) == 0:
			dst = append(dst, "null"...)
		default:
			dst = appendString(dst, it)
		}
	}
	return append(dst, ']')
}

// throughPlain is the canonical value of a through column: []int64 of the
// ids, []string of the labels (a single select: its id or label, or nil).
func throughPlain(c *colSpec, raw sql.RawBytes) any {
	items := splitList(raw)
	if c.kind == kindThroughLabel {
		if !c.field.Multiple {
			if len(items) == 0 {
				return nil
			}
			return string(items[0])
		}
		out := make([]string, len(items))
		for i, it := range items {
			out[i] = string(it)
		}
		return out
	}
	ids := make([]int64, 0, len(items))
	for _, it := range items {
		if n, err := strconv.ParseInt(string(trimDecimal(it)), 10, 64); err == nil {
			ids = append(ids, n)
		}
	}
	if !c.field.Multiple {
		if len(ids) == 0 {
			return nil
		}
		return ids[0]
	}
	return ids
}

// throughCell is the export text of a through column: the items joined by
// ", "; nil when there are none.
func throughCell(raw sql.RawBytes) any {
	items := splitList(raw)
	if len(items) == 0 {
		return nil
	}
	parts := make([]string, 0, len(items))
	for _, it := range items {
		if len(it) > 0 {
			parts = append(parts, string(it))
		}
	}
	return strings.Join(parts, ", ")
}
