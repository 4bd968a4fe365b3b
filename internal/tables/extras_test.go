package tables_test

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"
	"slices"
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
		ibans := make([]string, 3)
		for i := range ibans {
			ibans[i] = sampleIBAN(i)
			s.fresh("bankdata", obj{"partnercompany_id": 1, "bankdata_iban": ibans[i]})
		}
		desc := slices.Clone(ibans)
		slices.Sort(desc)
		slices.Reverse(desc)
		other := s.fresh("partnercompany", nil)
		contractA := s.fresh("contract", obj{"company_id": 1})
		contractB := s.fresh("contract", obj{"company_id": 3})
		s.fresh("taxrate", obj{"company_id": 1, "taxrate_code": "A19", "taxrate_value": 19})
		s.fresh("taxrate", obj{"company_id": 3, "taxrate_code": "B07", "taxrate_value": 7})
		labelRows(t, e, [3]string{"pos_name", "de", "Filialname"})
		e.run(t, []apptest.Scenario{
			{Name: "bank data of a partner", As: admin, Method: "GET", Path: "/partners/1/bankdata?per_page=2&order=desc", Status: 200,
				Contains: []string{`"bankdata_iban":"` + desc[0] + `"`, `"links":{"pagination":{"current_page":1,"last_page":2,"total":3}}`},
				Absent:   []string{desc[2]}},
			{Name: "second page", As: admin, Method: "GET", Path: "/partners/1/bankdata?per_page=2&page=2&order=desc", Status: 200,
				Contains: []string{desc[2], `"current_page":2`}},
			{Name: "keyword", As: admin, Method: "GET", Path: "/partners/1/bankdata?keyword=0000000001", Status: 200,
				Contains: []string{ibans[1], `"total":1`}},
			{Name: "another partner has none", As: admin, Method: "GET", Path: fmt.Sprintf("/partners/%d/bankdata", other), Status: 200,
				Contains: []string{`"data":[]`, `"last_page":1,"total":0`}},
			{Name: "bad order", As: admin, Method: "GET", Path: "/partners/1/bankdata?order=sideways", Status: 422},
			{Name: "partner user sees own bank data", As: partner, Method: "GET", Path: "/partners/1/bankdata", Status: 200,
				Contains: []string{`"total":3`}},
			{Name: "client user cannot see a partner of another group's contracts", As: leadB, Method: "GET", Path: "/partners/1/bankdata", Status: 404},
			// The demo's Rheinland Immobilien manages Nordhandel contracts: its
			// lead reads the partner (decision 0060), never its bank data.
			{Name: "client user reads its manager, not its bank data", As: lead, Method: "GET", Path: "/partners/1/bankdata", Status: 200,
				Contains: []string{`"total":0`}},
			{Name: "tax rates of a contract's company", As: admin, Method: "GET", Path: fmt.Sprintf("/contracts/tax-rates?contract_id=%d", contractA), Status: 200,
				Contains: []string{`"taxrate_code":"A19"`, `"taxrate_value":19`}, Absent: []string{"B07"}},
			{Name: "tax rates of a company", As: admin, Method: "GET", Path: "/contracts/tax-rates?company_id=3", Status: 200,
				Contains: []string{"B07"}, Absent: []string{"A19"}},
			{Name: "tax rates of an invisible contract", As: lead, Method: "GET", Path: fmt.Sprintf("/contracts/tax-rates?contract_id=%d", contractB), Status: 404},
			{Name: "tax rates are admin only", As: teamLead, Method: "GET", Path: "/contracts/tax-rates", Status: 403},
			{Name: "definitions", As: lead, Method: "GET", Path: "/api/definitions/pos?lang=de", Status: 200,
				Contains: []string{`"table":"pos"`, `"attribute_i18n":"Filialname"`, `"relations":[`, `"api":"pos_location_rel"`}},
			{Name: "a governed tab names its own subject", As: lead, Method: "GET", Path: "/api/definitions/company", Status: 200,
				Contains: []string{`"api":"company_tax_rates_rel"`, `"subject":"company_tax_rates_rel"`}},
			{Name: "an ordinary tab names none", As: lead, Method: "GET", Path: "/api/definitions/tag", Status: 200,
				Contains: []string{`"api":"tag_pos_rel"`}, Absent: []string{`"subject":"tag_pos_rel"`}},
			{Name: "definitions of an unknown table", As: lead, Method: "GET", Path: "/api/definitions/nope", Status: 404},
			{Name: "read answers definitions", As: admin, Body: obj{"action": "read", "entity": "contract", "id": contractA}, Status: 200,
				Contains: []string{`"attributes":[`, `"relations":[{"name":"invoice"`}},
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
		e.run(t, []apptest.Scenario{
			{Name: "own, role and all", As: teamLead, Method: "GET", Path: "/api/views?entity=pos", Status: 200,
				Contains: []string{"Meine Filialen", "Für Teamleiter", "Für alle", `"mine":true`, `"columns":["pos_name","company_id"]`}},
			{Name: "others see shared with all only", As: teamMember, Method: "GET", Path: "/api/views?entity=pos", Status: 200,
				Contains: []string{"Für alle"}, Absent: []string{"Meine Filialen", "Für Teamleiter"}},
			{Name: "sharing needs the right", As: teamLead, Method: "POST", Path: "/api/views", Body: view("Geteilt", "all", nil), Status: 403,
				Contains: []string{"You may not share views"}},
			{Name: "role sharing needs a role", As: admin, Method: "POST", Path: "/api/views", Body: view("Ohne Rolle", "role", nil), Status: 422},
			{Name: "bad filter refused", As: teamLead, Method: "POST", Path: "/api/views", Status: 422,
				Body: obj{"entity": "pos", "name": "x", "settings": obj{"filter": []obj{{"field": "nope", "op": "eq", "value": 1}}}}},
			{Name: "bad column refused", As: teamLead, Method: "POST", Path: "/api/views", Status: 422,
				Body: obj{"entity": "pos", "name": "x", "settings": obj{"columns": []string{"user_password"}}}},
			{Name: "views of a table the user may not list", As: lead, Method: "POST", Path: "/api/views", Status: 403,
				Body: obj{"entity": "invoice", "name": "x"}},
			{Name: "no name", As: teamLead, Method: "POST", Path: "/api/views", Status: 422, Body: obj{"entity": "pos", "name": " "}},
			{Name: "rename own", As: teamLead, Method: "PUT", Path: path, Status: 200, Body: view("Umbenannt", "private", nil),
				Contains: []string{`"name":"Umbenannt"`, `"row_version":2`}},
			{Name: "others cannot see it", As: teamMember, Method: "PUT", Path: path, Status: 404, Body: view("x", "private", nil)},
			{Name: "shared view is not theirs to change", As: teamMember, Method: "DELETE", Path: "/api/views/3", Status: 403},
			{Name: "admin may delete any", As: admin, Method: "DELETE", Path: path, Status: 204},
			{Name: "gone", As: teamLead, Method: "DELETE", Path: path, Status: 404},
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
		e.run(t, []apptest.Scenario{
			{Name: "bad format", As: admin, Body: obj{"action": "export", "entity": "pos", "format": "pdf"}, Status: 422},
			{Name: "no list right", As: lead, Body: obj{"action": "export", "entity": "invoice", "format": "csv"}, Status: 403},
			{Name: "filter applies", As: admin, Body: obj{"action": "export", "entity": "pos", "format": "csv", "columns": []string{"pos_name"},
				"filter": []obj{{"field": "pos_name", "op": "eq", "value": "Plain"}}}, Status: 200, Contains: []string{"Plain"}, Absent: []string{"minus"}},
		})
	})
}
