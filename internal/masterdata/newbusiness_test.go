package masterdata_test

import (
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestNewBusinessFlow: from a ticket of the new-business board, an
// administrator creates the new customer's customer group, company with
// address, contact person and first point of sale in one call; the ticket
// then belongs to the new point of sale and its timeline says so. A
// field error in any part names the part and writes nothing; others than
// administrators, a stale ticket and a missing ticket are refused.
func TestNewBusinessFlow(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		ticket := f.firstID(`SELECT MIN(ticket_id) FROM ticket WHERE board_id = ?`, seed.DemoBoardNewBusiness)
		salutation := f.firstID(`SELECT MIN(contactsalutation_id) FROM contactsalutation`)
		de := f.firstID(`SELECT country_id FROM country WHERE country_short = 'DE'`)
		body := func(companyName, branch string) map[string]any {
			return map[string]any{
				"row_version":   f.version("ticket", ticket),
				"customergroup": map[string]any{"customergroup_name": "Westwind Handel"},
				"company": map[string]any{"company_name": companyName, "company_shortname": "WWH",
					"address": map[string]any{"address_street": "Königsallee", "address_house_number": "1", "city_zip": "40212",
						"city_name": "Düsseldorf", "country_id": de}},
				"contactperson": map[string]any{"contactperson_firstname": "Jana", "contactperson_lastname": "Wolf",
					"contactsalutation_id": salutation, "contactdetails": map[string]any{"contactdetails_email": "jana.wolf@example.com"}},
				"pos": map[string]any{"pos_name": "Westwind Düsseldorf", "pos_branchnumber": branch, "pos_first_year": 2027,
					"pos_opening_date": "2027-03-01"},
			}
		}
		rows := func() int64 {
			return f.count(`SELECT (SELECT COUNT(*) FROM customergroup) + (SELECT COUNT(*) FROM company) + (SELECT COUNT(*) FROM contactperson)
				+ (SELECT COUNT(*) FROM pos) + (SELECT COUNT(*) FROM address) + (SELECT COUNT(*) FROM trackrecord)`)
		}
		before := rows()
		path := jsonPath("/tickets/", ticket) + "/customer"
		noPos := body("Westwind Handel GmbH", "W-1")
		delete(noPos, "pos")
		f.run([]apptest.Scenario{
			{Name: "a team lead may not, and is told what was refused", As: teamLead, Method: "POST", Path: path, Status: 403, Body: body("Westwind Handel GmbH", "W-1"),
				Contains: []string{"customer group from a ticket"}, Absent: []string{"tax rates"}},
			{Name: "an external director may not", As: lead, Method: "POST", Path: path, Status: 403, Body: body("Westwind Handel GmbH", "W-1")},
			{Name: "no company name", As: admin, Method: "POST", Path: path, Status: 422,
				Contains: []string{`"loc":["body","company","company_name"]`}, Body: body("", "W-1")},
			{Name: "the point of sale is missing", As: admin, Method: "POST", Path: path, Status: 422,
				Contains: []string{`"loc":["body","pos"]`}, Body: noPos},
			{Name: "no branch number: the last part fails, nothing before it stays", As: admin, Method: "POST", Path: path, Status: 422,
				Contains: []string{`"loc":["body","pos","pos_branchnumber"]`}, Body: body("Westwind Handel GmbH", "")},
			{Name: "a missing ticket", As: admin, Method: "POST", Path: "/tickets/999999/customer", Status: 404, Body: body("Westwind Handel GmbH", "W-1")},
		})
		stale := body("Westwind Handel GmbH", "W-1")
		stale["row_version"] = f.version("ticket", ticket) + 5
		f.run([]apptest.Scenario{{Name: "a stale ticket", As: admin, Method: "POST", Path: path, Status: 409, Body: stale}})
		if n := rows(); n != before {
			t.Fatalf("refused calls left %d rows behind", n-before)
		}

		res := f.do(admin, "POST", path, body("Westwind Handel GmbH", "W-1"))
		if res.Status != 201 {
			t.Fatalf("new customer: %d %s", res.Status, res.Body)
		}
		var ans struct {
			CustomergroupID int64 `json:"customergroup_id"`
			CompanyID       int64 `json:"company_id"`
			ContactpersonID int64 `json:"contactperson_id"`
			PosID           int64 `json:"pos_id"`
		}
		res.JSON(t, &ans)
		if got := f.count(`SELECT COUNT(*) FROM company WHERE company_id = ? AND customergroup_id = ?`, ans.CompanyID, ans.CustomergroupID); got != 1 {
			t.Fatal("the company is not in the new customer group")
		}
		if got := f.count(`SELECT COUNT(*) FROM pos WHERE pos_id = ? AND company_id = ? AND contactperson_id = ?`, ans.PosID, ans.CompanyID, ans.ContactpersonID); got != 1 {
			t.Fatal("the point of sale is not the new company's with the new contact")
		}
		if got := f.count(`SELECT COUNT(*) FROM companydetails cd JOIN address a ON a.address_id = cd.address_id
			WHERE cd.company_id = ? AND a.address_street = 'Königsallee'`, ans.CompanyID); got != 1 {
			t.Fatal("the company has no address")
		}
		if got := f.count(`SELECT COUNT(*) FROM ticket WHERE ticket_id = ? AND pos_id = ?`, ticket, ans.PosID); got != 1 {
			t.Fatal("the ticket does not belong to the new point of sale")
		}
		if got := f.count(`SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'ticket' AND trackrecord_row_id = ?
			AND trackrecord_type = 'new_customer'`, ticket); got != 1 {
			t.Fatal("the ticket's timeline does not note the new customer")
		}
		f.run([]apptest.Scenario{
			{Name: "the new point of sale reads", As: admin, Method: "GET", Path: jsonPath("/tickets/slims?pos_id=", ans.PosID), Status: 200,
				Contains: []string{`"ticket_id":` + jsonOf(ticket)}},
		})
	})
}
