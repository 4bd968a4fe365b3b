package tables_test

import (
	"context"
	"fmt"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
)

// extMember is an external client user of customer group 1 in team MVM
// extern, like lead@, but not a director.
const extMember = "ext_team_member@demo.test"

// grant gives the user the crud flags (c, r, u; no d) on a table group.
func grant(t *testing.T, d *db.DB, email string, tablegroup int64) {
	t.Helper()
	if _, err := d.ExecContext(context.Background(), `INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
		SELECT user_id, ?, 1, 1, 1, 0 FROM users WHERE user_email = ?`, tablegroup, email); err != nil {
		t.Fatal(err)
	}
}

// TestWriteChoices: a list field takes only its choices: its OptionsWhere
// narrowing by siblings (on create, update, update-field and link), the
// locked customer group, partner group and team fields of external users,
// and the ticket limit of non-director external client users.
func TestWriteChoices(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		const (
			tgPortfolio = 1 // customergroup, company, pos, partnercompany, ...
			tgTickets   = 4
			tgAdmin     = 6 // user, team, ...
		)
		grant(t, d, lead, tgPortfolio)
		grant(t, d, lead, tgTickets)
		grant(t, d, lead, tgAdmin)
		grant(t, d, partner, tgPortfolio)
		grant(t, d, extMember, tgTickets)
		leadID := queryInt(t, d, `SELECT user_id FROM users WHERE user_email = ?`, lead)
		memberID := queryInt(t, d, `SELECT user_id FROM users WHERE user_email = ?`, extMember)

		// Companies 1 and 2 are customer group 1's, 3 is group 2's.
		contact1 := s.fresh("contactperson", obj{"company_id": 1})
		contact2 := s.fresh("contactperson", obj{"company_id": 2})
		pos := func(company, contact int64) obj {
			return obj{"action": "create", "entity": "pos", "data": s.data(mustEntity("pos"),
				obj{"company_id": company, "contactperson_id": contact})}
		}
		posA := id(e.mustOK(admin, pos(1, contact1)), "pos_id")
		posA2 := id(e.mustOK(admin, pos(2, contact2)), "pos_id")
		update := func(entity string, id, version int64, data obj) obj {
			return obj{"action": "update", "entity": entity, "id": id, "row_version": version, "data": data}
		}
		// A stored value outside the options that someone else chose (or
		// that predates the check) stays while the write leaves it alone.
		odd := id(e.mustOK(admin, pos(1, contact1)), "pos_id")
		if _, err := d.ExecContext(context.Background(), `UPDATE pos SET contactperson_id = ? WHERE pos_id = ?`, contact2, odd); err != nil {
			t.Fatal(err)
		}
		contractOf2 := s.fresh("contract", obj{"company_id": 2, "pos_id": posA2})
		ticket := func(over obj) obj {
			data := s.data(mustEntity("ticket"), obj{"pos_id": posA})
			for k, v := range over {
				data[k] = v
			}
			return obj{"action": "create", "entity": "ticket", "data": data}
		}
		// Contract criteria: a choice belongs to its criteria.
		contract := s.fresh("contract", obj{"company_id": 1, "pos_id": posA})
		var crit []int64
		for len(crit) < 2 {
			if c := s.fresh("criteria", nil); c != 1 && c != 39 { // 1 and 39 carry a value
				crit = append(crit, c)
			}
		}
		choiceOf0 := s.fresh("choice", obj{"criteria_id": crit[0]})
		choiceOf1 := s.fresh("choice", obj{"criteria_id": crit[1]})
		criteriaLink := func(choice int64) obj {
			return obj{"action": "link", "entity": "contract_criteria_rel", "id": contract,
				"data": obj{"criteria_id": crit[0], "choice_id": choice, "valid_from": "2024-01-01"}}
		}
		otherPartnerGroup := s.fresh("partnergroup", nil)
		// A ticket an internal user gave to an external team and to lead@.
		adminTicket := id(e.mustOK(admin, ticket(obj{"team_id": seed.TeamExtFM, "user_id": leadID})), "ticket_id")
		notAvailable := func(field string) []string {
			return []string{fmt.Sprintf(`"loc":["body","%s"]`, field), `"type":"not_available"`}
		}

		e.run(t, []scenario{
			// 1. OptionsWhere narrowing by siblings.
			{name: "contact person of another company", as: admin, body: pos(1, contact2), status: 422,
				want: []string{`{"loc":["body","contactperson_id"],"msg":"The selected Contact person is not available","type":"not_available"}`}},
			{name: "in German", as: admin, lang: "de", body: pos(1, contact2), status: 422,
				want: []string{"ist nicht verfügbar"}},
			{name: "in French", as: admin, lang: "fr", body: pos(1, contact2), status: 422,
				want: []string{"n’est pas disponible"}},
			{name: "contact person of the company", as: admin, body: pos(1, contact1), status: 201},
			{name: "update to another company's contact person", as: admin, body: update("pos", posA, 1, obj{"contactperson_id": contact2}),
				status: 422, want: notAvailable("contactperson_id")},
			{name: "update-field too", as: admin, status: 422, want: notAvailable("contactperson_id"),
				body: obj{"action": "update-field", "entity": "pos", "id": posA, "field": "contactperson_id", "value": contact2, "row_version": 1}},
			{name: "moving to another company keeps the contact person out of its options", as: admin,
				body: update("pos", posA, 1, obj{"company_id": 2}), status: 422, want: notAvailable("contactperson_id")},
			{name: "moving with a contact person of the new company", as: admin,
				body: update("pos", posA2, 1, obj{"company_id": 1, "contactperson_id": contact1}), status: 200},
			{name: "a stored odd value stays when the write leaves it alone", as: admin,
				body: update("pos", odd, 1, obj{"pos_name": "Unverändert"}), status: 200},
			{name: "ticket contract of another point of sale", as: admin, body: ticket(obj{"contract_id": contractOf2}), status: 422,
				want: notAvailable("contract_id")},
			{name: "multi-select narrowed by a multi-select", as: admin, status: 422, want: notAvailable("company_id"),
				body: obj{"action": "create", "entity": "team", "data": obj{"team_name": "Kundenteam", "team_type": "extern_client",
					"team_for_all_customer": 0, "customergroup_id": []int64{1}, "company_id": []int64{1, 3}}}},
			{name: "multi-select within its options", as: admin, status: 201,
				body: obj{"action": "create", "entity": "team", "data": obj{"team_name": "Kundenteam", "team_type": "extern_client",
					"team_for_all_customer": 0, "customergroup_id": []int64{1}, "company_id": []int64{1, 2}}}},
			{name: "link attribute of another criteria", as: admin, body: criteriaLink(choiceOf1), status: 422,
				want: notAvailable("choice_id")},
			{name: "link attribute of its criteria", as: admin, body: criteriaLink(choiceOf0), status: 201},

			// 2. External users: customer group, partner group and team fields.
			{name: "customer group pre-filled", as: lead, status: 201, want: []string{`"customergroup_id":1`},
				body: obj{"action": "create", "entity": "company", "data": obj{"company_name": "Eigene Firma", "company_shortname": "EF"}}},
			{name: "own customer group named", as: lead, status: 201, want: []string{`"customergroup_id":1`},
				body: obj{"action": "create", "entity": "company", "data": obj{"customergroup_id": 1, "company_name": "Eigene Firma 2", "company_shortname": "EF2"}}},
			{name: "another customer group", as: lead, status: 422, want: []string{`"loc":["body","customergroup_id"]`},
				body: obj{"action": "create", "entity": "company", "data": obj{"customergroup_id": 2, "company_name": "Fremd", "company_shortname": "FR"}}},
			{name: "partner group pre-filled", as: partner, status: 201, want: []string{`"partnergroup_id":1`},
				body: obj{"action": "create", "entity": "partnercompany", "data": obj{"partnercompany_name": "Eigener Partner", "partnercompany_shortname": "EP"}}},
			{name: "another partner group", as: partner, status: 422, want: []string{`"loc":["body","partnergroup_id"]`},
				body: obj{"action": "create", "entity": "partnercompany", "data": obj{"partnergroup_id": otherPartnerGroup,
					"partnercompany_name": "Fremder Partner", "partnercompany_shortname": "FP"}}},
			{name: "internal users choose any group", as: admin, status: 201, want: []string{fmt.Sprintf(`"partnergroup_id":%d`, otherPartnerGroup)},
				body: obj{"action": "create", "entity": "partnercompany", "data": obj{"partnergroup_id": otherPartnerGroup,
					"partnercompany_name": "Fremder Partner", "partnercompany_shortname": "FP"}}},
			{name: "team pre-filled with the only own team", as: lead, body: ticket(nil), status: 201,
				want: []string{fmt.Sprintf(`"team_id":%d`, seed.TeamExtMVM)}},
			{name: "a team that is not the caller's", as: lead, body: ticket(obj{"team_id": seed.TeamMVM}), status: 422,
				want: notAvailable("team_id")},
			{name: "own team", as: lead, body: ticket(obj{"team_id": seed.TeamExtMVM}), status: 201},
			{name: "multi-select of teams on update", as: lead, status: 422, want: notAvailable("team_id"),
				body: update("user", memberID, 1, obj{"team_id": []int64{seed.TeamExtMVM, seed.TeamExtFM}})},
			{name: "linking a team that is not the caller's", as: lead, status: 422, want: notAvailable("team_id"),
				body: obj{"action": "link", "entity": "user_teams_rel", "id": memberID, "data": obj{"team_id": seed.TeamMVM}}},
			{name: "internal users choose any team", as: admin, body: ticket(obj{"team_id": seed.TeamExtFM}), status: 201},

			// 3. Tickets of non-director external client users: internal
			// teams and themselves.
			{name: "ticket for the caller's own external team", as: extMember, body: ticket(obj{"team_id": seed.TeamExtMVM}), status: 422,
				want: notAvailable("team_id")},
			{name: "ticket for an internal team", as: extMember, body: ticket(obj{"team_id": seed.TeamFM}), status: 201,
				want: []string{fmt.Sprintf(`"team_id":%d`, seed.TeamFM)}},
			{name: "ticket team not pre-filled", as: extMember, body: ticket(nil), status: 201, want: []string{`"team_id":null`}},
			{name: "ticket assigned to someone else", as: extMember, body: ticket(obj{"user_id": leadID}), status: 422,
				want: notAvailable("user_id")},
			{name: "ticket assigned to themselves", as: extMember, body: ticket(obj{"user_id": memberID}), status: 201},
			{name: "update to an external team", as: extMember, body: update("ticket", adminTicket, 1, obj{"team_id": seed.TeamExtMVM}),
				status: 422, want: notAvailable("team_id")},
			{name: "update keeps what an internal user chose", as: extMember, status: 200,
				body: update("ticket", adminTicket, 1, obj{"ticket_name": "Von extern bearbeitet"}),
				want: []string{fmt.Sprintf(`"team_id":%d`, seed.TeamExtFM), fmt.Sprintf(`"user_id":%d`, leadID)}},
			{name: "directors are limited to their own teams instead", as: lead, body: ticket(obj{"team_id": seed.TeamFM}), status: 422,
				want: notAvailable("team_id")},
		})

		// Nothing of the refused writes is stored.
		if n := queryInt(t, d, `SELECT COUNT(*) FROM company WHERE company_name = 'Fremd'`); n != 0 {
			t.Errorf("refused company stored: %d", n)
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM user_team WHERE user_id = ? AND team_id <> ?`, memberID, seed.TeamExtMVM); n != 0 {
			t.Errorf("refused teams stored: %d", n)
		}
	})
}
