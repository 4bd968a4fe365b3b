package masterdata_test

import (
	"fmt"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestCompanies: the company list in the caller's tenant, a company
// created and changed with its address in one transaction, bad input
// refused with nothing written, and customer groups' company_count.
func TestCompanies(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		f.giveRights(lead, leadB)
		de := f.firstID(`SELECT country_id FROM country WHERE country_short = 'DE'`)
		companies := f.count(`SELECT COUNT(*) FROM company`)
		addresses := f.count(`SELECT COUNT(*) FROM address`)
		f.run([]apptest.Scenario{
			{Name: "admin lists every company", As: admin, Method: "GET", Path: "/companies", Status: 200,
				Contains: []string{"Nordhandel Retail GmbH", "Südmarkt Filialen GmbH", `"pagination"`}},
			{Name: "lead lists own group's companies", As: lead, Method: "GET", Path: "/companies", Status: 200,
				Contains: []string{"Nordhandel Retail GmbH"}, Absent: []string{"Südmarkt"}},
			{Name: "no token", Method: "GET", Path: "/companies", Status: 401},
			{Name: "malformed JSON", As: admin, Method: "POST", Path: "/companies/", Body: `{"company_name": `, Status: 400},
			{Name: "not an object", As: admin, Method: "POST", Path: "/companies/", Body: `[1]`, Status: 422},
			{Name: "unknown field", As: admin, Method: "POST", Path: "/companies/", Status: 422,
				Body: map[string]any{"customergroup_id": 1, "company_name": "X", "company_shortname": "X", "colour": "red"}, Contains: []string{"colour"}},
			{Name: "wrong type", As: admin, Method: "POST", Path: "/companies/", Status: 422,
				Body: map[string]any{"customergroup_id": "one", "company_name": "X", "company_shortname": "X"}, Contains: []string{"customergroup_id"}},
			{Name: "too long shortname", As: admin, Method: "POST", Path: "/companies/", Status: 422,
				Body: map[string]any{"customergroup_id": 1, "company_name": "X", "company_shortname": "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZ"}, Contains: []string{"company_shortname"}},
			{Name: "address refused: nothing written", As: admin, Method: "POST", Path: "/companies/", Status: 422,
				Body: map[string]any{"customergroup_id": 1, "company_name": "Half GmbH", "company_shortname": "HG",
					"address": map[string]any{"address_street": "Hauptstraße", "city_zip": "10115", "city_name": "Berlin", "country_id": de}},
				Contains: []string{"address.address_house_number"}},
			{Name: "unknown zip: nothing written", As: admin, Method: "POST", Path: "/companies/", Status: 422,
				Body: map[string]any{"customergroup_id": 1, "company_name": "Half GmbH", "company_shortname": "HG",
					"address": map[string]any{"address_street": "Hauptstraße", "address_house_number": "1", "city_zip": "00000", "city_name": "Nowhere", "country_id": de}},
				Contains: []string{"address.city_zip"}},
			{Name: "lead: another group's customer group", As: lead, Method: "POST", Path: "/companies/", Status: 422,
				Body: map[string]any{"customergroup_id": 2, "company_name": "Foreign GmbH", "company_shortname": "FG"}},
		})
		if n := f.count(`SELECT COUNT(*) FROM company`); n != companies {
			t.Fatalf("refused creates wrote companies: %d, want %d", n, companies)
		}
		if n := f.count(`SELECT COUNT(*) FROM address`); n != addresses {
			t.Fatalf("refused creates wrote addresses: %d, want %d", n, addresses)
		}

		id := f.created(admin, "POST", "/companies/", map[string]any{"customergroup_id": 1, "company_name": "Neue Filiale GmbH", "company_shortname": "NFG",
			"address": map[string]any{"address_street": "Invalidenstraße", "address_house_number": "12", "city_zip": "10115", "city_name": "Berlin", "country_id": de}},
			"company_id")
		state := f.count(`SELECT COUNT(*) FROM city WHERE city_zip = '10115' AND city_name = 'Berlin' AND state = 'Berlin'`)
		if state != 1 {
			t.Fatalf("the new city's state was not looked up")
		}
		addr := f.firstID(`SELECT address_id FROM companydetails WHERE company_id = ?`, id)
		f.run([]apptest.Scenario{
			{Name: "change company and address", As: admin, Method: "PUT", Path: "/companies/", Status: 200,
				Body: map[string]any{"company_id": id, "row_version": f.version("company", id), "company_name": "Neue Filiale AG",
					"address": map[string]any{"edit": true, "address_id": addr, "row_version": f.version("address", addr), "address_house_number": "14"}},
				Contains: []string{"Neue Filiale AG", `"address_house_number":"14"`}},
			{Name: "read company with its address", As: admin, Method: "GET", Path: fmt.Sprintf("/companies/%d", id), Status: 200,
				Contains: []string{"Neue Filiale AG", `"address_house_number":"14"`, `"address":{`}},
			{Name: "read company without address", As: admin, Method: "GET", Path: "/companies/2", Status: 200,
				Contains: []string{`"data":{`}},
			{Name: "lead.b: read company of group 1 answers 404", As: leadB, Method: "GET", Path: "/companies/1", Status: 404},
			{Name: "read: not a number answers 404", As: admin, Method: "GET", Path: "/companies/x", Status: 404},
			{Name: "stale row_version", As: admin, Method: "PUT", Path: "/companies/", Status: 409,
				Body: map[string]any{"company_id": id, "row_version": 1, "company_name": "Stale"}},
			{Name: "another company's address answers 404", As: admin, Method: "PUT", Path: "/companies/", Status: 404,
				Body: map[string]any{"company_id": 1, "row_version": f.version("company", 1),
					"address": map[string]any{"edit": true, "address_id": addr, "row_version": f.version("address", addr), "address_house_number": "99"}}},
			{Name: "lead.b: company of group 1 answers 404", As: leadB, Method: "PUT", Path: "/companies/", Status: 404,
				Body: map[string]any{"company_id": 1, "row_version": f.version("company", 1), "company_name": "Taken"}},
			{Name: "lead.b: missing company answers 404", As: leadB, Method: "PUT", Path: "/companies/", Status: 404,
				Body: map[string]any{"company_id": 999999, "row_version": 1, "company_name": "Taken"}},
			{Name: "company_count", As: admin, Method: "POST", Path: "/api/", Status: 200,
				Body: map[string]any{"action": "read-rich", "entity": "customergroup", "per_page": 10}, Contains: []string{`"company_count":3`}},
		})
		if n := f.count(`SELECT COUNT(*) FROM address WHERE address_house_number = '99'`); n != 0 {
			t.Fatalf("a refused address change was written")
		}
	})
}
