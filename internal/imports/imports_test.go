package imports_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

type obj = map[string]any

const (
	admin = "admin@demo.test"
	lead  = "lead@demo.test"
)

// workbook is a real XLSX file made by excelize: rows on the first sheet.
func workbook(t testing.TB, rows [][]any) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sheet := f.GetSheetName(0)
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow(sheet, cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// form is the multipart body of an upload.
func form(t testing.TB, entity, name string, data []byte) (string, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	if entity != "" {
		if err := w.WriteField("entity", entity); err != nil {
			t.Fatal(err)
		}
	}
	part, err := w.CreateFormFile("file", name)
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

type uploadAnswer struct {
	ImportID         int64             `json:"import_id"`
	Columns          []string          `json:"columns"`
	SuggestedMapping map[string]string `json:"suggested_mapping"`
	Rows             int               `json:"rows"`
	Fields           []struct {
		Name, Label, Reference string
	} `json:"fields"`
}

type rowError struct {
	Row    int    `json:"row"`
	Loc    []any  `json:"loc"`
	Column string `json:"column"`
	Msg    string `json:"msg"`
	Type   string `json:"type"`
}

type validateAnswer struct {
	Valid      int        `json:"valid"`
	Invalid    int        `json:"invalid"`
	ErrorCount int        `json:"error_count"`
	Errors     []rowError `json:"errors"`
}

type importAnswer struct {
	ID       int64  `json:"import_id"`
	State    string `json:"state"`
	Rows     int    `json:"rows"`
	Created  int    `json:"created"`
	Entity   string `json:"entity"`
	Progress *struct {
		Done, Total int
	} `json:"progress"`
}

type fixture struct {
	ta           *apptest.TestApp
	d            *db.DB
	companyA1    int64
	companyB1    int64
	contactA1    int64
	contactB1    int64
	contactLabel string
}

func newFixture(t testing.TB, d *db.DB) *fixture {
	ta := apptest.NewApp(t, d)
	f := &fixture{ta: ta, d: d, contactLabel: "Ida Importer"}
	f.companyA1 = f.one(t, `SELECT company_id FROM company WHERE company_name = 'Nordhandel Retail GmbH'`)
	f.companyB1 = f.one(t, `SELECT company_id FROM company WHERE company_name = 'Südmarkt Filialen GmbH'`)
	sal := f.one(t, `SELECT MIN(contactsalutation_id) FROM contactsalutation`)
	// The same contact person's name in two customer groups: ambiguous
	// for an administrator, unique for Nordhandel's lead.
	for _, c := range []struct {
		company int64
		dst     *int64
	}{{f.companyA1, &f.contactA1}, {f.companyB1, &f.contactB1}} {
		err := d.QueryRowContext(context.Background(), `INSERT INTO contactperson (contactperson_firstname, contactperson_lastname,
			contactperson_shortname, contactsalutation_id, company_id) VALUES ('Ida', 'Importer', 'II', ?, ?) RETURNING contactperson_id`,
			sal, c.company).Scan(c.dst)
		if err != nil {
			t.Fatal(err)
		}
	}
	companyA2 := f.one(t, `SELECT company_id FROM company WHERE company_name = 'Nordhandel Outlet GmbH'`)
	for _, c := range []struct {
		first, last string
		company     int64
	}{{"Udo", "Unique", f.companyA1}, {"Olga", "Outlet", companyA2}} {
		if _, err := d.ExecContext(context.Background(), `INSERT INTO contactperson (contactperson_firstname, contactperson_lastname,
			contactperson_shortname, contactsalutation_id, company_id) VALUES (?, ?, 'XX', ?, ?)`, c.first, c.last, sal, c.company); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *fixture) one(t testing.TB, query string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := f.d.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func (f *fixture) upload(t testing.TB, as, lang, entity, name string, data []byte) apptest.Response {
	t.Helper()
	body, ct := form(t, entity, name, data)
	return f.ta.Do("POST", "/uploadxlsx/", f.ta.Token(as), body, "Content-Type", ct, "Accept-Language", lang)
}

func (f *fixture) mustUpload(t testing.TB, as, entity string, data []byte) uploadAnswer {
	t.Helper()
	res := f.upload(t, as, "en", entity, "points.xlsx", data)
	if res.Status != http.StatusCreated {
		t.Fatalf("upload: %d %s", res.Status, res.Body)
	}
	var up uploadAnswer
	res.JSON(t, &up)
	return up
}

func (f *fixture) validate(t testing.TB, as string, id int64, mapping map[string]string) (int, validateAnswer, []byte) {
	t.Helper()
	res := f.ta.Do("POST", fmt.Sprintf("/imports/%d/validate", id), f.ta.Token(as), obj{"mapping": mapping})
	var v validateAnswer
	if res.Status == http.StatusOK {
		res.JSON(t, &v)
	}
	return res.Status, v, res.Body
}

func (f *fixture) post(t testing.TB, as, path string) apptest.Response {
	t.Helper()
	return f.ta.Do("POST", path, f.ta.Token(as), nil)
}

func (f *fixture) posCount(t testing.TB) int64 { return f.one(t, `SELECT COUNT(*) FROM pos`) }

var posMapping = map[string]string{
	"Company": "company_id", "Name": "pos_name", "Branch number": "pos_branchnumber", "First year": "pos_first_year",
	"Contact person": "contactperson_id", "Opening date": "pos_opening_date",
}

var posHeadings = []any{"Company", "Name", "Branch number", "First year", "Contact person", "Opening date"}

func TestImports(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)

		t.Run("mapping suggested in three languages", func(t *testing.T) {
			cases := []struct {
				lang     string
				headings []any
			}{
				{"en", posHeadings},
				{"de", []any{"Gesellschaft", "Name", "Filialnummer", "Erstes Jahr", "Ansprechpartner", "Eröffnungsdatum"}},
				{"fr", []any{"Société", "Nom", "Numéro de magasin", "Première année", "Personne de contact", "Date d'ouverture"}},
			}
			want := []string{"company_id", "pos_name", "pos_branchnumber", "pos_first_year", "contactperson_id", "pos_opening_date"}
			for _, c := range cases {
				// The request's language does not matter: every language's labels are tried.
				res := f.upload(t, "lawyer@demo.test", "en", "pos", "pos-"+c.lang+".xlsx", workbook(t, [][]any{c.headings, {"Nordhandel Retail GmbH", "X", "1", 2020, "Udo Unique", "2020-01-01"}}))
				if res.Status != http.StatusForbidden {
					t.Fatalf("the lawyer may not create points of sale: %d %s", res.Status, res.Body)
				}
				res = f.upload(t, admin, "en", "pos", "pos-"+c.lang+".xlsx", workbook(t, [][]any{c.headings, {"Nordhandel Retail GmbH", "X", "1", 2020, "Udo Unique", "2020-01-01"}}))
				if res.Status != http.StatusCreated {
					t.Fatalf("%s: %d %s", c.lang, res.Status, res.Body)
				}
				var up uploadAnswer
				res.JSON(t, &up)
				for i, h := range c.headings {
					if got := up.SuggestedMapping[h.(string)]; got != want[i] {
						t.Errorf("%s: %q suggested %q, want %q (all: %v)", c.lang, h, got, want[i], up.SuggestedMapping)
					}
				}
				if up.Rows != 1 {
					t.Errorf("%s: rows %d", c.lang, up.Rows)
				}
			}
		})

		t.Run("remembered mapping wins", func(t *testing.T) {
			rows := [][]any{{"Filiale", "Nr", "Gesellschaft", "Jahr", "Kontakt", "Eröffnet"}, {"Rem", "R-1", "Nordhandel Retail GmbH", 2021, "Udo Unique", "01.02.2021"}}
			up := f.mustUpload(t, admin, "pos", workbook(t, rows))
			if up.SuggestedMapping["Filiale"] != "" || up.SuggestedMapping["Gesellschaft"] != "company_id" {
				t.Fatalf("first suggestion: %v", up.SuggestedMapping)
			}
			m := map[string]string{"Filiale": "pos_name", "Nr": "pos_branchnumber", "Gesellschaft": "company_id", "Jahr": "pos_first_year", "Kontakt": "contactperson_id", "Eröffnet": "pos_opening_date"}
			status, v, body := f.validate(t, admin, up.ImportID, m)
			if status != http.StatusOK || v.Valid != 1 || v.Invalid != 0 {
				t.Fatalf("validate: %d %+v %s", status, v, body)
			}
			again := f.mustUpload(t, admin, "pos", workbook(t, rows))
			for h, field := range m {
				if again.SuggestedMapping[h] != field {
					t.Errorf("remembered %q → %q, suggested %q", h, field, again.SuggestedMapping[h])
				}
			}
		})

		t.Run("per-row errors name rows and fields, nothing written", func(t *testing.T) {
			before := f.posCount(t)
			up := f.mustUpload(t, admin, "pos", workbook(t, [][]any{posHeadings,
				{"Nordhandel Retail GmbH", "Good", "G-1", 2020, "Udo Unique", "2020-05-01"},
				{"Nordhandel Retail GmbH", "", "G-2", 2020, "Udo Unique", "2020-05-01"},
				{"Nirgendwo GmbH", "Unknown company", "G-3", 2020, "Udo Unique", "2020-05-01"},
				{"Nordhandel Retail GmbH", "Too old", "G-4", 1800, "Udo Unique", "2020-05-01"},
				{"Nordhandel Retail GmbH", "Ambiguous contact", "G-5", 2020, "Ida Importer", "2020-05-01"},
			}))
			status, v, body := f.validate(t, admin, up.ImportID, posMapping)
			if status != http.StatusOK {
				t.Fatalf("validate: %d %s", status, body)
			}
			if v.Valid != 1 || v.Invalid != 4 {
				t.Fatalf("valid %d invalid %d: %s", v.Valid, v.Invalid, body)
			}
			want := map[int]string{3: "pos_name", 4: "company_id", 5: "pos_first_year", 6: "contactperson_id"}
			got := map[int]string{}
			for _, e := range v.Errors {
				got[e.Row], _ = e.Loc[2].(string)
				if e.Msg == "" || e.Column == "" {
					t.Errorf("error without message or column: %+v", e)
				}
			}
			for row, field := range want {
				if got[row] != field {
					t.Errorf("row %d: error on %q, want %q (%s)", row, got[row], field, body)
				}
			}
			if !strings.Contains(string(body), "Nirgendwo GmbH") || !strings.Contains(string(body), "ambiguous_reference") {
				t.Errorf("messages: %s", body)
			}
			res := f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID))
			if res.Status != http.StatusUnprocessableEntity {
				t.Fatalf("commit of an invalid import: %d %s", res.Status, res.Body)
			}
			if f.posCount(t) != before {
				t.Fatal("something was written")
			}
		})

		t.Run("references by label inside the tenant", func(t *testing.T) {
			// Nordhandel's lead may create points of sale here.
			if _, err := d.ExecContext(context.Background(), `UPDATE crud SET crud_c = 1, crud_d = 1
				WHERE role_id = (SELECT role_id FROM role WHERE role_code = 'lead') AND tablegroup_id = 1`); err != nil {
				t.Fatal(err)
			}
			up := f.mustUpload(t, lead, "pos", workbook(t, [][]any{posHeadings,
				{"Südmarkt Filialen GmbH", "Other group", "L-1", 2020, "Ida Importer", "2020-05-01"},
				{"Nordhandel Retail GmbH", "Own group", "L-2", 2020, "Ida Importer", "2020-05-01"},
				{"SMF", "Other group by short name", "L-3", 2020, "Ida Importer", "2020-05-01"},
				{fmt.Sprint(f.companyB1), "Other group by key", "L-4", 2020, "Ida Importer", "2020-05-01"},
			}))
			status, v, body := f.validate(t, lead, up.ImportID, posMapping)
			if status != http.StatusOK {
				t.Fatalf("validate: %d %s", status, body)
			}
			if v.Valid != 1 || v.Invalid != 3 {
				t.Fatalf("valid %d invalid %d: %s", v.Valid, v.Invalid, body)
			}
			companyErr := map[int]bool{}
			for _, e := range v.Errors {
				if e.Row == 3 {
					t.Errorf("the own group's row refused: %+v", e)
				}
				if e.Loc[2] == "company_id" && e.Type == "unknown_reference" {
					companyErr[e.Row] = true
				}
			}
			for _, row := range []int{2, 4, 5} {
				if !companyErr[row] {
					t.Errorf("row %d: the other group's company resolved (%s)", row, body)
				}
			}
			// The lead's "Ida Importer" is Nordhandel's only: no ambiguity.
			if strings.Contains(string(body), "ambiguous") {
				t.Errorf("the other group's contact person counted: %s", body)
			}
			// Another user cannot see or use the lead's import.
			if res := f.ta.Do("GET", fmt.Sprintf("/imports/%d", up.ImportID), f.ta.Token("lead.b@demo.test"), nil); res.Status != http.StatusNotFound {
				t.Errorf("another user reads the import: %d", res.Status)
			}
			good := f.mustUpload(t, lead, "pos", workbook(t, [][]any{posHeadings,
				{"Nordhandel Retail GmbH", "Own group", "L-2", 2020, "Ida Importer", "2020-05-01"}}))
			if status, v, body := f.validate(t, lead, good.ImportID, posMapping); status != 200 || v.Valid != 1 {
				t.Fatalf("validate: %d %s", status, body)
			}
			res := f.post(t, lead, fmt.Sprintf("/imports/%d/commit", good.ImportID))
			if res.Status != http.StatusOK || !strings.Contains(string(res.Body), `"created":1`) {
				t.Fatalf("commit: %d %s", res.Status, res.Body)
			}
			if n := f.one(t, `SELECT COUNT(*) FROM pos WHERE pos_branchnumber = 'L-2' AND company_id = ? AND contactperson_id = ?`, f.companyA1, f.contactA1); n != 1 {
				t.Fatalf("created rows: %d", n)
			}
		})

		t.Run("all or nothing, history naming the import, undo", func(t *testing.T) {
			before := f.posCount(t)
			rows := [][]any{posHeadings}
			for i := range 3 {
				rows = append(rows, []any{"Nordhandel Retail GmbH", fmt.Sprintf("Batch %d", i), fmt.Sprintf("B-%d", i), 2019, "Udo Unique", "2019-03-01"})
			}
			rows[3][0], rows[3][4] = "Nordhandel Outlet GmbH", "Olga Outlet"
			up := f.mustUpload(t, admin, "pos", workbook(t, rows))
			if status, v, body := f.validate(t, admin, up.ImportID, posMapping); status != 200 || v.Valid != 3 {
				t.Fatalf("validate: %d %s", status, body)
			}
			// Since the validation the third row's company was renamed: the
			// commit refuses row 4 and writes nothing.
			if _, err := d.ExecContext(context.Background(), `UPDATE company SET company_name = 'Nordhandel Outlet AG' WHERE company_name = 'Nordhandel Outlet GmbH'`); err != nil {
				t.Fatal(err)
			}
			res := f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID))
			if res.Status != http.StatusUnprocessableEntity || !strings.Contains(string(res.Body), `"rows",4,"company_id"`) {
				t.Fatalf("commit: %d %s", res.Status, res.Body)
			}
			if f.posCount(t) != before {
				t.Fatal("a refused commit wrote rows")
			}
			if _, err := d.ExecContext(context.Background(), `UPDATE company SET company_name = 'Nordhandel Outlet GmbH' WHERE company_name = 'Nordhandel Outlet AG'`); err != nil {
				t.Fatal(err)
			}
			rows[3][0], rows[3][4] = "Nordhandel Retail GmbH", "Udo Unique"
			up = f.mustUpload(t, admin, "pos", workbook(t, rows))
			if status, v, body := f.validate(t, admin, up.ImportID, posMapping); status != 200 || v.Valid != 3 {
				t.Fatalf("validate: %d %s", status, body)
			}
			res = f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID))
			if res.Status != http.StatusOK {
				t.Fatalf("commit: %d %s", res.Status, res.Body)
			}
			if f.posCount(t) != before+3 {
				t.Fatalf("pos count %d, want %d", f.posCount(t), before+3)
			}
			note := fmt.Sprintf("import %d: points.xlsx", up.ImportID)
			if n := f.one(t, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'pos' AND trackrecord_type = 'create' AND trackrecord_comment = ?`, note); n != 3 {
				t.Fatalf("history rows naming the import: %d", n)
			}
			if res := f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID)); res.Status != http.StatusConflict {
				t.Fatalf("second commit: %d %s", res.Status, res.Body)
			}
			list := f.ta.Do("GET", "/imports", f.ta.Token(admin), nil)
			if list.Status != 200 || !strings.Contains(string(list.Body), `"state":"committed"`) || !strings.Contains(string(list.Body), `"user_email":"admin@demo.test"`) {
				t.Fatalf("list: %d %s", list.Status, list.Body)
			}
			res = f.post(t, admin, fmt.Sprintf("/imports/%d/undo", up.ImportID))
			if res.Status != http.StatusOK || !strings.Contains(string(res.Body), `"state":"undone"`) {
				t.Fatalf("undo: %d %s", res.Status, res.Body)
			}
			if f.posCount(t) != before {
				t.Fatal("undo left rows")
			}

			// An import of which one record changed since cannot be undone.
			up = f.mustUpload(t, admin, "pos", workbook(t, rows))
			if status, _, body := f.validate(t, admin, up.ImportID, posMapping); status != 200 {
				t.Fatalf("validate: %d %s", status, body)
			}
			if res := f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID)); res.Status != 200 {
				t.Fatalf("commit: %d %s", res.Status, res.Body)
			}
			if _, err := d.ExecContext(context.Background(), `UPDATE pos SET pos_name = 'Changed', row_version = row_version + 1 WHERE pos_branchnumber = 'B-1'`); err != nil {
				t.Fatal(err)
			}
			if res := f.post(t, admin, fmt.Sprintf("/imports/%d/undo", up.ImportID)); res.Status != http.StatusConflict {
				t.Fatalf("undo after a change: %d %s", res.Status, res.Body)
			}
			if f.posCount(t) != before+3 {
				t.Fatal("a refused undo removed rows")
			}
		})

		t.Run("the product's own export maps itself", func(t *testing.T) {
			if _, err := d.ExecContext(context.Background(), `UPDATE pos SET contactperson_id = ? WHERE pos_id IN
				(SELECT pos_id FROM pos WHERE company_id = ? ORDER BY pos_id LIMIT 3)`, f.contactA1, f.companyA1); err != nil {
				t.Fatal(err)
			}
			for _, format := range []string{"xlsx", "csv"} {
				for _, lang := range []string{"en", "de", "fr"} {
					ex := f.ta.Do("POST", "/api/", f.ta.Token(lead), obj{"action": "export", "entity": "pos", "format": format,
						"filter": []obj{{"field": "contactperson_id", "op": "eq", "value": f.contactA1}}}, "Accept-Language", lang)
					if ex.Status != 200 {
						t.Fatalf("export: %d %s", ex.Status, ex.Body)
					}
					res := f.upload(t, lead, lang, "pos", "export."+format, ex.Body)
					if res.Status != http.StatusCreated {
						t.Fatalf("%s %s upload: %d %s", format, lang, res.Status, res.Body)
					}
					var up uploadAnswer
					res.JSON(t, &up)
					fields := map[string]bool{}
					for _, field := range up.SuggestedMapping {
						fields[field] = true
					}
					for _, want := range []string{"company_id", "pos_name", "pos_branchnumber", "pos_name_external", "pos_first_year", "contactperson_id", "pos_internal_id", "pos_opening_date"} {
						if !fields[want] {
							t.Errorf("%s %s: %s not mapped (%v, columns %v)", format, lang, want, up.SuggestedMapping, up.Columns)
						}
					}
					status, v, body := f.validate(t, lead, up.ImportID, up.SuggestedMapping)
					if status != 200 || v.Invalid != 0 || v.Valid < 3 {
						t.Fatalf("%s %s validate: %d %s", format, lang, status, body)
					}
				}
			}
		})

		t.Run("companies, partner companies and contact persons", func(t *testing.T) {
			var salutation string
			if err := d.QueryRowContext(context.Background(), `SELECT contactsalutation_name FROM contactsalutation ORDER BY contactsalutation_id LIMIT 1`).Scan(&salutation); err != nil {
				t.Fatal(err)
			}
			cases := []struct {
				entity  string
				rows    [][]any
				mapping map[string]string
				check   string
			}{
				{"company", [][]any{{"Customer group", "Company name", "Short name"}, {"Nordhandel Gruppe", "Nordhandel Import GmbH", "NHI"}},
					map[string]string{"Customer group": "customergroup_id", "Company name": "company_name", "Short name": "company_shortname"},
					`SELECT COUNT(*) FROM company c JOIN customergroup g ON g.customergroup_id = c.customergroup_id
						WHERE c.company_name = 'Nordhandel Import GmbH' AND g.customergroup_name = 'Nordhandel Gruppe'`},
				{"partnercompany", [][]any{{"Partner group", "Name", "Short name"}, {"Rheinland Immobilien Gruppe", "Rheinland Verwaltung GmbH", "RHEINVW"}},
					map[string]string{"Partner group": "partnergroup_id", "Name": "partnercompany_name", "Short name": "partnercompany_shortname"},
					`SELECT COUNT(*) FROM partnercompany WHERE partnercompany_name = 'Rheinland Verwaltung GmbH' AND partnergroup_id IS NOT NULL`},
				{"contactperson", [][]any{{"First name", "Last name", "Salutation", "Company"}, {"Karla", "Kontakt", salutation, "NHR"}},
					map[string]string{"First name": "contactperson_firstname", "Last name": "contactperson_lastname", "Salutation": "contactsalutation_id", "Company": "company_id"},
					`SELECT COUNT(*) FROM contactperson WHERE contactperson_lastname = 'Kontakt' AND contactperson_shortname = 'KK' AND company_id = ` + fmt.Sprint(f.companyA1)},
			}
			for _, c := range cases {
				up := f.mustUpload(t, admin, c.entity, workbook(t, c.rows))
				for h, field := range c.mapping {
					if up.SuggestedMapping[h] != field {
						t.Errorf("%s: %q suggested %q, want %q", c.entity, h, up.SuggestedMapping[h], field)
					}
				}
				if status, v, body := f.validate(t, admin, up.ImportID, c.mapping); status != 200 || v.Valid != 1 {
					t.Fatalf("%s validate: %d %s", c.entity, status, body)
				}
				if res := f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID)); res.Status != 200 {
					t.Fatalf("%s commit: %d %s", c.entity, res.Status, res.Body)
				}
				if n := f.one(t, c.check); n != 1 {
					t.Errorf("%s: %d rows", c.entity, n)
				}
			}
		})

		t.Run("the template workbook maps itself", func(t *testing.T) {
			for _, lang := range []string{"en", "de", "fr"} {
				res := f.ta.Do("GET", "/imports/template?entity=pos", f.ta.Token(admin), nil, "Accept-Language", lang)
				if res.Status != 200 {
					t.Fatalf("template: %d %s", res.Status, res.Body)
				}
				wb, err := excelize.OpenReader(bytes.NewReader(res.Body))
				if err != nil {
					t.Fatal(err)
				}
				rows, err := wb.GetRows(wb.GetSheetName(0))
				wb.Close()
				// The fields, then the locations a point of sale is linked to (LinkColumns).
				if err != nil || len(rows) != 1 || len(rows[0]) != 9 {
					t.Fatalf("%s: template rows %v %v", lang, rows, err)
				}
				heads := make([]any, len(rows[0]))
				for i, h := range rows[0] {
					heads[i] = h
				}
				up := f.mustUpload(t, "team_lead@demo.test", "pos", workbook(t, [][]any{heads, {"Nordhandel Retail GmbH"}}))
				if len(up.SuggestedMapping) != 9 || up.SuggestedMapping[rows[0][8]] != "pos_location_rel" {
					t.Errorf("%s: template headings map to %v", lang, up.SuggestedMapping)
				}
			}
			if res := f.ta.Do("GET", "/imports/template?entity=pos", f.ta.Token("lawyer@demo.test"), nil); res.Status != 403 {
				t.Fatalf("template without the create right: %d", res.Status)
			}
			if res := f.ta.Do("GET", "/imports/template?entity=users", f.ta.Token(admin), nil); res.Status != 422 {
				t.Fatalf("template of an entity that is not imported: %d", res.Status)
			}
		})

		t.Run("bad input", func(t *testing.T) {
			before := f.posCount(t)
			cases := []struct {
				name, file string
				data       []byte
				entity     string
				status     int
				contains   string
			}{
				{"not a spreadsheet", "contract.pdf", []byte("%PDF-1.4\n\x00\x01\x02binary"), "pos", 422, "not a spreadsheet"},
				{"a broken workbook", "broken.xlsx", []byte("PK\x03\x04 not really a zip"), "pos", 422, "not a spreadsheet"},
				{"empty sheet", "empty.xlsx", workbook(t, nil), "pos", 422, "no rows"},
				{"headings only", "heads.xlsx", workbook(t, [][]any{posHeadings}), "pos", 422, "no rows"},
				{"no heading row", "values.xlsx", workbook(t, [][]any{{"Nordhandel Retail GmbH", 12, 2020, "2020-01-01"}, {"x", 13, 2021, "2021-01-01"}}), "pos", 422, "Line 1 holds values"},
				{"a column without heading", "gap.csv", []byte("Name;Company\nA;B;C\n"), "pos", 422, "Column C holds values"},
				{"an entity that cannot be imported", "p.xlsx", workbook(t, [][]any{posHeadings, {"a"}}), "users", 422, "cannot be imported"},
				{"no entity", "p.xlsx", workbook(t, [][]any{posHeadings, {"a"}}), "", 422, "entity"},
			}
			for _, c := range cases {
				res := f.upload(t, admin, "en", c.entity, c.file, c.data)
				if res.Status != c.status || !strings.Contains(string(res.Body), c.contains) {
					t.Errorf("%s: %d %s", c.name, res.Status, res.Body)
				}
			}
			up := f.mustUpload(t, admin, "pos", workbook(t, [][]any{posHeadings, {"Nordhandel Retail GmbH", "A", "1", 2020, "Udo Unique", "2020-01-01"}}))
			for name, m := range map[string]map[string]string{
				"a field the caller may not write": {"Name": "pos_id"},
				"a computed field":                 {"Name": "pos_name", "Company": "nope"},
				"a column the file lacks":          {"Missing": "pos_name"},
				"one field twice":                  {"Name": "pos_name", "Branch number": "pos_name"},
			} {
				status, _, body := f.validate(t, admin, up.ImportID, m)
				if status != http.StatusUnprocessableEntity || !strings.Contains(string(body), `"mapping"`) {
					t.Errorf("%s: %d %s", name, status, body)
				}
			}
			// The refusal names the column and the field, precisely.
			status, _, body := f.validate(t, admin, up.ImportID, map[string]string{"Name": "pos_id", "Branch number": "pos_branchnumber"})
			if status != http.StatusUnprocessableEntity || !strings.Contains(string(body), `"loc":["body","mapping","Name"]`) ||
				!strings.Contains(string(body), "you may not write this field") || strings.Contains(string(body), `"Branch number"]`) {
				t.Errorf("a field the caller may not write: %d %s", status, body)
			}
			if f.posCount(t) != before {
				t.Fatal("bad input wrote rows")
			}
		})

		t.Run("CSV in Windows-1252 with semicolons", func(t *testing.T) {
			csv := []byte("Gesellschaft;Name;Filialnummer;Erstes Jahr;Ansprechpartner;Er\xf6ffnungsdatum\r\n" +
				"S\xfcdmarkt Filialen GmbH;M\xfcnchen S\xfcd;W-1;2018;Ida Importer;15.03.2018\r\n")
			res := f.upload(t, "lawyer@demo.test", "de", "pos", "pos.csv", csv)
			if res.Status != http.StatusForbidden {
				t.Fatalf("the lawyer without the create right: %d %s", res.Status, res.Body)
			}
			res = f.upload(t, admin, "de", "pos", "pos.csv", csv)
			if res.Status != http.StatusCreated {
				t.Fatalf("upload: %d %s", res.Status, res.Body)
			}
			var up uploadAnswer
			res.JSON(t, &up)
			if up.SuggestedMapping["Eröffnungsdatum"] != "pos_opening_date" || up.Columns[0] != "Gesellschaft" {
				t.Fatalf("mapping: %v %v", up.SuggestedMapping, up.Columns)
			}
			status, v, body := f.validate(t, admin, up.ImportID, up.SuggestedMapping)
			// Ida Importer of Südmarkt and of Nordhandel: ambiguous for the administrator.
			if status != 200 || v.Invalid != 1 || v.Errors[0].Type != "ambiguous_reference" || !strings.Contains(v.Errors[0].Msg, "Ida Importer") {
				t.Fatalf("validate: %d %s", status, body)
			}
		})
	})
}

// TestLargeImport imports 100,000 points of sale with one bad row: the
// validation names exactly that row, the commit refuses to start; without
// the bad row the commit runs as a job of the queue with progress.
func TestLargeImport(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		const n = 100000
		bad := 77777
		rows := make([][]any, 0, n+1)
		rows = append(rows, posHeadings)
		for i := range n {
			year := 2000 + i%20
			if i == bad {
				year = 1700
			}
			rows = append(rows, []any{"Nordhandel Retail GmbH", fmt.Sprintf("Bulk %d", i), fmt.Sprintf("K-%06d", i), year, "Udo Unique", "2015-06-01"})
		}
		data := workbook(t, rows)
		before := f.posCount(t)
		start := time.Now()
		up := f.mustUpload(t, admin, "pos", data)
		status, v, body := f.validate(t, admin, up.ImportID, posMapping)
		if status != 200 || v.Invalid != 1 || len(v.Errors) != 1 || v.Errors[0].Row != bad+2 || v.Errors[0].Loc[2] != "pos_first_year" {
			t.Fatalf("validate: %d %.500s", status, body)
		}
		t.Logf("%s: upload and validate of %d rows: %v", d.Dialect(), n, time.Since(start))
		if res := f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID)); res.Status != http.StatusUnprocessableEntity {
			t.Fatalf("commit with a bad row: %d %s", res.Status, res.Body)
		}
		if f.posCount(t) != before {
			t.Fatal("rows written")
		}

		rows[bad+1][3] = 2001
		start = time.Now()
		up = f.mustUpload(t, admin, "pos", workbook(t, rows))
		if status, v, body := f.validate(t, admin, up.ImportID, posMapping); status != 200 || v.Valid != n {
			t.Fatalf("validate: %d %.500s", status, body)
		}
		startQueue(t, f)
		res := f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID))
		if res.Status != http.StatusAccepted {
			t.Fatalf("commit: %d %s", res.Status, res.Body)
		}
		var im importAnswer
		sawProgress := false
		for deadline := time.Now().Add(5 * time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			r := f.ta.Do("GET", fmt.Sprintf("/imports/%d", up.ImportID), f.ta.Token(admin), nil)
			im = importAnswer{} // a member the answer leaves out must not keep the last value
			r.JSON(t, &im)
			if im.Progress != nil && im.Progress.Total == n {
				sawProgress = true
			}
			if im.State == "committed" && im.Progress == nil {
				break
			}
		}
		if im.State != "committed" || im.Created != n || !sawProgress {
			t.Fatalf("import: %+v (progress seen %v)", im, sawProgress)
		}
		if got := f.posCount(t); got != before+n {
			t.Fatalf("pos count %d, want %d", got, before+n)
		}
		t.Logf("%s: upload, validate and commit of %d rows: %v", d.Dialect(), n, time.Since(start))
	})
}
