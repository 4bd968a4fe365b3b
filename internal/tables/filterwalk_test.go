package tables_test

import (
	"reflect"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
)

// TestWalkedFiltersEqualCollected: on SQLite a page whose row rules and
// equality filters select many rows tests them per row on the walk of its
// sort index (Scope.walkRows: a correlated EXISTS, a unary plus); pages
// rendered that way hold the same rows, in the same order, with the same
// totals, as pages that collect the rows through the filters' indexes and
// as the whole list, for tickets (the board row rule), points of sale and
// contracts, as the administrator, a lead, a partner user and an FM team
// member (the board rule limits the tickets of all but the administrator,
// the FM member's to some of the lead's). PostgreSQL
// never renders the walk form.
func TestWalkedFiltersEqualCollected(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		engine := e.Engine
		defer tables.ForceFilterWalk(engine, nil)
		boards := queryInts(t, d, `SELECT board_id FROM board ORDER BY board_id`)
		types := queryInts(t, d, `SELECT contracttype_id FROM contracttype ORDER BY contracttype_id`)
		company := queryInt(t, d, `SELECT MIN(company_id) FROM pos`)
		lists := []obj{
			{"entity": "ticket", "pk": "ticket_id", "order_by": "ticket_creation_time", "order_dir": "DESC"},
			{"entity": "ticket", "pk": "ticket_id", "order_by": "ticket_name", "filter": []obj{{"field": "board_id", "op": "in", "value": boards}}},
			{"entity": "ticket", "pk": "ticket_id", "order_by": "ticket_id", "filter": []obj{{"field": "ticket_closed", "op": "eq", "value": 0}}},
			{"entity": "pos", "pk": "pos_id", "order_by": "pos_name", "filter": []obj{{"field": "company_id", "op": "eq", "value": company}}},
			{"entity": "contract", "pk": "contract_id", "order_by": "contract_name", "filter": []obj{{"field": "contracttype_id", "op": "in", "value": types[:1]}}},
		}
		on, off := true, false
		for _, body := range lists {
			body["count"] = true
			pk := body["pk"].(string)
			callers := []string{admin, lead, partner}
			switch body["entity"] {
			case "contract":
				callers = callers[:2] // partner users do not list contracts (403)
			case "ticket":
				callers = append(callers, fm) // sees the boards of one team only
			}
			for _, as := range callers {
				whole := obj{"per_page": 100000}
				for k, v := range body {
					whole[k] = v
				}
				want := e.list(as, whole).Data.Data
				if len(want) == 0 && (as == admin || as == lead) {
					t.Fatalf("%s %v: no rows; the test needs some", as, body)
				}
				tables.ForceFilterWalk(engine, &off)
				collected := pagesOf3(t, e, as, body)
				tables.ForceFilterWalk(engine, &on)
				before := tables.FilterWalks(engine)
				walked := pagesOf3(t, e, as, body)
				if len(want) == 0 {
					want = nil // pagesOf3 answers nil for no rows
				}
				if !reflect.DeepEqual(collected, want) {
					t.Errorf("%s %v: collected pages differ from the whole list:\n%v\n%v", as, body, ids(collected, pk), ids(want, pk))
				}
				if !reflect.DeepEqual(walked, want) {
					t.Errorf("%s %v: walked pages differ from the whole list:\n%v\n%v", as, body, ids(walked, pk), ids(want, pk))
				}
				walks := tables.FilterWalks(engine) > before
				if wantWalk := d.Dialect() == db.SQLite && (body["filter"] != nil || body["entity"] == "ticket" && as != admin); walks != wantWalk {
					t.Errorf("%s %v: rendered for the walk %v, want %v", as, body, walks, wantWalk)
				}
			}
		}
		if all, fmSees := len(e.list(admin, obj{"entity": "ticket", "per_page": 1000}).Data.Data), len(e.list(fm, obj{"entity": "ticket", "per_page": 1000}).Data.Data); fmSees == 0 || fmSees >= all {
			t.Errorf("the FM user sees %d of %d tickets; the test needs a board rule that hides some", fmSees, all)
		}
		if len(boards) == 0 || len(types) == 0 {
			t.Fatal("the demo data has no boards or contract types")
		}
	})
}
