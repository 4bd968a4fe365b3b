package tables_test

import (
	"fmt"
	"net/http"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestLinkListAcrossOwners lists contract_criteria, the criteria
// (conditions) of every contract the caller sees (decision 0012), through
// the generic list, search, sort, paging, counts, export, single reads,
// definitions and saved views: scoped through the owning contract's tenant
// paths (customer groups and the partner path), read-only, gated by list
// on criteria and the contract's criteria tab.
func TestLinkListAcrossOwners(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		posA := s.fresh("pos", obj{"company_id": 1, "pos_name": "Filiale Lindenhof"})
		posB := s.fresh("pos", obj{"company_id": 3, "pos_name": "Filiale Seeblick"})
		contractA := s.fresh("contract", obj{"company_id": 1, "pos_id": posA, "contract_name": "Vertrag Lindenhof"})
		contractB := s.fresh("contract", obj{"company_id": 3, "pos_id": posB, "contract_name": "Vertrag Seeblick"})
		// contractP belongs to group 2 and is managed by the demo partner
		// company: partner@ sees its conditions through the partner path.
		contractP := s.fresh("contract", obj{"company_id": 3, "pos_id": posB, "contract_name": "Vertrag Partnerhaus"})
		e.mustOK(admin, obj{"action": "link", "entity": "contract_partner_company_rel", "id": contractP,
			"data": obj{"partnercompany_id": 1, "partner_role": "manager"}})
		// partner@ (an external team member) gets the contract rights the
		// demo roles give leads.
		giveEveryTableRight(t, d, partner)
		// A criterion with choices (1 and 39 carry a value instead).
		kind := s.fresh("criteriatype", obj{"criteriatype_name": "Nutzungsrechte"})
		crit := s.fresh("criteria", obj{"criteria_name": "Untervermietung", "criteriatype_id": kind})
		for crit == 1 || crit == 39 {
			crit = s.fresh("criteria", obj{"criteria_name": "Untervermietung", "criteriatype_id": kind})
		}
		sublet := s.fresh("choice", obj{"criteria_id": crit, "choice_name": "Ausgeschlossen"})
		condition := func(contract int64, from string) int64 {
			row := e.mustOK(admin, obj{"action": "link", "entity": "contract_criteria_rel", "id": contract,
				"data": obj{"criteria_id": crit, "choice_id": sublet, "valid_from": from, "comment": "Kein Untermieter"}})
			return id(row, "contract_criteria_id")
		}
		condA := condition(contractA, "2024-01-01")
		condA2 := condition(contractA, "2025-01-01") // the same pair again: its own key
		condB := condition(contractB, "2024-02-01")
		condP := condition(contractP, "2024-03-01")
		ours := []int64{condA, condA2, condB, condP}
		mine := func(extra ...obj) []obj {
			return append([]obj{{"field": "contract_criteria_id", "op": "in", "value": ours}}, extra...)
		}
		list := func(body obj) obj {
			body["action"] = "read-rich"
			body["entity"] = "contract_criteria"
			return body
		}
		read := func(id int64) obj { return obj{"action": "read", "entity": "contract_criteria", "id": id} }
		e.run(t, []apptest.Scenario{
			{Name: "administrator lists every contract's conditions", As: admin, Status: 200,
				Body: list(obj{"filter": mine(), "count": true, "order_by": "contract_id__label"}),
				Contains: []string{`"total":4`, `"contract_id__label":"Vertrag Lindenhof"`, `"contract_id__label":"Vertrag Seeblick"`,
					`"criteria_id__label":"Untervermietung"`, `"choice_id__label":"Ausgeschlossen"`,
					`"contract_pos_name":"Filiale Lindenhof"`, `"valid_from":"2024-01-01"`, fmt.Sprintf(`"contract_criteria_id":%d`, condA2)},
				Absent: []string{"row_version"}},
			{Name: "a customer group sees its own contracts' conditions", As: lead, Status: 200,
				Body:     list(obj{"filter": mine(), "count": true}),
				Contains: []string{`"total":2`, "Vertrag Lindenhof"}, Absent: []string{"Seeblick", "Partnerhaus"}},
			{Name: "the other group sees its own", As: leadB, Status: 200,
				Body:     list(obj{"filter": mine(), "count": true}),
				Contains: []string{`"total":2`, "Vertrag Seeblick", "Vertrag Partnerhaus"}, Absent: []string{"Lindenhof"}},
			{Name: "a partner user sees the conditions of the contracts its company manages", As: partner, Status: 200,
				Body:     list(obj{"filter": mine(), "count": true}),
				Contains: []string{`"total":1`, "Vertrag Partnerhaus"}, Absent: []string{"Lindenhof", "Vertrag Seeblick"}},
			{Name: "the whole list is scoped", As: leadB, Status: 200, Body: list(obj{"count": true, "per_page": 500}),
				Absent: []string{"Lindenhof"}},
			{Name: "keyword over the contract's label", As: lead, Status: 200,
				Body: list(obj{"filter_all": "lindenhof", "count": true}), Contains: []string{`"total":2`}},
			{Name: "keyword finds nothing of another group", As: lead, Status: 200,
				Body: list(obj{"filter_all": "Seeblick", "count": true}), Contains: []string{`"total":0`}},
			{Name: "filter on link attributes and labels", As: admin, Status: 200,
				Body: list(obj{"filter": mine(obj{"field": "valid_from", "op": "gte", "value": "2024-02-01"},
					obj{"field": "contract_id__label", "op": "starts_with", "value": "Vertrag S"}), "count": true}),
				Contains: []string{`"total":1`, "Vertrag Seeblick"}},
			{Name: "filter on the owner key", As: admin, Status: 200,
				Body:     list(obj{"data": obj{"contract_id": contractA}, "count": true}),
				Contains: []string{`"total":2`}},
			{Name: "sorted, paged", As: admin, Status: 200,
				Body:     list(obj{"filter": mine(), "order_by": "valid_from", "order_dir": "DESC", "per_page": 1, "current_page": 1}),
				Contains: []string{`"has_more":true`, fmt.Sprintf(`"contract_criteria_id":%d`, condA2)}},
			{Name: "computed columns are not filters", As: admin, Status: 422,
				Body: list(obj{"filter": []obj{{"field": "contract_pos_name", "op": "eq", "value": "x"}}})},
			{Name: "read own", As: lead, Status: 200, Body: read(condA), Contains: []string{"Vertrag Lindenhof"}},
			{Name: "read another group's like a missing one", As: lead, Status: 404, Body: read(condB), Absent: []string{"Seeblick"}},
			{Name: "no create", As: admin, Status: 405,
				Body: obj{"action": "create", "entity": "contract_criteria", "data": obj{"contract_id": contractA, "criteria_id": 3}}},
			{Name: "no update", As: admin, Status: 405,
				Body: obj{"action": "update-field", "entity": "contract_criteria", "id": condA, "field": "comment", "value": "x", "row_version": 1}},
			{Name: "no delete", As: admin, Status: 405, Body: obj{"action": "delete", "entity": "contract_criteria", "id": condA, "row_version": 1}},
			// Rights: list on criteria (the list's own subject) and the
			// contract's criteria tab (read on contract, list on the tab).
			{Name: "without list on criteria", As: "ext_team_member@demo.test", Status: 403, Body: list(obj{})},
			{Name: "without the contract's criteria tab", As: "lawyer@demo.test", Status: 403, Body: list(obj{})},
			{Name: "without any contract right", As: "store_manager@demo.test", Status: 403, Body: list(obj{})},
			{Name: "export without the rights", As: "lawyer@demo.test", Status: 403,
				Body: obj{"action": "export", "entity": "contract_criteria", "format": "csv"}},
			{Name: "single read without the rights", As: "lawyer@demo.test", Status: 403, Body: read(condA)},
			{Name: "the filters' options", As: lead, Status: 200,
				Body:     obj{"action": "options", "entity": "contract_criteria", "field": "contract_id", "filter_all": "Vertrag", "per_page": 500},
				Contains: []string{"Vertrag Lindenhof"}, Absent: []string{"Seeblick"}},
			{Name: "no options without the rights", As: "lawyer@demo.test", Status: 403,
				Body: obj{"action": "options", "entity": "contract_criteria", "field": "criteria_id"}},
			{Name: "definitions", As: lead, Method: "GET", Path: "/api/definitions/contract_criteria", Status: 200,
				Contains: []string{`"primary_key":"contract_criteria_id"`, `"subject":"criteria"`, `"create":false`, `"update":false`,
					`"delete":false`, `"attribute":"contract_pos_name"`, `"attribute_i18n":"Point of sale"`}},
			{Name: "export as a customer group", As: lead, Status: 200,
				Body: obj{"action": "export", "entity": "contract_criteria", "format": "csv", "filter": mine(),
					"columns": []string{"contract_id", "contract_pos_name", "criteria_id", "choice_id", "value", "valid_from", "valid_to"}},
				Contains: []string{"Contract,Point of sale,Criterion,Choice,Value,Valid from,Valid to", "Vertrag Lindenhof,Filiale Lindenhof,Untervermietung,Ausgeschlossen,,2024-01-01,"},
				Absent:   []string{"Seeblick", "Partnerhaus"}},
			{Name: "a saved view of the list", As: lead, Method: "POST", Path: "/api/views", Status: http.StatusCreated,
				Body: obj{"entity": "contract_criteria", "name": "Untervermietung", "settings": obj{
					"filter": []obj{{"field": "criteria_id", "op": "eq", "value": crit}}, "order_by": "contract_id__label",
					"columns": []string{"contract_id", "criteria_id", "choice_id"}}},
				Contains: []string{`"name":"Untervermietung"`}},
			{Name: "the saved views of the list", As: lead, Method: "GET", Path: "/api/views?entity=contract_criteria", Status: 200,
				Contains: []string{`"name":"Untervermietung"`}},
			{Name: "no saved views without the rights", As: "lawyer@demo.test", Method: "GET", Path: "/api/views?entity=contract_criteria", Status: 403},
		})
	})
}
