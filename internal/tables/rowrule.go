package tables

import (
	"encoding/json"
	"fmt"

	"portfolio/internal/auth"
	"portfolio/internal/schema"
)

// Row rules: a module's limit on which rows of an entity a caller sees,
// on top of the rights and the tenant scope (the ticket module's boards
// per team, decision 0027). A rule is a pure function of the caller that
// answers a condition in terms of the definitions (columns, "IN" lists,
// sub-selects over entities and links), never SQL; the engine renders it
// inside Scope.cond, the single chokepoint, so every statement built from
// a source applies it: lists, single reads, relation reads and their
// aggregates, choices and options, reference checks, exports, counts
// (the condition is part of the counted statement, so the count cache
// keys by it, and the tables it reads are part of its data generation),
// keyword search, Scoped and VisibleTo (the event stream). The engine
// itself holds no module's rule.

// RowRule decides what rows of an entity principal p sees (OnRows). It
// is called for every request of a caller, so it must not touch the
// database: what depends on stored data is expressed as a sub-select.
type RowRule func(p *auth.Principal) RowLimit

// RowLimit is a row rule's answer: the zero value limits nothing;
// Limited keeps only the rows meeting one of Any (none: no row at all).
type RowLimit struct {
	Limited bool      `json:"limited,omitempty"`
	Any     []RowCond `json:"any,omitempty"`
}

// RowCond holds for a row whose Column (a stored column of the entity or
// link, or its key) is one of Values or, when In is set, one of the
// values In selects.
type RowCond struct {
	Column string     `json:"column"`
	Values []any      `json:"values,omitempty"`
	In     *RowSelect `json:"in,omitempty"`
}

// RowSelect selects Column of the rows of From (an entity or a link,
// by name) that meet one of Any (none: no row).
type RowSelect struct {
	From   string    `json:"from"`
	Column string    `json:"column"`
	Any    []RowCond `json:"any,omitempty"`
}

// OnRows registers rule as the row rule of entity (one per entity; a
// later registration replaces the earlier, nil removes it). Register at
// start, before requests are served.
func (e *Engine) OnRows(entity string, rule RowRule) {
	if rule == nil {
		delete(e.rowRules, entity)
		return
	}
	if e.rowRules == nil {
		e.rowRules = map[string]RowRule{}
	}
	e.rowRules[entity] = rule
}

// rowLimitsOf are the limits the row rules set for p, by entity (nil:
// none). The system (nil principal) has none.
func (e *Engine) rowLimitsOf(p *auth.Principal) map[string]RowLimit {
	if p == nil || len(e.rowRules) == 0 {
		return nil
	}
	var out map[string]RowLimit
	for name, rule := range e.rowRules {
		if l := rule(p); l.Limited {
			if out == nil {
				out = map[string]RowLimit{}
			}
			out[name] = l
		}
	}
	return out
}

// scopeOf is the scope of principal p: its tenant and the row rules.
func (e *Engine) scopeOf(p *auth.Principal) Scope {
	sc := ScopeOf(p)
	sc.rows = e.rowLimitsOf(p)
	return sc
}

// ScopeKey names the rows of entity that p sees: principals with the same
// key see the same rows (the tenant scope and the row rule's answer), so
// a caller may share one visibility answer among them (the event hub).
func (e *Engine) ScopeKey(p *auth.Principal, entity string) string {
	key := "all"
	if ent, ok := e.reg.Entity(entity); ok && p != nil && p.External && !ent.Tenant.Global {
		key = fmt.Sprintf("c%d/p%d", p.CustomergroupID, p.PartnergroupID)
	}
	if rule, ok := e.rowRules[entity]; ok && p != nil {
		if l := rule(p); l.Limited {
			b, err := json.Marshal(l)
			if err != nil { // values are plain numbers and texts; never here
				return fmt.Sprintf("user%d", p.UserID)
			}
			key += "|" + string(b)
		}
	}
	return key
}

// Unlimited reports whether p sees every row of entity: no tenant scope
// and no row rule limit it.
func (e *Engine) Unlimited(p *auth.Principal, entity string) bool {
	return e.ScopeKey(p, entity) == "all"
}

// rowCond renders the row rule's limit on rows of e aliased alias (the
// empty frag when none applies).
func (s Scope) rowCond(x *env, e *schema.Entity, alias string, n *aliases) (frag, error) {
	l, ok := s.rows[e.Name]
	if !ok || !l.Limited {
		return frag{}, nil
	}
	f, err := rowAny(x, e.Name, alias, l.Any, n, 0, s.walkRows)
	if err != nil {
		return frag{}, fmt.Errorf("tables: row rule of %s: %w", e.Name, err)
	}
	return f, nil
}

// maxRowDepth bounds the nesting of a row rule's sub-selects.
const maxRowDepth = 4

// rowAny renders "one of conds holds" for the row of from (an entity or
// link) aliased alias. walk renders them so that they are tested per row
// and drive no index (Scope.walkRows): values and, on an integer column, a
// selection through a unary plus (whose comparison of integers the plus
// leaves alone; SQLite reads the selection once per statement and looks
// each row's value up in it), a selection on another column as a
// correlated EXISTS (run per row: a ticket page's board rule cost 2.6 µs a
// row so, against 0.8 µs looked up).
func rowAny(x *env, from, alias string, conds []RowCond, n *aliases, depth int, walk bool) (frag, error) {
	if depth > maxRowDepth {
		return frag{}, fmt.Errorf("sub-selects nested deeper than %d", maxRowDepth)
	}
	alts := make([]frag, 0, len(conds))
	for _, c := range conds {
		typ, err := rowColumn(x, from, c.Column)
		if err != nil {
			return frag{}, err
		}
		var parts []frag
		if len(c.Values) > 0 {
			column := col(alias, c.Column)
			if walk && allIntegers(c.Values) {
				column = "+" + column
			}
			parts = append(parts, frag{sql: column + " IN (" + placeholders(len(c.Values)) + ")", args: c.Values})
		}
		switch {
		case c.In != nil && walk && !integral(typ):
			sub, err := rowExists(x, c.In, col(alias, c.Column), n, depth+1)
			if err != nil {
				return frag{}, err
			}
			parts = append(parts, sub)
		case c.In != nil:
			sub, err := rowSelect(x, c.In, n, depth+1)
			if err != nil {
				return frag{}, err
			}
			column := col(alias, c.Column)
			if walk {
				column = "+" + column
			}
			parts = append(parts, frag{sql: column + " IN (" + sub.sql + ")", args: sub.args})
		}
		if len(parts) == 0 {
			continue // neither values nor a selection: matches nothing
		}
		alts = append(alts, or(parts))
	}
	return or(alts), nil
}

// rowSelect renders "SELECT column FROM table WHERE <one of Any>".
func rowSelect(x *env, sel *RowSelect, n *aliases, depth int) (frag, error) {
	from, a, where, err := rowSelection(x, sel, n, depth)
	if err != nil {
		return frag{}, err
	}
	return frag{sql: "SELECT " + col(a, sel.Column) + " FROM " + from + " WHERE " + where.sql, args: where.args}, nil
}

// rowExists renders "a row of the selection has value": the correlated
// form of value IN (rowSelect), the same for a NULL value (no row).
func rowExists(x *env, sel *RowSelect, value string, n *aliases, depth int) (frag, error) {
	from, a, where, err := rowSelection(x, sel, n, depth)
	if err != nil {
		return frag{}, err
	}
	return frag{sql: "EXISTS (SELECT 1 FROM " + from + " WHERE " + col(a, sel.Column) + " = " + value +
		" AND (" + where.sql + "))", args: where.args}, nil
}

// rowSelection renders the rows of a selection: its table with its alias
// a (from), and "one of Any" on them.
func rowSelection(x *env, sel *RowSelect, n *aliases, depth int) (from, a string, where frag, err error) {
	table, err := rowTable(x, sel.From)
	if err != nil {
		return "", "", frag{}, err
	}
	if _, err := rowColumn(x, sel.From, sel.Column); err != nil {
		return "", "", frag{}, err
	}
	a = n.next("w")
	where, err = rowAny(x, sel.From, a, sel.Any, n, depth, false)
	if err != nil {
		return "", "", frag{}, err
	}
	return ident(table) + " " + a, a, where, nil
}

// allIntegers reports whether every value is an integer.
func allIntegers(values []any) bool {
	for _, v := range values {
		switch v.(type) {
		case int, int32, int64:
		default:
			return false
		}
	}
	return true
}

// rowTable is the table of from: an entity's or a link's.
func rowTable(x *env, from string) (string, error) {
	if ent, ok := x.reg.Entity(from); ok {
		return ent.Table, nil
	}
	if l, ok := x.reg.Link(from); ok {
		return l.Table, nil
	}
	return "", fmt.Errorf("unknown entity or link %q", from)
}

// rowColumn checks that column is a stored column of from (identifiers
// come only from the definitions) and answers its type: keys, references
// and a link's columns are ids.
func rowColumn(x *env, from, column string) (schema.DataType, error) {
	if ent, ok := x.reg.Entity(from); ok {
		if column == ent.PK {
			return schema.TypeID, nil
		}
		if f, ok := ent.Field(column); ok && f.Stored() {
			return f.Type, nil
		}
		return "", fmt.Errorf("%q is not a column of %s", column, from)
	}
	if l, ok := x.reg.Link(from); ok {
		if column == l.Left.Column || column == l.Right.Column || (l.ID != "" && column == l.ID) {
			return schema.TypeID, nil
		}
		if f, ok := l.Attr(column); ok && f.Stored() {
			return f.Type, nil
		}
		return "", fmt.Errorf("%q is not a column of link %s", column, from)
	}
	return "", fmt.Errorf("unknown entity or link %q", from)
}
