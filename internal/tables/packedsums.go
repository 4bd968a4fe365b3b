package tables

import (
	"strconv"
	"strings"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// Two sums over one relation (a contract's rental and allocation space,
// both over its areas) each read the relation's rows and test each row's
// tenant: on PostgreSQL about two thirds of a contract page's statement.
// There the page reads such sums in one sub-query giving an array
// (source.sumsArray), and an outer projection hands its elements out as
// the answer's columns, so the cursor reads the columns it always reads.
// SQLite has no arrays; its pages keep one sub-query per sum (decision
// 0044).

// sumGroup is a set of the page's columns read by one sumsArray.
type sumGroup struct {
	cols []int // indexes into listPlan.out, in order
	ds   []*schema.Derivation
}

// sumGroups finds the sums of the page's columns over one relation with
// one Only and one result type, two or more per group; none on SQLite.
func (p *listPlan) sumGroups(d db.Dialect) []sumGroup {
	if d != db.Postgres || p.computed != nil {
		return nil
	}
	at := map[string]int{}
	var groups []sumGroup
	for i, c := range p.out {
		if c.kind != kindDerived || c.onLink || c.field == nil || c.field.Derived == nil || c.field.Derived.Func != schema.DeriveSum {
			continue
		}
		dv := c.field.Derived
		key := dv.Relation + "\x00" + string(c.typ)
		if dv.Only != nil {
			key += "\x00" + dv.Only.Field + "\x00" + dv.Only.Value
		}
		g, ok := at[key]
		if !ok {
			g = len(groups)
			at[key] = g
			groups = append(groups, sumGroup{})
		}
		groups[g].cols = append(groups[g].cols, i)
		groups[g].ds = append(groups[g].ds, dv)
	}
	kept := groups[:0]
	for _, g := range groups {
		if len(g.cols) > 1 {
			kept = append(kept, g)
		}
	}
	return kept
}

// packSums renders the page's select list with each group of sums read by
// one sumsArray: inner is the list of the page's own statement (each
// column aliased: c<i> for the answer's columns, m<j> for more, g<k> for
// a group), outer the projection over it (aliased p) in the answer's
// order, a packed sum as its array element. cols are the answer's columns
// rendered in s, more the columns after them (extra, the next token's sort
// value).
func (p *listPlan) packSums(s *source, cols, more []frag, groups []sumGroup) (inner []frag, outer []string, err error) {
	type place struct{ group, pos int }
	packed := map[int]place{} // column → its group and position there
	for g, grp := range groups {
		for k, i := range grp.cols {
			packed[i] = place{g, k}
		}
	}
	add := func(f frag, name string) {
		inner = append(inner, frag{sql: f.sql + " AS " + name, args: f.args})
		outer = append(outer, "p."+name)
	}
	for i, c := range cols {
		at, ok := packed[i]
		if !ok {
			add(c, "c"+strconv.Itoa(i))
			continue
		}
		g := "g" + strconv.Itoa(at.group)
		if at.pos == 0 {
			sums, err := s.sumsArray(s.alias, s.base, groups[at.group].ds)
			if err != nil {
				return nil, nil, err
			}
			inner = append(inner, frag{sql: sums.sql + " AS " + g, args: sums.args})
		}
		outer = append(outer, "p."+g+"["+strconv.Itoa(at.pos+1)+"]")
	}
	for j, c := range more {
		add(c, "m"+strconv.Itoa(j))
	}
	return inner, outer, nil
}

// projected renders statement inner under the projection outer of
// packSums, or inner itself when outer is nil. inner is limited, and a
// plain projection over a limited statement keeps its order.
func projected(outer []string, inner frag) frag {
	if outer == nil {
		return inner
	}
	var b sqlb
	b.add("SELECT " + strings.Join(outer, ", ") + " FROM (").frag(inner).add(") p")
	return b.done()
}
