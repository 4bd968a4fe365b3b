package users_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

type env struct {
	t  *testing.T
	ta *apptest.TestApp
}

func newEnv(t *testing.T, d *db.DB) *env {
	return &env{t: t, ta: apptest.NewApp(t, d)}
}

func (e *env) token(email string) string {
	if email == "" {
		return ""
	}
	return e.ta.Token(email)
}

func (e *env) userID(email string) int64 {
	e.t.Helper()
	var id int64
	if err := e.ta.DB.QueryRowContext(context.Background(), `SELECT user_id FROM users WHERE user_email = ?`, email).Scan(&id); err != nil {
		e.t.Fatalf("user %s: %v", email, err)
	}
	return id
}

func (e *env) exec(query string, args ...any) {
	e.t.Helper()
	if _, err := e.ta.DB.ExecContext(context.Background(), query, args...); err != nil {
		e.t.Fatalf("%s: %v", query, err)
	}
}

func (e *env) run(scenarios []apptest.Scenario) { e.ta.Run(e.t, scenarios) }

const (
	admin      = "admin@demo.test"
	teamLead   = "team_lead@demo.test"
	teamMember = "team_member@demo.test"
	lead       = "lead@demo.test"
	leadB      = "lead.b@demo.test"
)

func internalUser(email string) map[string]any {
	return map[string]any{"usertype_id": 1, "user_firstname": "Ida", "user_lastname": "Intern", "user_email": email, "role_id": 3, "team_id": []int{1}}
}

func externalUser(email string) map[string]any {
	return map[string]any{"usertype_id": 2, "user_firstname": "Eva", "user_lastname": "Extern", "user_email": email, "role_id": 5,
		"company_id": 1, "team_id": []int{6}}
}

func with(m map[string]any, kv ...any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == nil {
			delete(out, kv[i].(string))
			continue
		}
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}

func TestUserRoutes(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		leadID, memberID := e.userID(lead), e.userID(teamMember)
		e.run([]apptest.Scenario{
			{Name: "list", Method: "GET", Path: "/users?per_page=5", As: admin, Status: 200,
				Contains: []string{`"data":[`, `"pagination":{"current_page":1`, `"last_page":`}, Absent: []string{"user_password\"", "user_email_normalized"}},
			{Name: "list keyword", Method: "GET", Path: "/users?keyword=leitner", As: admin, Status: 200,
				Contains: []string{teamLead, `"total":`}, Absent: []string{admin}},
			{Name: "list keyword email", Method: "GET", Path: "/users?keyword=lead.b@", As: admin, Status: 200,
				Contains: []string{leadB, `"total":1`}},
			{Name: "list desc", Method: "GET", Path: "/users?order=desc&per_page=1", As: admin, Status: 200},
			{Name: "list bad order", Method: "GET", Path: "/users?order=up", As: admin, Status: 422, Contains: []string{"asc, desc"}},
			{Name: "list not admin", Method: "GET", Path: "/users", As: teamLead, Status: 403},
			{Name: "list anonymous", Method: "GET", Path: "/users", Status: 401},
			{Name: "read external", Method: "GET", Path: fmt.Sprintf("/users/%d", leadID), As: admin, Status: 200,
				Contains: []string{`"usertype_external":1`, `"customergroup":{"customergroup_id":1`, `"team_id":[6]`, `"role_id":5`,
					`"firmengroup_type":1`, `"user_is_director":1`}},
			{Name: "read missing", Method: "GET", Path: "/users/999999", As: admin, Status: 404},
			{Name: "read not admin", Method: "GET", Path: fmt.Sprintf("/users/%d", memberID), As: teamLead, Status: 403},
			{Name: "create internal", Method: "POST", Path: "/users", As: admin, Body: internalUser("ida@demo.test"), Status: 201,
				Contains: []string{"User Created", `"user_id":`}},
			{Name: "create external", Method: "POST", Path: "/users", As: admin, Body: externalUser("eva@demo.test"), Status: 201},
			{Name: "create partner", Method: "POST", Path: "/users", As: admin, Status: 201,
				Body: with(externalUser("pia@demo.test"), "company_id", nil, "team_id", nil, "role_id", 9, "firmengroup_type", 0, "partnergroup_id", 1, "partnercompany_id", []int{1})},
			{Name: "holiday representative", Method: "POST", Path: "/users", As: admin, Status: 201,
				Body: with(internalUser("rep@demo.test"), "partnercompany_id", []int{1}, "hollyday_representative", 1)},
			{Name: "holiday representative without partners", Method: "POST", Path: "/users", As: admin, Status: 422,
				Body: with(internalUser("rep2@demo.test"), "hollyday_representative", 1), Contains: []string{"hollyday_representative", "does not apply"}},
			{Name: "create taken email", Method: "POST", Path: "/users", As: admin, Body: internalUser(admin), Status: 409},
			{Name: "create not admin", Method: "POST", Path: "/users", As: teamLead, Body: internalUser("x@demo.test"), Status: 403},
			{Name: "create missing names", Method: "POST", Path: "/users", As: admin, Status: 422,
				Body: with(internalUser("y@demo.test"), "user_firstname", ""), Contains: []string{"user_firstname", "is required"}},
			{Name: "create bad email", Method: "POST", Path: "/users", As: admin, Status: 422,
				Body: internalUser("not-an-address"), Contains: []string{"valid email"}},
			{Name: "role must match type", Method: "POST", Path: "/users", As: admin, Status: 422,
				Body: with(externalUser("z@demo.test"), "role_id", 3), Contains: []string{"role_id", "does not match the user type"}},
			{Name: "internal role external type", Method: "POST", Path: "/users", As: admin, Status: 422,
				Body: with(internalUser("z@demo.test"), "role_id", 5), Contains: []string{"does not match the user type"}},
			{Name: "director internal", Method: "POST", Path: "/users", As: admin, Status: 422,
				Body: with(internalUser("z@demo.test"), "user_is_director", 1), Contains: []string{"user_is_director", "only be set for external users"}},
			{Name: "director external", Method: "POST", Path: "/users", As: admin, Status: 201,
				Body: with(externalUser("dir@demo.test"), "user_is_director", 1)},
			{Name: "functions external", Method: "POST", Path: "/users", As: admin, Status: 422,
				Body: with(externalUser("z@demo.test"), "user_functions", []int{1}), Contains: []string{"user_functions", "does not apply"}},
			{Name: "firmengroup internal", Method: "POST", Path: "/users", As: admin, Status: 422,
				Body: with(internalUser("z@demo.test"), "firmengroup_type", 1), Contains: []string{"firmengroup_type", "does not apply"}},
			{Name: "external without group", Method: "POST", Path: "/users", As: admin, Status: 422,
				Body: with(externalUser("z@demo.test"), "company_id", nil), Contains: []string{"firmengroup_type", "is required"}},
			{Name: "client without company", Method: "POST", Path: "/users", As: admin, Status: 422,
				Body: with(externalUser("z@demo.test"), "company_id", nil, "firmengroup_type", 1), Contains: []string{"company_id", "is required"}},
			{Name: "client with partner group", Method: "POST", Path: "/users", As: admin, Status: 422,
				Body: with(externalUser("z@demo.test"), "partnergroup_id", 1), Contains: []string{"partnergroup_id", "does not apply"}},
			{Name: "customer group mismatch", Method: "POST", Path: "/users", As: admin, Status: 422,
				Body: with(externalUser("z@demo.test"), "customergroup_id", 2), Contains: []string{"customergroup_id"}},
			{Name: "partner without companies", Method: "POST", Path: "/users", As: admin, Status: 422,
				Body:     with(externalUser("z@demo.test"), "company_id", nil, "firmengroup_type", 0, "partnergroup_id", 1, "team_id", nil),
				Contains: []string{"partnercompany_id", "is required"}},
			{Name: "external internal team", Method: "POST", Path: "/users", As: admin, Status: 422,
				Body: with(externalUser("z@demo.test"), "team_id", []int{1}), Contains: []string{"team_id", "customer teams"}},
			{Name: "unknown team", Method: "POST", Path: "/users", As: admin, Status: 422,
				Body: with(internalUser("z@demo.test"), "team_id", []int{9999}), Contains: []string{"does not exist"}},
			{Name: "update", Method: "PUT", Path: fmt.Sprintf("/users/%d", memberID), As: admin, Status: 200,
				Body: with(internalUser(teamMember), "user_firstname", "Tina-Marie"), Contains: []string{"User Updated"}},
			{Name: "update read back", Method: "GET", Path: fmt.Sprintf("/users/%d", memberID), As: admin, Status: 200,
				Contains: []string{`"user_firstname":"Tina-Marie"`, `"role_id":3`, `"user_abbreviation":"TM"`}},
			{Name: "update password refused", Method: "PUT", Path: fmt.Sprintf("/users/%d", memberID), As: admin, Status: 422,
				Body: with(internalUser(teamMember), "user_password", "Secret123456"), Contains: []string{"user_password", "cannot be changed here"}},
			{Name: "update role mismatch", Method: "PUT", Path: fmt.Sprintf("/users/%d", memberID), As: admin, Status: 422,
				Body: with(internalUser(teamMember), "role_id", 9), Contains: []string{"does not match the user type"}},
			{Name: "update missing", Method: "PUT", Path: "/users/999999", As: admin, Status: 404, Body: internalUser("q@demo.test")},
			{Name: "update not admin", Method: "PUT", Path: fmt.Sprintf("/users/%d", memberID), As: teamLead, Status: 403, Body: internalUser(teamMember)},
			{Name: "lock not admin", Method: "POST", Path: fmt.Sprintf("/users/%d/lock", memberID), As: teamLead, Status: 403},
			{Name: "lock missing", Method: "POST", Path: "/users/999999/lock", As: admin, Status: 404},
			{Name: "unlock", Method: "POST", Path: fmt.Sprintf("/users/%d/unlock", memberID), As: admin, Status: 200, Contains: []string{"unlocked"}},
		})
	})
}

func TestCreateSendsVerificationMail(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		e.exec(`INSERT INTO function (function_name) VALUES ('Controlling')`)
		var function int64
		if err := e.ta.DB.QueryRowContext(context.Background(), `SELECT MAX(function_id) FROM function`).Scan(&function); err != nil {
			t.Fatal(err)
		}
		res := e.ta.Do("POST", "/users", e.token(admin), with(internalUser("neu@demo.test"), "user_fix_phonenumber", "+49 30 1", "user_functions", []int64{function}))
		if res.Status != http.StatusCreated {
			t.Fatalf("create: %d %s", res.Status, res.Body)
		}
		e.ta.SMTP.WaitFor(t, 10*time.Second, func(m testkit.Mail) bool { return slices.Contains(m.To, "neu@demo.test") })
		var got struct {
			Data struct {
				Abbreviation string  `json:"user_abbreviation"`
				Phone        *string `json:"user_fix_phonenumber"`
				Functions    []int64 `json:"user_functions"`
				Locked       int     `json:"user_locked"`
			} `json:"data"`
		}
		e.ta.Do("GET", fmt.Sprintf("/users/%d", e.userID("neu@demo.test")), e.token(admin), nil).JSON(t, &got)
		if got.Data.Abbreviation != "II" || got.Data.Phone == nil || *got.Data.Phone != "+49 30 1" || len(got.Data.Functions) != 1 || got.Data.Locked != 0 {
			t.Errorf("created user = %+v", got.Data)
		}
	})
}

func TestUpdateRules(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		memberID, adminID := e.userID(teamMember), e.userID(admin)
		e.exec(`UPDATE users SET user_locked = 1, user_wrong_password_counter = 4, hollyday_representative = ? WHERE user_id = ?`, adminID, memberID)
		res := e.ta.Do("PUT", fmt.Sprintf("/users/%d", memberID), e.token(admin), with(internalUser(teamMember), "user_locked", 0))
		if res.Status != http.StatusOK {
			t.Fatalf("unlock through update: %d %s", res.Status, res.Body)
		}
		var locked, counter int
		var rep *int64
		if err := e.ta.DB.QueryRowContext(context.Background(), `SELECT user_locked, user_wrong_password_counter, hollyday_representative FROM users WHERE user_id = ?`,
			memberID).Scan(&locked, &counter, &rep); err != nil {
			t.Fatal(err)
		}
		if locked != 0 || counter != 0 || rep == nil || *rep != adminID {
			t.Errorf("after unlock: locked %d, counter %d, representative %v", locked, counter, rep)
		}
		tok := e.ta.Login(teamMember).AccessToken
		res = e.ta.Do("PUT", fmt.Sprintf("/users/%d", memberID), e.token(admin), with(internalUser(teamMember), "user_locked", 1))
		if res.Status != http.StatusOK {
			t.Fatalf("lock through update: %d %s", res.Status, res.Body)
		}
		if _, status := userTeams(t, e.ta, tok); status != http.StatusUnauthorized {
			t.Errorf("after locking through update the next request answered %d, want 401", status)
		}
	})
}

// userRecord reads GET /user/ for tok: its team ids, or the status.
func userTeams(t *testing.T, ta *apptest.TestApp, tok string) ([]int64, int) {
	t.Helper()
	res := ta.Do("GET", "/user/", tok, nil)
	if res.Status != http.StatusOK {
		return nil, res.Status
	}
	var rec struct {
		TeamIDs []int64 `json:"team_id"`
	}
	res.JSON(t, &rec)
	return rec.TeamIDs, res.Status
}

func TestChangesTakeEffectOnNextRequest(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		memberID := e.userID(teamMember)
		member := e.ta.Login(teamMember).AccessToken
		if teams, _ := userTeams(t, e.ta, member); !slices.Equal(teams, []int64{1}) {
			t.Fatalf("teams before = %v", teams)
		}
		do := func(method, path string, body any, want int) {
			t.Helper()
			if res := e.ta.Do(method, path, e.token(admin), body); res.Status != want {
				t.Fatalf("%s %s: %d %s", method, path, res.Status, res.Body)
			}
		}
		do("PUT", "/teams/users", map[string]any{"team_id": 2, "user_id": memberID, "valid_from": "2020-01-01", "valid_to": nil}, 200)
		if teams, _ := userTeams(t, e.ta, member); !slices.Equal(teams, []int64{1, 2}) {
			t.Errorf("teams after adding = %v", teams)
		}
		do("PUT", "/teams/users", map[string]any{"team_id": 2, "user_id": memberID, "valid_from": "2020-01-01", "valid_to": "2020-12-31"}, 200)
		if teams, _ := userTeams(t, e.ta, member); !slices.Equal(teams, []int64{1}) {
			t.Errorf("teams after ending the membership = %v", teams)
		}
		do("DELETE", "/teams/users", map[string]any{"team_id": 1, "user_id": memberID}, 200)
		if teams, _ := userTeams(t, e.ta, member); len(teams) != 0 {
			t.Errorf("teams after removal = %v", teams)
		}
		for _, action := range []string{"lock", "force-password-reset", "end-sessions"} {
			do("POST", fmt.Sprintf("/users/%d/unlock", memberID), nil, 200)
			e.exec(`UPDATE users SET user_password_reset_required = 0 WHERE user_id = ?`, memberID)
			tok := e.ta.Login(teamMember).AccessToken
			if _, status := userTeams(t, e.ta, tok); status != http.StatusOK {
				t.Fatalf("%s: before: %d", action, status)
			}
			do("POST", fmt.Sprintf("/users/%d/%s", memberID, action), nil, 200)
			if _, status := userTeams(t, e.ta, tok); status != http.StatusUnauthorized {
				t.Errorf("%s: next request answered %d, want 401", action, status)
			}
			var locked, reset int
			if err := e.ta.DB.QueryRowContext(context.Background(), `SELECT user_locked, user_password_reset_required FROM users WHERE user_id = ?`,
				memberID).Scan(&locked, &reset); err != nil {
				t.Fatal(err)
			}
			if (locked == 1) != (action == "lock") || (reset == 1) != (action == "force-password-reset") {
				t.Errorf("%s: locked %d, reset required %d", action, locked, reset)
			}
		}
	})
}

func TestExternalTenant(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		// Give lead@ (customer group 1) rights on the administration tables.
		e.exec(`INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d) VALUES (?, 6, 1, 1, 1, 0)`, e.userID(lead))
		leadBID, extID := e.userID(leadB), e.userID("ext_team_member@demo.test")
		e.run([]apptest.Scenario{
			{Name: "other customer group", Method: "GET", Path: fmt.Sprintf("/users/%d", leadBID), As: lead, Status: 404},
			{Name: "own customer group", Method: "GET", Path: fmt.Sprintf("/users/%d", extID), As: lead, Status: 200},
			{Name: "internal user", Method: "GET", Path: fmt.Sprintf("/users/%d", e.userID(admin)), As: lead, Status: 404},
			{Name: "list", Method: "GET", Path: "/users", As: lead, Status: 200, Contains: []string{"ext_team_member@demo.test"}, Absent: []string{leadB, admin}},
			{Name: "update other group", Method: "PUT", Path: fmt.Sprintf("/users/%d", leadBID), As: lead, Status: 404,
				Body: with(externalUser(leadB), "company_id", 3)},
			{Name: "create forced", Method: "POST", Path: "/users", As: lead, Status: 201,
				Body: with(externalUser("forced@demo.test"), "team_id", []int{7, 8}, "customergroup_id", 2)},
			{Name: "create other company", Method: "POST", Path: "/users", As: lead, Status: 422,
				Body: with(externalUser("other@demo.test"), "company_id", 3), Contains: []string{"customergroup_id"}},
			{Name: "no admin actions", Method: "POST", Path: fmt.Sprintf("/users/%d/lock", extID), As: lead, Status: 403},
		})
		var got struct {
			Data struct {
				TeamIDs []int64 `json:"team_id"`
				CG      int64   `json:"customergroup_id"`
			} `json:"data"`
		}
		e.ta.Do("GET", fmt.Sprintf("/users/%d", e.userID("forced@demo.test")), e.token(admin), nil).JSON(t, &got)
		if !slices.Equal(got.Data.TeamIDs, []int64{6}) || got.Data.CG != 1 {
			t.Errorf("forced user = %+v, want teams [6] and customer group 1", got.Data)
		}
		// Without client teams for the company the user cannot be created.
		e.exec(`UPDATE team SET team_for_all_customer = 0 WHERE team_type = 'extern_client'`)
		e.run([]apptest.Scenario{{Name: "no teams for company", Method: "POST", Path: "/users", As: admin, Status: 422,
			Body: externalUser("noteam@demo.test"), Contains: []string{"No teams are available for the company you selected"}}})
	})
}

func TestTeamRoutes(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		memberID, leadID := e.userID(teamMember), e.userID(lead)
		e.exec(`INSERT INTO team_company (team_id, company_id) VALUES (3, 1)`)
		e.exec(`UPDATE team SET team_for_all_customer = 0 WHERE team_id = 3`)
		e.exec(`INSERT INTO team (team_name, team_type) VALUES ('Unused', 'intern')`)
		var unused int64
		if err := e.ta.DB.QueryRowContext(context.Background(), `SELECT team_id FROM team WHERE team_name = 'Unused'`).Scan(&unused); err != nil {
			t.Fatal(err)
		}
		team := func(kv ...any) map[string]any {
			return with(map[string]any{"team_name": "Neu", "team_type": "intern"}, kv...)
		}
		e.run([]apptest.Scenario{
			{Name: "list", Method: "GET", Path: "/teams", As: admin, Status: 200, Contains: []string{"MVM extern", `"current_page":1`, `"total":11`}},
			{Name: "list page size", Method: "GET", Path: "/teams?per_page=2&page=2&order=desc", As: admin, Status: 200, Contains: []string{`"last_page":6`}},
			{Name: "list keyword", Method: "GET", Path: "/teams?keyword=extern", As: admin, Status: 200, Contains: []string{`"total":4`}},
			{Name: "list keyword literal", Method: "GET", Path: "/teams?keyword=M_M", As: admin, Status: 200, Contains: []string{`"total":0`}},
			{Name: "list company", Method: "GET", Path: "/teams?company_id=1", As: admin, Status: 200, Contains: []string{`"team_id":3`, `"total":11`}},
			{Name: "list other company", Method: "GET", Path: "/teams?company_id=3", As: admin, Status: 200, Contains: []string{`"total":10`}},
			{Name: "list not admin", Method: "GET", Path: "/teams", As: teamLead, Status: 403},
			{Name: "read", Method: "GET", Path: "/teams/3", As: admin, Status: 200, Contains: []string{`"company_id":[1]`, `"users":[`, `"roles":[]`}},
			{Name: "read missing", Method: "GET", Path: "/teams/9999", As: admin, Status: 404},
			{Name: "create", Method: "POST", Path: "/teams", As: admin, Body: team(), Status: 201, Contains: []string{`"team_id":`}},
			{Name: "create client", Method: "POST", Path: "/teams", As: admin, Status: 201,
				Body: team("team_type", "extern_client", "parent_id", 1, "team_for_all_customer", 0, "customergroup_id", []int{1}, "company_id", []int{1})},
			{Name: "create partner", Method: "POST", Path: "/teams", As: admin, Status: 201,
				Body: team("team_type", "extern_partner", "partnergroup_id", []int{1})},
			{Name: "create not admin", Method: "POST", Path: "/teams", As: teamLead, Body: team(), Status: 403},
			{Name: "bad type", Method: "POST", Path: "/teams", As: admin, Body: team("team_type", "other"), Status: 422, Contains: []string{"team_type"}},
			{Name: "missing name", Method: "POST", Path: "/teams", As: admin, Body: team("team_name", ""), Status: 422, Contains: []string{"team_name", "is required"}},
			{Name: "parent on intern", Method: "POST", Path: "/teams", As: admin, Body: team("parent_id", 1), Status: 422, Contains: []string{"parent_id", "does not apply"}},
			{Name: "parent not intern", Method: "POST", Path: "/teams", As: admin, Body: team("team_type", "friendtzieze", "parent_id", 6), Status: 422,
				Contains: []string{"must be another internal team"}},
			{Name: "client needs groups", Method: "POST", Path: "/teams", As: admin, Body: team("team_type", "extern_client", "team_for_all_customer", 0), Status: 422,
				Contains: []string{"customergroup_id", "is required"}},
			{Name: "partner needs groups", Method: "POST", Path: "/teams", As: admin, Body: team("team_type", "extern_partner"), Status: 422,
				Contains: []string{"partnergroup_id", "is required"}},
			{Name: "groups only when not for all", Method: "POST", Path: "/teams", As: admin, Body: team("customergroup_id", []int{1}), Status: 422,
				Contains: []string{"customergroup_id", "does not apply"}},
			{Name: "unknown group", Method: "POST", Path: "/teams", As: admin, Status: 422,
				Body: team("team_type", "extern_client", "team_for_all_customer", 0, "customergroup_id", []int{999}), Contains: []string{"does not exist"}},
			{Name: "update", Method: "PUT", Path: "/teams", As: admin, Body: team("team_id", 4, "team_name", "FoMa neu"), Status: 200},
			{Name: "update read back", Method: "GET", Path: "/teams/4", As: admin, Status: 200, Contains: []string{`"team_name":"FoMa neu"`}},
			{Name: "update for all refused", Method: "PUT", Path: "/teams", As: admin, Body: team("team_id", 4, "team_for_all_customer", 0), Status: 422,
				Contains: []string{"team_for_all_customer", "cannot be changed here"}},
			{Name: "parent stays intern", Method: "PUT", Path: "/teams", As: admin, Body: team("team_id", 1, "team_name", "MVM", "team_type", "friendtzieze"), Status: 422,
				Contains: []string{"team_type", "parent team"}},
			{Name: "update missing", Method: "PUT", Path: "/teams", As: admin, Body: team("team_id", 9999), Status: 404},
			{Name: "update no id", Method: "PUT", Path: "/teams", As: admin, Body: team(), Status: 422},
			{Name: "member dates", Method: "PUT", Path: "/teams/users", As: admin, Status: 422,
				Body: map[string]any{"team_id": 2, "user_id": memberID, "valid_from": "2024-05-01", "valid_to": "2024-04-30"}, Contains: []string{"This date must be after"}},
			{Name: "member bad date", Method: "PUT", Path: "/teams/users", As: admin, Status: 422,
				Body: map[string]any{"team_id": 2, "user_id": memberID, "valid_from": "01.05.2024"}, Contains: []string{"valid_from"}},
			{Name: "member external intern team", Method: "PUT", Path: "/teams/users", As: admin, Status: 422,
				Body: map[string]any{"team_id": 2, "user_id": leadID}, Contains: []string{"customer teams"}},
			{Name: "member unknown user", Method: "PUT", Path: "/teams/users", As: admin, Status: 422,
				Body: map[string]any{"team_id": 2, "user_id": 999999}, Contains: []string{"user_id"}},
			{Name: "member add", Method: "PUT", Path: "/teams/users", As: admin, Status: 200,
				Body: map[string]any{"team_id": 2, "user_id": memberID, "valid_from": "2024-05-01", "valid_to": "2030-01-01"}},
			{Name: "member read back", Method: "GET", Path: "/teams/2", As: admin, Status: 200,
				Contains: []string{fmt.Sprintf(`"user_id":%d`, memberID), `"valid_from":"2024-05-01","valid_to":"2030-01-01"`}},
			{Name: "member not admin", Method: "PUT", Path: "/teams/users", As: teamLead, Status: 403, Body: map[string]any{"team_id": 2, "user_id": memberID}},
			{Name: "member remove", Method: "DELETE", Path: "/teams/users", As: admin, Status: 200, Body: map[string]any{"team_id": 2, "user_id": memberID}},
			{Name: "member remove again", Method: "DELETE", Path: "/teams/users", As: admin, Status: 404, Body: map[string]any{"team_id": 2, "user_id": memberID}},
			{Name: "delete", Method: "DELETE", Path: "/teams", As: admin, Status: 200, Body: map[string]any{"team_ids": []int64{unused}}},
			{Name: "delete again", Method: "DELETE", Path: "/teams", As: admin, Status: 404, Body: map[string]any{"team_ids": []int64{unused}}},
			{Name: "delete used", Method: "DELETE", Path: "/teams", As: admin, Status: 409, Body: map[string]any{"team_ids": []int{10}}},
			{Name: "delete empty", Method: "DELETE", Path: "/teams", As: admin, Status: 422, Body: map[string]any{"team_ids": []int{}}},
			{Name: "delete not admin", Method: "DELETE", Path: "/teams", As: teamLead, Status: 403, Body: map[string]any{"team_ids": []int{4}}},
		})
	})
}

// TestAnswersAreJSON guards the hand-written list encoder.
func TestAnswersAreJSON(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		for _, path := range []string{"/users", "/users?per_page=2&page=3", "/users?keyword=zzzz", "/teams"} {
			res := e.ta.Do("GET", path, e.token(admin), nil)
			var v map[string]any
			if err := json.Unmarshal(res.Body, &v); err != nil || res.Status != 200 {
				t.Errorf("%s: %d %v: %s", path, res.Status, err, res.Body)
			}
		}
	})
}

// TestUserShowsLastLogin: GET /users/{id} answers when the user last
// logged in; a user who never did has null.
func TestUserShowsLastLogin(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		e.token(lead) // logs lead@ in
		e.run([]apptest.Scenario{
			{Name: "logged in", Method: "GET", Path: fmt.Sprintf("/users/%d", e.userID(lead)), As: admin, Status: 200,
				Contains: []string{`"user_last_login_time":"20`}},
			{Name: "never logged in", Method: "GET", Path: fmt.Sprintf("/users/%d", e.userID(leadB)), As: admin, Status: 200,
				Contains: []string{`"user_last_login_time":null`}},
		})
	})
}

// TestEndedMembershipIsNotATeamOfTheForm: GET /users/{id} lists only teams
// the user belongs to now (or will); choosing an ended team again in PUT
// /users/{id} makes the user a member again from today, on their next
// request.
func TestEndedMembershipIsNotATeamOfTheForm(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		memberID := e.userID(teamMember)
		member := e.ta.Login(teamMember).AccessToken
		user := fmt.Sprintf("/users/%d", memberID)
		e.run([]apptest.Scenario{
			{Name: "end the membership of team 2", Method: "PUT", Path: "/teams/users", As: admin, Status: 200,
				Body: map[string]any{"team_id": 2, "user_id": memberID, "valid_from": "2020-01-01", "valid_to": "2020-12-31"}},
			{Name: "the form shows the current team only", Method: "GET", Path: user, As: admin, Status: 200,
				Contains: []string{`"team_id":[1]`}},
			{Name: "team 2 chosen again", Method: "PUT", Path: user, As: admin, Status: 200,
				Body: with(internalUser(teamMember), "team_id", []int{1, 2})},
			{Name: "both teams now", Method: "GET", Path: user, As: admin, Status: 200,
				Contains: []string{`"team_id":[1,2]`}},
		})
		if teams, _ := userTeams(t, e.ta, member); !slices.Equal(teams, []int64{1, 2}) {
			t.Errorf("teams on the next request = %v, want [1 2]", teams)
		}
	})
}
