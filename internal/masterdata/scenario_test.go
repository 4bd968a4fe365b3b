package masterdata_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit/apptest"
)

// Demo users (internal/seed/demo.go).
const (
	admin    = "admin@demo.test"
	teamLead = "team_lead@demo.test"
	lead     = "lead@demo.test"   // external director, customer group 1
	leadB    = "lead.b@demo.test" // external director, customer group 2
	partner  = "partner@demo.test"
)

// fixture is a test app with its logins cached.
type fixture struct {
	t  *testing.T
	ta *apptest.TestApp
	d  *db.DB
}

func newFixture(t *testing.T, d *db.DB) *fixture {
	return &fixture{t: t, ta: apptest.NewApp(t, d), d: d}
}

func (f *fixture) token(email string) string {
	if email == "" {
		return ""
	}
	return f.ta.Token(email)
}

// do sends one call as email and answers status and body.
func (f *fixture) do(email, method, path string, body any) apptest.Response {
	f.t.Helper()
	return f.ta.Do(method, path, f.token(email), body)
}

// run runs scenarios in order (later ones may depend on earlier writes).
func (f *fixture) run(scenarios []apptest.Scenario) {
	f.t.Helper()
	f.ta.Run(f.t, scenarios)
}

// created runs a create call that must answer 201 and returns the new
// record's key member.
func (f *fixture) created(email, method, path string, body any, key string) int64 {
	f.t.Helper()
	res := f.do(email, method, path, body)
	if res.Status != 201 {
		f.t.Fatalf("%s %s: %d %s", method, path, res.Status, res.Body)
	}
	var ans struct {
		Data map[string]any `json:"data"`
	}
	res.JSON(f.t, &ans)
	id, ok := ans.Data[key].(float64)
	if !ok {
		f.t.Fatalf("%s %s: no %s in %s", method, path, key, res.Body)
	}
	return int64(id)
}

// count answers a COUNT(*) query.
func (f *fixture) count(q string, args ...any) int64 {
	f.t.Helper()
	var n int64
	if err := f.d.QueryRowContext(context.Background(), q, args...).Scan(&n); err != nil {
		f.t.Fatalf("%s: %v", q, err)
	}
	return n
}

func (f *fixture) exec(q string, args ...any) {
	f.t.Helper()
	if _, err := f.d.ExecContext(context.Background(), q, args...); err != nil {
		f.t.Fatalf("%s: %v", q, err)
	}
}

// giveRights gives email c, r, u and d on every table group (not making
// anyone an administrator).
func (f *fixture) giveRights(emails ...string) {
	for _, e := range emails {
		f.exec(`DELETE FROM user_tablegroup WHERE user_id = (SELECT user_id FROM users WHERE user_email = ?)`, e)
		f.exec(`INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
			SELECT u.user_id, g.tablegroup_id, 1, 1, 1, 1 FROM users u, tablegroup g WHERE u.user_email = ?`, e)
	}
}

// version answers the row_version of a row.
func (f *fixture) version(table string, id int64) int64 {
	return f.count(fmt.Sprintf("SELECT row_version FROM %s WHERE %s_id = ?", table, table), id)
}

// firstID answers the smallest key of a query's rows.
func (f *fixture) firstID(q string, args ...any) int64 {
	f.t.Helper()
	id := f.count(q, args...)
	if id == 0 {
		f.t.Fatalf("no row: %s", q)
	}
	return id
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
