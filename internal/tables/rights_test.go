package tables_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"portfolio/internal/access"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/seed"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// refRights is a reference evaluator of the permission model, written
// independently of internal/access: it reads the seeded permission tables
// (role, user_role, user_team, crud, tablename, user_tablegroup, access)
// with its own SQL and answers whether a user may do an action on an
// entity. It states the model of docs/security.md in the fewest lines:
//
//   - the administrator (first role named Administratoren or coded admin)
//     may do everything;
//   - otherwise only the first role (lowest user_role_rank, then role id)
//     counts: its crud flags and the user's own table-group flags on the
//     group holding the entity's table (c create, r list+read, u update,
//     d remove), and its table access rows on the entity's subject or
//     access subject whose teams (if any) include one of the user's teams
//     and which name no options.
type refRights struct {
	admin   bool
	allowed map[[2]string]bool // (action, subject)
}

// loadRef reads the reference rights of the user with the given email.
func loadRef(t *testing.T, d *db.DB, email string) refRights {
	t.Helper()
	ctx := context.Background()
	var uid int64
	if err := d.QueryRowContext(ctx, `SELECT user_id FROM users WHERE user_email_normalized = ?`, email).Scan(&uid); err != nil {
		t.Fatalf("user %s: %v", email, err)
	}
	var roleID int64
	var code, name string
	err := d.QueryRowContext(ctx, `SELECT r.role_id, r.role_code, r.role_name FROM user_role ur JOIN role r ON r.role_id = ur.role_id
		WHERE ur.user_id = ? ORDER BY ur.user_role_rank, r.role_id LIMIT 1`, uid).Scan(&roleID, &code, &name)
	if err != nil {
		t.Fatalf("first role of %s: %v", email, err)
	}
	ref := refRights{allowed: map[[2]string]bool{}}
	if code == "admin" || name == "Administratoren" {
		ref.admin = true
		return ref
	}
	teams := map[string]bool{}
	for _, n := range queryStrings(t, d, `SELECT t.team_name FROM user_team ut JOIN team t ON t.team_id = ut.team_id WHERE ut.user_id = ?`, uid) {
		teams[strings.ToLower(n)] = true
	}
	crudRows := func(q string, arg int64) {
		rows, err := d.QueryContext(ctx, q, arg)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var table string
			var c, r, u, del int
			if err := rows.Scan(&table, &c, &r, &u, &del); err != nil {
				t.Fatal(err)
			}
			for action, on := range map[string]bool{"create": c == 1, "list": r == 1, "read": r == 1, "update": u == 1, "remove": del == 1} {
				if on {
					ref.allowed[[2]string{action, table}] = true
				}
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	crudRows(`SELECT n.table_name, c.crud_c, c.crud_r, c.crud_u, c.crud_d FROM crud c JOIN tablename n ON n.tablegroup_id = c.tablegroup_id WHERE c.role_id = ?`, roleID)
	crudRows(`SELECT n.table_name, c.crud_c, c.crud_r, c.crud_u, c.crud_d FROM user_tablegroup c JOIN tablename n ON n.tablegroup_id = c.tablegroup_id WHERE c.user_id = ?`, uid)
	rows, err := d.QueryContext(ctx, `SELECT access_subject, access_action, access_teams, access_options FROM access
		WHERE access_kind = 'table' AND role_code = ?`, code)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var subject, action, teamList, options string
		if err := rows.Scan(&subject, &action, &teamList, &options); err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(options) != "" {
			continue // nobody holds options yet
		}
		ok := strings.TrimSpace(teamList) == ""
		for _, n := range strings.Split(teamList, ",") {
			ok = ok || teams[strings.ToLower(strings.TrimSpace(n))]
		}
		if ok {
			ref.allowed[[2]string{action, subject}] = true
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ref
}

// may reports whether the reference allows action on entity ent.
func (r refRights) may(action string, ent *schema.Entity) bool {
	return r.admin || r.allowed[[2]string{action, ent.Subject}] || r.allowed[[2]string{action, ent.AccessSubject}]
}

// mayTab reports whether the reference allows action (list or update) on
// the relation tab api of owner ent, target tgt (docs/security.md,
// "Relation tabs").
func (r refRights) mayTab(action, api string, governed bool, owner, tgt *schema.Entity) bool {
	if r.admin {
		return true
	}
	if action == "update" {
		if governed {
			return r.allowed[[2]string{"update", api}]
		}
		return r.may("update", owner)
	}
	if !r.may("read", owner) {
		return false
	}
	if governed {
		return r.allowed[[2]string{"list", api}]
	}
	return r.may("list", tgt)
}

func queryStrings(t *testing.T, d *db.DB, q string, args ...any) []string {
	t.Helper()
	rows, err := d.QueryContext(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// mustExec runs statement q on d or fails the test.
func mustExec(t *testing.T, d *db.DB, q string, args ...any) {
	t.Helper()
	if _, err := d.ExecContext(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func queryInt(t *testing.T, d *db.DB, q string, args ...any) int64 {
	t.Helper()
	var n *int64
	if err := d.QueryRowContext(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if n == nil {
		return 0
	}
	return *n
}

// matrixUsers are one user per role (the demo users), plus users the
// demo lacks: an internal member of a team outside MVM and FM (team
// restrictions), an external FM member, and a user whose first role is
// lead and second team_lead (only the first role counts).
var matrixUsers = []string{
	admin, teamLead, teamMember, "lawyer@demo.test", lead, "expansion_manager@demo.test",
	"store_manager@demo.test", "area_manager@demo.test", "ext_team_member@demo.test", "fm@demo.test",
	"nka_member@matrix.test", "lead_then_team_lead@matrix.test",
}

// addMatrixUsers creates the users of matrixUsers the demo data lacks.
func addMatrixUsers(t *testing.T, e *env) {
	t.Helper()
	ctx := context.Background()
	group := int64(1)
	company := int64(1)
	users := []auth.NewUser{
		{Email: "nka_member@matrix.test", FirstName: "Nora", LastName: "NKA", UsertypeID: seed.UsertypeIntern,
			RoleCodes: []string{"team_member"}, TeamIDs: []int64{seed.TeamNKA}, Password: seed.DemoPassword, Verified: true},
		{Email: "lead_then_team_lead@matrix.test", FirstName: "Zwei", LastName: "Rollen", UsertypeID: seed.UsertypeExtern,
			RoleCodes: []string{"lead", "team_lead"}, TeamIDs: []int64{seed.TeamMVM, seed.TeamFM}, Password: seed.DemoPassword, Verified: true,
			CompanyID: &company, CustomergroupID: &group},
	}
	err := e.DB.InTx(ctx, func(tx *db.Tx) error {
		for _, u := range users {
			if _, err := e.Auth.CreateUser(ctx, tx, u); err != nil {
				return fmt.Errorf("create %s: %w", u.Email, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// forbidden reports whether an answer is the rights refusal (403
// server.auth.forbidden), not another 403 such as out_of_scope.
func forbidden(status int, body string) bool {
	return status == http.StatusForbidden && strings.Contains(body, "not authorized")
}

// TestAuthorizationMatrix checks every action (list, read, create, update,
// remove) on every entity for one user per role (and the extra users of
// matrixUsers) through the real API against the reference evaluator over
// the seeded permission tables, and the rules GET /user/ sends the browser
// against the same reference. Operations the definitions rule out answer
// 405 for everybody. Allowed writes are made harmless: create sends no
// values (422 or a new row), update and delete a stale row_version (409).
func TestAuthorizationMatrix(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		addMatrixUsers(t, e)
		reg := schema.Default()
		type op struct {
			action  string
			limited func(*schema.Entity) bool
			body    func(ent *schema.Entity, id int64) obj
		}
		ops := []op{
			{"list", func(x *schema.Entity) bool { return x.Limits.NoGenericList },
				func(x *schema.Entity, _ int64) obj {
					return obj{"action": "read-rich", "entity": x.Name, "per_page": 1}
				}},
			{"read", func(*schema.Entity) bool { return false },
				func(x *schema.Entity, id int64) obj { return obj{"action": "read", "entity": x.Name, "id": id} }},
			{"create", func(x *schema.Entity) bool { return !tables.CreatableGenerically(x) },
				func(x *schema.Entity, _ int64) obj { return obj{"action": "create", "entity": x.Name, "data": obj{}} }},
			{"update", func(x *schema.Entity) bool { return x.Limits.NoUpdate },
				func(x *schema.Entity, id int64) obj {
					return obj{"action": "update", "entity": x.Name, "id": id, "row_version": 987654, "data": obj{}}
				}},
			{"remove", func(x *schema.Entity) bool { return x.Limits.NoDelete },
				func(x *schema.Entity, id int64) obj {
					return obj{"action": "delete", "entity": x.Name, "id": id, "row_version": 987654}
				}},
		}
		// A valid target row per entity: its lowest key.
		targets := map[string]int64{}
		var entities []*schema.Entity
		for _, ent := range reg.Entities() {
			if ent.Name == "savedview" {
				continue
			}
			entities = append(entities, ent)
			table := ent.Table
			if table == "" {
				table = ent.Name
			}
			id := queryInt(t, d, `SELECT MIN(`+ent.PK+`) FROM `+table)
			if id == 0 {
				id = 1
			}
			targets[ent.Name] = id
		}
		checked, allowed := 0, 0
		for _, email := range matrixUsers {
			ref := loadRef(t, d, email)
			t.Run(email, func(t *testing.T) {
				// The rules the browser gets (GET /user/) say the same.
				res := e.Do("GET", "/user/", e.token(email), nil)
				if res.Status != http.StatusOK {
					t.Fatalf("GET /user/: %d %s", res.Status, res.Body)
				}
				var user struct {
					Rules []access.Rule `json:"rules"`
				}
				res.JSON(t, &user)
				for _, ent := range entities {
					for _, o := range ops {
						browser := access.Can(user.Rules, o.action, ent.Subject) || access.Can(user.Rules, o.action, ent.AccessSubject)
						if browser != ref.may(o.action, ent) {
							t.Errorf("GET /user/ rules: %s %s = %v, reference %v", o.action, ent.Name, browser, ref.may(o.action, ent))
						}
					}
				}
				for _, ent := range entities {
					for _, o := range ops {
						res := e.api(email, o.body(ent, targets[ent.Name]))
						body := string(res.Body)
						where := fmt.Sprintf("%s %s as %s", o.action, ent.Name, email)
						switch {
						case res.Status >= 500 || res.Status == http.StatusUnauthorized:
							t.Errorf("%s: %d %s", where, res.Status, clip(body))
						case o.limited(ent):
							if res.Status != http.StatusMethodNotAllowed {
								t.Errorf("%s: limited by the definitions, got %d %s", where, res.Status, clip(body))
							}
						case ref.may(o.action, ent) == forbidden(res.Status, body):
							t.Errorf("%s: reference allows=%v, got %d %s", where, ref.may(o.action, ent), res.Status, clip(body))
						default:
							checked++
							if ref.may(o.action, ent) {
								allowed++
							}
						}
					}
				}
			})
		}
		t.Logf("%d checks, %d allowed", checked, allowed)
		if allowed == 0 || allowed == checked {
			t.Fatalf("degenerate matrix: %d of %d allowed", allowed, checked)
		}
		// Spot checks the reference must agree with (specification, section 6).
		createPos := obj{"action": "create", "entity": "pos", "data": obj{}}
		e.run(t, []apptest.Scenario{
			{Name: "team lead creates points of sale", As: teamLead, Body: createPos, Status: 422},
			{Name: "a second role gives nothing", As: "lead_then_team_lead@matrix.test", Body: createPos, Status: 403},
			{Name: "team member outside MVM and FM cannot create points of sale", As: "nka_member@matrix.test", Body: createPos, Status: 403},
			{Name: "team member outside MVM and FM works on tickets", As: "nka_member@matrix.test",
				Body: obj{"action": "create", "entity": "ticket", "data": obj{}}, Status: 422},
			{Name: "only administrators create companies", As: teamLead, Body: obj{"action": "create", "entity": "company", "data": obj{}}, Status: 403},
			{Name: "external FM member lists service objects", As: "fm@demo.test", Body: obj{"action": "read-rich", "entity": "serviceobject"}, Status: 200},
			{Name: "external MVM member does not", As: "ext_team_member@demo.test", Body: obj{"action": "read-rich", "entity": "serviceobject"}, Status: 403},
		})
	})
}

// TestRelationTabRights checks the relation tabs' own subjects: the tabs
// section 6 singles out, and every tab's read and every many-to-many tab's
// link for five roles against the reference evaluator.
func TestRelationTabRights(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		ownPos := queryInt(t, d, `SELECT MIN(pos_id) FROM pos WHERE company_id = 1`)
		tag := s.ensure("tag")
		if ownPos == 0 {
			t.Fatal("demo data has no point of sale of company 1")
		}
		rel := func(entity, key string, id int64) obj {
			return obj{"action": "read-rich", "entity": entity, "data": obj{key: id}, "per_page": 1}
		}
		link := func(entity string, id int64, data obj) obj {
			return obj{"action": "link", "entity": entity, "id": id, "data": data}
		}
		e.run(t, []apptest.Scenario{
			{Name: "tax rates tab is the administrator's", As: admin, Body: rel("company_tax_rates_rel", "company_id", 1), Status: 200},
			{Name: "team member cannot read tax rates tab", As: teamMember, Body: rel("company_tax_rates_rel", "company_id", 1), Status: 403},
			{Name: "team lead cannot read tax rates tab", As: teamLead, Body: rel("company_tax_rates_rel", "company_id", 1), Status: 403},
			{Name: "team member reads bank data tab", As: teamMember, Body: rel("company_bank_data_rel", "company_id", 1), Status: 200},
			{Name: "lead reads locations of own pos", As: lead, Body: rel("pos_location_rel", "pos_id", ownPos), Status: 200},
			{Name: "lead cannot read bank data tab though bank data is in a readable table group", As: lead,
				Body: rel("company_bank_data_rel", "company_id", 1), Status: 403},
			{Name: "lead cannot read contradiction packages tab", As: lead, Body: rel("pos_contradiction_package_rel", "pos_id", ownPos), Status: 403},
			{Name: "ungoverned tab follows the related entity", As: teamMember, Body: rel("contract_costtype_rel", "contract_id", 1), Status: 200},
			{Name: "lead cannot link tags", As: lead, Body: link("pos_tag_rel", ownPos, obj{"tag_id": tag}), Status: 403},
			{Name: "team member (MVM) links a tag", As: teamMember, Body: link("pos_tag_rel", ownPos, obj{"tag_id": tag}), Status: 201},
			{Name: "team member (MVM) unlinks it", As: teamMember, Body: obj{"action": "unlink", "entity": "pos_tag_rel", "id": ownPos,
				"data": obj{"tag_id": tag}}, Status: 204},
		})
		// Every tab of the registry, read by every non-administrator demo
		// role, against the reference.
		reg := schema.Default()
		for _, email := range []string{teamLead, teamMember, lead, "area_manager@demo.test", "fm@demo.test"} {
			ref := loadRef(t, d, email)
			t.Run("every tab as "+email, func(t *testing.T) {
				for _, owner := range reg.Entities() {
					for i := range owner.Relations {
						r := &owner.Relations[i]
						tgt, _ := reg.Entity(r.Target)
						if tgt.Limits.NoGenericList {
							continue
						}
						api := r.APIName(owner.Name)
						res := e.api(email, rel(api, owner.PK, 1))
						want := ref.mayTab("list", api, governedTab(owner.Name, api), owner, tgt)
						if res.Status >= 500 || want == forbidden(res.Status, string(res.Body)) {
							t.Errorf("read %s: reference allows=%v, got %d %s", api, want, res.Status, clip(string(res.Body)))
						}
						if r.Kind != schema.ManyToMany {
							continue
						}
						// Linking without the other end's key: allowed
						// answers 422 (or 404 for an invisible owner),
						// never links anything.
						res = e.api(email, link(api, 1, obj{}))
						want = ref.mayTab("update", api, governedTab(owner.Name, api), owner, tgt)
						if res.Status >= 500 || res.Status == http.StatusCreated || want == forbidden(res.Status, string(res.Body)) {
							t.Errorf("link %s: reference allows=%v, got %d %s", api, want, res.Status, clip(string(res.Body)))
						}
					}
				}
			})
		}
	})
}

// governedTab says independently of internal/access which tabs section 6
// lists one by one: every relation of a point of sale and of a company, and
// these of a contract.
func governedTab(owner, api string) bool {
	switch owner {
	case "pos", "company":
		return true
	case "contract":
		switch api {
		case "contract_area_rel", "contract_partner_company_rel", "contract_document_rel", "contract_deadlines_rel",
			"contract_recurring_payment_rel", "contract_service_object_rel", "contract_criteria_rel":
			return true
		}
	}
	return false
}

// TestRightsTakeEffectOnNextRequest proves that rights are current on
// every request: an administrator's change of a role's crud flag or of an
// access row through the generic API, and a removal from a team, change
// what the same access token may do on its very next request.
func TestRightsTakeEffectOnNextRequest(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		memberID := queryInt(t, d, `SELECT user_id FROM users WHERE user_email_normalized = ?`, teamMember)
		rowOf := func(entity string, filter []obj) map[string]any {
			t.Helper()
			rows := e.list(admin, obj{"entity": entity, "filter": filter}).Data.Data
			if len(rows) != 1 {
				t.Fatalf("%s %v: %d rows", entity, filter, len(rows))
			}
			return rows[0]
		}
		eq := func(field string, v any) obj { return obj{"field": field, "op": "eq", "value": v} }
		status := func(body obj) int { return e.api(teamMember, body).Status }
		listLocations := obj{"action": "read-rich", "entity": "location", "per_page": 1}
		createPos := obj{"action": "create", "entity": "pos", "data": obj{}}
		createArea := obj{"action": "create", "entity": "area", "data": obj{}}
		steps := []struct {
			name   string
			change func()
			probe  obj
			before int
			after  int
		}{
			{name: "role crud flag removed", probe: listLocations, before: 200, after: 403, change: func() {
				row := rowOf("crud", []obj{eq("role_id", queryInt(t, d, `SELECT role_id FROM role WHERE role_code = 'team_member'`)), eq("tablegroup_id", 7)})
				e.mustOK(admin, obj{"action": "update-field", "entity": "crud", "id": id(row, "crud_id"), "field": "crud_r", "value": 0,
					"row_version": id(row, "row_version")})
			}},
			{name: "access row removed", probe: createPos, before: 422, after: 403, change: func() {
				row := rowOf("access", []obj{eq("access_kind", "table"), eq("access_subject", "pos"), eq("access_action", "create"), eq("role_code", "team_member")})
				res := e.api(admin, obj{"action": "delete", "entity": "access", "id": id(row, "access_id"), "row_version": id(row, "row_version")})
				if res.Status != http.StatusNoContent {
					t.Fatalf("delete access row: %d %s", res.Status, res.Body)
				}
			}},
			// The administrator ends the membership through the generic
			// unlink: it no longer counts today, so the right goes at once.
			{name: "removed from the team", probe: createArea, before: 422, after: 403, change: func() {
				res := e.api(admin, obj{"action": "unlink", "entity": "user_teams_rel", "id": memberID, "data": obj{"team_id": seed.TeamMVM}})
				if res.Status != http.StatusNoContent {
					t.Fatalf("unlink team: %d %s", res.Status, res.Body)
				}
			}},
			// Rights are cached per rights generation, which a trigger bumps
			// on every write to the tables they come from: a change made
			// outside the API (an operator's SQL) is seen at once too.
			{name: "crud flag restored by SQL", probe: listLocations, before: 403, after: 200, change: func() {
				if _, err := d.ExecContext(context.Background(), `UPDATE crud SET crud_r = 1
					WHERE role_id = (SELECT role_id FROM role WHERE role_code = 'team_member') AND tablegroup_id = 7`); err != nil {
					t.Fatal(err)
				}
			}},
		}
		for _, s := range steps {
			t.Run(s.name, func(t *testing.T) {
				if got := status(s.probe); got != s.before {
					t.Fatalf("before: %d, want %d", got, s.before)
				}
				s.change()
				if got := status(s.probe); got != s.after {
					t.Fatalf("after: %d, want %d", got, s.after)
				}
			})
		}
	})
}

// TestTenantOracles checks that lead@ (customer group 1) learns nothing
// about customer group 2 through the side doors of a list: filters, sorts
// and counts on foreign keys and their labels, keyword search, history,
// exports, and the answers for foreign rows compared with missing ones.
func TestTenantOracles(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		secretPos := s.fresh("pos", obj{"company_id": 3, "pos_name": "Südmarkt Geheimfiliale"})
		secretLoc := s.fresh("location", obj{"company_id": 3, "location_name": "Südmarkt Geheimobjekt"})
		s.ensure("tag")
		cg2Company := "Südmarkt Filialen GmbH"
		secrets := []string{"Südmarkt", "Geheim", "Sudmarkt"}
		list := func(entity string, extra obj) obj {
			b := obj{"action": "read-rich", "entity": entity, "count": true}
			for k, v := range extra {
				b[k] = v
			}
			return b
		}
		cond := func(field, op string, v any) []obj { return []obj{{"field": field, "op": op, "value": v}} }
		empty := []string{`"data":[]`, `"total":0`}
		ownCount := queryInt(t, d, `SELECT COUNT(*) FROM pos WHERE company_id IN (1, 2)`)
		e.run(t, []apptest.Scenario{
			{Name: "the secrets exist (for an internal user)", As: teamLead, Status: 200,
				Body: list("pos", obj{"filter_all": "Geheimfiliale"}), Contains: []string{"Südmarkt Geheimfiliale", `"total":1`}},
			{Name: "filter on a foreign key of the other group", As: lead, Status: 200,
				Body: list("pos", obj{"filter": cond("company_id", "eq", 3)}), Contains: empty},
			{Name: "filter on a foreign key with in", As: lead, Status: 200,
				Body: list("pos", obj{"filter": cond("company_id", "in", []int{3})}), Contains: empty},
			{Name: "filter on a foreign key's label", As: lead, Status: 200,
				Body: list("pos", obj{"filter": cond("company_id__label", "contains", "Südmarkt")}), Contains: empty},
			{Name: "filter on a foreign key's label by prefix", As: lead, Status: 200,
				Body: list("pos", obj{"filter": cond("company_id__label", "starts_with", "Süd")}), Contains: empty},
			{Name: "negated filter on a label counts only own rows", As: lead, Status: 200,
				Body:     list("pos", obj{"filter": obj{"not": cond("company_id__label", "eq", cg2Company)[0]}}),
				Contains: []string{fmt.Sprintf(`"total":%d`, ownCount)}, Absent: secrets},
			{Name: "keyword with the other group's company name", As: lead, Status: 200,
				Body: list("pos", obj{"filter_all": cg2Company}), Contains: empty},
			{Name: "keyword with the other group's pos name", As: lead, Status: 200,
				Body: list("pos", obj{"filter_all": "Geheimfiliale"}), Contains: empty},
			{Name: "sort by a label shows and counts own rows only", As: lead, Status: 200,
				Body:     list("pos", obj{"order_by": "company_id__label", "order_dir": "DESC"}),
				Contains: []string{fmt.Sprintf(`"total":%d`, ownCount)}, Absent: secrets},
			{Name: "filter by a foreign row's key", As: lead, Status: 200,
				Body: list("pos", obj{"filter": cond("pos_id", "eq", secretPos)}), Contains: empty},
			{Name: "range over keys counts own rows only", As: lead, Status: 200,
				Body: list("pos", obj{"filter": cond("pos_id", "between", []int64{secretPos, secretPos})}), Contains: empty},
			{Name: "equality data on a foreign key", As: lead, Status: 200,
				Body: list("pos", obj{"data": obj{"company_id": 3}}), Contains: empty},
			{Name: "areas filtered by the other group's location", As: lead, Status: 200,
				Body: list("area", obj{"filter": cond("location_id", "eq", secretLoc)}), Contains: empty},
			{Name: "locations filtered by the other group's label", As: lead, Status: 200,
				Body: list("location", obj{"filter": cond("company_id__label", "eq", cg2Company)}), Contains: empty},
			{Name: "companies filtered by the other group", As: lead, Status: 200,
				Body: list("company", obj{"filter": cond("customergroup_id", "eq", 2)}), Contains: empty},
			{Name: "companies filtered by the other group's name", As: lead, Status: 200,
				Body: list("company", obj{"filter": cond("company_name", "eq", cg2Company)}), Contains: empty},
			{Name: "customer groups by the other group's label", As: lead, Status: 200,
				Body: list("customergroup", obj{"filter_all": "Südmarkt"}), Contains: empty},
			{Name: "tickets filtered by a foreign pos label", As: lead, Status: 200,
				Body: list("ticket", obj{"filter": cond("pos_id__label", "contains", "Geheimfiliale")}), Contains: empty},
			{Name: "history of the other group's pos", As: lead, Status: 404, Absent: secrets,
				Body: obj{"action": "history", "entity": "pos", "id": secretPos}},
			{Name: "history of the other group's company", As: lead, Status: 404, Absent: secrets,
				Body: obj{"action": "history", "entity": "company", "id": 3}},
			{Name: "export of pos", As: lead, Status: 200, Absent: secrets,
				Body: obj{"action": "export", "entity": "pos", "format": "csv"}},
			{Name: "export of pos filtered on the other group", As: lead, Status: 200, Absent: secrets,
				Body: obj{"action": "export", "entity": "pos", "format": "csv", "filter": cond("company_id__label", "eq", cg2Company)}},
			{Name: "export of companies", As: lead, Status: 200, Absent: secrets,
				Body: obj{"action": "export", "entity": "company", "format": "csv"}},
		})
		// A foreign row answers exactly like a missing one (the same
		// request, but for the point of sale's key).
		ticket := s.data(mustEntity("ticket"), obj{"pos_id": secretPos})
		same := []struct {
			name          string
			foreign, gone obj
		}{
			{"read", obj{"action": "read", "entity": "pos", "id": secretPos}, obj{"action": "read", "entity": "pos", "id": 987654}},
			{"history", obj{"action": "history", "entity": "pos", "id": secretPos}, obj{"action": "history", "entity": "pos", "id": 987654}},
			{"relation read", obj{"action": "read-rich", "entity": "pos_location_rel", "data": obj{"pos_id": secretPos}},
				obj{"action": "read-rich", "entity": "pos_location_rel", "data": obj{"pos_id": 987654}}},
			{"reference in a write", obj{"action": "create", "entity": "ticket", "data": ticket},
				obj{"action": "create", "entity": "ticket", "data": withValue(ticket, "pos_id", 987654)}},
		}
		for _, c := range same {
			t.Run("foreign is missing: "+c.name, func(t *testing.T) {
				a, b := e.api(lead, c.foreign), e.api(lead, c.gone)
				if a.Status != b.Status || string(a.Body) != string(b.Body) {
					t.Fatalf("foreign %d %s\nmissing %d %s", a.Status, a.Body, b.Status, b.Body)
				}
				if a.Status < 400 {
					t.Fatalf("foreign row answered %d", a.Status)
				}
			})
		}
	})
}

// withValue is a copy of data with key set to v.
func withValue(data obj, key string, v any) obj {
	out := obj{key: v}
	for k, x := range data {
		if k != key {
			out[k] = x
		}
	}
	return out
}
