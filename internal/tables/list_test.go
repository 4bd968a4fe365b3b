package tables_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// listFixture creates points of sale whose names test the filter's
// escaping, and returns the sampler.
func listFixture(t *testing.T, e *env) *sampler {
	s := newSampler(e, t)
	for _, name := range []string{"50%_off O'Brien", "500 off", "Nordlicht Markt", `Back\slash "quoted"`} {
		s.fresh("pos", obj{"company_id": 1, "pos_name": name})
	}
	s.fresh("pos", obj{"company_id": 3, "pos_name": "Südstern Filiale", "pos_opening_date": "2024-03-05"})
	return s
}

func TestListFilters(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		listFixture(t, e)
		list := func(filter any) obj {
			return obj{"action": "read-rich", "entity": "pos", "filter": filter, "columns": []string{"pos_name"}}
		}
		cond := func(field, op string, value any) []obj { return []obj{{"field": field, "op": op, "value": value}} }
		deep := any(obj{"field": "pos_id", "op": "eq", "value": 1})
		for i := 0; i < 6; i++ {
			deep = obj{"not": deep}
		}
		big := make([]obj, 201)
		for i := range big {
			big[i] = obj{"field": "pos_id", "op": "eq", "value": i}
		}
		many := make([]any, 1001)
		for i := range many {
			many[i] = i
		}
		e.run(t, []apptest.Scenario{
			{Name: "contains escapes % _ and quotes", As: admin, Body: list(cond("pos_name", "contains", "0%_off o'b")), Status: 200,
				Contains: []string{`50%_off O'Brien`}, Absent: []string{"500 off"}},
			{Name: "contains is case-insensitive", As: admin, Body: list(cond("pos_name", "contains", "NORDLICHT")), Status: 200,
				Contains: []string{"Nordlicht Markt"}},
			{Name: "backslash and double quote", As: admin, Body: list(cond("pos_name", "starts_with", `back\slash "`)), Status: 200,
				Contains: []string{`Back\\slash \"quoted\"`}},
			{Name: "label filter", As: admin, Body: list(cond("company_id__label", "contains", "SÜDMARKT")), Status: 200,
				Contains: []string{"Südstern Filiale"}, Absent: []string{"Nordlicht"}},
			{Name: "between dates", As: admin, Body: list(cond("pos_opening_date", "between", []string{"2024-03-01", "2024-03-31"})), Status: 200,
				Contains: []string{"Südstern"}, Absent: []string{"Nordlicht"}},
			{Name: "or and not", As: admin, Status: 200, Body: list(obj{"or": []any{
				cond("pos_name", "eq", "500 off"), obj{"not": obj{"field": "pos_name", "op": "ne", "value": "Nordlicht Markt"}}}}),
				Contains: []string{"500 off", "Nordlicht Markt"}, Absent: []string{"O'Brien"}},
			{Name: "in list", As: admin, Body: list(cond("pos_name", "in", []string{"500 off", "nothing"})), Status: 200,
				Contains: []string{"500 off"}, Absent: []string{"Nordlicht"}},
			{Name: "unknown column", As: admin, Body: list(cond("pos_nope", "eq", 1)), Status: 422,
				Contains: []string{`"loc":["body","filter"]`, `pos_nope`, "cannot be filtered on"}},
			{Name: "injection in field name", As: admin, Body: list(cond("pos_name; DROP TABLE pos", "eq", "x")), Status: 422,
				Contains: []string{"cannot be filtered on"}},
			{Name: "injection in value is a value", As: admin, Body: list(cond("pos_name", "eq", "x'; DROP TABLE pos; --")), Status: 200,
				Contains: []string{`"data":[]`}},
			{Name: "internal field", As: admin, Body: obj{"action": "read-rich", "entity": "user", "filter": cond("user_email_normalized", "eq", "x")},
				Status: 422, Contains: []string{"cannot be filtered on"}},
			{Name: "write-only field", As: admin, Body: obj{"action": "read-rich", "entity": "user", "filter": cond("user_password", "is_null", nil)},
				Status: 422, Contains: []string{"cannot be filtered on"}},
			{Name: "write-only field not sortable", As: admin, Body: obj{"action": "read-rich", "entity": "user", "order_by": "user_password"},
				Status: 422, Contains: []string{`"loc":["body","order_by"]`}},
			{Name: "computed field not filterable", As: admin, Body: obj{"action": "read-rich", "entity": "customergroup", "filter": cond("company_count", "gt", 1)},
				Status: 422, Contains: []string{"cannot be filtered on"}},
			{Name: "bad type", As: admin, Body: list(cond("pos_first_year", "eq", "nineteen")), Status: 422,
				Contains: []string{"does not fit the operator"}},
			{Name: "bad date", As: admin, Body: list(cond("pos_opening_date", "gt", "2024-13-45")), Status: 422},
			{Name: "contains on a number", As: admin, Body: list(cond("pos_first_year", "contains", "19")), Status: 422,
				Contains: []string{"cannot be used on"}},
			{Name: "unknown operator", As: admin, Body: list(cond("pos_name", "like", "x")), Status: 422, Contains: []string{"Unknown filter operator"}},
			{Name: "too deep", As: admin, Body: list(deep), Status: 422, Contains: []string{"nested too deeply (at most 6 levels)"}},
			{Name: "too big", As: admin, Body: list(big), Status: 422, Contains: []string{"too many conditions (at most 200)"}},
			{Name: "in list too long", As: admin, Body: list(cond("pos_id", "in", many)), Status: 422, Contains: []string{"at most 1000 values"}},
			{Name: "string too long", As: admin, Body: list(cond("pos_name", "eq", strings.Repeat("x", 501))), Status: 422,
				Contains: []string{"at most 500 characters"}},
			{Name: "malformed", As: admin, Body: list("pos_name = 1"), Status: 422, Contains: []string{"The filter is malformed"}},
			{Name: "an empty object is no filter", As: admin, Body: list(obj{}), Status: 200, Contains: []string{"Nordlicht", "500 off"}},
			{Name: "an empty condition inside is malformed", As: admin, Body: list([]obj{{}}), Status: 422},
			{Name: "filter message in German", As: admin, Header: lang("de"), Body: list(cond("nope", "eq", 1)), Status: 422,
				Contains: []string{`Nach \"nope\" kann nicht gefiltert werden.`}},
			{Name: "filter message in French", As: admin, Header: lang("fr"), Body: list(deep), Status: 422,
				Contains: []string{"Le filtre est trop imbriqué (6 niveaux au maximum)."}},
			{Name: "order by label", As: admin, Status: 200,
				Body: obj{"action": "read-rich", "entity": "pos", "order_by": "company_id__label", "order_dir": "DESC", "columns": []string{"pos_name"}}},
			{Name: "unknown order", As: admin, Status: 422, Body: obj{"action": "read-rich", "entity": "pos", "order_by": "pos_name desc"},
				Contains: []string{"is not a column of this table"}},
			{Name: "bad order direction", As: admin, Status: 422, Body: obj{"action": "read-rich", "entity": "pos", "order_dir": "sideways"}},
			{Name: "unknown column requested", As: admin, Status: 422, Body: obj{"action": "read-rich", "entity": "pos", "columns": []string{"x"}}},
			{Name: "short keyword ignored", As: admin, Status: 200, Body: obj{"action": "read-rich", "entity": "pos", "filter_all": "5"},
				Contains: []string{"Nordlicht", "500 off"}},
			{Name: "keyword over label and text", As: admin, Status: 200, Body: obj{"action": "read-rich", "entity": "pos", "filter_all": "licht"},
				Contains: []string{"Nordlicht"}, Absent: []string{"500 off"}},
			{Name: "entity from the query string", As: admin, Path: "/api/?pos", Status: 200, Body: obj{"action": "read-rich"},
				Contains: []string{"Nordlicht"}},
			{Name: "entity mismatch", As: admin, Path: "/api/?company", Status: 422, Body: obj{"action": "read-rich", "entity": "pos"}},
			{Name: "unknown entity", As: admin, Status: 404, Body: obj{"action": "read-rich", "entity": "nope"}},
			{Name: "unknown action", As: admin, Status: 422, Body: obj{"action": "drop", "entity": "pos"}},
			{Name: "document lists are refused", As: admin, Status: 405, Body: obj{"action": "read-rich", "entity": "document"}},
			{Name: "no list right", As: lead, Status: 403, Body: obj{"action": "read-rich", "entity": "invoice"},
				Contains: []string{"This action is not authorized"}},
			{Name: "not logged in", Status: 401, Body: obj{"action": "read-rich", "entity": "pos"}},
		})
		// Every name filtered with eq finds itself exactly.
		for _, name := range []string{"50%_off O'Brien", `Back\slash "quoted"`} {
			a := e.list(admin, list(cond("pos_name", "eq", name)))
			if len(a.Data.Data) != 1 || a.Data.Data[0]["pos_name"] != name {
				t.Errorf("eq %q: %+v", name, a.Data.Data)
			}
		}
	})
}

// TestStreamingPages lists 5,000 points of sale whole and in pages.
func TestStreamingPages(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		contact := s.ensure("contactperson")
		company := s.fresh("company", obj{"customergroup_id": 1})
		insertPos(t, d, 5000, company, contact)
		mine := []obj{{"field": "company_id", "op": "eq", "value": company}}
		all := e.list(admin, obj{"entity": "pos", "count": true, "order_by": "pos_name", "filter": mine})
		if n := len(all.Data.Data); n != 5000 || *all.Data.Total != 5000 || all.Data.HasMore || *all.Data.From != 1 || *all.Data.To != 5000 {
			t.Fatalf("whole list: %d rows, page %+v", n, all.Data)
		}
		seen := map[float64]bool{}
		for page := 1; page <= 3; page++ {
			a := e.list(admin, obj{"entity": "pos", "per_page": 2000, "current_page": page, "order_by": "pos_name", "order_dir": "DESC", "filter": mine})
			want, more := 2000, true
			if page == 3 {
				want, more = 1000, false
			}
			if len(a.Data.Data) != want || a.Data.HasMore != more || a.Data.CurrentPage != page || *a.Data.From != (page-1)*2000+1 {
				t.Fatalf("page %d: %d rows, has_more %v, page %+v", page, len(a.Data.Data), a.Data.HasMore, a.Data)
			}
			for _, r := range a.Data.Data {
				seen[r["pos_id"].(float64)] = true
			}
		}
		if len(seen) != 5000 {
			t.Fatalf("paging saw %d distinct rows, want 5000 (stable order)", len(seen))
		}
		capped := e.list(admin, obj{"entity": "pos", "per_page": "250000", "columns": []string{"pos_name"}})
		if capped.Data.PerPage != 100000 {
			t.Fatalf("per_page not capped: %d", capped.Data.PerPage)
		}
		empty := e.list(admin, obj{"entity": "pos", "per_page": 10, "current_page": 1000, "filter": mine})
		if len(empty.Data.Data) != 0 || empty.Data.From != nil || empty.Data.HasMore {
			t.Fatalf("page past the end: %+v", empty.Data)
		}
	})
}

// insertPos inserts n points of sale of company in batches.
func insertPos(t testing.TB, d *db.DB, n int, company, contact int64) {
	t.Helper()
	ctx := context.Background()
	err := d.InTx(ctx, func(tx *db.Tx) error {
		const batch = 200
		for start := 0; start < n; start += batch {
			var sb strings.Builder
			var args []any
			sb.WriteString(`INSERT INTO pos (company_id, pos_name, pos_branchnumber, pos_first_year, contactperson_id, pos_internal_id, pos_opening_date) VALUES `)
			for i := start; i < min(n, start+batch); i++ {
				if i > start {
					sb.WriteString(", ")
				}
				sb.WriteString("(?, ?, ?, ?, ?, ?, ?)")
				args = append(args, company, fmt.Sprintf("Filiale %06d", i), fmt.Sprintf("B%06d", i), 2000+i%20, contact, 56,
					fmt.Sprintf("20%02d-%02d-%02d", 10+i%15, 1+i%12, 1+i%28))
			}
			if _, err := tx.ExecContext(ctx, sb.String(), args...); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("insert points of sale: %v", err)
	}
}

// TestEmptyFilterIsNoFilter: "filter": {} (what the specification's
// browser sends for a list without conditions) is accepted as no filter
// wherever a generic call takes a filter: a list, a relation read with its
// owner in data, an export, a saved view and its settings read back; as
// are null and an empty array.
func TestEmptyFilterIsNoFilter(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		listFixture(t, e)
		e.run(t, []apptest.Scenario{
			{Name: "read-rich with {}", As: admin, Status: 200, Body: obj{"action": "read-rich", "entity": "pos", "filter": obj{}, "columns": []string{"pos_name"}},
				Contains: []string{"Nordlicht Markt", "Südstern Filiale"}},
			{Name: "read-rich with null", As: admin, Status: 200, Body: obj{"action": "read-rich", "entity": "pos", "filter": nil, "columns": []string{"pos_name"}},
				Contains: []string{"Nordlicht Markt"}},
			{Name: "read-rich with []", As: admin, Status: 200, Body: obj{"action": "read-rich", "entity": "pos", "filter": []obj{}, "columns": []string{"pos_name"}},
				Contains: []string{"Nordlicht Markt"}},
			{Name: "a relation read with {} and its owner", As: admin, Status: 200,
				Body:     obj{"action": "read-rich", "entity": "company_pos_rel", "filter": obj{}, "data": obj{"company_id": 1}},
				Contains: []string{"Nordlicht Markt"}, Absent: []string{"Südstern Filiale"}},
			{Name: "an export with {}", As: admin, Status: 200, Body: obj{"action": "export", "entity": "pos", "format": "csv", "filter": obj{}},
				Contains: []string{"Nordlicht Markt", "Südstern Filiale"}},
			{Name: "a saved view with {}", As: admin, Method: "POST", Path: "/api/views", Status: 201,
				Body:     obj{"entity": "pos", "name": "Alle Filialen", "shared": "private", "settings": obj{"filter": obj{}, "order_by": "pos_name"}},
				Contains: []string{`"name":"Alle Filialen"`}},
		})
	})
}
