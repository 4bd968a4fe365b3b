package tables_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
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
		e.run(t, []scenario{
			{name: "contains escapes % _ and quotes", as: admin, body: list(cond("pos_name", "contains", "0%_off o'b")), status: 200,
				want: []string{`50%_off O'Brien`}, notWant: []string{"500 off"}},
			{name: "contains is case-insensitive", as: admin, body: list(cond("pos_name", "contains", "NORDLICHT")), status: 200,
				want: []string{"Nordlicht Markt"}},
			{name: "backslash and double quote", as: admin, body: list(cond("pos_name", "starts_with", `back\slash "`)), status: 200,
				want: []string{`Back\\slash \"quoted\"`}},
			{name: "label filter", as: admin, body: list(cond("company_id__label", "contains", "SÜDMARKT")), status: 200,
				want: []string{"Südstern Filiale"}, notWant: []string{"Nordlicht"}},
			{name: "between dates", as: admin, body: list(cond("pos_opening_date", "between", []string{"2024-03-01", "2024-03-31"})), status: 200,
				want: []string{"Südstern"}, notWant: []string{"Nordlicht"}},
			{name: "or and not", as: admin, status: 200, body: list(obj{"or": []any{
				cond("pos_name", "eq", "500 off"), obj{"not": obj{"field": "pos_name", "op": "ne", "value": "Nordlicht Markt"}}}}),
				want: []string{"500 off", "Nordlicht Markt"}, notWant: []string{"O'Brien"}},
			{name: "in list", as: admin, body: list(cond("pos_name", "in", []string{"500 off", "nothing"})), status: 200,
				want: []string{"500 off"}, notWant: []string{"Nordlicht"}},
			{name: "unknown column", as: admin, body: list(cond("pos_nope", "eq", 1)), status: 422,
				want: []string{`"loc":["body","filter"]`, `pos_nope`, "cannot be filtered on"}},
			{name: "injection in field name", as: admin, body: list(cond("pos_name; DROP TABLE pos", "eq", "x")), status: 422,
				want: []string{"cannot be filtered on"}},
			{name: "injection in value is a value", as: admin, body: list(cond("pos_name", "eq", "x'; DROP TABLE pos; --")), status: 200,
				want: []string{`"data":[]`}},
			{name: "internal field", as: admin, body: obj{"action": "read-rich", "entity": "user", "filter": cond("user_email_normalized", "eq", "x")},
				status: 422, want: []string{"cannot be filtered on"}},
			{name: "write-only field", as: admin, body: obj{"action": "read-rich", "entity": "user", "filter": cond("user_password", "is_null", nil)},
				status: 422, want: []string{"cannot be filtered on"}},
			{name: "write-only field not sortable", as: admin, body: obj{"action": "read-rich", "entity": "user", "order_by": "user_password"},
				status: 422, want: []string{`"loc":["body","order_by"]`}},
			{name: "computed field not filterable", as: admin, body: obj{"action": "read-rich", "entity": "customergroup", "filter": cond("company_count", "gt", 1)},
				status: 422, want: []string{"cannot be filtered on"}},
			{name: "bad type", as: admin, body: list(cond("pos_first_year", "eq", "nineteen")), status: 422,
				want: []string{"does not fit the operator"}},
			{name: "bad date", as: admin, body: list(cond("pos_opening_date", "gt", "2024-13-45")), status: 422},
			{name: "contains on a number", as: admin, body: list(cond("pos_first_year", "contains", "19")), status: 422,
				want: []string{"cannot be used on"}},
			{name: "unknown operator", as: admin, body: list(cond("pos_name", "like", "x")), status: 422, want: []string{"Unknown filter operator"}},
			{name: "too deep", as: admin, body: list(deep), status: 422, want: []string{"nested too deeply (at most 6 levels)"}},
			{name: "too big", as: admin, body: list(big), status: 422, want: []string{"too many conditions (at most 200)"}},
			{name: "in list too long", as: admin, body: list(cond("pos_id", "in", many)), status: 422, want: []string{"at most 1000 values"}},
			{name: "string too long", as: admin, body: list(cond("pos_name", "eq", strings.Repeat("x", 501))), status: 422,
				want: []string{"at most 500 characters"}},
			{name: "malformed", as: admin, body: list("pos_name = 1"), status: 422, want: []string{"The filter is malformed"}},
			{name: "filter message in German", as: admin, lang: "de", body: list(cond("nope", "eq", 1)), status: 422,
				want: []string{`Nach \"nope\" kann nicht gefiltert werden.`}},
			{name: "filter message in French", as: admin, lang: "fr", body: list(deep), status: 422,
				want: []string{"Le filtre est trop imbriqué (6 niveaux au maximum)."}},
			{name: "order by label", as: admin, status: 200,
				body: obj{"action": "read-rich", "entity": "pos", "order_by": "company_id__label", "order_dir": "DESC", "columns": []string{"pos_name"}}},
			{name: "unknown order", as: admin, status: 422, body: obj{"action": "read-rich", "entity": "pos", "order_by": "pos_name desc"},
				want: []string{"is not a column of this table"}},
			{name: "bad order direction", as: admin, status: 422, body: obj{"action": "read-rich", "entity": "pos", "order_dir": "sideways"}},
			{name: "unknown column requested", as: admin, status: 422, body: obj{"action": "read-rich", "entity": "pos", "columns": []string{"x"}}},
			{name: "short keyword ignored", as: admin, status: 200, body: obj{"action": "read-rich", "entity": "pos", "filter_all": "5"},
				want: []string{"Nordlicht", "500 off"}},
			{name: "keyword over label and text", as: admin, status: 200, body: obj{"action": "read-rich", "entity": "pos", "filter_all": "licht"},
				want: []string{"Nordlicht"}, notWant: []string{"500 off"}},
			{name: "entity from the query string", as: admin, path: "/api/?pos", status: 200, body: obj{"action": "read-rich"},
				want: []string{"Nordlicht"}},
			{name: "entity mismatch", as: admin, path: "/api/?company", status: 422, body: obj{"action": "read-rich", "entity": "pos"}},
			{name: "unknown entity", as: admin, status: 404, body: obj{"action": "read-rich", "entity": "nope"}},
			{name: "unknown action", as: admin, status: 422, body: obj{"action": "drop", "entity": "pos"}},
			{name: "document lists are refused", as: admin, status: 405, body: obj{"action": "read-rich", "entity": "document"}},
			{name: "no list right", as: lead, status: 403, body: obj{"action": "read-rich", "entity": "invoice"},
				want: []string{"This action is not authorized"}},
			{name: "not logged in", status: 401, body: obj{"action": "read-rich", "entity": "pos"}},
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
