package tables_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
)

// TestCountsTakeEffectOnNextRequest: totals are cached per data
// generation, which triggers bump on every write, so the total of a list
// changes on the very next request after a create, update or delete
// through the generic API or by plain SQL, and after a change of tenant
// (a company moved to another customer group takes its points of sale
// out of the lead's scope); repeated requests without writes are answered
// from the cache.
func TestCountsTakeEffectOnNextRequest(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		ctx := context.Background()
		exec := func(q string, args ...any) {
			t.Helper()
			mustExec(t, d, q, args...)
		}
		company := queryInt(t, d, `SELECT MIN(company_id) FROM company WHERE customergroup_id = 1 AND company_id IN (SELECT company_id FROM pos)`)
		companyPos := queryInt(t, d, `SELECT COUNT(*) FROM pos WHERE company_id = ?`, company)
		lists := map[string]obj{
			"all":     {"entity": "pos", "count": true, "per_page": 5, "order_by": "pos_name"},
			"keyword": {"entity": "pos", "count": true, "per_page": 5, "filter_all": "zählwerk"},
			"filter":  {"entity": "pos", "count": true, "per_page": 5, "filter": []obj{{"field": "pos_name", "op": "contains", "value": "Zählwerk"}}},
			"page 9":  {"entity": "pos", "count": true, "per_page": 5, "current_page": 9, "filter_all": "zählwerk"}, // an empty page
		}
		total := func(name string) int64 {
			t.Helper()
			body := obj{}
			for k, v := range lists[name] {
				body[k] = v
			}
			return *e.list(lead, body).Data.Total
		}
		truth := func(name string) int64 {
			t.Helper()
			names := queryStrings(t, d, `SELECT p.pos_name FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 1`)
			var n int64
			for _, s := range names {
				if name == "all" || strings.Contains(strings.ToLower(s), "zählwerk") {
					n++
				}
			}
			return n
		}
		check := func(step string) {
			t.Helper()
			for name := range lists {
				served := tables.CountsServed(e.Engine)
				first, second := total(name), total(name)
				if want := truth(name); first != want || second != want {
					t.Errorf("%s, %s: totals %d then %d, want %d", step, name, first, second, want)
				}
				if name == "all" && tables.CountsServed(e.Engine) == served {
					t.Errorf("%s, %s: the repeated request was not answered from the cache", step, name)
				}
			}
		}
		check("start")
		model := e.list(admin, obj{"entity": "pos", "per_page": 1, "filter": []obj{{"field": "company_id", "op": "eq", "value": company}}}).Data.Data[0]
		data := obj{"company_id": company, "pos_name": "Zählwerk Eins"}
		for _, f := range []string{"pos_branchnumber", "pos_first_year", "contactperson_id", "pos_opening_date"} {
			data[f] = model[f]
		}
		created := e.create("pos", data)
		check("created through the API")
		posID := id(created, "pos_id")
		e.mustOK(admin, obj{"action": "update-field", "entity": "pos", "id": posID, "field": "pos_name", "value": "Anderswo",
			"row_version": id(created, "row_version")})
		check("renamed through the API")
		exec(`UPDATE pos SET pos_name = 'ZÄHLWERK zwei' WHERE pos_id = ?`, posID)
		check("renamed by SQL")
		exec(`INSERT INTO pos (company_id, pos_name, pos_branchnumber, pos_first_year, contactperson_id, pos_opening_date)
			SELECT company_id, 'Zählwerk drei', pos_branchnumber, pos_first_year, contactperson_id, pos_opening_date FROM pos WHERE pos_id = ?`, posID)
		check("inserted by SQL")
		exec(`DELETE FROM pos WHERE pos_name = 'Zählwerk drei'`)
		check("deleted by SQL")
		row := e.mustOK(admin, obj{"action": "read", "entity": "pos", "id": posID})
		if res := e.api(admin, obj{"action": "delete", "entity": "pos", "id": posID, "row_version": id(row, "row_version")}); res.Status != http.StatusNoContent {
			t.Fatalf("delete: %d %s", res.Status, res.Body)
		}
		check("deleted through the API")
		// An import writes through the module API's batch (internal/imports).
		adminCtx := e.as(admin)
		b, err := e.Engine.NewBatch(adminCtx, "pos")
		if err != nil {
			t.Fatal(err)
		}
		err = d.InTx(ctx, func(tx *db.Tx) error {
			for i, name := range []string{"Zählwerk Import 1", "ZÄHLWERK Import 2"} {
				row := obj{}
				for k, v := range data {
					row[k] = v
				}
				row["pos_name"] = name
				row["pos_branchnumber"] = "ZW-IMP-" + name[len(name)-1:]
				if err := b.Add(adminCtx, tx, i+1, row); err != nil {
					return err
				}
			}
			_, err := b.Flush(adminCtx, tx)
			return err
		})
		b.Done()
		if err != nil {
			t.Fatal(err)
		}
		check("imported through a batch")
		before := total("all")
		exec(`UPDATE pos SET pos_name = 'Zählwerk vier' WHERE company_id = ?`, company)
		check("renamed a company's points of sale")
		companyPos = queryInt(t, d, `SELECT COUNT(*) FROM pos WHERE company_id = ?`, company) // with the imported ones
		exec(`UPDATE company SET customergroup_id = 2 WHERE company_id = ?`, company)
		check("company moved to customer group 2")
		if after := total("all"); after != before-companyPos {
			t.Errorf("after the move the lead sees %d points of sale, want %d", after, before-companyPos)
		}
	})
}

// TestSlowTotalAnsweredAsOfItsCount: a big total whose count took long
// (here: any, slowCount and slowCountRows set to zero) is not counted again before the first page
// after a write: that page answers the last count with the moment it was
// made (total_as_of), the rows are counted again in the background, and
// the next page answers the new total without a moment; a total under the
// size is always counted again. Decision 0057.
func TestSlowTotalAnsweredAsOfItsCount(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		tables.SetSlowCount(e.Engine, 0, 0)
		body := func() obj { return obj{"entity": "pos", "count": true, "per_page": 5, "order_by": "pos_name"} }
		first := e.list(lead, body()).Data
		if first.Total == nil || first.TotalAsOf != nil {
			t.Fatalf("first page: total %v as of %v, want a total counted now", valueOf(first.Total), first.TotalAsOf)
		}
		counted := time.Now()
		company := queryInt(t, d, `SELECT MIN(company_id) FROM company WHERE customergroup_id = 1 AND company_id IN (SELECT company_id FROM pos)`)
		mustExec(t, d, `INSERT INTO pos (company_id, pos_name, pos_branchnumber, pos_first_year, contactperson_id, pos_opening_date)
			SELECT company_id, 'Nachzählung', pos_branchnumber, pos_first_year, contactperson_id, pos_opening_date FROM pos WHERE company_id = ? LIMIT 1`, company)

		stale := tables.CountsAnsweredStale(e.Engine)
		after := e.list(lead, body()).Data
		if after.Total == nil || *after.Total != *first.Total {
			t.Fatalf("first page after the write: total %v, want the last count %d", valueOf(after.Total), *first.Total)
		}
		if after.TotalAsOf == nil || after.TotalAsOf.After(counted) || after.TotalAsOf.Before(counted.Add(-time.Minute)) {
			t.Fatalf("first page after the write: total as of %v, want the moment of the first count (before %v)", after.TotalAsOf, counted)
		}
		if tables.CountsAnsweredStale(e.Engine) != stale+1 {
			t.Errorf("the stale total was not counted as such")
		}
		tables.WaitForRecounts(e.Engine)
		fresh := e.list(lead, body()).Data
		if fresh.Total == nil || *fresh.Total != *first.Total+1 || fresh.TotalAsOf != nil {
			t.Fatalf("after the count in the background: total %v as of %v, want %d now", valueOf(fresh.Total), fresh.TotalAsOf, *first.Total+1)
		}
		// A page that reaches the end of the list tells its total itself,
		// exactly, however slow the count.
		named := func() obj {
			return obj{"entity": "pos", "count": true, "per_page": 5, "filter": []obj{{"field": "pos_name", "op": "contains", "value": "Nachz"}}}
		}
		if one := e.list(lead, named()).Data; one.Total == nil || *one.Total != 1 {
			t.Fatalf("the new point of sale by name: total %v, want 1", valueOf(one.Total))
		}
		mustExec(t, d, `DELETE FROM pos WHERE pos_name = 'Nachzählung'`)
		last := e.list(lead, named()).Data
		if last.Total == nil || *last.Total != 0 || last.TotalAsOf != nil {
			t.Errorf("a page at the end of its list: total %v as of %v, want 0 now", valueOf(last.Total), last.TotalAsOf)
		}
		// A total under the size is counted again before the page, however
		// long its count took.
		tables.SetSlowCount(e.Engine, 0, *fresh.Total+10)
		e.list(lead, body())
		mustExec(t, d, `INSERT INTO pos (company_id, pos_name, pos_branchnumber, pos_first_year, contactperson_id, pos_opening_date)
			SELECT company_id, 'Nachzählung zwei', pos_branchnumber, pos_first_year, contactperson_id, pos_opening_date FROM pos WHERE company_id = ? LIMIT 1`, company)
		small := e.list(lead, body()).Data
		if small.Total == nil || *small.Total != *first.Total+1 || small.TotalAsOf != nil {
			t.Errorf("a small total after a write: %v as of %v, want %d now", valueOf(small.Total), small.TotalAsOf, *first.Total+1)
		}
	})
}

// valueOf is *p, or nil.
func valueOf[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
