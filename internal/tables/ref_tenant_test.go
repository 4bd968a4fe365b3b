package tables_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestReferencesStayInTheRecordsTenant: staff see every customer group,
// yet a reference names a row of the record's own group (issue 38: a
// Südmarkt tax rate was accepted on a Nordhandel contract), and a tax rate
// of a recurring payment is one of its contract's company. Demo companies
// 1 and 2 are Nordhandel's (group 1), company 3 is Südmarkt's (group 2).
func TestReferencesStayInTheRecordsTenant(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		contract := s.fresh("contract", obj{"company_id": 1})
		own := s.fresh("taxrate", obj{"company_id": 1, "taxrate_code": "N19", "taxrate_value": 19})
		sister := s.fresh("taxrate", obj{"company_id": 2, "taxrate_code": "O19", "taxrate_value": 19})
		foreign := s.fresh("taxrate", obj{"company_id": 3, "taxrate_code": "S19", "taxrate_value": 19})
		payment := func(rate int64) obj {
			return obj{"action": "create", "entity": "recurringpayment",
				"data": s.data(mustEntity("recurringpayment"), obj{"contract_id": contract, "taxrate_id": rate})}
		}
		stored := id(e.mustOK(admin, payment(own)), "recurringpayment_id")
		update := func(data obj) obj {
			return obj{"action": "update", "entity": "recurringpayment", "id": stored, "row_version": 1, "data": data}
		}
		rateRefused := []string{`{"loc":["body","taxrate_id"],"msg":"The selected Tax rate is not available","type":"not_available"}`}

		ownArea := s.freshIn("area", 1, nil)
		foreignArea := s.freshIn("area", 2, nil)
		areaLink := func(area int64) obj {
			return obj{"action": "link", "entity": "contract_area_rel", "id": contract, "data": obj{"area_id": area,
				"usagetype_id": s.ensure("usagetype"), "rentalspace_value": 10, "allocationspace_value": 5, "valid_from": "2024-01-01"}}
		}
		// A contradiction's package has no narrowing of its own: the tenant
		// check alone keeps it in the invoice's group.
		invoice := s.fresh("invoice", obj{"company_id": 1})
		var invoicePos int64
		if err := d.QueryRowContext(t.Context(), `SELECT c.pos_id FROM invoice i JOIN contract c ON c.contract_id = i.contract_id
			WHERE i.invoice_id = ?`, invoice).Scan(&invoicePos); err != nil {
			t.Fatal(err)
		}
		ownPackage := s.fresh("contradictionpackage", obj{"pos_id": invoicePos})
		foreignPackage := s.fresh("contradictionpackage", obj{"pos_id": s.fresh("pos", obj{"company_id": 3})})
		contradiction := func(pkg int64) obj {
			return obj{"action": "create", "entity": "contradiction",
				"data": s.data(mustEntity("contradiction"), obj{"invoice_id": invoice, "contradictionpackage_id": pkg})}
		}

		e.run(t, []apptest.Scenario{
			{Name: "create with another group's tax rate", As: admin, Body: payment(foreign), Status: 422, Contains: rateRefused},
			{Name: "in German, by the field's label", As: admin, Header: lang("de"), Body: payment(foreign), Status: 422,
				Contains: []string{`"loc":["body","taxrate_id"]`, "Steuersatz", "ist nicht verfügbar"}},
			{Name: "create with another company's tax rate of the group", As: admin, Body: payment(sister), Status: 422, Contains: rateRefused},
			{Name: "create with the contract company's tax rate", As: admin, Body: payment(own), Status: 201},
			{Name: "update to another group's tax rate", As: admin, Body: update(obj{"taxrate_id": foreign}), Status: 422, Contains: rateRefused},
			{Name: "update to another company's tax rate", As: admin, Body: update(obj{"taxrate_id": sister}), Status: 422, Contains: rateRefused},
			{Name: "update-field too", As: admin, Status: 422, Contains: rateRefused,
				Body: obj{"action": "update-field", "entity": "recurringpayment", "id": stored, "field": "taxrate_id", "value": foreign, "row_version": 1}},
			{Name: "nothing was written", As: admin, Body: obj{"action": "read", "entity": "recurringpayment", "id": stored}, Status: 200,
				Contains: []string{fmt.Sprintf(`"taxrate_id":%d`, own), `"row_version":1`}},
			{Name: "link another group's area", As: admin, Body: areaLink(foreignArea), Status: 422,
				Contains: []string{`"loc":["body","area_id"]`, `"type":"not_available"`}},
			{Name: "link an area of the group", As: admin, Body: areaLink(ownArea), Status: 201},
			{Name: "a reference no narrowing covers: another group's package", As: admin, Body: contradiction(foreignPackage), Status: 422,
				Contains: []string{`"loc":["body","contradictionpackage_id"]`, `"type":"not_available"`}},
			{Name: "a package of the group", As: admin, Body: contradiction(ownPackage), Status: 201},
		})

		// A ticket a group-1 user opened moves to a group-2 point of sale
		// (the new-business flow): its creator is a fact, not a choice, and
		// stays; a chosen reference to a group-1 user would be refused.
		ticket := s.fresh("ticket", obj{"pos_id": s.fresh("pos", obj{"company_id": 1})})
		var leadID int64
		if err := d.QueryRowContext(t.Context(), `SELECT user_id FROM users WHERE user_email = ?`, lead).Scan(&leadID); err != nil {
			t.Fatal(err)
		}
		if _, err := d.ExecContext(t.Context(), `UPDATE ticket SET ticket_created_by = ? WHERE ticket_id = ?`, leadID, ticket); err != nil {
			t.Fatal(err)
		}
		e.run(t, []apptest.Scenario{
			{Name: "a ticket moves to another group with its creator", As: admin, Status: 200,
				Body: obj{"action": "update", "entity": "ticket", "id": ticket, "row_version": 1,
					"data": obj{"pos_id": s.fresh("pos", obj{"company_id": 3})}},
				Contains: []string{fmt.Sprintf(`"ticket_created_by":%d`, leadID)}},
		})

		// The choices are the contract company's rates, and only those.
		// labelled with their company.
		var got []int64
		for _, o := range e.options(admin, "recurringpayment", "taxrate_id", obj{"contract_id": contract}, obj{"per_page": 500}, http.StatusOK).Data {
			got = append(got, o.Value)
			if o.Value == own && (!strings.Contains(o.Label, "19") || !strings.Contains(o.Label, "Nordhandel Retail GmbH")) {
				t.Errorf("tax rate %d labelled %q, want its value and its company", own, o.Label)
			}
		}
		if !slices.Contains(got, own) || slices.Contains(got, sister) || slices.Contains(got, foreign) {
			t.Fatalf("tax rates offered for contract %d: %v, want %d and none of %d, %d", contract, got, own, sister, foreign)
		}
		if got := e.options(admin, "recurringpayment", "taxrate_id", obj{}, nil, http.StatusOK).Data; len(got) != 0 {
			t.Fatalf("tax rates offered without a contract: %v", got)
		}
	})
}

// TestClientUsersReadTheirPartners: a client user reads, and only reads,
// the partner companies linked to the group's contracts and locations (the
// landlord, the property manager) and their contact persons; another
// group's partner, and the partner's other data (bank accounts), stay
// hidden, and no write reaches them.
func TestClientUsersReadTheirPartners(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		landlord := s.fresh("partnercompany", obj{"partnercompany_name": "Vermieter Nord"})
		manager := s.fresh("partnercompany", obj{"partnercompany_name": "Verwalter Nord"})
		other := s.fresh("partnercompany", obj{"partnercompany_name": "Vermieter Süd"})
		linkPartner := func(contract, partner int64, role string) {
			e.mustOK(admin, obj{"action": "link", "entity": "contract_partner_company_rel", "id": contract,
				"data": obj{"partnercompany_id": partner, "partner_role": role}})
		}
		linkPartner(s.fresh("contract", obj{"company_id": 1}), landlord, "owner")
		linkPartner(s.fresh("contract", obj{"company_id": 3}), other, "owner")
		location := s.freshIn("location", 1, nil)
		e.mustOK(admin, obj{"action": "link", "entity": "location_partnercompany_rel", "id": location,
			"data": obj{"partnercompany_id": manager, "partnertype_id": s.ensure("partnertype"), "valid_from": "2020-01-01"}})
		person := func(partner int64, last string) int64 {
			return s.fresh("contactperson", obj{"partnercompany_id": partner, "contactperson_lastname": last})
		}
		landlordPerson, managerPerson, otherPerson := person(landlord, "Nordmann"), person(manager, "Verwaltmann"), person(other, "Südmann")
		bank := s.fresh("bankdata", obj{"partnercompany_id": landlord, "bankdata_iban": sampleIBAN(7)})
		read := func(entity string, key int64) obj { return obj{"action": "read", "entity": entity, "id": key} }
		list := func(entity string, _ obj) obj { return obj{"action": "read-rich", "entity": entity, "per_page": 500} }
		update := func(entity, field string, key int64, v any) obj {
			return obj{"action": "update", "entity": entity, "id": key, "row_version": 1, "data": obj{field: v}}
		}
		e.run(t, []apptest.Scenario{
			{Name: "the landlord of a contract", As: lead, Body: read("partnercompany", landlord), Status: 200, Contains: []string{"Vermieter Nord"}},
			{Name: "the manager of a location", As: lead, Body: read("partnercompany", manager), Status: 200, Contains: []string{"Verwalter Nord"}},
			{Name: "another group's landlord", As: lead, Body: read("partnercompany", other), Status: 404},
			{Name: "listed: the group's partners only", As: lead, Body: list("partnercompany", obj{}), Status: 200,
				Contains: []string{"Vermieter Nord", "Verwalter Nord"}, Absent: []string{"Vermieter Süd"}},
			{Name: "the other group sees its own", As: leadB, Body: list("partnercompany", obj{}), Status: 200,
				Contains: []string{"Vermieter Süd"}, Absent: []string{"Vermieter Nord", "Verwalter Nord"}},
			{Name: "the landlord's contact person", As: lead, Body: read("contactperson", landlordPerson), Status: 200, Contains: []string{"Nordmann"}},
			{Name: "the manager's contact person", As: lead, Body: read("contactperson", managerPerson), Status: 200, Contains: []string{"Verwaltmann"}},
			{Name: "another group's partner's contact person", As: lead, Body: read("contactperson", otherPerson), Status: 404},
			{Name: "the landlord's contact persons tab", As: lead, Status: 200,
				Body:     obj{"action": "read-rich", "entity": "partnercompany_contactperson_rel", "data": obj{"partnercompany_id": landlord}},
				Contains: []string{"Nordmann"}, Absent: []string{"Südmann", "Verwaltmann"}},
			{Name: "not the partner's bank accounts", As: lead, Body: read("bankdata", bank), Status: 404},
			{Name: "no update of the landlord", As: lead, Body: update("partnercompany", "partnercompany_name", landlord, "Gekapert"), Status: 403},
			{Name: "no update of its contact person", As: lead, Body: update("contactperson", "contactperson_lastname", landlordPerson, "Gekapert"), Status: 403},
			{Name: "no delete of the landlord", As: lead, Body: obj{"action": "delete", "entity": "partnercompany", "id": landlord, "row_version": 1}, Status: 403},
			{Name: "unchanged", As: admin, Body: read("partnercompany", landlord), Status: 200, Contains: []string{"Vermieter Nord", `"row_version":1`}},
			{Name: "unchanged person", As: admin, Body: read("contactperson", landlordPerson), Status: 200, Contains: []string{"Nordmann", `"row_version":1`}},
		})
		// Read only whatever the rights: with the right to write contact
		// persons the lead still reads the partner's as another tenant's.
		grant(t, d, lead, 7) // Portfolio details: create, read, update
		e.run(t, []apptest.Scenario{
			{Name: "still read", As: lead, Body: read("contactperson", landlordPerson), Status: 200, Contains: []string{"Nordmann"}},
			{Name: "update with the right", As: lead, Body: update("contactperson", "contactperson_lastname", landlordPerson, "Gekapert"), Status: 404},
			{Name: "no new contact person of the partner", As: lead, Status: 403,
				Body: obj{"action": "create", "entity": "contactperson", "data": s.data(mustEntity("contactperson"),
					obj{"partnercompany_id": landlord, "contactperson_lastname": "Neu"})}},
			{Name: "still unchanged", As: admin, Body: read("contactperson", landlordPerson), Status: 200, Contains: []string{"Nordmann", `"row_version":1`}},
		})
	})
}
