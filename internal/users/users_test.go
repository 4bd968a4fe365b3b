package users_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// scenario is one request and what its answer must (not) contain.
type scenario struct {
	name     string
	method   string
	path     string
	as       string // demo user email; "" for none
	body     any
	status   int
	contains []string
	absent   []string
}

type env struct {
	t      *testing.T
	ta     *apptest.TestApp
	tokens map[string]string
}

func newEnv(t *testing.T, d *db.DB) *env {
	return &env{t: t, ta: apptest.NewApp(t, d), tokens: map[string]string{}}
}

func (e *env) token(email string) string {
	if email == "" {
		return ""
	}
	if tok, ok := e.tokens[email]; ok {
		return tok
	}
	tok := e.ta.Login(email).AccessToken
	e.tokens[email] = tok
	return tok
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

func (e *env) run(scenarios []scenario) {
	for _, sc := range scenarios {
		e.t.Run(sc.name, func(t *testing.T) {
			res := e.ta.Do(sc.method, sc.path, e.token(sc.as), sc.body)
			body := string(res.Body)
			if res.Status != sc.status {
				t.Fatalf("%s %s: status %d, want %d: %s", sc.method, sc.path, res.Status, sc.status, body)
			}
			for _, want := range sc.contains {
				if !strings.Contains(body, want) {
					t.Errorf("answer lacks %q: %s", want, body)
				}
			}
			for _, not := range sc.absent {
				if strings.Contains(body, not) {
					t.Errorf("answer contains %q: %s", not, body)
				}
			}
		})
	}
}

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
		e.run([]scenario{
			{name: "list", method: "GET", path: "/users?per_page=5", as: admin, status: 200,
				contains: []string{`"data":[`, `"pagination":{"current_page":1`, `"last_page":`}, absent: []string{"user_password\"", "user_email_normalized"}},
			{name: "list keyword", method: "GET", path: "/users?keyword=leitner", as: admin, status: 200,
				contains: []string{teamLead, `"total":`}, absent: []string{admin}},
			{name: "list keyword email", method: "GET", path: "/users?keyword=lead.b@", as: admin, status: 200,
				contains: []string{leadB, `"total":1`}},
			{name: "list desc", method: "GET", path: "/users?order=desc&per_page=1", as: admin, status: 200},
			{name: "list bad order", method: "GET", path: "/users?order=up", as: admin, status: 422, contains: []string{"asc, desc"}},
			{name: "list not admin", method: "GET", path: "/users", as: teamLead, status: 403},
			{name: "list anonymous", method: "GET", path: "/users", status: 401},
			{name: "read external", method: "GET", path: fmt.Sprintf("/users/%d", leadID), as: admin, status: 200,
				contains: []string{`"usertype_external":1`, `"customergroup":{"customergroup_id":1`, `"team_id":[6]`, `"role_id":5`,
					`"firmengroup_type":1`, `"user_is_director":1`}},
			{name: "read missing", method: "GET", path: "/users/999999", as: admin, status: 404},
			{name: "read not admin", method: "GET", path: fmt.Sprintf("/users/%d", memberID), as: teamLead, status: 403},
			{name: "create internal", method: "POST", path: "/users", as: admin, body: internalUser("ida@demo.test"), status: 201,
				contains: []string{"User Created", `"user_id":`}},
			{name: "create external", method: "POST", path: "/users", as: admin, body: externalUser("eva@demo.test"), status: 201},
			{name: "create partner", method: "POST", path: "/users", as: admin, status: 201,
				body: with(externalUser("pia@demo.test"), "company_id", nil, "team_id", nil, "role_id", 9, "firmengroup_type", 0, "partnergroup_id", 1, "partnercompany_id", []int{1})},
			{name: "holiday representative", method: "POST", path: "/users", as: admin, status: 201,
				body: with(internalUser("rep@demo.test"), "partnercompany_id", []int{1}, "hollyday_representative", 1)},
			{name: "holiday representative without partners", method: "POST", path: "/users", as: admin, status: 422,
				body: with(internalUser("rep2@demo.test"), "hollyday_representative", 1), contains: []string{"hollyday_representative", "does not apply"}},
			{name: "create taken email", method: "POST", path: "/users", as: admin, body: internalUser(admin), status: 409},
			{name: "create not admin", method: "POST", path: "/users", as: teamLead, body: internalUser("x@demo.test"), status: 403},
			{name: "create missing names", method: "POST", path: "/users", as: admin, status: 422,
				body: with(internalUser("y@demo.test"), "user_firstname", ""), contains: []string{"user_firstname", "is required"}},
			{name: "create bad email", method: "POST", path: "/users", as: admin, status: 422,
				body: internalUser("not-an-address"), contains: []string{"valid email"}},
			{name: "role must match type", method: "POST", path: "/users", as: admin, status: 422,
				body: with(externalUser("z@demo.test"), "role_id", 3), contains: []string{"role_id", "does not match the user type"}},
			{name: "internal role external type", method: "POST", path: "/users", as: admin, status: 422,
				body: with(internalUser("z@demo.test"), "role_id", 5), contains: []string{"does not match the user type"}},
			{name: "director internal", method: "POST", path: "/users", as: admin, status: 422,
				body: with(internalUser("z@demo.test"), "user_is_director", 1), contains: []string{"user_is_director", "only be set for external users"}},
			{name: "director external", method: "POST", path: "/users", as: admin, status: 201,
				body: with(externalUser("dir@demo.test"), "user_is_director", 1)},
			{name: "functions external", method: "POST", path: "/users", as: admin, status: 422,
				body: with(externalUser("z@demo.test"), "user_functions", []int{1}), contains: []string{"user_functions", "does not apply"}},
			{name: "firmengroup internal", method: "POST", path: "/users", as: admin, status: 422,
				body: with(internalUser("z@demo.test"), "firmengroup_type", 1), contains: []string{"firmengroup_type", "does not apply"}},
			{name: "external without group", method: "POST", path: "/users", as: admin, status: 422,
				body: with(externalUser("z@demo.test"), "company_id", nil), contains: []string{"firmengroup_type", "is required"}},
			{name: "client without company", method: "POST", path: "/users", as: admin, status: 422,
				body: with(externalUser("z@demo.test"), "company_id", nil, "firmengroup_type", 1), contains: []string{"company_id", "is required"}},
			{name: "client with partner group", method: "POST", path: "/users", as: admin, status: 422,
				body: with(externalUser("z@demo.test"), "partnergroup_id", 1), contains: []string{"partnergroup_id", "does not apply"}},
			{name: "customer group mismatch", method: "POST", path: "/users", as: admin, status: 422,
				body: with(externalUser("z@demo.test"), "customergroup_id", 2), contains: []string{"customergroup_id"}},
			{name: "partner without companies", method: "POST", path: "/users", as: admin, status: 422,
				body:     with(externalUser("z@demo.test"), "company_id", nil, "firmengroup_type", 0, "partnergroup_id", 1, "team_id", nil),
				contains: []string{"partnercompany_id", "is required"}},
			{name: "external internal team", method: "POST", path: "/users", as: admin, status: 422,
				body: with(externalUser("z@demo.test"), "team_id", []int{1}), contains: []string{"team_id", "customer teams"}},
			{name: "unknown team", method: "POST", path: "/users", as: admin, status: 422,
				body: with(internalUser("z@demo.test"), "team_id", []int{9999}), contains: []string{"does not exist"}},
			{name: "update", method: "PUT", path: fmt.Sprintf("/users/%d", memberID), as: admin, status: 200,
				body: with(internalUser(teamMember), "user_firstname", "Tina-Marie"), contains: []string{"User Updated"}},
			{name: "update read back", method: "GET", path: fmt.Sprintf("/users/%d", memberID), as: admin, status: 200,
				contains: []string{`"user_firstname":"Tina-Marie"`, `"role_id":3`, `"user_abbreviation":"TM"`}},
			{name: "update password refused", method: "PUT", path: fmt.Sprintf("/users/%d", memberID), as: admin, status: 422,
				body: with(internalUser(teamMember), "user_password", "Secret123456"), contains: []string{"user_password", "cannot be changed here"}},
			{name: "update role mismatch", method: "PUT", path: fmt.Sprintf("/users/%d", memberID), as: admin, status: 422,
				body: with(internalUser(teamMember), "role_id", 9), contains: []string{"does not match the user type"}},
			{name: "update missing", method: "PUT", path: "/users/999999", as: admin, status: 404, body: internalUser("q@demo.test")},
			{name: "update not admin", method: "PUT", path: fmt.Sprintf("/users/%d", memberID), as: teamLead, status: 403, body: internalUser(teamMember)},
			{name: "lock not admin", method: "POST", path: fmt.Sprintf("/users/%d/lock", memberID), as: teamLead, status: 403},
			{name: "lock missing", method: "POST", path: "/users/999999/lock", as: admin, status: 404},
			{name: "unlock", method: "POST", path: fmt.Sprintf("/users/%d/unlock", memberID), as: admin, status: 200, contains: []string{"unlocked"}},
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
		e.run([]scenario{
			{name: "other customer group", method: "GET", path: fmt.Sprintf("/users/%d", leadBID), as: lead, status: 404},
			{name: "own customer group", method: "GET", path: fmt.Sprintf("/users/%d", extID), as: lead, status: 200},
			{name: "internal user", method: "GET", path: fmt.Sprintf("/users/%d", e.userID(admin)), as: lead, status: 404},
			{name: "list", method: "GET", path: "/users", as: lead, status: 200, contains: []string{"ext_team_member@demo.test"}, absent: []string{leadB, admin}},
			{name: "update other group", method: "PUT", path: fmt.Sprintf("/users/%d", leadBID), as: lead, status: 404,
				body: with(externalUser(leadB), "company_id", 3)},
			{name: "create forced", method: "POST", path: "/users", as: lead, status: 201,
				body: with(externalUser("forced@demo.test"), "team_id", []int{7, 8}, "customergroup_id", 2)},
			{name: "create other company", method: "POST", path: "/users", as: lead, status: 422,
				body: with(externalUser("other@demo.test"), "company_id", 3), contains: []string{"customergroup_id"}},
			{name: "no admin actions", method: "POST", path: fmt.Sprintf("/users/%d/lock", extID), as: lead, status: 403},
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
		e.run([]scenario{{name: "no teams for company", method: "POST", path: "/users", as: admin, status: 422,
			body: externalUser("noteam@demo.test"), contains: []string{"No teams are available for the company you selected"}}})
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
		e.run([]scenario{
			{name: "list", method: "GET", path: "/teams", as: admin, status: 200, contains: []string{"MVM extern", `"current_page":1`, `"total":11`}},
			{name: "list page size", method: "GET", path: "/teams?per_page=2&page=2&order=desc", as: admin, status: 200, contains: []string{`"last_page":6`}},
			{name: "list keyword", method: "GET", path: "/teams?keyword=extern", as: admin, status: 200, contains: []string{`"total":4`}},
			{name: "list keyword literal", method: "GET", path: "/teams?keyword=M_M", as: admin, status: 200, contains: []string{`"total":0`}},
			{name: "list company", method: "GET", path: "/teams?company_id=1", as: admin, status: 200, contains: []string{`"team_id":3`, `"total":11`}},
			{name: "list other company", method: "GET", path: "/teams?company_id=3", as: admin, status: 200, contains: []string{`"total":10`}},
			{name: "list not admin", method: "GET", path: "/teams", as: teamLead, status: 403},
			{name: "read", method: "GET", path: "/teams/3", as: admin, status: 200, contains: []string{`"company_id":[1]`, `"users":[`, `"roles":[]`}},
			{name: "read missing", method: "GET", path: "/teams/9999", as: admin, status: 404},
			{name: "create", method: "POST", path: "/teams", as: admin, body: team(), status: 201, contains: []string{`"team_id":`}},
			{name: "create client", method: "POST", path: "/teams", as: admin, status: 201,
				body: team("team_type", "extern_client", "parent_id", 1, "team_for_all_customer", 0, "customergroup_id", []int{1}, "company_id", []int{1})},
			{name: "create partner", method: "POST", path: "/teams", as: admin, status: 201,
				body: team("team_type", "extern_partner", "partnergroup_id", []int{1})},
			{name: "create not admin", method: "POST", path: "/teams", as: teamLead, body: team(), status: 403},
			{name: "bad type", method: "POST", path: "/teams", as: admin, body: team("team_type", "other"), status: 422, contains: []string{"team_type"}},
			{name: "missing name", method: "POST", path: "/teams", as: admin, body: team("team_name", ""), status: 422, contains: []string{"team_name", "is required"}},
			{name: "parent on intern", method: "POST", path: "/teams", as: admin, body: team("parent_id", 1), status: 422, contains: []string{"parent_id", "does not apply"}},
			{name: "parent not intern", method: "POST", path: "/teams", as: admin, body: team("team_type", "friendtzieze", "parent_id", 6), status: 422,
				contains: []string{"must be another internal team"}},
			{name: "client needs groups", method: "POST", path: "/teams", as: admin, body: team("team_type", "extern_client", "team_for_all_customer", 0), status: 422,
				contains: []string{"customergroup_id", "is required"}},
			{name: "partner needs groups", method: "POST", path: "/teams", as: admin, body: team("team_type", "extern_partner"), status: 422,
				contains: []string{"partnergroup_id", "is required"}},
			{name: "groups only when not for all", method: "POST", path: "/teams", as: admin, body: team("customergroup_id", []int{1}), status: 422,
				contains: []string{"customergroup_id", "does not apply"}},
			{name: "unknown group", method: "POST", path: "/teams", as: admin, status: 422,
				body: team("team_type", "extern_client", "team_for_all_customer", 0, "customergroup_id", []int{999}), contains: []string{"does not exist"}},
			{name: "update", method: "PUT", path: "/teams", as: admin, body: team("team_id", 4, "team_name", "FoMa neu"), status: 200},
			{name: "update read back", method: "GET", path: "/teams/4", as: admin, status: 200, contains: []string{`"team_name":"FoMa neu"`}},
			{name: "update for all refused", method: "PUT", path: "/teams", as: admin, body: team("team_id", 4, "team_for_all_customer", 0), status: 422,
				contains: []string{"team_for_all_customer", "cannot be changed here"}},
			{name: "parent stays intern", method: "PUT", path: "/teams", as: admin, body: team("team_id", 1, "team_name", "MVM", "team_type", "friendtzieze"), status: 422,
				contains: []string{"team_type", "parent team"}},
			{name: "update missing", method: "PUT", path: "/teams", as: admin, body: team("team_id", 9999), status: 404},
			{name: "update no id", method: "PUT", path: "/teams", as: admin, body: team(), status: 422},
			{name: "member dates", method: "PUT", path: "/teams/users", as: admin, status: 422,
				body: map[string]any{"team_id": 2, "user_id": memberID, "valid_from": "2024-05-01", "valid_to": "2024-04-30"}, contains: []string{"This date must be after"}},
			{name: "member bad date", method: "PUT", path: "/teams/users", as: admin, status: 422,
				body: map[string]any{"team_id": 2, "user_id": memberID, "valid_from": "01.05.2024"}, contains: []string{"valid_from"}},
			{name: "member external intern team", method: "PUT", path: "/teams/users", as: admin, status: 422,
				body: map[string]any{"team_id": 2, "user_id": leadID}, contains: []string{"customer teams"}},
			{name: "member unknown user", method: "PUT", path: "/teams/users", as: admin, status: 422,
				body: map[string]any{"team_id": 2, "user_id": 999999}, contains: []string{"user_id"}},
			{name: "member add", method: "PUT", path: "/teams/users", as: admin, status: 200,
				body: map[string]any{"team_id": 2, "user_id": memberID, "valid_from": "2024-05-01", "valid_to": "2030-01-01"}},
			{name: "member read back", method: "GET", path: "/teams/2", as: admin, status: 200,
				contains: []string{fmt.Sprintf(`"user_id":%d`, memberID), `"valid_from":"2024-05-01","valid_to":"2030-01-01"`}},
			{name: "member not admin", method: "PUT", path: "/teams/users", as: teamLead, status: 403, body: map[string]any{"team_id": 2, "user_id": memberID}},
			{name: "member remove", method: "DELETE", path: "/teams/users", as: admin, status: 200, body: map[string]any{"team_id": 2, "user_id": memberID}},
			{name: "member remove again", method: "DELETE", path: "/teams/users", as: admin, status: 404, body: map[string]any{"team_id": 2, "user_id": memberID}},
			{name: "delete", method: "DELETE", path: "/teams", as: admin, status: 200, body: map[string]any{"team_ids": []int64{unused}}},
			{name: "delete again", method: "DELETE", path: "/teams", as: admin, status: 404, body: map[string]any{"team_ids": []int64{unused}}},
			{name: "delete used", method: "DELETE", path: "/teams", as: admin, status: 409, body: map[string]any{"team_ids": []int{10}}},
			{name: "delete empty", method: "DELETE", path: "/teams", as: admin, status: 422, body: map[string]any{"team_ids": []int{}}},
			{name: "delete not admin", method: "DELETE", path: "/teams", as: teamLead, status: 403, body: map[string]any{"team_ids": []int{4}}},
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
		e.run([]scenario{
			{name: "logged in", method: "GET", path: fmt.Sprintf("/users/%d", e.userID(lead)), as: admin, status: 200,
				contains: []string{`"user_last_login_time":"20`}},
			{name: "never logged in", method: "GET", path: fmt.Sprintf("/users/%d", e.userID(leadB)), as: admin, status: 200,
				contains: []string{`"user_last_login_time":null`}},
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
		e.run([]scenario{
			{name: "end the membership of team 2", method: "PUT", path: "/teams/users", as: admin, status: 200,
				body: map[string]any{"team_id": 2, "user_id": memberID, "valid_from": "2020-01-01", "valid_to": "2020-12-31"}},
			{name: "the form shows the current team only", method: "GET", path: user, as: admin, status: 200,
				contains: []string{`"team_id":[1]`}},
			{name: "team 2 chosen again", method: "PUT", path: user, as: admin, status: 200,
				body: with(internalUser(teamMember), "team_id", []int{1, 2})},
			{name: "both teams now", method: "GET", path: user, as: admin, status: 200,
				contains: []string{`"team_id":[1,2]`}},
		})
		if teams, _ := userTeams(t, e.ta, member); !slices.Equal(teams, []int64{1, 2}) {
			t.Errorf("teams on the next request = %v, want [1 2]", teams)
		}
	})
}
