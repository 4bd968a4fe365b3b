package masterdata_test

import (
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// TestTaxRates: administrators only (403 for a team lead and an external
// lead even with every table right), 404 for a missing company or a tax
// rate of another company, all-or-nothing deletes.
func TestTaxRates(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		f.giveRights(teamLead, lead)
		rate := f.created(admin, "POST", "/companies/1/tax-rates", map[string]any{"taxrate_code": "V19", "taxrate_value": 19}, "taxrate_id")
		other := f.created(admin, "POST", "/companies/3/tax-rates", map[string]any{"taxrate_code": "V19", "taxrate_value": 19}, "taxrate_id")
		f.run([]scenario{
			{name: "admin lists", as: admin, method: "GET", path: "/companies/1/tax-rates", status: 200, want: []string{`"taxrate_code":"V19"`}},
			{name: "team lead refused", as: teamLead, method: "GET", path: "/companies/1/tax-rates", status: 403},
			{name: "team lead may not add", as: teamLead, method: "POST", path: "/companies/1/tax-rates", body: map[string]any{"taxrate_code": "V7", "taxrate_value": 7}, status: 403},
			{name: "lead refused", as: lead, method: "DELETE", path: "/companies/1/tax-rates", body: []int64{rate}, status: 403},
			{name: "missing company", as: admin, method: "GET", path: "/companies/999999/tax-rates", status: 404},
			{name: "duplicate code", as: admin, method: "POST", path: "/companies/1/tax-rates", body: map[string]any{"taxrate_code": "V19", "taxrate_value": 19}, status: 422},
			{name: "value over 100", as: admin, method: "POST", path: "/companies/1/tax-rates", body: map[string]any{"taxrate_code": "X", "taxrate_value": 190}, status: 422,
				want: []string{"taxrate_value"}},
			{name: "another company in the body", as: admin, method: "POST", path: "/companies/1/tax-rates", body: map[string]any{"company_id": 3, "taxrate_code": "X", "taxrate_value": 1}, status: 422},
			{name: "update", as: admin, method: "PUT", path: jsonPath("/companies/1/tax-rates/", rate), body: map[string]any{"row_version": 1, "taxrate_value": 16}, status: 200,
				want: []string{`"taxrate_value":16`}},
			{name: "update without row_version", as: admin, method: "PUT", path: jsonPath("/companies/1/tax-rates/", rate), body: map[string]any{"taxrate_value": 16}, status: 422},
			{name: "another company's tax rate", as: admin, method: "PUT", path: jsonPath("/companies/1/tax-rates/", other), body: map[string]any{"row_version": 1, "taxrate_value": 5}, status: 404},
			{name: "delete with a foreign id deletes nothing", as: admin, method: "DELETE", path: "/companies/1/tax-rates", body: []int64{rate, other}, status: 404},
			{name: "delete needs ids", as: admin, method: "DELETE", path: "/companies/1/tax-rates", body: []int64{}, status: 422},
			{name: "delete", as: admin, method: "DELETE", path: "/companies/1/tax-rates", body: map[string]any{"ids": []int64{rate}}, status: 200},
		})
		if n := f.count(`SELECT COUNT(*) FROM taxrate WHERE taxrate_id IN (?, ?)`, rate, other); n != 1 {
			t.Fatalf("tax rates left: %d, want 1 (the other company's)", n)
		}
	})
}

func jsonPath(prefix string, id int64) string { return prefix + jsonOf(id) }

// TestPartners: partner companies with an existing or a new group, bank
// data with checked IBANs (masked for who may not edit bank data), and
// creditor numbers unique per company.
func TestPartners(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		f.giveRights(lead, leadB, partner)
		groups := f.count(`SELECT COUNT(*) FROM partnergroup`)
		f.run([]scenario{
			{name: "shortname over 10", as: admin, method: "POST", path: "/partners/new", status: 422, want: []string{"partnercompany_shortname"},
				body: map[string]any{"partnercompany_name": "Neu GmbH", "partnercompany_shortname": "ELEVENCHARS", "partnergroup": map[string]any{"partnergroup_name": "Neue Gruppe"}}},
			{name: "no group", as: admin, method: "POST", path: "/partners/new", status: 422,
				body: map[string]any{"partnercompany_name": "Neu GmbH", "partnercompany_shortname": "NEU"}},
			{name: "group not an object", as: admin, method: "POST", path: "/partners/new", status: 422,
				body: map[string]any{"partnercompany_name": "Neu GmbH", "partnercompany_shortname": "NEU", "partnergroup": 1}},
		})
		if n := f.count(`SELECT COUNT(*) FROM partnergroup`); n != groups {
			t.Fatalf("a refused partner left its new group behind")
		}
		res := f.do(admin, "POST", "/partners/new", map[string]any{"partnercompany_name": "Neu GmbH", "partnercompany_shortname": "NEU",
			"partnergroup": map[string]any{"partnergroup_name": "Neue Gruppe"}})
		if res.Status != 201 {
			t.Fatalf("new partner in a new group: %d %s", res.Status, res.Body)
		}
		p2 := f.firstID(`SELECT MAX(partnercompany_id) FROM partnercompany`)
		f.run([]scenario{
			{name: "existing group", as: admin, method: "POST", path: "/partners/new", status: 201, want: []string{"Rheinland Immobilien Gruppe"},
				body: map[string]any{"partnercompany_name": "Zweit GmbH", "partnercompany_shortname": "ZWEIT", "partnergroup": map[string]any{"partnergroup_id": 1}}},
			{name: "rename", as: admin, method: "PUT", path: "/partners/new", status: 200, want: []string{"Neu AG"},
				body: map[string]any{"partnercompany_id": p2, "row_version": 1, "partnercompany_name": "Neu AG"}},
			{name: "partner user: another group's partner answers 404", as: partner, method: "PUT", path: "/partners/new", status: 404,
				body: map[string]any{"partnercompany_id": p2, "row_version": 1, "partnercompany_name": "Taken"}},
			{name: "bad IBAN check digits", as: admin, method: "POST", path: "/partners/1/bankdata", status: 422, want: []string{"bankdata_iban", "check digits"},
				body: map[string]any{"bankdata_iban": "DE88370400440532013000"}},
			{name: "bad IBAN length", as: admin, method: "POST", path: "/partners/1/bankdata", status: 422, want: []string{"bankdata_iban"},
				body: map[string]any{"bankdata_iban": "DE8937040044053201300"}},
			{name: "bad BIC", as: admin, method: "POST", path: "/partners/1/bankdata", status: 422, want: []string{"bankdata_bic"},
				body: map[string]any{"bankdata_iban": "DE89370400440532013000", "bankdata_bic": "12"}},
			{name: "good IBAN with spaces", as: admin, method: "POST", path: "/partners/1/bankdata", status: 201, want: []string{`"bankdata_iban":"DE89370400440532013000"`},
				body: map[string]any{"bankdata_iban": "de89 3704 0044 0532 0130 00", "bankdata_bic": "COBADEFFXXX"}},
			{name: "bad IBAN country", as: admin, method: "POST", path: "/partners/1/bankdata", status: 422, want: []string{"bankdata_iban"},
				body: map[string]any{"bankdata_iban": "ZZ89370400440532013000"}},
			{name: "bank data of a missing partner", as: admin, method: "POST", path: "/partners/999999/bankdata", status: 404,
				body: map[string]any{"bankdata_iban": "DE89370400440532013000"}},
			{name: "partner user: bank data of another group's partner", as: partner, method: "GET", path: jsonPath("/partners/", p2) + "/bankdata", status: 404},
			{name: "lead sees no partner", as: lead, method: "GET", path: "/partners/1/bankdata", status: 404},
		})
		bank := f.firstID(`SELECT MAX(bankdata_id) FROM bankdata`)
		f.run([]scenario{
			{name: "partner user with rights sees the IBAN", as: partner, method: "GET", path: "/partners/1/bankdata", status: 200, want: []string{"DE89370400440532013000"}},
			{name: "update with a bad IBAN", as: admin, method: "PUT", path: "/partners/1/bankdata/" + jsonOf(bank), status: 422,
				body: map[string]any{"row_version": 1, "bankdata_iban": "DE88370400440532013000"}},
			{name: "update bank data", as: admin, method: "PUT", path: "/partners/1/bankdata/" + jsonOf(bank), status: 200, want: []string{"Commerzbank"},
				body: map[string]any{"row_version": 1, "bankdata_bank_name": "Commerzbank"}},
			{name: "bank data of another partner", as: admin, method: "PUT", path: jsonPath("/partners/", p2) + "/bankdata/" + jsonOf(bank), status: 404,
				body: map[string]any{"row_version": 2, "bankdata_bank_name": "X"}},
		})
		// Without the update right on bank data, the IBAN is masked.
		f.exec(`UPDATE user_tablegroup SET crud_u = 0 WHERE user_id = (SELECT user_id FROM users WHERE user_email = ?)`, partner)
		f.run([]scenario{
			{name: "masked IBAN", as: partner, method: "GET", path: "/partners/1/bankdata", status: 200, want: []string{"DE89**************3000"},
				not: []string{"DE89370400440532013000"}},
		})
		f.run([]scenario{
			{name: "creditor number", as: admin, method: "POST", path: "/partners/1/kreditornumber", status: 201, want: []string{`"kreditornumber_number":"K-100"`},
				body: map[string]any{"company_id": 1, "kreditornumber_number": "K-100"}},
			{name: "same number, same company", as: admin, method: "POST", path: jsonPath("/partners/", p2) + "/kreditornumber", status: 422,
				want: []string{"kreditornumber_number"}, body: map[string]any{"company_id": 1, "kreditornumber_number": "K-100"}},
			{name: "same number, other company", as: admin, method: "POST", path: jsonPath("/partners/", p2) + "/kreditornumber", status: 201,
				body: map[string]any{"company_id": 3, "kreditornumber_number": "K-100"}},
			{name: "company wrong type", as: admin, method: "POST", path: "/partners/1/kreditornumber", status: 422,
				body: map[string]any{"company_id": "x", "kreditornumber_number": "K-1"}},
		})
		k := f.firstID(`SELECT MIN(kreditornumber_id) FROM kreditornumber`)
		f.run([]scenario{
			{name: "change creditor number", as: admin, method: "PUT", path: "/partners/1/kreditornumber/" + jsonOf(k), status: 200, want: []string{"K-101"},
				body: map[string]any{"row_version": 1, "kreditornumber_number": "K-101"}},
			{name: "contacts", as: admin, method: "GET", path: "/contacts", status: 200, want: []string{`"data"`}},
			{name: "contacts of a partner", as: admin, method: "GET", path: "/contacts?partnercompany_id=1", status: 200},
			{name: "contacts of a missing partner", as: admin, method: "GET", path: "/contacts?partnercompany_id=999999", status: 404},
			{name: "contacts: bad id", as: admin, method: "GET", path: "/contacts?partnercompany_id=x", status: 422},
		})
	})
}

// TestPosAreasLocations: points of sale created with the default internal
// id and changed, DELETE /pos removing only the named links, areas and
// their service objects, locations with a new address whose state is
// looked up, partner companies over time, and the zip lookup.
func TestPosAreasLocations(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		f.giveRights(lead, leadB)
		f.exec(`INSERT INTO access (access_kind, access_subject, access_action, role_code, access_teams, access_options)
			VALUES ('table', 'pos_area_rel', 'update', 'lead', '', '')`)
		contact := f.firstID(`SELECT MIN(contactperson_id) FROM contactperson WHERE company_id = 1`)
		posBody := map[string]any{"company_id": 1, "pos_name": "Filiale Mitte", "pos_branchnumber": "F-900", "pos_first_year": 2024,
			"pos_opening_date": "2024-03-01", "contactperson_id": contact}
		pos := f.created(admin, "POST", "/pos", posBody, "pos_id")
		if n := f.count(`SELECT pos_internal_id FROM pos WHERE pos_id = ?`, pos); n != 56 {
			t.Fatalf("pos_internal_id %d, want 56", n)
		}
		posB := f.firstID(`SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 2`)
		posA := f.firstID(`SELECT MIN(p.pos_id) FROM pos_area pa JOIN pos p ON p.pos_id = pa.pos_id JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 1`)
		area := f.firstID(`SELECT MIN(area_id) FROM pos_area WHERE pos_id = ?`, posA)
		areas := f.count(`SELECT COUNT(*) FROM area`)
		f.exec(`INSERT INTO serviceobjecttype (serviceobjecttype_name) VALUES ('Aufzug')`)
		soType := f.firstID(`SELECT MAX(serviceobjecttype_id) FROM serviceobjecttype`)
		soName := "Rolltreppe-Test"
		f.exec(`INSERT INTO serviceobject (serviceobject_name, serviceobjecttype_id) VALUES (?, ?)`, soName, soType)
		f.exec(`INSERT INTO area_serviceobject (area_id, serviceobject_id) SELECT ?, MAX(serviceobject_id) FROM serviceobject`, area)
		links := f.count(`SELECT COUNT(*) FROM pos_area WHERE pos_id = ?`, posA)
		f.run([]scenario{
			{name: "lead.b: pos in group 1's company", as: leadB, method: "POST", path: "/pos", body: posBody, status: 422},
			{name: "year out of range", as: admin, method: "POST", path: "/pos", status: 422, want: []string{"pos_first_year"},
				body: map[string]any{"company_id": 1, "pos_name": "X", "pos_branchnumber": "X", "pos_first_year": 1700, "pos_opening_date": "2024-03-01", "contactperson_id": contact}},
			{name: "update", as: admin, method: "PUT", path: "/pos", status: 200, want: []string{"Filiale Zentrum"},
				body: map[string]any{"pos_id": pos, "row_version": 1, "pos_name": "Filiale Zentrum"}},
			{name: "update without pos_id", as: admin, method: "PUT", path: "/pos", status: 422, body: map[string]any{"row_version": 1, "pos_name": "X"}},
			{name: "lead.b: update group 1's pos", as: leadB, method: "PUT", path: "/pos", status: 404, body: map[string]any{"pos_id": pos, "row_version": 2, "pos_name": "X"}},
			{name: "lead.b: delete links of group 1's pos", as: leadB, method: "DELETE", path: "/pos", status: 404, body: map[string]any{"pos_id": posA, "area_ids": []int64{area}}},
			{name: "delete without lists", as: admin, method: "DELETE", path: "/pos", status: 422, body: map[string]any{"pos_id": posA}},
			{name: "delete unknown member", as: admin, method: "DELETE", path: "/pos", status: 422, body: map[string]any{"pos_id": posA, "user_ids": []int64{1}}},
			{name: "delete a link", as: admin, method: "DELETE", path: "/pos", status: 200, body: map[string]any{"pos_id": posA, "area_ids": []int64{area}}},
			{name: "delete it again", as: admin, method: "DELETE", path: "/pos", status: 404, body: map[string]any{"pos_id": posA, "area_ids": []int64{area}}},
			{name: "lead lists own areas", as: lead, method: "GET", path: "/areas", status: 200, want: []string{`"area_id"`}},
			{name: "service objects of areas", as: admin, method: "GET", path: "/areas/serviceobjects/list", status: 200, want: []string{`"pagination"`, `"serviceobject_name"`}},
			{name: "lead.b: no service object of group 1", as: leadB, method: "GET", path: "/areas/serviceobjects/list?keyword=" + soName, status: 200, want: []string{`"total":0`}},
			{name: "lead: own service object", as: lead, method: "GET", path: "/areas/serviceobjects/list?keyword=" + soName, status: 200, want: []string{`"total":1`}},
			{name: "lead.b: pos B visible", as: leadB, method: "PUT", path: "/pos", status: 200, body: map[string]any{"pos_id": posB, "row_version": f.version("pos", posB)}},
		})
		if f.count(`SELECT COUNT(*) FROM area`) != areas || f.count(`SELECT COUNT(*) FROM pos_area WHERE pos_id = ?`, posA) != links-1 {
			t.Fatalf("DELETE /pos removed more than the named link")
		}

		de := f.firstID(`SELECT country_id FROM country WHERE country_short = 'DE'`)
		ltype := f.firstID(`SELECT MIN(locationtype_id) FROM locationtype`)
		locBody := map[string]any{"location_name": "Zentrum Ost", "locationtype_id": ltype, "company_id": 1,
			"address": map[string]any{"address_street": "Marktplatz", "address_house_number": "3", "city_zip": "80331", "city_name": "München-Test", "country_id": de}}
		res := f.do(lead, "POST", "/locations", locBody)
		if res.Status != 201 {
			t.Fatalf("lead creates a location: %d %s", res.Status, res.Body)
		}
		loc := f.firstID(`SELECT MAX(location_id) FROM location`)
		f.run([]scenario{
			{name: "the state is looked up", as: lead, method: "GET", path: "/locations?per_page=100", status: 200, want: []string{"Zentrum Ost", "Bayern"}},
			{name: "locations page by 10", as: admin, method: "GET", path: "/locations", status: 200, want: []string{`"last_page"`}},
			{name: "lead.b: location of group 1", as: leadB, method: "GET", path: jsonPath("/locations/", loc) + "/partnercompanies", status: 404},
			{name: "lead.b: change location of group 1", as: leadB, method: "PUT", path: "/locations", status: 404,
				body: map[string]any{"location_id": loc, "row_version": 1, "location_name": "X"}},
			{name: "lead.b: new location in group 1's company", as: leadB, method: "POST", path: "/locations", status: 422, body: locBody},
			{name: "change location and address", as: lead, method: "PUT", path: "/locations", status: 200, want: []string{"Zentrum West", `"address_house_number":"5"`},
				body: map[string]any{"location_id": loc, "row_version": 1, "location_name": "Zentrum West",
					"address": map[string]any{"edit": true, "address_id": f.firstID(`SELECT address_id FROM location WHERE location_id = ?`, loc), "row_version": 1, "address_house_number": "5"}}},
			{name: "valid_to before valid_from", as: admin, method: "POST", path: "/locations/partnercompany", status: 422, want: []string{"valid_to"},
				body: map[string]any{"location_id": loc, "partnercompany_id": 1, "partnertype_id": f.firstID(`SELECT MIN(partnertype_id) FROM partnertype`), "valid_from": "2024-01-01", "valid_to": "2023-01-01"}},
			{name: "valid_to equal to valid_from", as: admin, method: "POST", path: "/locations/partnercompany", status: 422,
				body: map[string]any{"location_id": loc, "partnercompany_id": 1, "partnertype_id": f.firstID(`SELECT MIN(partnertype_id) FROM partnertype`), "valid_from": "2024-01-01", "valid_to": "2024-01-01"}},
			{name: "partner over time", as: admin, method: "POST", path: "/locations/partnercompany", status: 201,
				body: map[string]any{"location_id": loc, "partnercompany_id": 1, "partnertype_id": f.firstID(`SELECT MIN(partnertype_id) FROM partnertype`), "valid_from": "2024-01-01", "valid_to": "2025-01-01"}},
			{name: "partners of the location", as: admin, method: "GET", path: jsonPath("/locations/", loc) + "/partnercompanies", status: 200, want: []string{"2025-01-01"}},
			{name: "missing location", as: admin, method: "POST", path: "/locations/partnercompany", status: 404,
				body: map[string]any{"location_id": 999999, "partnercompany_id": 1, "partnertype_id": 1, "valid_from": "2024-01-01"}},
		})

		f.run([]scenario{
			{name: "German zip", as: lead, method: "GET", path: "/users/state/10115", status: 200, want: []string{`"state":"Berlin"`, `"country":"DE"`, `"places":["Berlin"]`}},
			{name: "Austrian zip", as: lead, method: "GET", path: "/users/state/1010?country=AT", status: 200, want: []string{`"state":"Wien"`, `"country":"AT"`}},
			{name: "Swiss zip", as: lead, method: "GET", path: "/users/state/8001?country=ch", status: 200, want: []string{`"country":"CH"`}},
			{name: "Luxembourg zip", as: lead, method: "GET", path: "/users/state/1111?country=LU", status: 200, want: []string{`"state":"Luxembourg"`}},
			{name: "French zip", as: lead, method: "GET", path: "/users/state/75001?country=FR", status: 200, want: []string{`"state":"Île-de-France"`}},
			{name: "unknown zip", as: lead, method: "GET", path: "/users/state/00000", status: 404, want: []string{`"detail":"The postal code 00000 is unknown in DE."`}},
			{name: "unknown country", as: lead, method: "GET", path: "/users/state/10115?country=XX", status: 422},
			{name: "no token", method: "GET", path: "/users/state/10115", status: 401},
		})
	})
}
