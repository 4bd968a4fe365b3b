package users_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// posOf answers a point of sale of customer group cg.
func (e *env) posOf(cg int64) int64 {
	e.t.Helper()
	var id int64
	if err := e.ta.DB.QueryRowContext(context.Background(), `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id
		WHERE c.customergroup_id = ?`, cg).Scan(&id); err != nil {
		e.t.Fatalf("a point of sale of customer group %d: %v", cg, err)
	}
	return id
}

// relationRows reads a user's rows of a dated relation through the
// generic relation read (POST /api/ read-rich on user_<relation>_rel).
func (e *env) relationRows(as, api string, user int64) (int, string) {
	e.t.Helper()
	res := e.ta.Do("POST", "/api/", e.token(as), map[string]any{"action": "read-rich", "entity": api,
		"data": map[string]any{"user_id": user}, "count": true})
	return res.Status, string(res.Body)
}

func TestUserRelations(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		leadID, memberID, leadBID := e.userID(lead), e.userID(teamMember), e.userID(leadB)
		posA, posB := e.posOf(1), e.posOf(2)
		rel := func(user int64, name string, other ...int64) string {
			p := fmt.Sprintf("/users/%d/%s", user, name)
			for _, o := range other {
				p += fmt.Sprintf("/%d", o)
			}
			return p
		}
		e.run([]scenario{
			// Add, with the dates' rule.
			{name: "add company", method: "POST", path: rel(leadID, "companies"), as: admin, status: 201,
				body:     map[string]any{"company_id": 1, "valid_from": "2024-01-01", "valid_to": "2024-12-31"},
				contains: []string{`"company_id":1`, `"valid_from":"2024-01-01"`, `"valid_to":"2024-12-31"`, "The relation was added."}},
			{name: "add twice", method: "POST", path: rel(leadID, "companies"), as: admin, status: 409,
				body: map[string]any{"company_id": 1}, contains: []string{"already linked"}},
			{name: "valid_to before valid_from", method: "POST", path: rel(leadID, "companies"), as: admin, status: 422,
				body: map[string]any{"company_id": 2, "valid_from": "2024-05-01", "valid_to": "2024-04-30"}, contains: []string{"valid_to", "This date must be after"}},
			{name: "bad date", method: "POST", path: rel(leadID, "companies"), as: admin, status: 422,
				body: map[string]any{"company_id": 2, "valid_from": "01.05.2024"}, contains: []string{"valid_from"}},
			{name: "missing key", method: "POST", path: rel(leadID, "companies"), as: admin, status: 422,
				body: map[string]any{"valid_from": "2024-05-01"}, contains: []string{"company_id", "is required"}},
			{name: "unknown field", method: "POST", path: rel(leadID, "companies"), as: admin, status: 422,
				body: map[string]any{"company_id": 2, "comment": "x"}, contains: []string{"comment"}},
			{name: "unknown company", method: "POST", path: rel(leadID, "companies"), as: admin, status: 422,
				body: map[string]any{"company_id": 9999}, contains: []string{"does not exist"}},
			{name: "unknown user", method: "POST", path: rel(999999, "companies"), as: admin, status: 404, body: map[string]any{"company_id": 1}},
			// The user's own tenant: an external client user only within their customer group.
			{name: "foreign company", method: "POST", path: rel(leadID, "companies"), as: admin, status: 422,
				body: map[string]any{"company_id": 3}, contains: []string{"company_id", "outside the user's own customer group"}},
			{name: "foreign customer group", method: "POST", path: rel(leadID, "customergroups"), as: admin, status: 422,
				body: map[string]any{"customergroup_id": 2}, contains: []string{"outside the user's own customer group"}},
			{name: "own customer group", method: "POST", path: rel(leadID, "customergroups"), as: admin, status: 201,
				body: map[string]any{"customergroup_id": 1, "valid_from": "2024-01-01"}},
			{name: "foreign pos", method: "POST", path: rel(leadID, "pos"), as: admin, status: 422,
				body: map[string]any{"pos_id": posB}, contains: []string{"pos_id", "outside the user's own customer group"}},
			{name: "own pos", method: "POST", path: rel(leadID, "pos"), as: admin, status: 201,
				body: map[string]any{"pos_id": posA, "valid_from": "2024-01-01"}},
			{name: "internal user any group", method: "POST", path: rel(memberID, "companies"), as: admin, status: 201,
				body: map[string]any{"company_id": 3}},
			// Read through the module and the generic relation read.
			{name: "read", method: "GET", path: rel(leadID, "companies"), as: admin, status: 200,
				contains: []string{`"company_id":1`, `"valid_from":"2024-01-01"`, `"valid_to":"2024-12-31"`, `"total":1`}},
			{name: "read pos", method: "GET", path: rel(leadID, "pos") + "?per_page=5", as: admin, status: 200,
				contains: []string{fmt.Sprintf(`"pos_id":%d`, posA), `"total":1`}},
			{name: "read unknown user", method: "GET", path: rel(999999, "companies"), as: admin, status: 404},
			{name: "read not admin", method: "GET", path: rel(leadID, "companies"), as: teamLead, status: 403},
			// Change the dates: a date not sent is kept, null clears it.
			{name: "change", method: "PUT", path: rel(leadID, "companies", 1), as: admin, status: 200,
				body: map[string]any{"valid_to": "2025-06-30"}, contains: []string{`"valid_from":"2024-01-01"`, `"valid_to":"2025-06-30"`, "The relation was changed."}},
			{name: "change open-ended", method: "PUT", path: rel(leadID, "companies", 1), as: admin, status: 200,
				body: map[string]any{"valid_to": nil}, contains: []string{`"valid_from":"2024-01-01"`, `"valid_to":null`}},
			{name: "change bad order", method: "PUT", path: rel(leadID, "companies", 1), as: admin, status: 422,
				body: map[string]any{"valid_to": "2023-12-31"}, contains: []string{"This date must be after"}},
			{name: "change other key", method: "PUT", path: rel(leadID, "companies", 1), as: admin, status: 422,
				body: map[string]any{"company_id": 2}, contains: []string{"company_id", "cannot be changed here"}},
			{name: "change not linked", method: "PUT", path: rel(leadID, "companies", 2), as: admin, status: 404,
				body: map[string]any{"valid_to": "2025-06-30"}},
			// End: the link stops counting today.
			{name: "end", method: "DELETE", path: rel(leadID, "companies", 1), as: admin, status: 200, contains: []string{"The relation was ended."}},
			{name: "end again", method: "DELETE", path: rel(leadID, "companies", 1), as: admin, status: 404},
			{name: "read ended", method: "GET", path: rel(leadID, "companies"), as: admin, status: 200,
				contains: []string{fmt.Sprintf(`"valid_to":"%s"`, time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly))}},
			{name: "unknown relation", method: "GET", path: rel(leadID, "partners"), as: admin, status: 404},
			{name: "add not admin", method: "POST", path: rel(leadID, "companies"), as: teamLead, status: 403, body: map[string]any{"company_id": 2}},
			{name: "end not admin", method: "DELETE", path: rel(leadID, "pos", posA), as: teamLead, status: 403},
		})
		if status, body := e.relationRows(admin, "user_pos_rel", leadID); status != 200 || !strings.Contains(body, fmt.Sprintf(`"pos_id":%d`, posA)) {
			t.Errorf("generic relation read: %d %s", status, body)
		}
		e.expectHistory("user", leadID,
			[2]string{"unlink", `"companies":[1,null]`},
			[2]string{"update", `"companies":[{"company_id":1,"valid_from":"2024-01-01","valid_to":"2025-06-30"},{"company_id":1,"valid_from":"2024-01-01","valid_to":null}]`},
			[2]string{"update", `"valid_to":"2025-06-30"`},
			[2]string{"link", fmt.Sprintf(`"pos":[null,%d]`, posA)},
			[2]string{"link", `"customergroups":[null,1]`},
			[2]string{"link", `"companies":[null,1]`},
		)

		// An external partner user has no customer groups, companies or
		// points of sale in their tenant.
		e.must("POST", "/users", with(externalUser("pia.partner@demo.test"), "company_id", nil, "team_id", nil, "role_id", 9,
			"firmengroup_type", 0, "partnergroup_id", 1, "partnercompany_id", []int{1}), http.StatusCreated)
		e.run([]scenario{{name: "partner user", method: "POST", path: rel(e.userID("pia.partner@demo.test"), "companies"), as: admin, status: 422,
			body: map[string]any{"company_id": 1}, contains: []string{"outside the user's own customer group or partner group"}}})

		// An external administrator: only within their own customer group.
		e.exec(`INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d) VALUES (?, 6, 1, 1, 1, 0)`, leadID)
		extID := e.userID("ext_team_member@demo.test")
		e.run([]scenario{
			{name: "external admin own group", method: "POST", path: rel(extID, "companies"), as: lead, status: 201,
				body: map[string]any{"company_id": 2, "valid_from": "2024-01-01"}},
			{name: "external admin foreign company", method: "POST", path: rel(extID, "companies"), as: lead, status: 422,
				body: map[string]any{"company_id": 3}, contains: []string{"does not exist"}},
			{name: "external admin foreign user", method: "POST", path: rel(leadBID, "companies"), as: lead, status: 404,
				body: map[string]any{"company_id": 3}},
			{name: "external admin read", method: "GET", path: rel(extID, "companies"), as: lead, status: 200,
				contains: []string{`"company_id":2`, `"valid_from":"2024-01-01"`}},
			{name: "external admin read foreign user", method: "GET", path: rel(leadBID, "companies"), as: lead, status: 404},
			{name: "external admin change", method: "PUT", path: rel(extID, "companies", 2), as: lead, status: 200,
				body: map[string]any{"valid_to": "2030-12-31"}},
			{name: "external admin end foreign user", method: "DELETE", path: rel(leadBID, "companies", 3), as: lead, status: 404},
			{name: "external admin end", method: "DELETE", path: rel(extID, "companies", 2), as: lead, status: 200},
		})
	})
}

// TestRelationsLeaveScope pins decision 0005: a user's dated relations do
// not change what the user sees; their tenant stays their customer group.
func TestRelationsLeaveScope(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		leadID := e.userID(lead)
		count := func() string {
			res := e.ta.Do("POST", "/api/", e.ta.Login(lead).AccessToken, map[string]any{"action": "read-rich", "entity": "pos",
				"per_page": 1, "count": true, "columns": []string{"pos_id"}})
			if res.Status != http.StatusOK {
				t.Fatalf("pos of lead: %d %s", res.Status, res.Body)
			}
			var ans struct {
				Data struct {
					Total int64 `json:"total"`
				} `json:"data"`
			}
			res.JSON(t, &ans)
			return fmt.Sprint(ans.Data.Total)
		}
		before := count()
		e.must("POST", fmt.Sprintf("/users/%d/pos", leadID), map[string]any{"pos_id": e.posOf(1)}, http.StatusCreated)
		e.must("POST", fmt.Sprintf("/users/%d/companies", leadID), map[string]any{"company_id": 2}, http.StatusCreated)
		if after := count(); after != before || before == "0" {
			t.Errorf("points of sale the lead sees: %s before the relations, %s after", before, after)
		}
	})
}

// TestUserRelationsThroughTheGenericAPI: the generic link and update-link
// of the same relations keep the rules of /users/{id}/...: the row within
// the linked user's tenant, the dates in order.
func TestUserRelationsThroughTheGenericAPI(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		leadID := e.userID(lead)
		api := func(action string, data map[string]any) map[string]any {
			return map[string]any{"action": action, "entity": "user_companies_rel", "id": leadID, "data": data}
		}
		e.run([]scenario{
			{name: "generic link of a foreign company", method: "POST", path: "/api/", as: admin, status: 422,
				body: api("link", map[string]any{"company_id": 3}), contains: []string{"outside the user's own customer group"}},
			{name: "generic link of an own company", method: "POST", path: "/api/", as: admin, status: 201,
				body: api("link", map[string]any{"company_id": 1, "valid_from": "2024-01-01"})},
			{name: "update-link changes the dates", method: "POST", path: "/api/", as: admin, status: 200,
				body:     api("update-link", map[string]any{"company_id": 1, "valid_to": "2024-06-30"}),
				contains: []string{`"valid_from":"2024-01-01"`, `"valid_to":"2024-06-30"`}},
			{name: "update-link keeps the dates in order", method: "POST", path: "/api/", as: admin, status: 422,
				body: api("update-link", map[string]any{"company_id": 1, "valid_to": "2023-12-31"}), contains: []string{"valid_to"}},
			{name: "update-link of a pair not linked", method: "POST", path: "/api/", as: admin, status: 404,
				body: api("update-link", map[string]any{"company_id": 2, "valid_to": "2024-06-30"})},
			{name: "update-link needs rights", method: "POST", path: "/api/", as: lead, status: 403,
				body: api("update-link", map[string]any{"company_id": 1, "valid_to": "2024-07-31"})},
			{name: "the relation as stored", method: "GET", path: fmt.Sprintf("/users/%d/companies", leadID), as: admin, status: 200,
				contains: []string{`"valid_to":"2024-06-30"`, `"total":1`}},
		})
	})
}
