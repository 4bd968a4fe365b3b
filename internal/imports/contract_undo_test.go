package imports_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// TestContractWorkbookHistoryUndo: a committed contract workbook is an
// import of its user: every history row it writes names it, it is listed
// with the generic imports, and it is undone (contracts, area links,
// deadlines and payments removed, the removal's history naming it too)
// while nobody changed its records, refused (409, nothing removed) once
// someone did. The area sheet's headings are the link's labels in the
// user's language, in the template and on upload.
func TestContractWorkbookHistoryUndo(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		ctx := context.Background()
		var typ, company, pos, location, currency int64
		if err := d.QueryRowContext(ctx, `SELECT contracttype_id, company_id, pos_id, location_id, currency_id FROM contract
			WHERE company_id = ? ORDER BY contract_id LIMIT 1`, f.companyA1).Scan(&typ, &company, &pos, &location, &currency); err != nil {
			t.Fatal(err)
		}
		area := f.one(t, `SELECT MIN(area_id) FROM area WHERE location_id = ?`, location)
		usage := f.one(t, `SELECT MIN(usagetype_id) FROM usagetype`)
		tax := f.one(t, `SELECT MIN(taxrate_id) FROM taxrate`)
		account := f.one(t, `SELECT MIN(sachkonto_id) FROM sachkonto`)
		counts := func() [4]int64 {
			return [4]int64{f.one(t, `SELECT COUNT(*) FROM contract`), f.one(t, `SELECT COUNT(*) FROM contract_area`),
				f.one(t, `SELECT COUNT(*) FROM contractaction`), f.one(t, `SELECT COUNT(*) FROM recurringpayment`)}
		}

		// The template's area headings in French and German.
		areaHeadings := map[string][]string{}
		for _, lang := range []string{"fr", "de"} {
			res := f.ta.Do("GET", "/imports-contract/template", f.ta.Token(admin), nil, "Accept-Language", lang)
			if res.Status != 200 {
				t.Fatalf("template %s: %d", lang, res.Status)
			}
			wb, err := excelize.OpenReader(bytes.NewReader(res.Body))
			if err != nil {
				t.Fatal(err)
			}
			rows, _ := wb.GetRows(wb.GetSheetList()[1])
			wb.Close()
			if len(rows) == 0 {
				t.Fatalf("%s: no area headings", lang)
			}
			areaHeadings[lang] = rows[0]
		}
		for lang, want := range map[string][]string{"fr": {"Surface", "Surface locative", "Utilisation principale", "Valable du"},
			"de": {"Fläche", "Mietfläche", "Hauptnutzung", "Gültig ab"}} {
			for _, h := range want {
				if !slices.Contains(areaHeadings[lang], h) {
					t.Errorf("%s area headings %q lack %q", lang, areaHeadings[lang], h)
				}
			}
			if slices.Contains(areaHeadings[lang], "Rental space") || slices.Contains(areaHeadings[lang], "Area") {
				t.Errorf("%s area headings are English: %q", lang, areaHeadings[lang])
			}
		}

		book := func(name string) []byte {
			return multiWorkbook(t, sheets{
				{"Contrats", [][]any{
					{"Contract key", "contract_name", "contracttype_id", "company_id", "pos_id", "location_id", "currency_id", "contract_begin_date", "contract_end_date", "contract_first_possible_end_date"},
					{"K1", name + " one", typ, company, pos, location, currency, "2026-01-01", "2031-12-31", "2028-12-31"},
					{"K2", name + " two", typ, company, pos, location, currency, "2026-01-01", "2030-12-31", "2028-12-31"},
				}},
				// The French template's headings map back.
				{"Surfaces", [][]any{
					{"Clé du contrat", "Surface", "Type d'utilisation", "Surface locative", "Surface de répartition", "Utilisation principale", "Valable du"},
					{"K1", area, usage, 120.5, 10, "yes", "2026-01-01"},
				}},
				{"Deadlines", [][]any{
					{"Contract key", "Acting by", "Type", "contractaction_resiliation_date", "contractaction_notice_period_value", "contractaction_notice_period_unit"},
					{"K1", "Tenant", "Resiliation", "2031-12-31", 6, "month"},
				}},
				{"Recurring payments", [][]any{
					{"Contract key", "recurringpayment_name", "taxrate_id", "recurringpaymenttype_id", "sachkonto_id", "recurringpayment_sum_per_month",
						"recurringpayment_begin_date", "recurringpayment_end_date", "maturitytype_id", "recurringpayment_maturity_date"},
					{"K2", "Rent", tax, 1, account, 1000, "2026-01-01", "2027-12-31", 1, "2026-01-05"},
				}},
			})
		}
		commit := func(name string) (int64, map[string]int64) {
			t.Helper()
			body, ct := fileForm(t, book(name))
			res := f.ta.Do("POST", "/imports-contract/commit", f.ta.Token(admin), body, "Content-Type", ct)
			var ans struct {
				ImportID  int64            `json:"import_id"`
				Contracts map[string]int64 `json:"contracts"`
				Valid     map[string]int   `json:"valid"`
			}
			if res.Status != 201 {
				t.Fatalf("commit: %d %s", res.Status, res.Body)
			}
			res.JSON(t, &ans)
			if ans.ImportID == 0 || len(ans.Contracts) != 2 || ans.Valid["area"] != 1 {
				t.Fatalf("commit: %s", res.Body)
			}
			return ans.ImportID, ans.Contracts
		}
		undo := func(id int64) (int, string) {
			res := f.ta.Do("POST", fmt.Sprintf("/imports/%d/undo", id), f.ta.Token(admin), nil)
			return res.Status, string(res.Body)
		}
		before := counts()

		id, contracts := commit("Undone")
		if after := counts(); after != [4]int64{before[0] + 2, before[1] + 1, before[2] + 1, before[3] + 1} {
			t.Fatalf("counts %v -> %v", before, after)
		}
		if got := f.one(t, `SELECT COUNT(*) FROM contract_area WHERE contract_id = ? AND area_id = ? AND rentalspace_value = 120.5`, contracts["K1"], area); got != 1 {
			t.Errorf("the area link from French headings: %d", got)
		}
		note := fmt.Sprintf("import %d: contracts.xlsx", id)
		for _, c := range []struct {
			category string
			row      int64
		}{{"contract", contracts["K1"]}, {"contract", contracts["K2"]},
			{"contractaction", f.one(t, `SELECT contractaction_id FROM contractaction WHERE contract_id = ?`, contracts["K1"])},
			{"recurringpayment", f.one(t, `SELECT recurringpayment_id FROM recurringpayment WHERE contract_id = ?`, contracts["K2"])}} {
			if n := f.one(t, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = ? AND trackrecord_row_id = ? AND trackrecord_comment = ?`,
				c.category, c.row, note); n == 0 {
				t.Errorf("no history row of %s %d names %q", c.category, c.row, note)
			}
		}
		res := f.ta.Do("GET", "/imports", f.ta.Token(admin), nil)
		if res.Status != 200 || !strings.Contains(string(res.Body), fmt.Sprintf(`"import_id":%d,`, id)) ||
			!strings.Contains(string(res.Body), `"entity":"contract_workbook"`) {
			t.Fatalf("imports list: %d %.400s", res.Status, res.Body)
		}
		// Another user's undo finds no such import.
		if res := f.ta.Do("POST", fmt.Sprintf("/imports/%d/undo", id), f.ta.Token("team_lead@demo.test"), nil); res.Status != 404 {
			t.Errorf("the team lead undoes the admin's import: %d", res.Status)
		}

		if status, body := undo(id); status != 200 || !strings.Contains(body, `"state":"undone"`) {
			t.Fatalf("undo: %d %s", status, body)
		}
		if after := counts(); after != before {
			t.Fatalf("after the undo %v, before %v", after, before)
		}
		if n := f.one(t, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'contract' AND trackrecord_row_id = ? AND trackrecord_comment = ?`,
			contracts["K1"], "undo "+note); n == 0 {
			t.Errorf("the removal's history does not name the import")
		}
		if status, _ := undo(id); status != 409 {
			t.Errorf("a second undo: %d", status)
		}

		// Someone changes a payment: the undo is refused, nothing removed.
		id2, contracts2 := commit("Kept")
		mid := counts()
		if _, err := d.ExecContext(ctx, `UPDATE recurringpayment SET recurringpayment_name = 'Changed', row_version = row_version + 1 WHERE contract_id = ?`,
			contracts2["K2"]); err != nil {
			t.Fatal(err)
		}
		if status, body := undo(id2); status != 409 || !strings.Contains(body, "changed") {
			t.Errorf("undo after a change: %d %s", status, body)
		}
		if counts() != mid {
			t.Errorf("a refused undo removed rows: %v -> %v", mid, counts())
		}
	})
}
