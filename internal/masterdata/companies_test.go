package masterdata_test

import (
	"fmt"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
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
		f.run([]scenario{
			{name: "admin lists every company", as: admin, method: "GET", path: "/companies", status: 200,
				want: []string{"Nordhandel Retail GmbH", "Südmarkt Filialen GmbH", `"pagination"`}},
			{name: "lead lists own group's companies", as: lead, method: "GET", path: "/companies", status: 200,
				want: []string{"Nordhandel Retail GmbH"}, not: []string{"Südmarkt"}},
			{name: "no token", method: "GET", path: "/companies", status: 401},
			{name: "malformed JSON", as: admin, method: "POST", path: "/companies/", body: `{"company_name": `, status: 400},
			{name: "not an object", as: admin, method: "POST", path: "/companies/", body: `[1]`, status: 422},
			{name: "unknown field", as: admin, method: "POST", path: "/companies/", status: 422,
				body: map[string]any{"customergroup_id": 1, "company_name": "X", "company_shortname": "X", "colour": "red"}, want: []string{"colour"}},
			{name: "wrong type", as: admin, method: "POST", path: "/companies/", status: 422,
				body: map[string]any{"customergroup_id": "one", "company_name": "X", "company_shortname": "X"}, want: []string{"customergroup_id"}},
			{name: "too long shortname", as: admin, method: "POST", path: "/companies/", status: 422,
				body: map[string]any{"customergroup_id": 1, "company_name": "X", "company_shortname": "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUVWXYZ"}, want: []string{"company_shortname"}},
			{name: "address refused: nothing written", as: admin, method: "POST", path: "/companies/", status: 422,
				body: map[string]any{"customergroup_id": 1, "company_name": "Half GmbH", "company_shortname": "HG",
					"address": map[string]any{"address_street": "Hauptstraße", "city_zip": "10115", "city_name": "Berlin", "country_id": de}},
				want: []string{"address.address_house_number"}},
			{name: "unknown zip: nothing written", as: admin, method: "POST", path: "/companies/", status: 422,
				body: map[string]any{"customergroup_id": 1, "company_name": "Half GmbH", "company_shortname": "HG",
					"address": map[string]any{"address_street": "Hauptstraße", "address_house_number": "1", "city_zip": "00000", "city_name": "Nowhere", "country_id": de}},
				want: []string{"address.city_zip"}},
			{name: "lead: another group's customer group", as: lead, method: "POST", path: "/companies/", status: 422,
				body: map[string]any{"customergroup_id": 2, "company_name": "Foreign GmbH", "company_shortname": "FG"}},
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
		f.run([]scenario{
			{name: "change company and address", as: admin, method: "PUT", path: "/companies/", status: 200,
				body: map[string]any{"company_id": id, "row_version": f.version("company", id), "company_name": "Neue Filiale AG",
					"address": map[string]any{"edit": true, "address_id": addr, "row_version": f.version("address", addr), "address_house_number": "14"}},
				want: []string{"Neue Filiale AG", `"address_house_number":"14"`}},
			{name: "stale row_version", as: admin, method: "PUT", path: "/companies/", status: 409,
				body: map[string]any{"company_id": id, "row_version": 1, "company_name": "Stale"}},
			{name: "another company's address answers 404", as: admin, method: "PUT", path: "/companies/", status: 404,
				body: map[string]any{"company_id": 1, "row_version": f.version("company", 1),
					"address": map[string]any{"edit": true, "address_id": addr, "row_version": f.version("address", addr), "address_house_number": "99"}}},
			{name: "lead.b: company of group 1 answers 404", as: leadB, method: "PUT", path: "/companies/", status: 404,
				body: map[string]any{"company_id": 1, "row_version": f.version("company", 1), "company_name": "Taken"}},
			{name: "lead.b: missing company answers 404", as: leadB, method: "PUT", path: "/companies/", status: 404,
				body: map[string]any{"company_id": 999999, "row_version": 1, "company_name": "Taken"}},
			{name: "company_count", as: admin, method: "POST", path: "/api/", status: 200,
				body: map[string]any{"action": "read-rich", "entity": "customergroup", "per_page": 10}, want: []string{`"company_count":3`}},
		})
		if n := f.count(`SELECT COUNT(*) FROM address WHERE address_house_number = '99'`); n != 0 {
			t.Fatalf("a refused address change was written")
		}
		_ = fmt.Sprint
	})
}
