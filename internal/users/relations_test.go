package users_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"portfolio/internal/db"
	platformclock "portfolio/internal/platform/clock"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
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
		e.run([]apptest.Scenario{
			// Add, with the dates' rule.
			{Name: "add company", Method: "POST", Path: rel(leadID, "companies"), As: admin, Status: 201,
				Body:     map[string]any{"company_id": 1, "valid_from": "2024-01-01", "valid_to": "2024-12-31"},
				Contains: []string{`"company_id":1`, `"valid_from":"2024-01-01"`, `"valid_to":"2024-12-31"`, "The relation was added."}},
			{Name: "add twice", Method: "POST", Path: rel(leadID, "companies"), As: admin, Status: 409,
				Body: map[string]any{"company_id": 1}, Contains: []string{"already linked"}},
			{Name: "valid_to before valid_from", Method: "POST", Path: rel(leadID, "companies"), As: admin, Status: 422,
				Body: map[string]any{"company_id": 2, "valid_from": "2024-05-01", "valid_to": "2024-04-30"}, Contains: []string{"valid_to", "This date must be after"}},
			{Name: "bad date", Method: "POST", Path: rel(leadID, "companies"), As: admin, Status: 422,
				Body: map[string]any{"company_id": 2, "valid_from": "01.05.2024"}, Contains: []string{"valid_from"}},
			{Name: "missing key", Method: "POST", Path: rel(leadID, "companies"), As: admin, Status: 422,
				Body: map[string]any{"valid_from": "2024-05-01"}, Contains: []string{"company_id", "is required"}},
			{Name: "unknown field", Method: "POST", Path: rel(leadID, "companies"), As: admin, Status: 422,
				Body: map[string]any{"company_id": 2, "comment": "x"}, Contains: []string{"comment"}},
			{Name: "unknown company", Method: "POST", Path: rel(leadID, "companies"), As: admin, Status: 422,
				Body: map[string]any{"company_id": 9999}, Contains: []string{"does not exist"}},
			{Name: "unknown user", Method: "POST", Path: rel(999999, "companies"), As: admin, Status: 404, Body: map[string]any{"company_id": 1}},
			// The user's own tenant: an external client user only within their customer group.
			{Name: "foreign company", Method: "POST", Path: rel(leadID, "companies"), As: admin, Status: 422,
				Body: map[string]any{"company_id": 3}, Contains: []string{`"loc":["body","company_id"]`, `"type":"not_available"`}},
			{Name: "foreign customer group", Method: "POST", Path: rel(leadID, "customergroups"), As: admin, Status: 422,
				Body: map[string]any{"customergroup_id": 2}, Contains: []string{`"loc":["body","customergroup_id"]`, `"type":"not_available"`}},
			{Name: "own customer group", Method: "POST", Path: rel(leadID, "customergroups"), As: admin, Status: 201,
				Body: map[string]any{"customergroup_id": 1, "valid_from": "2024-01-01"}},
			{Name: "foreign pos", Method: "POST", Path: rel(leadID, "pos"), As: admin, Status: 422,
				Body: map[string]any{"pos_id": posB}, Contains: []string{`"loc":["body","pos_id"]`, `"type":"not_available"`}},
			{Name: "own pos", Method: "POST", Path: rel(leadID, "pos"), As: admin, Status: 201,
				Body: map[string]any{"pos_id": posA, "valid_from": "2024-01-01"}},
			{Name: "internal user any group", Method: "POST", Path: rel(memberID, "companies"), As: admin, Status: 201,
				Body: map[string]any{"company_id": 3}},
			// Read through the module and the generic relation read.
			{Name: "read", Method: "GET", Path: rel(leadID, "companies"), As: admin, Status: 200,
				Contains: []string{`"company_id":1`, `"valid_from":"2024-01-01"`, `"valid_to":"2024-12-31"`, `"total":1`}},
			{Name: "read pos", Method: "GET", Path: rel(leadID, "pos") + "?per_page=5", As: admin, Status: 200,
				Contains: []string{fmt.Sprintf(`"pos_id":%d`, posA), `"total":1`}},
			{Name: "read unknown user", Method: "GET", Path: rel(999999, "companies"), As: admin, Status: 404},
			{Name: "read not admin", Method: "GET", Path: rel(leadID, "companies"), As: teamLead, Status: 403},
			// Change the dates: a date not sent is kept, null clears it.
			{Name: "change", Method: "PUT", Path: rel(leadID, "companies", 1), As: admin, Status: 200,
				Body: map[string]any{"valid_to": "2025-06-30"}, Contains: []string{`"valid_from":"2024-01-01"`, `"valid_to":"2025-06-30"`, "The relation was changed."}},
			{Name: "change open-ended", Method: "PUT", Path: rel(leadID, "companies", 1), As: admin, Status: 200,
				Body: map[string]any{"valid_to": nil}, Contains: []string{`"valid_from":"2024-01-01"`, `"valid_to":null`}},
			{Name: "change bad order", Method: "PUT", Path: rel(leadID, "companies", 1), As: admin, Status: 422,
				Body: map[string]any{"valid_to": "2023-12-31"}, Contains: []string{"This date must be after"}},
			{Name: "change other key", Method: "PUT", Path: rel(leadID, "companies", 1), As: admin, Status: 422,
				Body: map[string]any{"company_id": 2}, Contains: []string{"company_id", "cannot be changed here"}},
			{Name: "change not linked", Method: "PUT", Path: rel(leadID, "companies", 2), As: admin, Status: 404,
				Body: map[string]any{"valid_to": "2025-06-30"}},
			// End: the link stops counting today.
			{Name: "end", Method: "DELETE", Path: rel(leadID, "companies", 1), As: admin, Status: 200, Contains: []string{"The relation was ended."}},
			{Name: "end again", Method: "DELETE", Path: rel(leadID, "companies", 1), As: admin, Status: 404},
			{Name: "read ended", Method: "GET", Path: rel(leadID, "companies"), As: admin, Status: 200,
				Contains: []string{fmt.Sprintf(`"valid_to":"%s"`, platformclock.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly))}},
			{Name: "unknown relation", Method: "GET", Path: rel(leadID, "partners"), As: admin, Status: 404},
			{Name: "add not admin", Method: "POST", Path: rel(leadID, "companies"), As: teamLead, Status: 403, Body: map[string]any{"company_id": 2}},
			{Name: "end not admin", Method: "DELETE", Path: rel(leadID, "pos", posA), As: teamLead, Status: 403},
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
		e.run([]apptest.Scenario{{Name: "partner user", Method: "POST", Path: rel(e.userID("pia.partner@demo.test"), "companies"), As: admin, Status: 422,
			Body: map[string]any{"company_id": 1}, Contains: []string{"outside the user's own customer group or partner group"}}})

		// An external administrator: only within their own customer group.
		e.exec(`INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d) VALUES (?, 6, 1, 1, 1, 0)`, leadID)
		extID := e.userID("ext_team_member@demo.test")
		e.run([]apptest.Scenario{
			{Name: "external admin own group", Method: "POST", Path: rel(extID, "companies"), As: lead, Status: 201,
				Body: map[string]any{"company_id": 2, "valid_from": "2024-01-01"}},
			{Name: "external admin foreign company", Method: "POST", Path: rel(extID, "companies"), As: lead, Status: 422,
				Body: map[string]any{"company_id": 3}, Contains: []string{"does not exist"}},
			{Name: "external admin foreign user", Method: "POST", Path: rel(leadBID, "companies"), As: lead, Status: 404,
				Body: map[string]any{"company_id": 3}},
			{Name: "external admin read", Method: "GET", Path: rel(extID, "companies"), As: lead, Status: 200,
				Contains: []string{`"company_id":2`, `"valid_from":"2024-01-01"`}},
			{Name: "external admin read foreign user", Method: "GET", Path: rel(leadBID, "companies"), As: lead, Status: 404},
			{Name: "external admin change", Method: "PUT", Path: rel(extID, "companies", 2), As: lead, Status: 200,
				Body: map[string]any{"valid_to": "2030-12-31"}},
			{Name: "external admin end foreign user", Method: "DELETE", Path: rel(leadBID, "companies", 3), As: lead, Status: 404},
			{Name: "external admin end", Method: "DELETE", Path: rel(extID, "companies", 2), As: lead, Status: 200},
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
		e.run([]apptest.Scenario{
			{Name: "generic link of a foreign company", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body: api("link", map[string]any{"company_id": 3}), Contains: []string{`"loc":["body","company_id"]`, `"type":"not_available"`}},
			{Name: "generic link of an own company", Method: "POST", Path: "/api/", As: admin, Status: 201,
				Body: api("link", map[string]any{"company_id": 1, "valid_from": "2024-01-01"})},
			{Name: "update-link changes the dates", Method: "POST", Path: "/api/", As: admin, Status: 200,
				Body:     api("update-link", map[string]any{"company_id": 1, "valid_to": "2024-06-30"}),
				Contains: []string{`"valid_from":"2024-01-01"`, `"valid_to":"2024-06-30"`}},
			{Name: "update-link keeps the dates in order", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body: api("update-link", map[string]any{"company_id": 1, "valid_to": "2023-12-31"}), Contains: []string{"valid_to"}},
			{Name: "update-link of a pair not linked", Method: "POST", Path: "/api/", As: admin, Status: 404,
				Body: api("update-link", map[string]any{"company_id": 2, "valid_to": "2024-06-30"})},
			{Name: "update-link needs rights", Method: "POST", Path: "/api/", As: lead, Status: 403,
				Body: api("update-link", map[string]any{"company_id": 1, "valid_to": "2024-07-31"})},
			{Name: "the relation as stored", Method: "GET", Path: fmt.Sprintf("/users/%d/companies", leadID), As: admin, Status: 200,
				Contains: []string{`"valid_to":"2024-06-30"`, `"total":1`}},
		})
	})
}
