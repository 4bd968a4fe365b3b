package tables_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

func TestCustomListsAndDefinitions(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		for i := 0; i < 3; i++ {
			s.fresh("bankdata", obj{"partnercompany_id": 1, "bankdata_iban": fmt.Sprintf("DE8937040044053201300%d", i)})
		}
		other := s.fresh("partnercompany", nil)
		contractA := s.fresh("contract", obj{"company_id": 1})
		contractB := s.fresh("contract", obj{"company_id": 3})
		s.fresh("taxrate", obj{"company_id": 1, "taxrate_code": "A19", "taxrate_value": 19})
		s.fresh("taxrate", obj{"company_id": 3, "taxrate_code": "B07", "taxrate_value": 7})
		labelRows(t, d, [3]string{"pos_name", "de", "Filialname"})
		e.run(t, []scenario{
			{name: "bank data of a partner", as: admin, method: "GET", path: "/partners/1/bankdata?per_page=2&order=desc", status: 200,
				want:    []string{`"bankdata_iban":"DE89370400440532013002"`, `"links":{"pagination":{"current_page":1,"last_page":2,"total":3}}`},
				notWant: []string{"DE89370400440532013000"}},
			{name: "second page", as: admin, method: "GET", path: "/partners/1/bankdata?per_page=2&page=2&order=desc", status: 200,
				want: []string{"DE89370400440532013000", `"current_page":2`}},
			{name: "keyword", as: admin, method: "GET", path: "/partners/1/bankdata?keyword=2013001", status: 200,
				want: []string{"DE89370400440532013001", `"total":1`}},
			{name: "another partner has none", as: admin, method: "GET", path: fmt.Sprintf("/partners/%d/bankdata", other), status: 200,
				want: []string{`"data":[]`, `"last_page":1,"total":0`}},
			{name: "bad order", as: admin, method: "GET", path: "/partners/1/bankdata?order=sideways", status: 422},
			{name: "partner user sees own bank data", as: partner, method: "GET", path: "/partners/1/bankdata", status: 200,
				want: []string{`"total":3`}},
			{name: "client user cannot see a partner", as: lead, method: "GET", path: "/partners/1/bankdata", status: 404},
			{name: "tax rates of a contract's company", as: admin, method: "GET", path: fmt.Sprintf("/contracts/tax-rates?contract_id=%d", contractA), status: 200,
				want: []string{`"taxrate_code":"A19"`, `"taxrate_value":19`}, notWant: []string{"B07"}},
			{name: "tax rates of a company", as: admin, method: "GET", path: "/contracts/tax-rates?company_id=3", status: 200,
				want: []string{"B07"}, notWant: []string{"A19"}},
			{name: "tax rates of an invisible contract", as: lead, method: "GET", path: fmt.Sprintf("/contracts/tax-rates?contract_id=%d", contractB), status: 404},
			{name: "tax rates are admin only", as: teamLead, method: "GET", path: "/contracts/tax-rates", status: 403},
			{name: "definitions", as: lead, method: "GET", path: "/api/definitions/pos?lang=de", status: 200,
				want: []string{`"table":"pos"`, `"attribute_i18n":"Filialname"`, `"relations":[`, `"api":"pos_location_rel"`}},
			{name: "a governed tab names its own subject", as: lead, method: "GET", path: "/api/definitions/company", status: 200,
				want: []string{`"api":"company_tax_rates_rel"`, `"subject":"company_tax_rates_rel"`}},
			{name: "an ordinary tab names none", as: lead, method: "GET", path: "/api/definitions/tag", status: 200,
				want: []string{`"api":"tag_pos_rel"`}, notWant: []string{`"subject":"tag_pos_rel"`}},
			{name: "definitions of an unknown table", as: lead, method: "GET", path: "/api/definitions/nope", status: 404},
			{name: "read answers definitions", as: admin, body: obj{"action": "read", "entity": "contract", "id": contractA}, status: 200,
				want: []string{`"attributes":[`, `"relations":[{"name":"invoice"`}},
		})
	})
}

func TestViews(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		view := func(name, shared string, role any) obj {
			return obj{"entity": "pos", "name": name, "shared": shared, "role_id": role, "settings": obj{
				"filter": []obj{{"field": "pos_name", "op": "contains", "value": "Nord"}}, "filter_all": "ab",
				"order_by": "company_id__label", "order_dir": "DESC", "columns": []string{"pos_name", "company_id"}, "per_page": 50}}
		}
		mine := e.Do("POST", "/api/views", e.token(teamLead), view("Meine Filialen", "private", nil))
		if mine.Status != http.StatusCreated {
			t.Fatalf("save view: %d %s", mine.Status, mine.Body)
		}
		var saved struct {
			Data struct {
				ID int64 `json:"savedview_id"`
			}
		}
		mine.JSON(t, &saved)
		shared := e.Do("POST", "/api/views", e.token(admin), view("Für Teamleiter", "role", 2))
		all := e.Do("POST", "/api/views", e.token(admin), view("Für alle", "all", nil))
		if shared.Status != http.StatusCreated || all.Status != http.StatusCreated {
			t.Fatalf("share views: %d %s / %d %s", shared.Status, shared.Body, all.Status, all.Body)
		}
		path := fmt.Sprintf("/api/views/%d", saved.Data.ID)
		e.run(t, []scenario{
			{name: "own, role and all", as: teamLead, method: "GET", path: "/api/views?entity=pos", status: 200,
				want: []string{"Meine Filialen", "Für Teamleiter", "Für alle", `"mine":true`, `"columns":["pos_name","company_id"]`}},
			{name: "others see shared with all only", as: teamMember, method: "GET", path: "/api/views?entity=pos", status: 200,
				want: []string{"Für alle"}, notWant: []string{"Meine Filialen", "Für Teamleiter"}},
			{name: "sharing needs the right", as: teamLead, method: "POST", path: "/api/views", body: view("Geteilt", "all", nil), status: 403,
				want: []string{"You may not share views"}},
			{name: "role sharing needs a role", as: admin, method: "POST", path: "/api/views", body: view("Ohne Rolle", "role", nil), status: 422},
			{name: "bad filter refused", as: teamLead, method: "POST", path: "/api/views", status: 422,
				body: obj{"entity": "pos", "name": "x", "settings": obj{"filter": []obj{{"field": "nope", "op": "eq", "value": 1}}}}},
			{name: "bad column refused", as: teamLead, method: "POST", path: "/api/views", status: 422,
				body: obj{"entity": "pos", "name": "x", "settings": obj{"columns": []string{"user_password"}}}},
			{name: "views of a table the user may not list", as: lead, method: "POST", path: "/api/views", status: 403,
				body: obj{"entity": "invoice", "name": "x"}},
			{name: "no name", as: teamLead, method: "POST", path: "/api/views", status: 422, body: obj{"entity": "pos", "name": " "}},
			{name: "rename own", as: teamLead, method: "PUT", path: path, status: 200, body: view("Umbenannt", "private", nil),
				want: []string{`"name":"Umbenannt"`, `"row_version":2`}},
			{name: "others cannot see it", as: teamMember, method: "PUT", path: path, status: 404, body: view("x", "private", nil)},
			{name: "shared view is not theirs to change", as: teamMember, method: "DELETE", path: "/api/views/3", status: 403},
			{name: "admin may delete any", as: admin, method: "DELETE", path: path, status: 204},
			{name: "gone", as: teamLead, method: "DELETE", path: path, status: 404},
		})
	})
}

func TestExport(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		company := s.fresh("company", obj{"customergroup_id": 1, "company_name": "Export GmbH"})
		for _, name := range []string{"=HYPERLINK(\"http://x\")", "+49 Hotline", "-minus", "@at", "Quote \"me\", please", "Plain"} {
			s.fresh("pos", obj{"company_id": company, "pos_name": name})
		}
		s.fresh("pos", obj{"company_id": 3, "pos_name": "Südmarkt Geheim"})
		export := func(as, format string) apptest.Response {
			return e.api(as, obj{"action": "export", "entity": "pos", "format": format, "order_by": "pos_name",
				"filter":  obj{"or": []obj{{"field": "company_id", "op": "eq", "value": company}, {"field": "pos_name", "op": "eq", "value": "Südmarkt Geheim"}}},
				"columns": []string{"pos_name", "company_id", "pos_first_year", "pos_opening_date"}})
		}
		res := export(lead, "csv")
		if res.Status != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Disposition"), `attachment; filename="pos-`) ||
			!strings.HasSuffix(res.Header.Get("Content-Disposition"), `.csv"`) {
			t.Fatalf("csv: %d %v %s", res.Status, res.Header, res.Body)
		}
		if !bytes.HasPrefix(res.Body, []byte("\xef\xbb\xbf")) {
			t.Fatalf("no byte order mark")
		}
		rows, err := csv.NewReader(bytes.NewReader(res.Body[3:])).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows[0]) != 4 || rows[0][1] != "Company" {
			t.Errorf("header %v", rows[0])
		}
		got := map[string][]string{}
		for _, r := range rows[1:] {
			got[r[0]] = r
		}
		for _, want := range []string{`'=HYPERLINK("http://x")`, "'+49 Hotline", "'-minus", "'@at", `Quote "me", please`, "Plain"} {
			r, ok := got[want]
			if !ok {
				t.Errorf("csv lacks %q: %v", want, rows)
				continue
			}
			if r[1] != "Export GmbH" {
				t.Errorf("company exported as %q, want its label", r[1])
			}
		}
		if strings.Contains(string(res.Body), "Südmarkt") {
			t.Errorf("export leaks another customer group's row")
		}
		if plain := export(lead, "csv"); !strings.Contains(string(plain.Body), "Plain") {
			t.Errorf("a second export differs")
		}
		if want := 7; len(rows) != want {
			t.Errorf("csv has %d lines, want %d", len(rows), want)
		}
		x := export(admin, "xlsx")
		if x.Status != http.StatusOK || !strings.HasSuffix(x.Header.Get("Content-Disposition"), `.xlsx"`) {
			t.Fatalf("xlsx: %d %s", x.Status, x.Body)
		}
		f, err := excelize.OpenReader(bytes.NewReader(x.Body))
		if err != nil {
			t.Fatal(err)
		}
		sheet, err := f.GetRows(f.GetSheetName(0))
		if err != nil {
			t.Fatal(err)
		}
		if len(sheet) != 8 || sheet[1][0] != "'+49 Hotline" {
			t.Errorf("xlsx rows %v", sheet)
		}
		e.run(t, []scenario{
			{name: "bad format", as: admin, body: obj{"action": "export", "entity": "pos", "format": "pdf"}, status: 422},
			{name: "no list right", as: lead, body: obj{"action": "export", "entity": "invoice", "format": "csv"}, status: 403},
			{name: "filter applies", as: admin, body: obj{"action": "export", "entity": "pos", "format": "csv", "columns": []string{"pos_name"},
				"filter": []obj{{"field": "pos_name", "op": "eq", "value": "Plain"}}}, status: 200, want: []string{"Plain"}, notWant: []string{"minus"}},
		})
	})
}
