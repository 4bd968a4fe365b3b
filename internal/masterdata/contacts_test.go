package masterdata_test

import (
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestContacts: a contact person is written with its contact details and
// address in one transaction (the shortname derived from first and last
// name), a refused part writes nothing, ids of another tenant or not the
// contact's own answer 404, and an external director saves contacts of
// the own customer group only.
func TestContacts(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		f.giveRights(lead, leadB)
		salutation := f.firstID(`SELECT MIN(contactsalutation_id) FROM contactsalutation`)
		de := f.firstID(`SELECT country_id FROM country WHERE country_short = 'DE'`)
		newContact := func(company int64, details, address map[string]any) map[string]any {
			b := map[string]any{"contactperson_firstname": "Anna", "contactperson_lastname": "Berg", "contactsalutation_id": salutation,
				"contactperson_function": "Einkauf", "company_id": company}
			if details != nil {
				b["contactdetails"] = details
			}
			if address != nil {
				b["address"] = address
			}
			return b
		}
		berlin := func() map[string]any {
			return map[string]any{"address_street": "Torstraße", "address_house_number": "5", "city_zip": "10115", "city_name": "Berlin", "country_id": de}
		}
		rows := func() int64 {
			return f.count(`SELECT (SELECT COUNT(*) FROM contactperson) + (SELECT COUNT(*) FROM contactdetails) + (SELECT COUNT(*) FROM address) + (SELECT COUNT(*) FROM city)`)
		}
		before := rows()
		f.run([]apptest.Scenario{
			{Name: "no last name", As: admin, Method: "POST", Path: "/contacts", Status: 422, Contains: []string{`"loc":["body","contactperson_lastname"]`},
				Body: map[string]any{"contactperson_firstname": "Anna", "contactsalutation_id": salutation, "company_id": 1,
					"contactdetails": map[string]any{"contactdetails_email": "anna@example.com"}, "address": berlin()}},
			{Name: "bad e-mail in the details", As: admin, Method: "POST", Path: "/contacts", Status: 422,
				Contains: []string{`"loc":["body","contactdetails.contactdetails_email"]`},
				Body:     newContact(1, map[string]any{"contactdetails_email": "not-an-address"}, berlin())},
			{Name: "unknown zip in the address", As: admin, Method: "POST", Path: "/contacts", Status: 422, Contains: []string{`"loc":["body","address.city_zip"]`},
				Body: newContact(1, map[string]any{"contactdetails_email": "anna@example.com"},
					map[string]any{"address_street": "X", "address_house_number": "1", "city_zip": "00000", "city_name": "Nirgendwo", "country_id": de})},
			{Name: "details not an object", As: admin, Method: "POST", Path: "/contacts", Status: 422, Contains: []string{`"contactdetails"`},
				Body: map[string]any{"contactperson_firstname": "Anna", "contactperson_lastname": "Berg", "contactsalutation_id": salutation, "contactdetails": "x"}},
			{Name: "malformed JSON", As: admin, Method: "POST", Path: "/contacts", Status: 400, Body: `{"contactperson_firstname": `},
			{Name: "unknown field", As: admin, Method: "POST", Path: "/contacts", Status: 422, Contains: []string{"contactperson_age"},
				Body: map[string]any{"contactperson_firstname": "Anna", "contactperson_lastname": "Berg", "contactsalutation_id": salutation, "contactperson_age": 3}},
			{Name: "lead.b: contact of group 1's company", As: leadB, Method: "POST", Path: "/contacts", Status: 422, Contains: []string{`"loc":["body","company_id"]`},
				Body: newContact(1, map[string]any{"contactdetails_email": "anna@example.com"}, berlin())},
		})
		if n := rows(); n != before {
			t.Fatalf("refused saves left %d rows behind", n-before)
		}
		f.run([]apptest.Scenario{
			{Name: "lead creates a contact with details and address", As: lead, Method: "POST", Path: "/contacts", Status: 201,
				Contains: []string{`"contactperson_shortname":"AB"`, `"contactdetails_email":"anna@example.com"`, `"city_name":"Berlin"`, `"address_street":"Torstraße"`},
				Body:     newContact(1, map[string]any{"contactdetails_email": "anna@example.com", "contactdetails_phone": "030 1234"}, berlin())},
		})
		contact := f.firstID(`SELECT MAX(contactperson_id) FROM contactperson`)
		details := f.firstID(`SELECT contactdetails_id FROM contactperson WHERE contactperson_id = ?`, contact)
		addr := f.firstID(`SELECT address_id FROM contactperson WHERE contactperson_id = ?`, contact)
		foreignAddr := f.firstID(`SELECT MIN(address_id) FROM location WHERE address_id IS NOT NULL`)
		other := f.firstID(`SELECT MIN(p.contactperson_id) FROM contactperson p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 2`)
		f.run([]apptest.Scenario{
			{Name: "read", As: lead, Method: "GET", Path: jsonPath("/contacts/", contact), Status: 200, Contains: []string{`"contactdetails_phone":"030 1234"`, `"city_zip":"10115"`}},
			{Name: "lead.b: read group 1's contact", As: leadB, Method: "GET", Path: jsonPath("/contacts/", contact), Status: 404},
			{Name: "missing contact", As: admin, Method: "GET", Path: "/contacts/999999", Status: 404},
			{Name: "rename, change details and address", As: lead, Method: "PUT", Path: "/contacts", Status: 200,
				Contains: []string{`"contactperson_shortname":"CB"`, `"contactdetails_phone":"030 9999"`, `"address_house_number":"7"`},
				Body: map[string]any{"contactperson_id": contact, "row_version": 1, "contactperson_firstname": "Clara",
					"contactdetails": map[string]any{"contactdetails_id": details, "row_version": 1, "contactdetails_phone": "030 9999"},
					"address":        map[string]any{"edit": true, "address_id": addr, "row_version": 1, "address_house_number": "7"}}},
			{Name: "stale row_version", As: lead, Method: "PUT", Path: "/contacts", Status: 409,
				Body: map[string]any{"contactperson_id": contact, "row_version": 1, "contactperson_firstname": "Dora"}},
			{Name: "no row_version", As: lead, Method: "PUT", Path: "/contacts", Status: 422, Contains: []string{`"loc":["body","row_version"]`},
				Body: map[string]any{"contactperson_id": contact, "contactperson_firstname": "Dora"}},
			{Name: "details without their row_version", As: lead, Method: "PUT", Path: "/contacts", Status: 422,
				Contains: []string{`"loc":["body","contactdetails.row_version"]`},
				Body:     map[string]any{"contactperson_id": contact, "row_version": 2, "contactdetails": map[string]any{"contactdetails_id": details, "contactdetails_phone": "1"}}},
			{Name: "an address not the contact's own", As: admin, Method: "PUT", Path: "/contacts", Status: 404,
				Body: map[string]any{"contactperson_id": contact, "row_version": 2, "contactperson_firstname": "Dora",
					"address": map[string]any{"edit": true, "address_id": foreignAddr, "row_version": 1, "address_house_number": "9"}}},
			{Name: "lead.b: change group 1's contact", As: leadB, Method: "PUT", Path: "/contacts", Status: 404,
				Body: map[string]any{"contactperson_id": contact, "row_version": 2, "contactperson_firstname": "Dora"}},
			{Name: "lead.b: move an own contact to group 1's company", As: leadB, Method: "PUT", Path: "/contacts", Status: 422,
				Body: map[string]any{"contactperson_id": other, "row_version": f.version("contactperson", other), "company_id": 1}},
			{Name: "a new address for the contact", As: lead, Method: "PUT", Path: "/contacts", Status: 200, Contains: []string{`"address_street":"Marktplatz"`},
				Body: map[string]any{"contactperson_id": contact, "row_version": 2,
					"address": map[string]any{"edit": true, "address_street": "Marktplatz", "address_house_number": "1", "city_zip": "10115", "city_name": "Berlin", "country_id": de}}},
		})
		if n := f.count(`SELECT COUNT(*) FROM contactperson WHERE contactperson_firstname = 'Dora'`); n != 0 {
			t.Fatalf("a refused change was written")
		}
		if n := f.count(`SELECT row_version FROM address WHERE address_id = ?`, foreignAddr); n != 1 {
			t.Fatalf("the location's address was changed through a contact")
		}
		if n := f.count(`SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'contactperson' AND trackrecord_row_id = ?`, contact); n < 3 {
			t.Fatalf("history of the contact: %d rows, want create and two updates", n)
		}
	})
}
