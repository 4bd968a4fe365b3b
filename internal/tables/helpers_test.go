package tables_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/testkit/apptest"
)

// Demo logins (internal/seed).
const (
	admin      = "admin@demo.test"
	teamLead   = "team_lead@demo.test"
	teamMember = "team_member@demo.test"
	lead       = "lead@demo.test"   // external, customer group 1
	leadB      = "lead.b@demo.test" // external, customer group 2
	partner    = "partner@demo.test"
	fm         = "fm@demo.test" // external FM team member, customer group 1
)

// env is the whole product on a fresh database with the demo data, and
// the tokens of the demo users who logged in.
type env struct {
	*apptest.TestApp
	t testing.TB
}

func newEnv(t testing.TB, d *db.DB) *env {
	t.Helper()
	return &env{TestApp: apptest.NewApp(t, d), t: t}
}

// token logs email in once and keeps its access token.
func (e *env) token(email string) string {
	e.t.Helper()
	if email == "" {
		return ""
	}
	return e.Token(email)
}

// api posts body to /api/ as the user, with optional header pairs.
func (e *env) api(as string, body any, headers ...string) apptest.Response {
	e.t.Helper()
	return e.Do("POST", "/api/", e.token(as), body, headers...)
}

// obj is a JSON object literal.
type obj = map[string]any

// listAnswer is a read-rich answer.
type listAnswer struct {
	Data struct {
		Data        []map[string]any `json:"data"`
		CurrentPage int              `json:"current_page"`
		PerPage     int              `json:"per_page"`
		From        *int             `json:"from"`
		To          *int             `json:"to"`
		HasMore     bool             `json:"has_more"`
		Total       *int64           `json:"total"`
		TotalAsOf   *time.Time       `json:"total_as_of"`
	} `json:"data"`
	Attributes []map[string]any `json:"attributes"`
}

// list runs a read-rich and decodes it, failing on another status.
func (e *env) list(as string, body obj) listAnswer {
	e.t.Helper()
	body["action"] = "read-rich"
	res := e.api(as, body)
	if res.Status != http.StatusOK {
		e.t.Fatalf("read-rich %v as %s: %d %s", body, as, res.Status, res.Body)
	}
	var a listAnswer
	res.JSON(e.t, &a)
	return a
}

// mustOK posts body and returns the "data" member of a 200 answer.
func (e *env) mustOK(as string, body obj) map[string]any {
	e.t.Helper()
	res := e.api(as, body)
	if res.Status != http.StatusOK && res.Status != http.StatusCreated {
		e.t.Fatalf("%v as %s: %d %s", body, as, res.Status, res.Body)
	}
	var out struct {
		Data map[string]any `json:"data"`
	}
	res.JSON(e.t, &out)
	return out.Data
}

// create creates a row as admin and returns it.
func (e *env) create(entity string, data obj) map[string]any {
	e.t.Helper()
	return e.mustOK(admin, obj{"action": "create", "entity": entity, "data": data})
}

// id reads an id member of a row.
func id(row map[string]any, key string) int64 {
	switch v := row[key].(type) {
	case float64:
		return int64(v)
	case json.Number:
		n, _ := v.Int64()
		return n
	}
	return 0
}

// run runs API scenarios; a scenario without method and path posts to the
// engine's one endpoint, POST /api/.
func (e *env) run(t *testing.T, scenarios []apptest.Scenario) {
	t.Helper()
	for i := range scenarios {
		if scenarios[i].Method == "" {
			scenarios[i].Method = "POST"
		}
		if scenarios[i].Path == "" {
			scenarios[i].Path = "/api/"
		}
	}
	e.Client().Run(t, scenarios)
}

// lang is the header that asks for answers in language l.
func lang(l string) map[string]string { return map[string]string{"Accept-Language": l} }

func clip(s string) string {
	if len(s) > 700 {
		return s[:700] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}

func mustEntity(name string) *schema.Entity {
	e, ok := schema.Get(name)
	if !ok {
		panic("no entity " + name)
	}
	return e
}

// apperrNotFound reports whether err is a 404.
func apperrNotFound(err error) (*apperr.Error, bool) {
	ae, ok := apperr.As(err)
	return ae, ok && ae.Kind == apperr.KindNotFound
}
