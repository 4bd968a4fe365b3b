package imports_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// sheets is a workbook of named sheets (in order) and their rows.
type sheets []struct {
	name string
	rows [][]any
}

func multiWorkbook(t testing.TB, parts sheets) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, p := range parts {
		if i == 0 {
			if err := f.SetSheetName(f.GetSheetName(0), p.name); err != nil {
				t.Fatal(err)
			}
		} else if _, err := f.NewSheet(p.name); err != nil {
			t.Fatal(err)
		}
		for j, r := range p.rows {
			cell, _ := excelize.CoordinatesToCellName(1, j+1)
			if err := f.SetSheetRow(p.name, cell, &r); err != nil {
				t.Fatal(err)
			}
		}
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func fileForm(t testing.TB, data []byte) (string, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	part, err := w.CreateFormFile("file", "contracts.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := part.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String(), w.FormDataContentType()
}

type contractAnswer struct {
	Rows      map[string]int `json:"rows"`
	Valid     map[string]int `json:"valid"`
	Committed bool           `json:"committed"`
	Errors    []struct {
		Sheet string `json:"sheet"`
		Row   int    `json:"row"`
		Loc   []any  `json:"loc"`
		Msg   string `json:"msg"`
	} `json:"errors"`
	Contracts map[string]int64 `json:"contracts"`
}

// TestContractWorkbook: contracts with their areas, deadlines and
// recurring payments from one workbook, a sheet per part joined by the
// contract key; errors name sheet, row and field; the commit writes all
// or nothing through the engine (the contracts module's rules compute the
// deadline's notice date); the template has a sheet per part with the
// allowed values as lists.
func TestContractWorkbook(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		ctx := context.Background()
		var typ, company, pos, location, currency, area, usage, tax, account int64
		err := d.QueryRowContext(ctx, `SELECT contracttype_id, company_id, pos_id, location_id, currency_id FROM contract
			WHERE company_id = ? ORDER BY contract_id LIMIT 1`, f.companyA1).Scan(&typ, &company, &pos, &location, &currency)
		if err != nil {
			t.Fatal(err)
		}
		area = f.one(t, `SELECT MIN(area_id) FROM area WHERE location_id = ?`, location)
		usage = f.one(t, `SELECT MIN(usagetype_id) FROM usagetype`)
		tax = f.one(t, `SELECT MIN(taxrate_id) FROM taxrate`)
		account = f.one(t, `SELECT MIN(sachkonto_id) FROM sachkonto`)
		counts := func() [4]int64 {
			return [4]int64{f.one(t, `SELECT COUNT(*) FROM contract`), f.one(t, `SELECT COUNT(*) FROM contract_area`),
				f.one(t, `SELECT COUNT(*) FROM contractaction`), f.one(t, `SELECT COUNT(*) FROM recurringpayment`)}
		}
		book := func(unit string, paymentKey string, companyOf any) []byte {
			return multiWorkbook(t, sheets{
				// German names for the contract sheet and its key column.
				{"Verträge", [][]any{
					{"Vertragsschlüssel", "contract_name", "contracttype_id", "company_id", "pos_id", "location_id", "currency_id", "contract_begin_date", "contract_end_date", "contract_first_possible_end_date"},
					{"K1", "Imported one", typ, companyOf, pos, location, currency, "2026-01-01", "2031-12-31", "2028-12-31"},
					{"K2", "Imported two", typ, companyOf, pos, location, currency, "2026-01-01", "2030-12-31", "2028-12-31"},
				}},
				{"Areas", [][]any{
					{"Contract key", "area_id", "usagetype_id", "rentalspace_value", "allocationspace_value", "Main usage", "Valid from"},
					{"K1", area, usage, 120.5, 10, "yes", "2026-01-01"},
				}},
				{"Deadlines", [][]any{
					{"Contract key", "Acting by", "Type", "contractaction_resiliation_date", "contractaction_notice_period_value", "contractaction_notice_period_unit"},
					{"K1", "Tenant", "Resiliation", "2031-12-31", 6, unit},
				}},
				{"Recurring payments", [][]any{
					{"Contract key", "recurringpayment_name", "taxrate_id", "recurringpaymenttype_id", "sachkonto_id", "recurringpayment_sum_per_month",
						"recurringpayment_begin_date", "recurringpayment_end_date", "maturitytype_id", "recurringpayment_maturity_date"},
					{paymentKey, "Rent", tax, 1, account, 1000, "2026-01-01", "2027-12-31", 1, "2026-01-05"},
				}},
			})
		}
		post := func(as, path string, data []byte) (int, contractAnswer, string) {
			body, ct := fileForm(t, data)
			res := f.ta.Do("POST", path, f.ta.Token(as), body, "Content-Type", ct)
			var ans contractAnswer
			if res.Status < 300 {
				res.JSON(t, &ans)
			}
			return res.Status, ans, string(res.Body)
		}
		before := counts()

		t.Run("errors name sheet, row and field; nothing written", func(t *testing.T) {
			status, ans, body := post(admin, "/imports-contract/validate", book("fortnight", "K9", company))
			if status != 200 || len(ans.Errors) != 2 || ans.Valid["contract"] != 2 || ans.Valid["area"] != 1 {
				t.Fatalf("validate: %d %s", status, body)
			}
			e0, e1 := ans.Errors[0], ans.Errors[1]
			if e0.Sheet != "Deadlines" || e0.Row != 2 || e0.Loc[2] != "contractaction_notice_period_unit" {
				t.Fatalf("deadline error: %+v", e0)
			}
			if e1.Sheet != "Recurring payments" || e1.Row != 2 || e1.Loc[2] != "contract_key" || !strings.Contains(e1.Msg, "K9") {
				t.Fatalf("payment error: %+v", e1)
			}
			if status, _, body := post(admin, "/imports-contract/commit", book("fortnight", "K9", company)); status != 422 ||
				!strings.Contains(body, `"loc":["body","Deadlines",2,"contractaction_notice_period_unit"]`) {
				t.Fatalf("commit with errors: %d %s", status, body)
			}
			if counts() != before {
				t.Fatalf("written: %v -> %v", before, counts())
			}
		})

		t.Run("a user who may not create contracts", func(t *testing.T) {
			if status, _, body := post(lead, "/imports-contract/validate", book("month", "K1", company)); status != 403 {
				t.Fatalf("validate as lead: %d %.600s", status, body)
			}
			if res := f.ta.Do("GET", "/imports-contract/template", f.ta.Token(lead), nil); res.Status != 403 {
				t.Fatalf("template as lead: %d", res.Status)
			}
		})

		t.Run("a company the caller cannot see", func(t *testing.T) {
			status, ans, body := post(admin, "/imports-contract/validate", book("month", "K1", "Nowhere GmbH"))
			if status != 200 || ans.Valid["contract"] != 0 || len(ans.Errors) != 2 || ans.Errors[0].Sheet != "Verträge" || ans.Errors[0].Loc[2] != "company_id" {
				t.Fatalf("validate: %d %.600s", status, body)
			}
		})

		t.Run("committed in one transaction through the contracts module", func(t *testing.T) {
			status, ans, body := post(admin, "/imports-contract/commit", book("month", "K1", company))
			if status != 201 || !ans.Committed || len(ans.Errors) != 0 || len(ans.Contracts) != 2 {
				t.Fatalf("commit: %d %s", status, body)
			}
			after := counts()
			if after != [4]int64{before[0] + 2, before[1] + 1, before[2] + 1, before[3] + 1} {
				t.Fatalf("counts %v -> %v", before, after)
			}
			k1 := ans.Contracts["K1"]
			// The module's hook computed the notice date: six months before.
			var notice string
			if err := d.QueryRowContext(ctx, `SELECT CAST(contractaction_notice_date AS TEXT) FROM contractaction WHERE contract_id = ?`, k1).Scan(&notice); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(notice, "2031-06-30") {
				t.Fatalf("notice date %q", notice)
			}
			if got := f.one(t, `SELECT COUNT(*) FROM contract_area WHERE contract_id = ? AND area_id = ?`, k1, area); got != 1 {
				t.Fatalf("area links: %d", got)
			}
		})

		t.Run("bad files", func(t *testing.T) {
			if status, _, body := post(admin, "/imports-contract/validate", []byte("a;b\n1;2\n")); status != 422 || !strings.Contains(body, "not an XLSX workbook") {
				t.Fatalf("csv: %d %s", status, body)
			}
			noContracts := multiWorkbook(t, sheets{{"Areas", [][]any{{"Contract key", "area_id"}, {"K1", area}}}})
			if status, _, body := post(admin, "/imports-contract/validate", noContracts); status != 422 || !strings.Contains(body, "no sheet") {
				t.Fatalf("no contracts: %d %s", status, body)
			}
			unknown := multiWorkbook(t, sheets{{"Contracts", [][]any{{"Contract key", "contract_name", "Colour"}, {"K1", "X", "red"}}}})
			if status, _, body := post(admin, "/imports-contract/validate", unknown); status != 422 || !strings.Contains(body, `"loc":["body","file","Contracts","C"]`) {
				t.Fatalf("unknown column: %d %s", status, body)
			}
			empty := multiWorkbook(t, sheets{{"Contracts", [][]any{{"Contract key", "contract_name"}}}})
			if status, _, body := post(admin, "/imports-contract/validate", empty); status != 422 || !strings.Contains(body, "holds no rows") {
				t.Fatalf("empty: %d %s", status, body)
			}
		})

		t.Run("template", func(t *testing.T) {
			res := f.ta.Do("GET", "/imports-contract/template", f.ta.Token(admin), nil, "Accept-Language", "de")
			if res.Status != 200 {
				t.Fatalf("template: %d %s", res.Status, res.Body)
			}
			wb, err := excelize.OpenReader(bytes.NewReader(res.Body))
			if err != nil {
				t.Fatal(err)
			}
			defer wb.Close()
			got := strings.Join(wb.GetSheetList(), "|")
			if got != "Verträge|Flächen|Fristen|Wiederkehrende Zahlungen|Lists" {
				t.Fatalf("sheets: %s", got)
			}
			head, _ := wb.GetRows("Fristen")
			if len(head) == 0 || head[0][0] != "Vertragsschlüssel" {
				t.Fatalf("deadline headings: %v", head)
			}
			dvs, err := wb.GetDataValidations("Fristen")
			if err != nil || len(dvs) == 0 {
				t.Fatalf("deadline lists: %v %v", dvs, err)
			}
			// The template maps itself: its headings are recognised.
			status, _, body := post(admin, "/imports-contract/validate", res.Body)
			if status != 422 || !strings.Contains(body, "holds no rows") {
				t.Fatalf("the empty template: %d %s", status, body)
			}
		})
	})
}
