package tables

import (
	"strconv"
	"strings"

	"portfolio/internal/db"
)

// Late materialization (issue 19, decision 0044). A page whose order no
// index gives (a label that is not walked) sorts every matching row.
// Sorted with all its columns, each row first joins its labels and, on
// SQLite, computes its sums: the contracts of a tenant sorted by point of
// sale took 172 ms, invoices by description on PostgreSQL hashed all 100,000
// contracts for their labels. So the page first finds its keys with
// only what the conditions and the order read, and then reads the
// columns of those keys alone:
//
//	SELECT <columns> FROM (
//	  SELECT <order values> AS o0, …, t.key AS k FROM <rows> WHERE <scope, filter…>
//	  ORDER BY … LIMIT n OFFSET m
//	) k CROSS JOIN <entity> t LEFT JOIN <labels> … WHERE t.key = k.k
//	ORDER BY k.o0, … LIMIT n
//
// The outer sort orders the page's rows by the values the inner query
// sorted by. The inner query is the only one with conditions: it holds
// the scope, the filter and the keyword as every page does.

// materializesLate reports whether the page is read in two steps: its
// order is one no index gives (a label; long text is sorted by its leading
// characters, which an index holds since decision 0051), it lists entity
// rows (a many-to-many relation read orders by its link rows too), and the
// page is small enough that sorting it twice costs nothing (the list
// screens' whole-list read of 100,000 rows keeps one statement). A page an
// index orders stops after its rows anyway; there the second step measured
// slower on SQLite (invoices by description 1,598 → 959 req/s).
//
// On PostgreSQL a keyword page whose matches the text index collects
// (walk is false: the page does not walk its sort index) is read in two
// steps as well: PostgreSQL joins the labels of every match before it
// sorts them for the page, and at 1,000,000 points of sale a keyword of
// common trigrams (01414) matched 192 rows, each joined with its company
// and contact person for a page of 50.
func (p *listPlan) materializesLate(d db.Dialect, walk bool) bool {
	if p.t.link != nil || p.limit <= 0 || p.limit > pageWalkLimit {
		return false
	}
	if p.order.kind == kindLabel {
		return true
	}
	return d == db.Postgres && p.search != "" && !walk && p.order.kind == kindField
}

// lateSelect renders the page in two steps (see above).
func (p *listPlan) lateSelect(x *env, sc Scope, extra []frag, walk bool) (frag, error) {
	keys, err := p.source(x, sc)
	if err != nil {
		return frag{}, err
	}
	keys.walkSearch = walk
	where, offset, err := p.pageWhere(keys)
	if err != nil {
		return frag{}, err
	}
	exprs, err := p.orderExprs(keys)
	if err != nil {
		return frag{}, err
	}
	dir := p.direction()
	inner := make([]frag, 0, len(exprs)+1)
	outerOrder := make([]string, len(exprs))
	for i, e := range exprs {
		name := "o" + strconv.Itoa(i)
		inner = append(inner, frag{sql: e.sql + " AS " + name, args: e.args})
		outerOrder[i] = "k." + name + dir
		exprs[i].sql += dir
	}
	inner = append(inner, frag{sql: col(keys.alias, p.t.ent.PK) + " AS k"})
	var b sqlb
	b.add("SELECT ").frag(join(inner, ", ")).add(" FROM " + keys.from())
	if !where.empty() {
		b.add(" WHERE ").frag(where)
	}
	b.add(" ORDER BY ").frag(join(exprs, ", "))
	b.add(" LIMIT ? OFFSET ?", p.limit+1, offset)
	return p.readRows(x, sc, keys.n, extra, b.done(), "k", outerOrder)
}

// readRows renders the statement that reads the columns of the page's
// rows whose keys (column key) the statement keys selects, in order
// (columns of keys, aliased k, with their direction). The rows have no
// conditions of their own: the keys are the caller's; their source keeps
// the scope for the tenant tests of their sums.
func (p *listPlan) readRows(x *env, sc Scope, names *aliases, extra []frag, keys frag, key string, order []string) (frag, error) {
	rows := newSource(x, sc, p.t.ent)
	rows.n = names
	cols, err := p.columns(rows)
	if err != nil {
		return frag{}, err
	}
	cols, outer, err := p.withMore(rows, cols, extra)
	if err != nil {
		return frag{}, err
	}
	var b sqlb
	b.add("SELECT ").frag(join(cols, ", ")).add(" FROM (").frag(keys)
	b.add(") k CROSS JOIN " + rows.from() + " WHERE " + col(rows.alias, p.t.ent.PK) + " = k." + key)
	b.add(" ORDER BY " + strings.Join(order, ", "))
	b.add(" LIMIT ?", p.limit+1)
	return projected(outer, b.done()), nil
}
