package tables_test

import (
	"context"
	"fmt"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
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
		ticket := func(pos int64) obj {
			return obj{"action": "create", "entity": "ticket", "data": s.data(mustEntity("ticket"), obj{"pos_id": pos})}
		}
		read := func(entity string, id int64) obj { return obj{"action": "read", "entity": entity, "id": id} }
		rel := func(entity, key string, id int64) obj {
			return obj{"action": "read-rich", "entity": entity, "data": obj{key: id}, "count": true}
		}
		e.run(t, []scenario{
			{name: "list shows own group only", as: lead, body: obj{"action": "read-rich", "entity": "pos", "count": true}, status: 200,
				want: []string{"Alpha Nord"}, notWant: []string{"Beta Sued"}},
			{name: "other group sees its own", as: leadB, body: obj{"action": "read-rich", "entity": "pos"}, status: 200,
				want: []string{"Beta Sued"}, notWant: []string{"Alpha Nord"}},
			{name: "count is scoped", as: lead, body: obj{"action": "read-rich", "entity": "pos", "count": true, "per_page": 1}, status: 200,
				want: []string{fmt.Sprintf(`"total":%d`, countPos(t, d, 1, 2))}},
			{name: "keyword search is scoped", as: lead, body: obj{"action": "read-rich", "entity": "pos", "filter_all": "Beta"}, status: 200,
				want: []string{`"data":[]`}},
			{name: "filter by id is scoped", as: lead, body: obj{"action": "read-rich", "entity": "pos", "filter": []obj{{"field": "pos_id", "op": "eq", "value": posB}}},
				status: 200, want: []string{`"data":[]`}},
			{name: "read own", as: lead, body: read("pos", posA), status: 200, want: []string{"Alpha Nord"}},
			{name: "read other group is 404", as: lead, body: read("pos", posB), status: 404, notWant: []string{"Beta"}},
			{name: "read missing is the same 404", as: lead, body: read("pos", 999999), status: 404},
			{name: "companies of the other group", as: lead, body: obj{"action": "read-rich", "entity": "company"}, status: 200,
				notWant: []string{"Südmarkt Filialen"}},
			{name: "relation read of own", as: lead, body: rel("pos_contract_rel", "pos_id", posA), status: 200,
				want: []string{"Vertrag Alpha", `"total":1`}},
			{name: "relation read of other group is 404", as: lead, body: rel("pos_contract_rel", "pos_id", posB), status: 404},
			{name: "relation rows are scoped", as: lead, body: rel("customergroup_companies_rel", "customergroup_id", 2), status: 404},
			{name: "history of other group is 404", as: lead, body: obj{"action": "history", "entity": "pos", "id": posB}, status: 404},
			{name: "create in own group", as: lead, body: posData(1, "Lead Filiale"), status: 201, want: []string{"Lead Filiale"}},
			{name: "create for another group's company", as: lead, body: posData(3, "Fremd"), status: 422,
				want: []string{`"loc":["body","company_id"]`, "the selected entry does not exist"}},
			{name: "update of other group is 404", as: lead, status: 404,
				body: obj{"action": "update", "entity": "pos", "id": posB, "row_version": 1, "data": obj{"pos_name": "x"}}},
			{name: "move into another group", as: lead, status: 422,
				body: obj{"action": "update", "entity": "pos", "id": posA, "row_version": 1, "data": obj{"company_id": 3}}},
			{name: "ticket for own pos", as: lead, body: ticket(posA), status: 201},
			{name: "ticket for other group's pos", as: lead, body: ticket(posB), status: 422, want: []string{`"loc":["body","pos_id"]`}},
			{name: "no create right", as: leadB, body: posData(3, "x"), status: 403},
			{name: "partner user sees no points of sale", as: partner, body: obj{"action": "read-rich", "entity": "pos"}, status: 200,
				want: []string{`"data":[]`}},
			{name: "partner user sees locations through the link", as: partner, body: obj{"action": "read-rich", "entity": "location"}, status: 200,
				want: []string{"Partnerobjekt Mitte"}, notWant: []string{"Fremdobjekt Ost"}},
			{name: "partner user sees the areas of those locations only", as: partner, status: 200,
				body: obj{"action": "read-rich", "entity": "area", "filter": []obj{{"field": "location_id", "op": "ne", "value": managed}}},
				want: []string{`"data":[]`}},
			{name: "partner user sees own partner company", as: partner, body: obj{"action": "read-rich", "entity": "partnercompany"}, status: 200,
				want: []string{"Rheinland Immobilien GmbH"}},
			{name: "global entities are not scoped", as: leadB, body: obj{"action": "read-rich", "entity": "tag"}, status: 200,
				want: []string{"tag name"}},
			{name: "internal users see every group", as: teamLead, body: obj{"action": "read-rich", "entity": "pos"}, status: 200,
				want: []string{"Alpha Nord", "Beta Sued"}},
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
