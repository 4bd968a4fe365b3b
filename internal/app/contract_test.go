package app_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
	"portfolio/internal/testkit/contract"
)

// TestAnswersFollowTheContract replays the common requests of the scenario
// tests — login, the current user, every action of the generic API,
// tickets — with their usual failures (no token: 401, malformed JSON:
// 400, validation: 422, an operation the definitions rule out: 405, a
// missing row: 404) and checks every answer against docs/api/openapi.yaml
// (internal/testkit/contract): status listed, body valid, exactly one shape
// of a oneOf. With PORTFOLIO_CONTRACT=1 every module's scenario tests are
// checked the same way.
func TestAnswersFollowTheContract(t *testing.T) {
	t.Setenv(contract.Env, "1") // checked when the app's test ends
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		const admin = "admin@demo.test"
		api := func(name string, status int, body string) apptest.Scenario {
			return apptest.Scenario{Name: name, Method: "POST", Path: "/api/", As: admin, Body: body, Status: status}
		}
		var tagID, version int64
		ta.Run(t, []apptest.Scenario{
			{Name: "current user", Method: "GET", Path: "/user/", As: admin, Status: http.StatusOK},
			{Name: "no token", Method: "GET", Path: "/user/", Status: http.StatusUnauthorized},
			{Name: "no token on the generic API", Method: "POST", Path: "/api/", Body: `{"action":"read-rich","entity":"tag"}`, Status: http.StatusUnauthorized},
			api("list", http.StatusOK, `{"action":"read-rich","entity":"pos","per_page":5,"current_page":1,"count":true}`),
			api("list of a relation", http.StatusOK, `{"action":"read-rich","entity":"pos_tag_rel","data":{"pos_id":1},"per_page":5,"current_page":1}`),
			{Name: "create", Method: "POST", Path: "/api/", As: admin, Body: `{"action":"create","entity":"tag","data":{"tag_name":"contract"}}`,
				Status: http.StatusCreated, Check: func(t *testing.T, r apptest.Response) {
					var a struct {
						Data struct {
							ID      int64 `json:"tag_id"`
							Version int64 `json:"row_version"`
						} `json:"data"`
					}
					r.JSON(t, &a)
					tagID, version = a.Data.ID, a.Data.Version
				}},
		})
		ta.Run(t, []apptest.Scenario{
			api("read", http.StatusOK, fmt.Sprintf(`{"action":"read","entity":"tag","id":%d}`, tagID)),
			api("update", http.StatusOK, fmt.Sprintf(`{"action":"update","entity":"tag","id":%d,"row_version":%d,"data":{"tag_name":"contract 2"}}`, tagID, version)),
			api("stale update", http.StatusConflict, fmt.Sprintf(`{"action":"update","entity":"tag","id":%d,"row_version":%d,"data":{"tag_name":"x"}}`, tagID, version)),
			api("update-field", http.StatusOK, fmt.Sprintf(`{"action":"update-field","entity":"tag","id":%d,"row_version":%d,"field":"tag_description","value":"d"}`, tagID, version+1)),
			api("history", http.StatusOK, fmt.Sprintf(`{"action":"history","entity":"tag","id":%d}`, tagID)),
			api("options", http.StatusOK, `{"action":"options","entity":"pos","field":"company_id"}`),
			api("validation", http.StatusUnprocessableEntity, `{"action":"create","entity":"tag","data":{}}`),
			api("malformed JSON", http.StatusBadRequest, `{"action":`),
			api("missing row", http.StatusNotFound, `{"action":"read","entity":"tag","id":99999999}`),
			api("written by nobody", http.StatusMethodNotAllowed, `{"action":"create","entity":"contract_criteria","data":{}}`),
			api("delete", http.StatusNoContent, fmt.Sprintf(`{"action":"delete","entity":"tag","id":%d,"row_version":%d}`, tagID, version+2)),
			{Name: "tickets", Method: "GET", Path: "/tickets?per_page=5", As: admin, Status: http.StatusOK},
			{Name: "ticket without a token", Method: "PUT", Path: "/tickets/update", Body: `{}`, Status: http.StatusUnauthorized},
			{Name: "ticket missing", Method: "PUT", Path: "/tickets/update", As: admin, Body: `{"ticket_id":99999999,"row_version":1}`, Status: http.StatusNotFound},
			{Name: "ticket validation", Method: "PUT", Path: "/tickets/update", As: admin, Body: `{"row_version":1}`, Status: http.StatusUnprocessableEntity},
		})
		// The contract check itself must catch an undocumented answer.
		t.Run("the check catches a wrong answer", func(t *testing.T) {
			c, err := contract.Load()
			if err != nil {
				t.Fatal(err)
			}
			h := http.Header{"Content-Type": {"application/json"}}
			for _, e := range []contract.Exchange{
				{Method: "POST", Path: "/api/", Status: http.StatusTeapot, Header: h, Body: []byte(`{"detail":"x"}`)},
				{Method: "GET", Path: "/user/", Status: http.StatusUnauthorized, Header: h, Body: []byte(`{"nodetail":1}`)},
			} {
				if p := c.Check(e); p == "" || !strings.Contains(p, e.Method+" ") {
					t.Errorf("%s %s %d: not reported (%q)", e.Method, e.Path, e.Status, p)
				}
			}
		})
	})
}
