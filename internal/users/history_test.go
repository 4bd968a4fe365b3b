package users_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// historyRow is one row of the generic history answer.
type historyRow struct {
	Type    string `json:"trackrecord_type"`
	Changes string `json:"trackrecord_changes"`
	UserID  int64  `json:"user_id"`
}

// history reads the history of a record through POST /api/ (action
// history), newest first, as the generic screens do.
func (e *env) history(entity string, id int64) []historyRow {
	e.t.Helper()
	res := e.ta.Do("POST", "/api/", e.token(admin), map[string]any{"action": "history", "entity": entity, "id": id})
	if res.Status != http.StatusOK {
		e.t.Fatalf("history of %s %d: %d %s", entity, id, res.Status, res.Body)
	}
	var ans struct {
		Data struct {
			Data []historyRow `json:"data"`
		} `json:"data"`
	}
	res.JSON(e.t, &ans)
	return ans.Data.Data
}

// changes decodes a history row's change set.
func (r historyRow) changes(t *testing.T) map[string][2]any {
	t.Helper()
	var m map[string][2]any
	if err := json.Unmarshal([]byte(r.Changes), &m); err != nil {
		t.Fatalf("changes %q: %v", r.Changes, err)
	}
	return m
}

// expectHistory checks that the newest rows of entity id are, newest
// first, of the given types and that each row's changes contain the given
// JSON fragments.
func (e *env) expectHistory(entity string, id int64, want ...[2]string) []historyRow {
	e.t.Helper()
	rows := e.history(entity, id)
	if len(rows) < len(want) {
		e.t.Fatalf("history of %s %d has %d rows, want at least %d: %+v", entity, id, len(rows), len(want), rows)
	}
	for i, w := range want {
		if rows[i].Type != w[0] || !strings.Contains(rows[i].Changes, w[1]) {
			e.t.Errorf("history of %s %d, row %d = %s %s, want %s containing %s", entity, id, i, rows[i].Type, rows[i].Changes, w[0], w[1])
		}
	}
	return rows
}

func (e *env) must(method, path string, body any, want int) []byte {
	e.t.Helper()
	res := e.ta.Do(method, path, e.token(admin), body)
	if res.Status != want {
		e.t.Fatalf("%s %s: %d, want %d: %s", method, path, res.Status, want, res.Body)
	}
	return res.Body
}

func (e *env) version(table, pk string, id int64) int64 {
	e.t.Helper()
	var v int64
	if err := e.ta.DB.QueryRowContext(context.Background(), `SELECT row_version FROM `+table+` WHERE `+pk+` = ?`, id).Scan(&v); err != nil {
		e.t.Fatal(err)
	}
	return v
}

func TestUserHistory(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		adminID := e.userID(admin)
		e.must("POST", "/users", with(internalUser("hist@demo.test"), "user_password", "Geheim12345"), http.StatusCreated)
		id := e.userID("hist@demo.test")
		rows := e.expectHistory("user", id, [2]string{"create", `"user_firstname":[null,"Ida"]`})
		created := rows[0].changes(t)
		if got := created["user_password"]; got[0] != nil || got[1] != "***" {
			t.Errorf("password in the history = %v, want [null, ***]", got)
		}
		if got := fmt.Sprint(created["team_id"]); got != "[<nil> [1]]" {
			t.Errorf("teams in the history = %s", got)
		}
		if rows[0].UserID != adminID {
			t.Errorf("acting user = %d, want %d", rows[0].UserID, adminID)
		}
		e.expectHistory("team", 1, [2]string{"link", fmt.Sprintf(`"users":[null,%d]`, id)})

		// An update records the changed fields only and the teams joined and left.
		v := e.version("users", "user_id", id)
		e.must("PUT", fmt.Sprintf("/users/%d", id), with(internalUser("hist@demo.test"), "user_firstname", "Ina", "team_id", []int{2}), http.StatusOK)
		rows = e.expectHistory("user", id, [2]string{"update", `"user_firstname":["Ida","Ina"]`})
		if c := rows[0].changes(t); len(c) != 2 || fmt.Sprint(c["team_id"]) != "[[1] [2]]" {
			t.Errorf("update changes = %v, want first name and teams only", c)
		}
		if got := e.version("users", "user_id", id); got != v+1 {
			t.Errorf("row_version after the update = %d, want %d", got, v+1)
		}
		e.expectHistory("team", 1, [2]string{"unlink", fmt.Sprintf(`"users":[%d,null]`, id)})
		e.expectHistory("team", 2, [2]string{"link", fmt.Sprintf(`"users":[null,%d]`, id)})

		// An update that changes nothing writes neither a version nor history.
		n := len(e.history("user", id))
		e.must("PUT", fmt.Sprintf("/users/%d", id), with(internalUser("hist@demo.test"), "user_firstname", "Ina", "team_id", []int{2}), http.StatusOK)
		if len(e.history("user", id)) != n || e.version("users", "user_id", id) != v+1 {
			t.Errorf("an update without changes wrote history or a version")
		}

		// Administrator actions.
		e.exec(`UPDATE users SET user_wrong_password_counter = 3 WHERE user_id = ?`, id)
		e.must("POST", fmt.Sprintf("/users/%d/lock", id), nil, http.StatusOK)
		e.expectHistory("user", id, [2]string{"update", `"user_locked":[0,1]`})
		e.must("POST", fmt.Sprintf("/users/%d/unlock", id), nil, http.StatusOK)
		e.expectHistory("user", id, [2]string{"update", `"user_wrong_password_counter":[3,0]`})
		e.must("POST", fmt.Sprintf("/users/%d/force-password-reset", id), nil, http.StatusOK)
		e.expectHistory("user", id, [2]string{"update", `"user_password_reset_required":[0,1]`})
		n, v = len(e.history("user", id)), e.version("users", "user_id", id)
		e.must("POST", fmt.Sprintf("/users/%d/end-sessions", id), nil, http.StatusOK)
		if len(e.history("user", id)) != n || e.version("users", "user_id", id) != v {
			t.Errorf("ending the sessions changed the record's history or version")
		}

		// Memberships through /teams/users, on both ends.
		e.must("PUT", "/teams/users", map[string]any{"team_id": 3, "user_id": id, "valid_from": "2024-01-01"}, http.StatusOK)
		e.expectHistory("user", id, [2]string{"link", `"teams":[null,3]`})
		e.expectHistory("team", 3, [2]string{"link", fmt.Sprintf(`"users":[null,%d]`, id)})
		e.must("PUT", "/teams/users", map[string]any{"team_id": 3, "user_id": id, "valid_from": "2024-01-01", "valid_to": "2024-06-30"}, http.StatusOK)
		e.expectHistory("user", id, [2]string{"update",
			`"teams":[{"team_id":3,"valid_from":"2024-01-01","valid_to":null},{"team_id":3,"valid_from":"2024-01-01","valid_to":"2024-06-30"}]`})
		n = len(e.history("team", 3))
		e.must("PUT", "/teams/users", map[string]any{"team_id": 3, "user_id": id, "valid_from": "2024-01-01", "valid_to": "2024-06-30"}, http.StatusOK)
		if len(e.history("team", 3)) != n {
			t.Errorf("saving an unchanged membership wrote history")
		}
		e.must("DELETE", "/teams/users", map[string]any{"team_id": 3, "user_id": id}, http.StatusOK)
		e.expectHistory("user", id, [2]string{"unlink", `"teams":[3,null]`})
		e.expectHistory("team", 3, [2]string{"unlink", fmt.Sprintf(`"users":[%d,null]`, id)})
	})
}

func TestTeamHistory(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		var created struct {
			ID int64 `json:"team_id"`
		}
		body := e.must("POST", "/teams", map[string]any{"team_name": "Historie", "team_type": "extern_client", "parent_id": 1,
			"team_for_all_customer": 0, "customergroup_id": []int{1}, "role_id": []int{5}}, http.StatusCreated)
		if err := json.Unmarshal(body, &created); err != nil {
			t.Fatal(err)
		}
		id := created.ID
		e.expectHistory("team", id, [2]string{"create", `"team_name":[null,"Historie"]`})
		rows := e.history("team", id)
		if c := rows[0].changes(t); fmt.Sprint(c["customergroup_id"]) != "[<nil> [1]]" || fmt.Sprint(c["roles"]) != "[<nil> [5]]" {
			t.Errorf("create changes = %v", c)
		}
		e.must("PUT", "/teams", map[string]any{"team_id": id, "team_name": "Historie 2", "team_type": "extern_client", "parent_id": 1,
			"customergroup_id": []int{1, 2}}, http.StatusOK)
		rows = e.expectHistory("team", id, [2]string{"update", `"team_name":["Historie","Historie 2"]`})
		if c := rows[0].changes(t); fmt.Sprint(c["customergroup_id"]) != "[[1] [1 2]]" || fmt.Sprint(c["roles"]) != "[[5] []]" || len(c) != 3 {
			t.Errorf("update changes = %v", c)
		}
		e.must("PUT", "/teams/users", map[string]any{"team_id": id, "user_id": e.userID(lead)}, http.StatusOK)
		e.must("DELETE", "/teams", map[string]any{"team_ids": []int64{id}}, http.StatusOK)
		// A deleted record's history is no longer served (404 like the
		// record); the row is there.
		var changes string
		if err := e.ta.DB.QueryRowContext(context.Background(), `SELECT trackrecord_changes FROM trackrecord
			WHERE trackrecord_category = 'team' AND trackrecord_row_id = ? AND trackrecord_type = 'delete'`, id).Scan(&changes); err != nil {
			t.Fatalf("history of the deleted team: %v", err)
		}
		if !strings.Contains(changes, `"team_name":["Historie 2",null]`) {
			t.Errorf("delete changes = %s", changes)
		}
		e.expectHistory("user", e.userID(lead), [2]string{"unlink", fmt.Sprintf(`"teams":[%d,null]`, id)})
	})
}

func TestOptimisticLocking(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		memberID := e.userID(teamMember)
		var user struct {
			Data struct {
				RowVersion int64 `json:"row_version"`
			} `json:"data"`
		}
		e.ta.Do("GET", fmt.Sprintf("/users/%d", memberID), e.token(admin), nil).JSON(t, &user)
		v := user.Data.RowVersion
		if v < 1 {
			t.Fatalf("GET /users/{id} answered row_version %d", v)
		}
		var team struct {
			Data struct {
				RowVersion int64 `json:"row_version"`
			} `json:"data"`
		}
		e.ta.Do("GET", "/teams/4", e.token(admin), nil).JSON(t, &team)
		tv := team.Data.RowVersion
		path := fmt.Sprintf("/users/%d", memberID)
		teamBody := func(name string, version any) map[string]any {
			return map[string]any{"team_id": 4, "team_name": name, "team_type": "intern", "row_version": version}
		}
		e.run([]apptest.Scenario{
			{Name: "team list carries row_version", Method: "GET", Path: "/teams?keyword=FoMa", As: admin, Status: 200, Contains: []string{`"row_version":`}},
			{Name: "user current version", Method: "PUT", Path: path, As: admin, Status: 200,
				Body: with(internalUser(teamMember), "user_firstname", "Tina", "row_version", v)},
			{Name: "user stale version", Method: "PUT", Path: path, As: admin, Status: 409,
				Body:     with(internalUser(teamMember), "user_firstname", "Tanja", "row_version", v),
				Contains: []string{"Someone else changed this record meanwhile", `"code":"stale"`}},
			{Name: "user read back", Method: "GET", Path: path, As: admin, Status: 200,
				Contains: []string{`"user_firstname":"Tina"`, fmt.Sprintf(`"row_version":%d`, v+1)}},
			{Name: "user without version", Method: "PUT", Path: path, As: admin, Status: 200,
				Body: with(internalUser(teamMember), "user_firstname", "Tanja")},
			{Name: "user stale after an update without version", Method: "PUT", Path: path, As: admin, Status: 409,
				Body: with(internalUser(teamMember), "row_version", v+1)},
			{Name: "user next version", Method: "PUT", Path: path, As: admin, Status: 200,
				Body: with(internalUser(teamMember), "user_firstname", "Tina", "row_version", v+2)},
			{Name: "team current version", Method: "PUT", Path: "/teams", As: admin, Status: 200, Body: teamBody("FoMa 2", tv)},
			{Name: "team stale version", Method: "PUT", Path: "/teams", As: admin, Status: 409, Body: teamBody("FoMa 3", tv),
				Contains: []string{"Someone else changed this record meanwhile"}},
			{Name: "team read back", Method: "GET", Path: "/teams/4", As: admin, Status: 200,
				Contains: []string{`"team_name":"FoMa 2"`, fmt.Sprintf(`"row_version":%d`, tv+1)}},
			{Name: "team without version", Method: "PUT", Path: "/teams", As: admin, Status: 200, Body: teamBody("FoMa 3", nil)},
		})
		if got := e.version("team", "team_id", 4); got != tv+2 {
			t.Errorf("team row_version = %d, want %d", got, tv+2)
		}
	})
}
