package tables_test

import (
	"context"
	"fmt"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
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
		mvmBoard := boardOfTeam(t, d, seed.TeamMVM)
		ticket := func(over obj) obj {
			data := s.data(mustEntity("ticket"), obj{"pos_id": posA, "board_id": mvmBoard["board_id"], "columnx_id": mvmBoard["columnx_id"]})
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

		e.run(t, []apptest.Scenario{
			// 1. OptionsWhere narrowing by siblings.
			{Name: "contact person of another company", As: admin, Body: pos(1, contact2), Status: 422,
				Contains: []string{`{"loc":["body","contactperson_id"],"msg":"The selected Contact person is not available","type":"not_available"}`}},
			{Name: "in German", As: admin, Header: lang("de"), Body: pos(1, contact2), Status: 422,
				Contains: []string{"ist nicht verfügbar"}},
			{Name: "in French", As: admin, Header: lang("fr"), Body: pos(1, contact2), Status: 422,
				Contains: []string{"n’est pas disponible"}},
			{Name: "contact person of the company", As: admin, Body: pos(1, contact1), Status: 201},
			{Name: "update to another company's contact person", As: admin, Body: update("pos", posA, 1, obj{"contactperson_id": contact2}),
				Status: 422, Contains: notAvailable("contactperson_id")},
			{Name: "update-field too", As: admin, Status: 422, Contains: notAvailable("contactperson_id"),
				Body: obj{"action": "update-field", "entity": "pos", "id": posA, "field": "contactperson_id", "value": contact2, "row_version": 1}},
			{Name: "moving to another company keeps the contact person out of its options", As: admin,
				Body: update("pos", posA, 1, obj{"company_id": 2}), Status: 422, Contains: notAvailable("contactperson_id")},
			{Name: "moving with a contact person of the new company", As: admin,
				Body: update("pos", posA2, 1, obj{"company_id": 1, "contactperson_id": contact1}), Status: 200},
			{Name: "a stored odd value stays when the write leaves it alone", As: admin,
				Body: update("pos", odd, 1, obj{"pos_name": "Unverändert"}), Status: 200},
			{Name: "ticket contract of another point of sale", As: admin, Body: ticket(obj{"contract_id": contractOf2}), Status: 422,
				Contains: notAvailable("contract_id")},
			{Name: "multi-select narrowed by a multi-select", As: admin, Status: 422, Contains: notAvailable("company_id"),
				Body: obj{"action": "create", "entity": "team", "data": obj{"team_name": "Kundenteam", "team_type": "extern_client",
					"team_for_all_customer": 0, "customergroup_id": []int64{1}, "company_id": []int64{1, 3}}}},
			{Name: "multi-select within its options", As: admin, Status: 201,
				Body: obj{"action": "create", "entity": "team", "data": obj{"team_name": "Kundenteam", "team_type": "extern_client",
					"team_for_all_customer": 0, "customergroup_id": []int64{1}, "company_id": []int64{1, 2}}}},
			{Name: "link attribute of another criteria", As: admin, Body: criteriaLink(choiceOf1), Status: 422,
				Contains: notAvailable("choice_id")},
			{Name: "link attribute of its criteria", As: admin, Body: criteriaLink(choiceOf0), Status: 201},

			// 2. External users: customer group, partner group and team fields.
			{Name: "customer group pre-filled", As: lead, Status: 201, Contains: []string{`"customergroup_id":1`},
				Body: obj{"action": "create", "entity": "company", "data": obj{"company_name": "Eigene Firma", "company_shortname": "EF"}}},
			{Name: "own customer group named", As: lead, Status: 201, Contains: []string{`"customergroup_id":1`},
				Body: obj{"action": "create", "entity": "company", "data": obj{"customergroup_id": 1, "company_name": "Eigene Firma 2", "company_shortname": "EF2"}}},
			{Name: "another customer group", As: lead, Status: 422, Contains: []string{`"loc":["body","customergroup_id"]`},
				Body: obj{"action": "create", "entity": "company", "data": obj{"customergroup_id": 2, "company_name": "Fremd", "company_shortname": "FR"}}},
			{Name: "partner group pre-filled", As: partner, Status: 201, Contains: []string{`"partnergroup_id":1`},
				Body: obj{"action": "create", "entity": "partnercompany", "data": obj{"partnercompany_name": "Eigener Partner", "partnercompany_shortname": "EP"}}},
			{Name: "another partner group", As: partner, Status: 422, Contains: []string{`"loc":["body","partnergroup_id"]`},
				Body: obj{"action": "create", "entity": "partnercompany", "data": obj{"partnergroup_id": otherPartnerGroup,
					"partnercompany_name": "Fremder Partner", "partnercompany_shortname": "FP"}}},
			{Name: "internal users choose any group", As: admin, Status: 201, Contains: []string{fmt.Sprintf(`"partnergroup_id":%d`, otherPartnerGroup)},
				Body: obj{"action": "create", "entity": "partnercompany", "data": obj{"partnergroup_id": otherPartnerGroup,
					"partnercompany_name": "Fremder Partner", "partnercompany_shortname": "FP"}}},
			{Name: "team pre-filled with the only own team", As: lead, Body: ticket(nil), Status: 201,
				Contains: []string{fmt.Sprintf(`"team_id":%d`, seed.TeamExtMVM)}},
			{Name: "a team that is not the caller's", As: lead, Body: ticket(obj{"team_id": seed.TeamMVM}), Status: 422,
				Contains: notAvailable("team_id")},
			{Name: "own team", As: lead, Body: ticket(obj{"team_id": seed.TeamExtMVM}), Status: 201},
			{Name: "multi-select of teams on update", As: lead, Status: 422, Contains: notAvailable("team_id"),
				Body: update("user", memberID, 1, obj{"team_id": []int64{seed.TeamExtMVM, seed.TeamExtFM}})},
			{Name: "linking a team that is not the caller's", As: lead, Status: 422, Contains: notAvailable("team_id"),
				Body: obj{"action": "link", "entity": "user_teams_rel", "id": memberID, "data": obj{"team_id": seed.TeamMVM}}},
			{Name: "internal users choose any team", As: admin, Body: ticket(obj{"team_id": seed.TeamExtFM}), Status: 201},

			// 3. Tickets of non-director external client users: internal
			// teams and themselves.
			{Name: "ticket for the caller's own external team", As: extMember, Body: ticket(obj{"team_id": seed.TeamExtMVM}), Status: 422,
				Contains: notAvailable("team_id")},
			{Name: "ticket for an internal team", As: extMember, Body: ticket(obj{"team_id": seed.TeamFM}), Status: 201,
				Contains: []string{fmt.Sprintf(`"team_id":%d`, seed.TeamFM)}},
			{Name: "ticket team not pre-filled", As: extMember, Body: ticket(nil), Status: 201, Contains: []string{`"team_id":null`}},
			{Name: "ticket assigned to someone else", As: extMember, Body: ticket(obj{"user_id": leadID}), Status: 422,
				Contains: notAvailable("user_id")},
			{Name: "ticket assigned to themselves", As: extMember, Body: ticket(obj{"user_id": memberID}), Status: 201},
			{Name: "update to an external team", As: extMember, Body: update("ticket", adminTicket, 1, obj{"team_id": seed.TeamExtMVM}),
				Status: 422, Contains: notAvailable("team_id")},
			{Name: "update keeps what an internal user chose", As: extMember, Status: 200,
				Body:     update("ticket", adminTicket, 1, obj{"ticket_name": "Von extern bearbeitet"}),
				Contains: []string{fmt.Sprintf(`"team_id":%d`, seed.TeamExtFM), fmt.Sprintf(`"user_id":%d`, leadID)}},
			{Name: "directors are limited to their own teams instead", As: lead, Body: ticket(obj{"team_id": seed.TeamFM}), Status: 422,
				Contains: notAvailable("team_id")},
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
