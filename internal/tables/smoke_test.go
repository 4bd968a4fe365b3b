package tables_test

import (
	"testing"

	"portfolio/internal/testkit"
)

func TestSmoke(t *testing.T) {
	d := testkit.NewSQLite(t)
	e := newEnv(t, d)
	a := e.list(admin, obj{"entity": "company", "count": true})
	t.Logf("%+v", a.Data)
	b := e.list(lead, obj{"entity": "company", "count": true, "order_by": "customergroup_id__label"})
	t.Logf("%+v", b.Data)
	res := e.api(admin, obj{"action": "read", "entity": "company", "id": 1})
	t.Logf("%s", res.Body[:300])
	res = e.api(admin, obj{"action": "read-rich", "entity": "customergroup_companies_rel", "data": obj{"customergroup_id": 1}})
	t.Logf("%s", res.Body[:400])
	res = e.api(admin, obj{"action": "read-rich", "entity": "user", "filter": []obj{{"field": "user_email", "op": "contains", "value": "LEAD"}}, "columns": []string{"user_email", "company_id__label", "customergroup_id"}})
	t.Logf("%s", res.Body[:600])
}
