package masterdata_test

import (
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
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
		f.run([]apptest.Scenario{
			{Name: "admin lists", As: admin, Method: "GET", Path: "/companies/1/tax-rates", Status: 200, Contains: []string{`"taxrate_code":"V19"`}},
			{Name: "team lead refused", As: teamLead, Method: "GET", Path: "/companies/1/tax-rates", Status: 403},
			{Name: "team lead may not add", As: teamLead, Method: "POST", Path: "/companies/1/tax-rates", Body: map[string]any{"taxrate_code": "V7", "taxrate_value": 7}, Status: 403},
			{Name: "lead refused", As: lead, Method: "DELETE", Path: "/companies/1/tax-rates", Body: []int64{rate}, Status: 403},
			{Name: "missing company", As: admin, Method: "GET", Path: "/companies/999999/tax-rates", Status: 404},
			{Name: "duplicate code", As: admin, Method: "POST", Path: "/companies/1/tax-rates", Body: map[string]any{"taxrate_code": "V19", "taxrate_value": 19}, Status: 422},
			{Name: "value over 100", As: admin, Method: "POST", Path: "/companies/1/tax-rates", Body: map[string]any{"taxrate_code": "X", "taxrate_value": 190}, Status: 422,
				Contains: []string{"taxrate_value"}},
			{Name: "another company in the body", As: admin, Method: "POST", Path: "/companies/1/tax-rates", Body: map[string]any{"company_id": 3, "taxrate_code": "X", "taxrate_value": 1}, Status: 422},
			{Name: "update", As: admin, Method: "PUT", Path: jsonPath("/companies/1/tax-rates/", rate), Body: map[string]any{"row_version": 1, "taxrate_value": 16}, Status: 200,
				Contains: []string{`"taxrate_value":16`}},
			{Name: "update without row_version", As: admin, Method: "PUT", Path: jsonPath("/companies/1/tax-rates/", rate), Body: map[string]any{"taxrate_value": 16}, Status: 422},
			{Name: "another company's tax rate", As: admin, Method: "PUT", Path: jsonPath("/companies/1/tax-rates/", other), Body: map[string]any{"row_version": 1, "taxrate_value": 5}, Status: 404},
			{Name: "delete with a foreign id deletes nothing", As: admin, Method: "DELETE", Path: "/companies/1/tax-rates", Body: []int64{rate, other}, Status: 404},
			{Name: "delete needs ids", As: admin, Method: "DELETE", Path: "/companies/1/tax-rates", Body: []int64{}, Status: 422},
			{Name: "delete", As: admin, Method: "DELETE", Path: "/companies/1/tax-rates", Body: map[string]any{"ids": []int64{rate}}, Status: 200},
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
		f.run([]apptest.Scenario{
			{Name: "shortname over 10", As: admin, Method: "POST", Path: "/partners/new", Status: 422, Contains: []string{"partnercompany_shortname"},
				Body: map[string]any{"partnercompany_name": "Neu GmbH", "partnercompany_shortname": "ELEVENCHARS", "partnergroup": map[string]any{"partnergroup_name": "Neue Gruppe"}}},
			{Name: "without the right, the refusal comes before the body's faults", As: teamLead, Method: "POST", Path: "/partners/new", Status: 403,
				Body: map[string]any{"partnercompany_shortname": "ELEVENCHARS"}},
			{Name: "no group", As: admin, Method: "POST", Path: "/partners/new", Status: 422,
				Body: map[string]any{"partnercompany_name": "Neu GmbH", "partnercompany_shortname": "NEU"}},
			{Name: "group not an object", As: admin, Method: "POST", Path: "/partners/new", Status: 422,
				Body: map[string]any{"partnercompany_name": "Neu GmbH", "partnercompany_shortname": "NEU", "partnergroup": 1}},
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
		f.run([]apptest.Scenario{
			{Name: "existing group", As: admin, Method: "POST", Path: "/partners/new", Status: 201, Contains: []string{"Rheinland Immobilien Gruppe"},
				Body: map[string]any{"partnercompany_name": "Zweit GmbH", "partnercompany_shortname": "ZWEIT", "partnergroup": map[string]any{"partnergroup_id": 1}}},
			{Name: "rename", As: admin, Method: "PUT", Path: "/partners/new", Status: 200, Contains: []string{"Neu AG"},
				Body: map[string]any{"partnercompany_id": p2, "row_version": 1, "partnercompany_name": "Neu AG"}},
			{Name: "partner user: another group's partner answers 404", As: partner, Method: "PUT", Path: "/partners/new", Status: 404,
				Body: map[string]any{"partnercompany_id": p2, "row_version": 1, "partnercompany_name": "Taken"}},
			{Name: "bad IBAN check digits", As: admin, Method: "POST", Path: "/partners/1/bankdata", Status: 422, Contains: []string{"bankdata_iban", "check digits"},
				Body: map[string]any{"bankdata_iban": "DE88370400440532013000"}},
			{Name: "bad IBAN length", As: admin, Method: "POST", Path: "/partners/1/bankdata", Status: 422, Contains: []string{"bankdata_iban"},
				Body: map[string]any{"bankdata_iban": "DE8937040044053201300"}},
			{Name: "bad BIC", As: admin, Method: "POST", Path: "/partners/1/bankdata", Status: 422, Contains: []string{"bankdata_bic"},
				Body: map[string]any{"bankdata_iban": "DE89370400440532013000", "bankdata_bic": "12"}},
			{Name: "good IBAN with spaces", As: admin, Method: "POST", Path: "/partners/1/bankdata", Status: 201, Contains: []string{`"bankdata_iban":"DE89370400440532013000"`},
				Body: map[string]any{"bankdata_iban": "de89 3704 0044 0532 0130 00", "bankdata_bic": "COBADEFFXXX"}},
			{Name: "bad IBAN country", As: admin, Method: "POST", Path: "/partners/1/bankdata", Status: 422, Contains: []string{"bankdata_iban"},
				Body: map[string]any{"bankdata_iban": "ZZ89370400440532013000"}},
			{Name: "bad IBAN check digits through the generic API", As: admin, Method: "POST", Path: "/api/", Status: 422,
				Contains: []string{"bankdata_iban", "check digits"},
				Body:     map[string]any{"action": "create", "entity": "bankdata", "data": map[string]any{"partnercompany_id": 1, "bankdata_iban": "DE88370400440532013000"}}},
			{Name: "bank data of a missing partner", As: admin, Method: "POST", Path: "/partners/999999/bankdata", Status: 404,
				Body: map[string]any{"bankdata_iban": "DE89370400440532013000"}},
			{Name: "partner user: bank data of another group's partner", As: partner, Method: "GET", Path: jsonPath("/partners/", p2) + "/bankdata", Status: 404},
			{Name: "another group's lead sees no partner", As: leadB, Method: "GET", Path: "/partners/1/bankdata", Status: 404},
			// Rheinland manages Nordhandel contracts (demo): Nordhandel's lead reads
			// the partner (decision 0060), not its bank data.
			{Name: "lead sees its manager, not its bank data", As: lead, Method: "GET", Path: "/partners/1/bankdata", Status: 200,
				Contains: []string{`"total":0`}},
		})
		bank := f.firstID(`SELECT MAX(bankdata_id) FROM bankdata`)
		f.run([]apptest.Scenario{
			{Name: "partner user with rights sees the IBAN", As: partner, Method: "GET", Path: "/partners/1/bankdata", Status: 200, Contains: []string{"DE89370400440532013000"}},
			{Name: "update with a bad IBAN", As: admin, Method: "PUT", Path: "/partners/1/bankdata/" + jsonOf(bank), Status: 422,
				Body: map[string]any{"row_version": 1, "bankdata_iban": "DE88370400440532013000"}},
			{Name: "update bank data", As: admin, Method: "PUT", Path: "/partners/1/bankdata/" + jsonOf(bank), Status: 200, Contains: []string{"Commerzbank"},
				Body: map[string]any{"row_version": 1, "bankdata_bank_name": "Commerzbank"}},
			{Name: "bank data of another partner", As: admin, Method: "PUT", Path: jsonPath("/partners/", p2) + "/bankdata/" + jsonOf(bank), Status: 404,
				Body: map[string]any{"row_version": 2, "bankdata_bank_name": "X"}},
		})
		// The keyword search of bank data searches the bank name too.
		f.run([]apptest.Scenario{
			{Name: "keyword finds the bank name in the partner's list", As: admin, Method: "GET", Path: "/partners/1/bankdata?keyword=COMMERZ", Status: 200,
				Contains: []string{`"bankdata_bank_name":"Commerzbank"`}},
			{Name: "keyword finds the bank name in the generic list", As: admin, Method: "POST", Path: "/api/", Status: 200,
				Contains: []string{`"total":1`, `"bankdata_bank_name":"Commerzbank"`},
				Body:     map[string]any{"action": "read-rich", "entity": "bankdata", "count": true, "filter_all": "merzba"}},
			{Name: "a keyword in neither IBAN nor bank name finds nothing", As: admin, Method: "GET", Path: "/partners/1/bankdata?keyword=Sparkasse", Status: 200,
				Absent: []string{"Commerzbank"}},
		})
		// Without the update right on bank data, the IBAN is masked.
		f.exec(`UPDATE user_tablegroup SET crud_u = 0 WHERE user_id = (SELECT user_id FROM users WHERE user_email = ?)`, partner)
		f.run([]apptest.Scenario{
			{Name: "masked IBAN", As: partner, Method: "GET", Path: "/partners/1/bankdata", Status: 200, Contains: []string{"DE89**************3000"},
				Absent: []string{"DE89370400440532013000"}},
			{Name: "masked in the generic list", As: partner, Method: "POST", Path: "/api/", Status: 200,
				Contains: []string{"DE89**************3000"}, Absent: []string{`"bankdata_iban":"DE89370400440532013000"`},
				Body: map[string]any{"action": "read-rich", "entity": "bankdata", "id": bank}},
			{Name: "masked in the record", As: partner, Method: "POST", Path: "/api/", Status: 200,
				Contains: []string{"DE89**************3000"}, Absent: []string{`"bankdata_iban":"DE89370400440532013000"`},
				Body: map[string]any{"action": "read", "entity": "bankdata", "id": bank}},
			{Name: "masked in the partner's relation tab", As: partner, Method: "POST", Path: "/api/", Status: 200,
				Contains: []string{"DE89**************3000"}, Absent: []string{`"bankdata_iban":"DE89370400440532013000"`},
				Body: map[string]any{"action": "read-rich", "entity": "partnercompany_bankdata_rel", "data": map[string]any{"partnercompany_id": 1}}},
			{Name: "masked in the labels of references (choices)", As: partner, Method: "POST", Path: "/api/", Status: 200,
				Contains: []string{"DE89**************3000"}, Absent: []string{`DE89370400440532013000"`},
				Body: map[string]any{"action": "options", "entity": "recurringpayment", "field": "bankdata_id", "data": map[string]any{"partnercompany_id": 1}}},
			{Name: "masked in exports", As: partner, Method: "POST", Path: "/api/", Status: 200,
				Contains: []string{"DE89**************3000"}, Absent: []string{"DE89370400440532013000"},
				Body: map[string]any{"action": "export", "entity": "bankdata", "format": "csv"}},
			{Name: "the keyword search finds the bank name beside a masked IBAN", As: partner, Method: "POST", Path: "/api/", Status: 200,
				Contains: []string{`"total":1`, "DE89**************3000"},
				Body:     map[string]any{"action": "read-rich", "entity": "bankdata", "count": true, "filter_all": "commerz"}},
			{Name: "the keyword search does not see hidden digits", As: partner, Method: "POST", Path: "/api/", Status: 200,
				Contains: []string{`"total":0`},
				Body:     map[string]any{"action": "read-rich", "entity": "bankdata", "count": true, "filter_all": "0532013"}},
			{Name: "a filter does not see hidden digits", As: partner, Method: "POST", Path: "/api/", Status: 200,
				Contains: []string{`"total":0`},
				Body: map[string]any{"action": "read-rich", "entity": "bankdata", "count": true,
					"filter": []map[string]any{{"field": "bankdata_iban", "op": "contains", "value": "0532013"}}}},
			{Name: "the editor still finds it by its digits", As: admin, Method: "POST", Path: "/api/", Status: 200,
				Contains: []string{"DE89370400440532013000"},
				Body:     map[string]any{"action": "read-rich", "entity": "bankdata", "filter_all": "0532013"}},
			{Name: "history keeps the IBAN masked, for everyone", As: admin, Method: "POST", Path: "/api/", Status: 200,
				Contains: []string{"DE89**************3000"}, Absent: []string{"DE89370400440532013000"},
				Body: map[string]any{"action": "history", "entity": "bankdata", "id": bank}},
		})
		f.run([]apptest.Scenario{
			{Name: "creditor number", As: admin, Method: "POST", Path: "/partners/1/kreditornumber", Status: 201, Contains: []string{`"kreditornumber_number":"K-100"`},
				Body: map[string]any{"company_id": 1, "kreditornumber_number": "K-100"}},
			{Name: "same number, same company", As: admin, Method: "POST", Path: jsonPath("/partners/", p2) + "/kreditornumber", Status: 422,
				Contains: []string{"kreditornumber_number"}, Body: map[string]any{"company_id": 1, "kreditornumber_number": "K-100"}},
			{Name: "same number, other company", As: admin, Method: "POST", Path: jsonPath("/partners/", p2) + "/kreditornumber", Status: 201,
				Body: map[string]any{"company_id": 3, "kreditornumber_number": "K-100"}},
			{Name: "company wrong type", As: admin, Method: "POST", Path: "/partners/1/kreditornumber", Status: 422,
				Body: map[string]any{"company_id": "x", "kreditornumber_number": "K-1"}},
		})
		k := f.firstID(`SELECT MIN(kreditornumber_id) FROM kreditornumber`)
		f.run([]apptest.Scenario{
			{Name: "change creditor number", As: admin, Method: "PUT", Path: "/partners/1/kreditornumber/" + jsonOf(k), Status: 200, Contains: []string{"K-101"},
				Body: map[string]any{"row_version": 1, "kreditornumber_number": "K-101"}},
			{Name: "contacts", As: admin, Method: "GET", Path: "/contacts", Status: 200, Contains: []string{`"data"`}},
			{Name: "contacts of a partner", As: admin, Method: "GET", Path: "/contacts?partnercompany_id=1", Status: 200},
			{Name: "contacts of a missing partner", As: admin, Method: "GET", Path: "/contacts?partnercompany_id=999999", Status: 404},
			{Name: "contacts: bad id", As: admin, Method: "GET", Path: "/contacts?partnercompany_id=x", Status: 422},
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
		f.run([]apptest.Scenario{
			{Name: "lead.b: pos in group 1's company", As: leadB, Method: "POST", Path: "/pos", Body: posBody, Status: 422},
			{Name: "year out of range", As: admin, Method: "POST", Path: "/pos", Status: 422, Contains: []string{"pos_first_year"},
				Body: map[string]any{"company_id": 1, "pos_name": "X", "pos_branchnumber": "X", "pos_first_year": 1700, "pos_opening_date": "2024-03-01", "contactperson_id": contact}},
			{Name: "update", As: admin, Method: "PUT", Path: "/pos", Status: 200, Contains: []string{"Filiale Zentrum"},
				Body: map[string]any{"pos_id": pos, "row_version": 1, "pos_name": "Filiale Zentrum"}},
			{Name: "update without pos_id", As: admin, Method: "PUT", Path: "/pos", Status: 422, Body: map[string]any{"row_version": 1, "pos_name": "X"}},
			{Name: "lead.b: update group 1's pos", As: leadB, Method: "PUT", Path: "/pos", Status: 404, Body: map[string]any{"pos_id": pos, "row_version": 2, "pos_name": "X"}},
			{Name: "lead.b: delete links of group 1's pos", As: leadB, Method: "DELETE", Path: "/pos", Status: 404, Body: map[string]any{"pos_id": posA, "area_ids": []int64{area}}},
			{Name: "delete without lists", As: admin, Method: "DELETE", Path: "/pos", Status: 422, Body: map[string]any{"pos_id": posA}},
			{Name: "delete unknown member", As: admin, Method: "DELETE", Path: "/pos", Status: 422, Body: map[string]any{"pos_id": posA, "user_ids": []int64{1}}},
			{Name: "delete a link", As: admin, Method: "DELETE", Path: "/pos", Status: 200, Body: map[string]any{"pos_id": posA, "area_ids": []int64{area}}},
			{Name: "delete it again", As: admin, Method: "DELETE", Path: "/pos", Status: 404, Body: map[string]any{"pos_id": posA, "area_ids": []int64{area}}},
			{Name: "lead lists own areas", As: lead, Method: "GET", Path: "/areas", Status: 200, Contains: []string{`"area_id"`}},
			{Name: "service objects of areas", As: admin, Method: "GET", Path: "/areas/serviceobjects/list", Status: 200, Contains: []string{`"pagination"`, `"serviceobject_name"`}},
			{Name: "lead.b: no service object of group 1", As: leadB, Method: "GET", Path: "/areas/serviceobjects/list?keyword=" + soName, Status: 200, Contains: []string{`"total":0`}},
			{Name: "lead: own service object", As: lead, Method: "GET", Path: "/areas/serviceobjects/list?keyword=" + soName, Status: 200, Contains: []string{`"total":1`}},
			{Name: "lead.b: pos B visible", As: leadB, Method: "PUT", Path: "/pos", Status: 200, Body: map[string]any{"pos_id": posB, "row_version": f.version("pos", posB)}},
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
		f.run([]apptest.Scenario{
			{Name: "the state is looked up", As: lead, Method: "GET", Path: "/locations?per_page=100", Status: 200, Contains: []string{"Zentrum Ost", "Bayern"}},
			{Name: "locations page by 10", As: admin, Method: "GET", Path: "/locations", Status: 200, Contains: []string{`"last_page"`}},
			{Name: "one location with its address", As: lead, Method: "GET", Path: jsonPath("/locations/", loc), Status: 200, Contains: []string{`"location_id":`, `"address":{`, "city_zip"}},
			{Name: "lead.b: location of group 1", As: leadB, Method: "GET", Path: jsonPath("/locations/", loc) + "/partnercompanies", Status: 404},
			{Name: "lead.b: change location of group 1", As: leadB, Method: "PUT", Path: "/locations", Status: 404,
				Body: map[string]any{"location_id": loc, "row_version": 1, "location_name": "X"}},
			{Name: "lead.b: new location in group 1's company", As: leadB, Method: "POST", Path: "/locations", Status: 422, Body: locBody},
			{Name: "change location and address", As: lead, Method: "PUT", Path: "/locations", Status: 200, Contains: []string{"Zentrum West", `"address_house_number":"5"`},
				Body: map[string]any{"location_id": loc, "row_version": 1, "location_name": "Zentrum West",
					"address": map[string]any{"edit": true, "address_id": f.firstID(`SELECT address_id FROM location WHERE location_id = ?`, loc), "row_version": 1, "address_house_number": "5"}}},
			{Name: "valid_to before valid_from", As: admin, Method: "POST", Path: "/locations/partnercompany", Status: 422, Contains: []string{"valid_to"},
				Body: map[string]any{"location_id": loc, "partnercompany_id": 1, "partnertype_id": f.firstID(`SELECT MIN(partnertype_id) FROM partnertype`), "valid_from": "2024-01-01", "valid_to": "2023-01-01"}},
			{Name: "valid_to equal to valid_from", As: admin, Method: "POST", Path: "/locations/partnercompany", Status: 422,
				Body: map[string]any{"location_id": loc, "partnercompany_id": 1, "partnertype_id": f.firstID(`SELECT MIN(partnertype_id) FROM partnertype`), "valid_from": "2024-01-01", "valid_to": "2024-01-01"}},
			{Name: "partner over time", As: admin, Method: "POST", Path: "/locations/partnercompany", Status: 201,
				Body: map[string]any{"location_id": loc, "partnercompany_id": 1, "partnertype_id": f.firstID(`SELECT MIN(partnertype_id) FROM partnertype`), "valid_from": "2024-01-01", "valid_to": "2025-01-01"}},
			{Name: "partners of the location", As: admin, Method: "GET", Path: jsonPath("/locations/", loc) + "/partnercompanies", Status: 200, Contains: []string{"2025-01-01"}},
			{Name: "missing location", As: admin, Method: "POST", Path: "/locations/partnercompany", Status: 404,
				Body: map[string]any{"location_id": 999999, "partnercompany_id": 1, "partnertype_id": 1, "valid_from": "2024-01-01"}},
		})

		f.run([]apptest.Scenario{
			{Name: "German zip", As: lead, Method: "GET", Path: "/users/state/10115", Status: 200, Contains: []string{`"state":"Berlin"`, `"country":"DE"`, `"places":["Berlin"]`}},
			{Name: "Austrian zip", As: lead, Method: "GET", Path: "/users/state/1010?country=AT", Status: 200, Contains: []string{`"state":"Wien"`, `"country":"AT"`}},
			{Name: "Swiss zip", As: lead, Method: "GET", Path: "/users/state/8001?country=ch", Status: 200, Contains: []string{`"country":"CH"`}},
			{Name: "Luxembourg zip", As: lead, Method: "GET", Path: "/users/state/1111?country=LU", Status: 200, Contains: []string{`"state":"Luxembourg"`}},
			{Name: "French zip", As: lead, Method: "GET", Path: "/users/state/75001?country=FR", Status: 200, Contains: []string{`"state":"Île-de-France"`}},
			{Name: "unknown zip", As: lead, Method: "GET", Path: "/users/state/00000", Status: 404, Contains: []string{`"detail":"The postal code 00000 is unknown in DE."`}},
			{Name: "unknown country", As: lead, Method: "GET", Path: "/users/state/10115?country=XX", Status: 422},
			{Name: "no token", Method: "GET", Path: "/users/state/10115", Status: 401},
		})
	})
}
