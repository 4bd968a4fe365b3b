package tables_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

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

// scenario is one API call and what its answer must and must not contain.
type scenario struct {
	name    string
	as      string
	method  string // default POST
	path    string // default /api/
	lang    string // Accept-Language
	body    any
	status  int
	want    []string
	notWant []string
}

func (e *env) run(t *testing.T, scenarios []scenario) {
	t.Helper()
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			method, path := s.method, s.path
			if method == "" {
				method = "POST"
			}
			if path == "" {
				path = "/api/"
			}
			var headers []string
			if s.lang != "" {
				headers = append(headers, "Accept-Language", s.lang)
			}
			res := e.Do(method, path, e.token(s.as), s.body, headers...)
			body := string(res.Body)
			if res.Status != s.status {
				t.Fatalf("status %d, want %d: %s", res.Status, s.status, clip(body))
			}
			for _, w := range s.want {
				if !strings.Contains(body, w) {
					t.Errorf("answer lacks %q: %s", w, clip(body))
				}
			}
			for _, w := range s.notWant {
				if strings.Contains(body, w) {
					t.Errorf("answer contains %q: %s", w, clip(body))
				}
			}
		})
	}
}

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
