package tables_test

import (
	"context"
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
// the administrator and a lead; and on PostgreSQL long text no index
// holds. Their totals and has_more agree too.
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
			add([]string{admin}, d.Dialect() == db.Postgres, "invoice", "invoice_description", nil)
			add(both, false, "contract", "contract_name", nil)
		}
		for _, l := range lists {
			for _, as := range l.as {
				pk := l.body["pk"].(string)
				whole := obj{"per_page": 100000}
				for k, v := range l.body {
					whole[k] = v
				}
				want := e.list(as, whole).Data.Data
				if len(want) < 4 {
					t.Fatalf("%s %v: %d rows; the pages need more", as, l.body, len(want))
				}
				before := tables.LateReads(engine)
				var got []map[string]any
				for page := 1; ; page++ {
					b := obj{"per_page": 3, "current_page": page}
					for k, v := range l.body {
						b[k] = v
					}
					a := e.list(as, b)
					got = append(got, a.Data.Data...)
					if a.Data.Total == nil || *a.Data.Total != int64(len(want)) {
						t.Errorf("%s %v page %d: total %v, want %d", as, l.body, page, a.Data.Total, len(want))
					}
					if !a.Data.HasMore || page > 200 {
						break
					}
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s %v: pages of 3 differ from the whole list:\n%v\n%v", as, l.body, ids(got, pk), ids(want, pk))
				}
				if late := tables.LateReads(engine) > before; late != l.late {
					t.Errorf("%s %v: read in two steps %v, want %v", as, l.body, late, l.late)
				}
			}
		}
	})
}

func ids(rows []map[string]any, pk string) []any {
	out := make([]any, len(rows))
	for i, r := range rows {
		out[i] = r[pk]
	}
	return out
}
