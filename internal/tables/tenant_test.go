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

// TestTenantScope checks that external users see and touch only their own
// customer group's rows, on every path: list, count, search, read,
// relation read, writes and references.
func TestTenantScope(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		posA := s.fresh("pos", obj{"company_id": 1, "pos_name": "Alpha Nord"})
		posB := s.fresh("pos", obj{"company_id": 3, "pos_name": "Beta Sued"})
		s.fresh("contract", obj{"company_id": 1, "pos_id": posA, "contract_name": "Vertrag Alpha"})
		s.fresh("contract", obj{"company_id": 3, "pos_id": posB, "contract_name": "Vertrag Beta"})
		// Give lead@ create and update rights on the portfolio tables, so
		// the tenant checks of writes are reached.
		if _, err := d.ExecContext(context.Background(), `INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
			SELECT user_id, 1, 1, 1, 1, 0 FROM users WHERE user_email = ?`, lead); err != nil {
			t.Fatal(err)
		}
		contactA := s.fresh("contactperson", obj{"company_id": 1})
		// A location managed by the demo partner company (a link path).
		managed := s.fresh("location", obj{"company_id": 3, "location_name": "Partnerobjekt Mitte"})
		s.fresh("location", obj{"company_id": 3, "location_name": "Fremdobjekt Ost"})
		e.mustOK(admin, obj{"action": "link", "entity": "location_partnercompany_rel", "id": managed,
			"data": obj{"partnercompany_id": 1, "partnertype_id": s.ensure("partnertype"), "valid_from": "2020-01-01"}})
		s.ensure("tag")
		posData := func(company int64, name string) obj {
			return obj{"action": "create", "entity": "pos", "data": s.data(mustEntity("pos"),
				obj{"company_id": company, "pos_name": name, "contactperson_id": contactA})}
		}
		mvmBoard := boardOfTeam(t, d, seed.TeamMVM)
		ticket := func(pos int64) obj {
			return obj{"action": "create", "entity": "ticket", "data": s.data(mustEntity("ticket"),
				obj{"pos_id": pos, "board_id": mvmBoard["board_id"], "columnx_id": mvmBoard["columnx_id"]})}
		}
		read := func(entity string, id int64) obj { return obj{"action": "read", "entity": entity, "id": id} }
		rel := func(entity, key string, id int64) obj {
			return obj{"action": "read-rich", "entity": entity, "data": obj{key: id}, "count": true}
		}
		e.run(t, []apptest.Scenario{
			{Name: "list shows own group only", As: lead, Body: obj{"action": "read-rich", "entity": "pos", "count": true}, Status: 200,
				Contains: []string{"Alpha Nord"}, Absent: []string{"Beta Sued"}},
			{Name: "other group sees its own", As: leadB, Body: obj{"action": "read-rich", "entity": "pos"}, Status: 200,
				Contains: []string{"Beta Sued"}, Absent: []string{"Alpha Nord"}},
			{Name: "count is scoped", As: lead, Body: obj{"action": "read-rich", "entity": "pos", "count": true, "per_page": 1}, Status: 200,
				Contains: []string{fmt.Sprintf(`"total":%d`, countPos(t, d, 1, 2))}},
			{Name: "keyword search is scoped", As: lead, Body: obj{"action": "read-rich", "entity": "pos", "filter_all": "Beta"}, Status: 200,
				Contains: []string{`"data":[]`}},
			{Name: "filter by id is scoped", As: lead, Body: obj{"action": "read-rich", "entity": "pos", "filter": []obj{{"field": "pos_id", "op": "eq", "value": posB}}},
				Status: 200, Contains: []string{`"data":[]`}},
			{Name: "read own", As: lead, Body: read("pos", posA), Status: 200, Contains: []string{"Alpha Nord"}},
			{Name: "read other group is 404", As: lead, Body: read("pos", posB), Status: 404, Absent: []string{"Beta"}},
			{Name: "read missing is the same 404", As: lead, Body: read("pos", 999999), Status: 404},
			{Name: "companies of the other group", As: lead, Body: obj{"action": "read-rich", "entity": "company"}, Status: 200,
				Absent: []string{"Südmarkt Filialen"}},
			{Name: "relation read of own", As: lead, Body: rel("pos_contract_rel", "pos_id", posA), Status: 200,
				Contains: []string{"Vertrag Alpha", `"total":1`}},
			{Name: "relation read of other group is 404", As: lead, Body: rel("pos_contract_rel", "pos_id", posB), Status: 404},
			{Name: "relation rows are scoped", As: lead, Body: rel("customergroup_companies_rel", "customergroup_id", 2), Status: 404},
			{Name: "history of other group is 404", As: lead, Body: obj{"action": "history", "entity": "pos", "id": posB}, Status: 404},
			{Name: "create in own group", As: lead, Body: posData(1, "Lead Filiale"), Status: 201, Contains: []string{"Lead Filiale"}},
			{Name: "create for another group's company", As: lead, Body: posData(3, "Fremd"), Status: 422,
				Contains: []string{`"loc":["body","company_id"]`, "the selected entry does not exist"}},
			{Name: "update of other group is 404", As: lead, Status: 404,
				Body: obj{"action": "update", "entity": "pos", "id": posB, "row_version": 1, "data": obj{"pos_name": "x"}}},
			{Name: "move into another group", As: lead, Status: 422,
				Body: obj{"action": "update", "entity": "pos", "id": posA, "row_version": 1, "data": obj{"company_id": 3}}},
			{Name: "ticket for own pos", As: lead, Body: ticket(posA), Status: 201},
			{Name: "ticket for other group's pos", As: lead, Body: ticket(posB), Status: 422, Contains: []string{`"loc":["body","pos_id"]`}},
			{Name: "no create right", As: leadB, Body: posData(3, "x"), Status: 403},
			{Name: "partner user sees no points of sale", As: partner, Body: obj{"action": "read-rich", "entity": "pos"}, Status: 200,
				Contains: []string{`"data":[]`}},
			{Name: "partner user sees locations through the link", As: partner, Body: obj{"action": "read-rich", "entity": "location"}, Status: 200,
				Contains: []string{"Partnerobjekt Mitte"}, Absent: []string{"Fremdobjekt Ost"}},
			{Name: "partner user sees the areas of those locations only", As: partner, Status: 200,
				Body:     obj{"action": "read-rich", "entity": "area", "filter": []obj{{"field": "location_id", "op": "ne", "value": managed}}},
				Contains: []string{`"data":[]`}},
			{Name: "partner user sees own partner company", As: partner, Body: obj{"action": "read-rich", "entity": "partnercompany"}, Status: 200,
				Contains: []string{"Rheinland Immobilien GmbH"}},
			{Name: "global entities are not scoped", As: leadB, Body: obj{"action": "read-rich", "entity": "tag"}, Status: 200,
				Contains: []string{"tag name"}},
			{Name: "internal users see every group", As: teamLead, Body: obj{"action": "read-rich", "entity": "pos"}, Status: 200,
				Contains: []string{"Alpha Nord", "Beta Sued"}},
		})
	})
}

func countPos(t *testing.T, d *db.DB, companies ...int64) int {
	t.Helper()
	var n int
	if err := d.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM pos WHERE company_id IN (?, ?)`, companies[0], companies[1]).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
