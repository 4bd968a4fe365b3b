package tables_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
)

// TestLabelWalkEqualsSort: a page sorted by a reference's label read by the
// label walk (labelsort.go) holds the rows of the plain sort in the same
// order, on both databases: NULL references (tickets without a team or
// contract), ties (many contracts of one type, many tickets of one
// contract), both directions, filters and keywords, deep pages, the
// administrator and both customer groups' leads. Labels of two names (a
// ticket's user, a point of sale's contact person) are walked by their
// label sort index, also where a first name is empty or holds a space; a
// table with an empty one-column label is sorted. Rows of two referenced
// rows with one label stay together, each group by key (decision 0044).
func TestLabelWalkEqualsSort(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		engine := e.Engine
		ctx := context.Background()
		for _, st := range []string{
			// A third of the tickets on the first contract of their point of
			// sale (ties), the others without a contract (NULLs).
			`UPDATE ticket SET contract_id = (SELECT MIN(c.contract_id) FROM contract c WHERE c.pos_id = ticket.pos_id)
			  WHERE ticket_id % 3 = 0`,
			// Contact persons of one name, and labels of one name only.
			`UPDATE contactperson SET contactperson_firstname = 'Kim', contactperson_lastname = 'Berg' WHERE contactperson_id % 4 = 1`,
			`UPDATE contactperson SET contactperson_firstname = '' WHERE contactperson_id % 4 = 2`,
			`UPDATE contactperson SET contactperson_firstname = 'Kim Berg', contactperson_lastname = 'A' WHERE contactperson_id % 4 = 3`,
		} {
			if _, err := d.ExecContext(ctx, st); err != nil {
				t.Fatal(err)
			}
		}
		type list struct {
			body obj
			walk bool // the walk can serve it
		}
		var lists []list
		for _, dir := range []string{"ASC", "DESC"} {
			add := func(walk bool, entity, order string, more obj) {
				b := obj{"entity": entity, "pk": entity + "_id", "order_by": order, "order_dir": dir, "count": true}
				for k, v := range more {
					b[k] = v
				}
				lists = append(lists, list{b, walk})
			}
			add(true, "contract", "contracttype_id__label", nil)
			add(true, "contract", "company_id__label", nil)
			add(true, "pos", "company_id__label", nil)
			add(true, "ticket", "team_id__label", nil)
			add(true, "ticket", "contract_id__label", nil)
			add(true, "pos", "company_id__label", obj{"filter": []obj{{"field": "pos_first_year", "op": "gte", "value": 1990}}})
			add(true, "ticket", "team_id__label", obj{"filter": []obj{{"field": "team_id", "op": "is_null"}}})
			add(true, "pos", "company_id__label", obj{"filter_all": "a"})
			add(true, "ticket", "user_id__label", nil)       // first and last name
			add(true, "pos", "contactperson_id__label", nil) // first and last name
		}
		walked := func() int64 { return tables.LabelWalks(engine) }
		for _, as := range []string{admin, lead, leadB} {
			for _, l := range lists {
				tables.ForceLabelWalk(engine, false)
				want := offsetIDs(t, e, as, l.body)
				tables.ForceLabelWalk(engine, true)
				before := walked()
				got := offsetIDs(t, e, as, l.body)
				if !slices.Equal(got, want) {
					t.Errorf("%s %v: walked %v, sorted %v", as, l.body, got, want)
				}
				if w := walked() > before; w != l.walk {
					t.Errorf("%s %v: walked %v, want %v", as, l.body, w, l.walk)
				}
				// Pages of 3 (LIMIT and OFFSET over the walk) and their totals,
				// up to the page after the last: every page crossing from one
				// part of the walk to the other (labelled rows, then those
				// without a reference, or the other way round) is among them.
				for page := 1; page <= len(want)/3+2; page++ {
					b := obj{"per_page": 3, "current_page": page}
					for k, v := range l.body {
						b[k] = v
					}
					tables.ForceLabelWalk(engine, false)
					sorted := e.list(as, b)
					tables.ForceLabelWalk(engine, true)
					a := e.list(as, b)
					var ids []int64
					for _, r := range a.Data.Data {
						ids = append(ids, id(r, l.body["pk"].(string)))
					}
					// Every value, the walked label too (read from the walk,
					// not joined), is the sorted page's.
					if got, want := fmt.Sprint(a.Data.Data), fmt.Sprint(sorted.Data.Data); got != want {
						t.Errorf("%s %v page %d:\nwalked %s\nsorted %s", as, l.body, page, got, want)
					}
					from, to := min((page-1)*3, len(want)), min(page*3, len(want))
					if !slices.Equal(ids, want[from:to]) {
						t.Errorf("%s %v page %d: %v, want %v", as, l.body, page, ids, want[from:to])
					}
					if a.Data.HasMore != (to < len(want)) || a.Data.Total == nil || *a.Data.Total != int64(len(want)) {
						t.Errorf("%s %v page %d: has_more %v, total %v; %d rows", as, l.body, page, a.Data.HasMore, a.Data.Total, len(want))
					}
				}
			}
		}
		// An invoice position's invoice is labelled by id, number and date,
		// the date as YYYY-MM-DD on both databases (db.DateText).
		if _, err := d.ExecContext(ctx, `UPDATE invoice SET invoice_number = 'R-1' WHERE invoice_id % 2 = 0`); err != nil {
			t.Fatal(err)
		}
		for _, dir := range []string{"ASC", "DESC"} {
			l := obj{"entity": "invoiceposition", "pk": "invoiceposition_id", "order_by": "invoice_id__label", "order_dir": dir}
			tables.ForceLabelWalk(engine, false)
			want := offsetIDs(t, e, admin, l)
			tables.ForceLabelWalk(engine, true)
			before := walked()
			if got := offsetIDs(t, e, admin, l); !slices.Equal(got, want) || walked() == before {
				t.Errorf("%s: positions by invoice walked %v (walk taken: %v), sorted %v", dir, got, walked() > before, want)
			}
			if len(want) < 2 {
				t.Fatalf("%s: %d invoice positions; the walk needs some", dir, len(want))
			}
		}
		invoices := map[int64]obj{}
		for _, r := range e.list(admin, obj{"entity": "invoice", "per_page": 100000}).Data.Data {
			invoices[id(r, "invoice_id")] = r
		}
		for _, r := range e.list(admin, obj{"entity": "invoiceposition", "per_page": 5}).Data.Data {
			inv := invoices[id(r, "invoice_id")]
			if want := fmt.Sprintf("%v %v %v", inv["invoice_id"], inv["invoice_number"], inv["invoice_date"]); r["invoice_id__label"] != want {
				t.Errorf("position %v: invoice label %q, want %q", r["invoiceposition_id"], r["invoice_id__label"], want)
			}
		}

		// The walk is taken by default for a large tenant's page without
		// filter; no next token (keyset paging is off for label orders).
		tables.UnforceLabelWalk(engine)
		before := walked()
		body := obj{"entity": "contract", "order_by": "contracttype_id__label", "per_page": 5}
		e.list(lead, body)
		if walked() == before {
			t.Errorf("a page of contracts by type was sorted, not walked")
		}
		if next := nextToken(t, e, lead, body); next != "" {
			t.Errorf("a next token for a label order: %s", next)
		}
		// A filter is walked when the page's total shows enough matches,
		// sorted when the request asks for no total.
		filtered := obj{"entity": "pos", "order_by": "company_id__label", "per_page": 5,
			"filter": []obj{{"field": "pos_first_year", "op": "gte", "value": 1900}}}
		before = walked()
		e.list(admin, filtered)
		if walked() != before {
			t.Errorf("a filtered page without a total was walked")
		}
		filtered["count"] = true
		e.list(admin, filtered)
		if walked() == before {
			t.Errorf("a filtered page matching every row was sorted, not walked")
		}

		// Two companies with one name: their rows stay together, each
		// company's by key, and the walk reads them in that order.
		for _, st := range []string{
			`UPDATE company SET company_name = (SELECT MIN(company_name) FROM company)
			  WHERE company_id = (SELECT MAX(company_id) FROM company)`,
			// Every other point of sale of the first such company moves to
			// the second, so sorted by key alone their rows would alternate.
			`UPDATE pos SET company_id = (SELECT MAX(company_id) FROM company) WHERE pos_id % 2 = 0
			  AND company_id = (SELECT MIN(company_id) FROM company WHERE company_name = (SELECT MIN(company_name) FROM company))`,
		} {
			if _, err := d.ExecContext(ctx, st); err != nil {
				t.Fatal(err)
			}
		}
		for _, dir := range []string{"ASC", "DESC"} {
			l := obj{"entity": "pos", "pk": "pos_id", "order_by": "company_id__label", "order_dir": dir}
			tables.ForceLabelWalk(engine, true)
			before := walked()
			got := offsetIDs(t, e, admin, l)
			if walked() == before {
				t.Errorf("%s: pos by company label not walked with two equal company names", dir)
			}
			tables.ForceLabelWalk(engine, false)
			want := offsetIDs(t, e, admin, l)
			if !slices.Equal(got, want) {
				t.Errorf("%s: %v, want %v", dir, got, want)
			}
			if !groupedByCompany(t, e, want) {
				t.Errorf("%s: the rows of two companies named alike are interleaved: %v", dir, want)
			}
		}
		// An empty label sorts as NULL, which the label index does not:
		// such a table is sorted, not walked.
		if _, err := d.ExecContext(ctx, `UPDATE contracttype SET contracttype_name = ''
			WHERE contracttype_id = (SELECT MIN(contracttype_id) FROM contracttype)`); err != nil {
			t.Fatal(err)
		}
		tables.ForceLabelWalk(engine, true)
		for _, dir := range []string{"ASC", "DESC"} {
			l := obj{"entity": "contract", "pk": "contract_id", "order_by": "contracttype_id__label", "order_dir": dir}
			before := walked()
			got := offsetIDs(t, e, admin, l)
			if walked() != before {
				t.Errorf("%s: contracts walked by type with an empty type name", dir)
			}
			tables.ForceLabelWalk(engine, false)
			if want := offsetIDs(t, e, admin, l); !slices.Equal(got, want) {
				t.Errorf("%s: %v, want %v", dir, got, want)
			}
			tables.ForceLabelWalk(engine, true)
		}
		t.Logf("pages walked: %d", walked())
	})
}

// groupedByCompany reports whether the points of sale ids come in one run
// per company: no company's rows start again after another's.
func groupedByCompany(t *testing.T, e *env, ids []int64) bool {
	t.Helper()
	company := map[int64]int64{}
	for _, r := range e.list(admin, obj{"entity": "pos", "per_page": 100000}).Data.Data {
		company[id(r, "pos_id")] = id(r, "company_id")
	}
	done := map[int64]bool{}
	for i, p := range ids {
		c := company[p]
		if i > 0 && company[ids[i-1]] != c {
			if done[c] {
				return false
			}
			done[company[ids[i-1]]] = true
		}
	}
	return true
}
