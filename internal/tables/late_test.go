package tables_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
)

// TestLatePagesEqualOneStatement: pages read in two steps (late.go: keys
// first, then their columns) hold the same rows, with the same columns
// (labels, sums, next notice dates), as the whole list read in one
// statement, on both databases: label orders with repeating labels, ties
// and NULL references, both directions, with a filter and a keyword, as
// the administrator and a lead; long text, which its prefix index orders
// (decision 0051), is read in one step, and so is a keyword page sorted
// by a field, except on PostgreSQL. Their totals and has_more agree too,
// and so do the pages of the label walk.
func TestLatePagesEqualOneStatement(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		engine := e.Engine
		tables.ForceLabelWalk(engine, false)
		ctx := context.Background()
		if _, err := d.ExecContext(ctx, `UPDATE ticket SET contract_id = (SELECT MIN(c.contract_id) FROM contract c WHERE c.pos_id = ticket.pos_id)
			WHERE ticket_id % 3 = 0`); err != nil {
			t.Fatal(err)
		}
		type list struct {
			as   []string
			body obj
			late bool
		}
		both := []string{admin, lead}
		var lists []list
		for _, dir := range []string{"ASC", "DESC"} {
			add := func(as []string, late bool, entity, order string, more obj) {
				b := obj{"entity": entity, "pk": entity + "_id", "order_by": order, "order_dir": dir, "count": true}
				for k, v := range more {
					b[k] = v
				}
				lists = append(lists, list{as, b, late})
			}
			add(both, true, "contract", "pos_id__label", nil)
			add(both, true, "contract", "contracttype_id__label", obj{"filter": []obj{{"field": "contract_name", "op": "contains", "value": "a"}}})
			add(both, true, "pos", "contactperson_id__label", obj{"filter_all": "a"})
			add(both, true, "ticket", "contract_id__label", nil)
			add(both, true, "ticket", "user_id__label", nil)
			add([]string{admin}, false, "invoice", "invoice_description", nil) // an index orders it (decision 0051)
			add(both, false, "contract", "contract_name", nil)
			// On PostgreSQL a keyword page the text index collects (a short
			// keyword is never walked) is read in two steps too.
			pg := d.Dialect() == db.Postgres
			add(both, pg, "pos", "pos_name", obj{"filter_all": "a"})
			add(both, pg, "ticket", "ticket_creation_time", obj{"filter_all": "e"})
		}
		for _, l := range lists {
			for _, as := range l.as {
				pk := l.body["pk"].(string)
				whole := obj{"per_page": 100000}
				for k, v := range l.body {
					whole[k] = v
				}
				tables.ForceLabelWalk(engine, false)
				want := e.list(as, whole).Data.Data
				// Walked pages carry the same columns (the walk reads its
				// sums packed on PostgreSQL, like a page).
				tables.ForceLabelWalk(engine, true)
				if walked := pagesOf3(t, e, as, l.body); !reflect.DeepEqual(walked, want) {
					t.Errorf("%s %v: walked pages of 3 differ from the whole list:\n%v\n%v", as, l.body, ids(walked, pk), ids(want, pk))
				}
				tables.ForceLabelWalk(engine, false)
				if len(want) < 4 {
					t.Fatalf("%s %v: %d rows; the pages need more", as, l.body, len(want))
				}
				before := tables.LateReads(engine)
				got := pagesOf3(t, e, as, l.body)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s %v: pages of 3 differ from the whole list:\n%v\n%v", as, l.body, ids(got, pk), ids(want, pk))
				}
				if late := tables.LateReads(engine) > before; late != l.late {
					t.Errorf("%s %v: read in two steps %v, want %v", as, l.body, late, l.late)
				}
				if l.body["filter_all"] != nil && l.late && l.body["order_by"] == "pos_name" {
					// A text field's order keeps its next tokens in two steps
					// (a date-time's has none, keyset.go).
					if got, want := keysetIDs(t, e, as, l.body, 3), ids(want, pk); fmt.Sprint(got) != fmt.Sprint(want) {
						t.Errorf("%s %v: pages by next token %v, want %v", as, l.body, got, want)
					}
				}
			}
		}
	})
}

// pagesOf3 reads the list of body page by page, 3 rows a page, checking
// each page's total against the rows it ends with.
func pagesOf3(t *testing.T, e *env, as string, body obj) []map[string]any {
	t.Helper()
	var got []map[string]any
	var totals []int64
	for page := 1; ; page++ {
		b := obj{"per_page": 3, "current_page": page}
		for k, v := range body {
			b[k] = v
		}
		a := e.list(as, b)
		got = append(got, a.Data.Data...)
		if a.Data.Total == nil {
			t.Errorf("%s %v page %d: no total", as, body, page)
		} else {
			totals = append(totals, *a.Data.Total)
		}
		if !a.Data.HasMore || page > 200 {
			break
		}
	}
	for _, n := range totals {
		if n != int64(len(got)) {
			t.Errorf("%s %v: total %d, %d rows", as, body, n, len(got))
		}
	}
	return got
}

func ids(rows []map[string]any, pk string) []any {
	out := make([]any, len(rows))
	for i, r := range rows {
		out[i] = r[pk]
	}
	return out
}
