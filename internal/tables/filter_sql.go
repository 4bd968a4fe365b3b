package tables

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// MinSearchLen is the shortest keyword filter_all searches for; shorter
// keywords are ignored (the browser starts searching at 2 characters).
const MinSearchLen = 2

// opsFor lists the operators each type takes.
func opAllowed(op Op, t schema.DataType) bool {
	switch op {
	case OpContains, OpStartsWith:
		return t == schema.TypeString
	case OpLt, OpLte, OpGt, OpGte, OpBetween:
		return t != schema.TypeBool
	}
	return true
}

// compileFilter checks n against the filterable columns of cat and renders
// it as a condition of source s: every field resolved through the
// definitions, every operator checked against the field's type, every value
// converted to the field's type and bound as a parameter.
func compileFilter(n *Node, cat *catalog, s *source) (frag, error) {
	if n == nil {
		return frag{}, nil
	}
	switch n.kind {
	case nodeAnd, nodeOr:
		parts := make([]frag, 0, len(n.kids))
		for _, k := range n.kids {
			f, err := compileFilter(k, cat, s)
			if err != nil {
				return frag{}, err
			}
			if !f.empty() {
				parts = append(parts, f)
			}
		}
		if len(parts) == 0 {
			return frag{}, nil
		}
		if n.kind == nodeAnd {
			return and(parts...), nil
		}
		return or(parts), nil
	case nodeNot:
		f, err := compileFilter(n.kids[0], cat, s)
		if err != nil || f.empty() {
			return f, err
		}
		return frag{sql: "NOT (" + f.sql + ")", args: f.args}, nil
	}
	return compileCond(n, cat, s)
}

// integral reports whether values of t are stored as integers, whose
// comparisons a unary plus (no index, no affinity) leaves alone.
func integral(t schema.DataType) bool {
	return t == schema.TypeID || t == schema.TypeInt || t == schema.TypeBool
}

func compileCond(n *Node, cat *catalog, s *source) (frag, error) {
	c, ok := cat.lookup(n.field)
	if !ok || !c.filterable() {
		return frag{}, filterErr("server.tables.filter.unknown_field", "field", quoteShort(n.field))
	}
	if !opAllowed(n.op, c.typ) {
		return frag{}, filterErr("server.tables.filter.bad_op", "field", quoteShort(n.field), "op", string(n.op))
	}
	ef, err := c.expr(s)
	if err != nil {
		return frag{}, err
	}
	if (n.op == OpEq || n.op == OpIn) && s.scope.walkRows && c.kind == kindField && !c.onLink && integral(c.typ) &&
		(s.base == nil || c.field.Name != s.base.PK) {
		ef.sql = "+" + ef.sql // tested per row on the walk of the sort index (Scope.walkRows)
	}
	x := ef.sql
	badValue := filterErr("server.tables.filter.bad_value", "field", quoteShort(n.field), "op", string(n.op))
	switch n.op {
	case OpIsNull:
		return frag{sql: x + " IS NULL", args: ef.args}, nil
	case OpNotNull:
		return frag{sql: x + " IS NOT NULL", args: ef.args}, nil
	case OpContains, OpStartsWith:
		str, ok := n.value.(string)
		if !ok || str == "" {
			return frag{}, badValue
		}
		prefix, d := n.op == OpStartsWith, s.env.dialect
		match, arg := db.TextMatch(d, x, str, prefix)
		return frag{sql: match, args: append(ef.args, arg)}, nil
	case OpIn, OpNotIn:
		return compileIn(n, c, ef, badValue)
	case OpBetween:
		items := n.value.([]any)
		lo, err1 := bound(c.typ, items[0], false)
		hi, err2 := bound(c.typ, items[1], true)
		if err1 != nil || err2 != nil {
			return frag{}, badValue
		}
		return rangeCond(ef, lo, hi), nil
	}
	if n.op == OpEq && c.kind == kindField && !c.onLink && s.base != nil && c.field.Name == s.base.PK {
		// One row by its key: no value steers the plan, so the key stays a
		// parameter (db.InlineInts would make one statement per row read).
		v, err := coerceFilterValue(c.typ, n.value)
		if err != nil {
			return frag{}, badValue
		}
		return frag{sql: x + " = ?", args: append(append([]any{}, ef.args...), param(v))}, nil
	}
	return compileCompare(n, c, ef, badValue)
}

// boundary is one end of a range: a value, and for date-only values on
// date-time columns the whole day ("2024-05-01" up to, not including,
// 2024-05-02).
type boundary struct {
	v         any
	exclusive bool // the upper end is excluded (next day of a date-only value)
}

// bound converts a range end. A date-only value on a date-time column
// stands for its whole day: as a lower end its start, as an upper end the
// start of the next day, excluded (so "Today" is between today and today).
func bound(t schema.DataType, raw any, upper bool) (boundary, error) {
	v, err := coerceFilterValue(t, raw)
	if err != nil {
		return boundary{}, err
	}
	if s, ok := raw.(string); ok && t == schema.TypeDateTime && len(strings.TrimSpace(s)) == len(validate.DateLayout) && upper {
		return boundary{v: v.(time.Time).AddDate(0, 0, 1), exclusive: true}, nil
	}
	return boundary{v: v}, nil
}

func rangeCond(ef frag, lo, hi boundary) frag {
	upper := " <= ?"
	if hi.exclusive {
		upper = " < ?"
	}
	args := append(append(append([]any{}, ef.args...), lo.v), ef.args...)
	return frag{sql: ef.sql + " >= ? AND " + ef.sql + upper, args: append(args, hi.v)}
}

func compileCompare(n *Node, c *colSpec, ef frag, badValue error) (frag, error) {
	dayOnly := false
	if s, ok := n.value.(string); ok && c.typ == schema.TypeDateTime && len(strings.TrimSpace(s)) == len(validate.DateLayout) {
		dayOnly = true
	}
	if dayOnly {
		// A day on a date-time column: compare with the whole day.
		lo, err1 := bound(c.typ, n.value, false)
		hi, err2 := bound(c.typ, n.value, true)
		if err1 != nil || err2 != nil {
			return frag{}, badValue
		}
		switch n.op {
		case OpEq:
			return rangeCond(ef, lo, hi), nil
		case OpNe:
			r := rangeCond(ef, lo, hi)
			return frag{sql: "NOT (" + r.sql + ") OR " + ef.sql + " IS NULL", args: append(r.args, ef.args...)}, nil
		case OpLt, OpGte:
			return frag{sql: ef.sql + sqlOp(n.op), args: append(append([]any{}, ef.args...), lo.v)}, nil
		case OpLte:
			return frag{sql: ef.sql + " < ?", args: append(append([]any{}, ef.args...), hi.v)}, nil
		case OpGt:
			return frag{sql: ef.sql + " >= ?", args: append(append([]any{}, ef.args...), hi.v)}, nil
		}
	}
	v, err := coerceFilterValue(c.typ, n.value)
	if err != nil {
		return frag{}, badValue
	}
	args := append(append([]any{}, ef.args...), v)
	if n.op == OpNe {
		return frag{sql: ef.sql + " <> ? OR " + ef.sql + " IS NULL", args: append(args, ef.args...)}, nil
	}
	return frag{sql: ef.sql + sqlOp(n.op), args: args}, nil
}

func sqlOp(op Op) string {
	switch op {
	case OpLt:
		return " < ?"
	case OpLte:
		return " <= ?"
	case OpGt:
		return " > ?"
	case OpGte:
		return " >= ?"
	}
	return " = ?"
}

func compileIn(n *Node, c *colSpec, ef frag, badValue error) (frag, error) {
	items := n.value.([]any)
	if len(items) == 0 {
		if n.op == OpIn {
			return frag{sql: "1 = 0"}, nil
		}
		return frag{sql: "1 = 1"}, nil
	}
	args := append([]any{}, ef.args...)
	for _, it := range items {
		v, err := coerceFilterValue(c.typ, it)
		if err != nil {
			return frag{}, badValue
		}
		args = append(args, v)
	}
	list := ef.sql + " IN (" + placeholders(len(items)) + ")"
	if n.op == OpNotIn {
		return frag{sql: "NOT " + list + " OR " + ef.sql + " IS NULL", args: append(args, ef.args...)}, nil
	}
	return frag{sql: list, args: args}, nil
}

// coerceFilterValue converts a filter value to the column type; empty
// values are refused (use is_null).
func coerceFilterValue(t schema.DataType, raw any) (any, error) {
	v, err := validate.Coerce(t, raw)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, errors.New("empty value")
	}
	return v, nil
}

// compileSearch renders the keyword search over the searchable columns of
// cat; keywords shorter than MinSearchLen are ignored. The searchable
// fields of the base rows and the labels of references are answered by
// the search indexes where there are some (searchindex.go); every other
// column, and keywords too short for a trigram index, by db.SearchMatch,
// which folds the same way.
func compileSearch(keyword string, cat *catalog, s *source) (frag, error) {
	keyword = strings.TrimSpace(keyword)
	if utf8.RuneCountInString(keyword) < MinSearchLen {
		return frag{}, nil
	}
	if utf8.RuneCountInString(keyword) > MaxFilterValueLen {
		return frag{}, filterErr("server.tables.filter.too_long", "max", fmt.Sprint(MaxFilterValueLen))
	}
	d := s.env.dialect
	indexed := s.env.search != nil && db.IndexedTerm(keyword)
	var alts []frag
	var own []string // searchable fields of the base rows found through its index
	base := s.env.search[s.base.Name]
	// Unless the page walks the sort index (searchplan.go), the indexed
	// matches become one key set, a UNION ALL of one select per indexed
	// part (the own fields together, each label), because both databases
	// plan an OR of the row's columns and label sub-queries as a test of
	// every row of the scope (SQLite: a rare keyword cost 110 ms of CPU over
	// 100,000 points of sale), while each branch here uses its index.
	keySet := indexed && !s.walkSearch
	var branches []frag
	for i := range cat.specs {
		c := &cat.specs[i]
		if !c.searchable() || c.searchHides(s) {
			continue
		}
		if indexed && c.kind == kindField && !c.onLink && base != nil && slices.Contains(base.fields, c.name) {
			own = append(own, c.name)
			continue
		}
		if indexed && c.kind == kindLabel {
			if fk, refs, ok := labelSearch(c, s, keyword); ok {
				if keySet && !c.onLink {
					k := s.n.next("k")
					branches = append(branches, frag{sql: "SELECT " + col(k, s.base.PK) + " FROM " + ident(s.base.Table) + " " + k +
						" WHERE " + col(k, c.field.Name) + " IN (" + refs.sql + ")", args: refs.args})
				} else {
					alts = append(alts, frag{sql: fk + " IN (" + refs.sql + ")", args: refs.args})
				}
				continue
			}
		}
		ef, err := c.expr(s)
		if err != nil {
			return frag{}, err
		}
		match, arg := db.SearchMatch(d, ef.sql, keyword)
		alts = append(alts, frag{sql: match, args: append(append([]any{}, ef.args...), arg)})
	}
	if len(own) > 0 {
		if s.walkSearch && d == db.SQLite {
			for _, f := range own {
				alts = append(alts, scanMatch(col(s.alias, f), keyword))
			}
		} else if d == db.SQLite {
			branches = append([]frag{{sql: "SELECT rowid FROM " + ident(base.ftsTable()) + " WHERE " + ident(base.ftsTable()) + " MATCH ?",
				args: []any{base.ftsQuery(own, keyword)}}}, branches...)
		} else if keySet {
			k := s.n.next("k")
			where := base.pgOwnMatch(k, own, keyword)
			branches = append([]frag{{sql: "SELECT " + col(k, s.base.PK) + " FROM " + ident(s.base.Table) + " " + k +
				" WHERE " + where.sql, args: where.args}}, branches...)
		} else {
			alts = append(alts, base.pgOwnMatch(s.alias, own, keyword))
		}
	}
	if len(branches) > 0 {
		union := join(branches, " UNION ALL ")
		alts = append(alts, frag{sql: col(s.alias, s.base.PK) + " IN (" + union.sql + ")", args: union.args})
	}
	return or(alts), nil
}

// labelSearch renders "the label of reference column c matches keyword"
// through the referenced entity's search index: the foreign key fk (of
// the base rows or the link) and refs, the select of the keys of the
// referenced rows whose label matches (the condition is fk IN (refs)). Labels are not tenant-scoped (decision 0004:
// a visible row shows what it refers to), and neither is this. ok is false
// when the referenced entity's label has no index.
func labelSearch(c *colSpec, s *source, keyword string) (fk string, refs frag, ok bool) {
	ref, ok := s.env.reg.Entity(c.field.Ref)
	if !ok {
		return "", frag{}, false
	}
	x := s.env.search[ref.Name]
	if x == nil || len(x.label) == 0 {
		return "", frag{}, false
	}
	a := s.alias
	if c.onLink {
		a = s.link.alias
	}
	fk = col(a, c.field.Name)
	if s.env.dialect == db.SQLite {
		return fk, frag{sql: "SELECT rowid FROM " + ident(x.ftsTable()) + " WHERE " + ident(x.ftsTable()) + " MATCH ?",
			args: []any{x.ftsQuery(x.labelColumns(), keyword)}}, true
	}
	r := s.n.next("w")
	match := x.pgLabelMatch(r, keyword)
	return fk, frag{sql: "SELECT " + col(r, ref.PK) + " FROM " + ident(ref.Table) + " " + r + " WHERE " + match.sql,
		args: match.args}, true
}
