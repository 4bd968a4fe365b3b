package access_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"portfolio/internal/access"
	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

func TestCan(t *testing.T) {
	cond := json.RawMessage(`{"team_id":7}`)
	cases := []struct {
		name            string
		rules           []access.Rule
		action, subject string
		want            bool
	}{
		{"no rules", nil, "read", "ticket", false},
		{"exact", []access.Rule{{Action: "read", Subject: "ticket"}}, "read", "ticket", true},
		{"other action", []access.Rule{{Action: "read", Subject: "ticket"}}, "update", "ticket", false},
		{"other subject", []access.Rule{{Action: "read", Subject: "ticket"}}, "read", "board", false},
		{"manage matches any action", []access.Rule{{Action: "manage", Subject: "ticket"}}, "remove", "ticket", true},
		{"all matches any subject", []access.Rule{{Action: "read", Subject: "all"}}, "read", "board", true},
		{"manage all", []access.Rule{{Action: "manage", Subject: "all"}}, "create", "company", true},
		{"asking manage needs manage", []access.Rule{{Action: "read", Subject: "ticket"}}, "manage", "ticket", false},
		{"asking all needs all", []access.Rule{{Action: "read", Subject: "ticket"}}, "read", "all", false},
		{"later inverted wins", []access.Rule{{Action: "manage", Subject: "all"}, {Action: "remove", Subject: "company", Inverted: true}}, "remove", "company", false},
		{"inverted does not touch others", []access.Rule{{Action: "manage", Subject: "all"}, {Action: "remove", Subject: "company", Inverted: true}}, "update", "company", true},
		{"earlier inverted loses", []access.Rule{{Action: "remove", Subject: "company", Inverted: true}, {Action: "manage", Subject: "all"}}, "remove", "company", true},
		{"conditional allows type", []access.Rule{{Action: "read", Subject: "ticket", Conditions: cond}}, "read", "ticket", true},
		{"conditional inverted does not forbid type", []access.Rule{{Action: "read", Subject: "ticket"}, {Action: "read", Subject: "ticket", Inverted: true, Conditions: cond}}, "read", "ticket", true},
		{"inverted alone", []access.Rule{{Action: "read", Subject: "ticket", Inverted: true}}, "read", "ticket", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := access.Can(c.rules, c.action, c.subject); got != c.want {
				t.Fatalf("Can(%s, %s) = %v, want %v", c.action, c.subject, got, c.want)
			}
		})
	}
}

func TestRuleJSON(t *testing.T) {
	b, err := json.Marshal([]access.Rule{{Action: "read", Subject: "x"}, {Action: "read", Subject: "y", Inverted: true, Conditions: json.RawMessage(`{"a":1}`)}})
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"action":"read","subject":"x"},{"action":"read","subject":"y","inverted":true,"conditions":{"a":1}}]`
	if string(b) != want {
		t.Fatalf("got %s\nwant %s", b, want)
	}
}

// fixture fills the permission tables:
// table groups 1 "tickets" (ticket, board) and 2 "companies" (company);
// role team_member: c,r on tickets, r on companies; role lead: r on companies;
// access rows for menus and tables, some restricted by teams and options.
func fixture(t *testing.T, d *db.DB) {
	t.Helper()
	ctx := context.Background()
	stmts := []string{
		`INSERT INTO usertype (usertype_id, usertype_name, usertype_external) VALUES (1, 'INTERN', 0)`,
		`INSERT INTO users (user_id, usertype_id, user_firstname, user_lastname, user_email, user_email_normalized) VALUES (1, 1, 'A', 'B', 'a@x.test', 'a@x.test')`,
		`INSERT INTO role (role_id, role_name, role_code, role_menu) VALUES (1, 'Administratoren', 'admin', 'admin_menu'), (2, 'Team member', 'team_member', 'member_menu'), (3, 'Lead', 'lead', '')`,
		`INSERT INTO tablegroup (tablegroup_id, tablegroup_name) VALUES (1, 'tickets'), (2, 'companies'), (3, 'extra')`,
		`INSERT INTO tablename (tablegroup_id, table_name) VALUES (1, 'ticket'), (1, 'board'), (2, 'company'), (3, 'tag')`,
		`INSERT INTO crud (role_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d) VALUES (2, 1, 1, 1, 0, 0), (2, 2, 0, 1, 0, 0), (3, 2, 0, 1, 0, 0)`,
		`INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d) VALUES (1, 3, 0, 0, 1, 1)`,
		`INSERT INTO access (access_kind, access_subject, access_action, role_code, access_teams, access_options) VALUES
			('menu', 'ticket', 'read', 'team_member', '', ''),
			('menu', 'ticket', 'create', 'team_member', '', ''),
			('menu', 'payment', 'read', 'team_member', '', ''),
			('menu', 'masterdata', 'read', 'team_member', 'MVM,FM', ''),
			('table', 'pos', 'update', 'team_member', 'FM', ''),
			('table', 'pos', 'remove', 'team_member', '', 'special'),
			('menu', 'contract', 'read', 'lead', '', '')`,
	}
	for _, s := range stmts {
		if _, err := d.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func TestRulesFor(t *testing.T) {
	member := access.Role{ID: 2, Code: "team_member", Name: "Team member", Menu: "member_menu"}
	lead := access.Role{ID: 3, Code: "lead", Name: "Lead"}
	admin := access.Role{ID: 1, Code: "admin", Name: "Administratoren"}
	fm := access.Team{ID: 7, Name: "FM"}
	cases := []struct {
		name      string
		subject   access.Subject
		can       [][2]string
		cannot    [][2]string
		wantRules int // 0: not checked
	}{
		{name: "admin first", subject: access.Subject{UserID: 1, Roles: []access.Role{admin, member}},
			can: [][2]string{{"remove", "company"}, {"manage", "anything"}}, wantRules: 1},
		{name: "admin by name only", subject: access.Subject{UserID: 1, Roles: []access.Role{{Code: "boss", Name: "Administratoren"}}},
			can: [][2]string{{"remove", "company"}}, wantRules: 1},
		{name: "admin not first", subject: access.Subject{UserID: 1, Roles: []access.Role{lead, admin}},
			can: [][2]string{{"read", "company"}, {"read", "Auth"}}, cannot: [][2]string{{"remove", "company"}}},
		{name: "nobody", subject: access.Subject{UserID: 99},
			can: [][2]string{{"read", "Auth"}, {"read", "dashboard"}}, cannot: [][2]string{{"read", "ticket"}, {"list", "company"}}, wantRules: 2},
		{name: "member without team", subject: access.Subject{UserID: 99, Roles: []access.Role{member}},
			can:    [][2]string{{"create", "ticket"}, {"list", "board"}, {"read", "company"}, {"read", "menu_ticket"}, {"create", "menu_ticket"}, {"read", "menu_payment"}},
			cannot: [][2]string{{"update", "ticket"}, {"create", "company"}, {"read", "menu_masterdata"}, {"update", "pos"}, {"remove", "pos"}, {"update", "tag"}}},
		{name: "member in FM", subject: access.Subject{UserID: 99, Roles: []access.Role{member}, Teams: []access.Team{fm}},
			can: [][2]string{{"read", "menu_masterdata"}, {"update", "pos"}}, cannot: [][2]string{{"remove", "pos"}}},
		{name: "member with option", subject: access.Subject{UserID: 99, Roles: []access.Role{member}, Options: []string{"special"}},
			can: [][2]string{{"remove", "pos"}}},
		{name: "external member loses hidden menus", subject: access.Subject{UserID: 99, Roles: []access.Role{member}, External: true},
			can: [][2]string{{"read", "menu_ticket"}}, cannot: [][2]string{{"read", "menu_payment"}}},
		{name: "only the first role counts: lead before member", subject: access.Subject{UserID: 99, Roles: []access.Role{lead, member}, Teams: []access.Team{fm}},
			can:    [][2]string{{"read", "company"}, {"read", "menu_contract"}},
			cannot: [][2]string{{"create", "ticket"}, {"list", "board"}, {"read", "menu_ticket"}, {"update", "pos"}, {"read", "menu_masterdata"}}},
		{name: "only the first role counts: member before lead", subject: access.Subject{UserID: 99, Roles: []access.Role{member, lead}, Teams: []access.Team{fm}},
			can:    [][2]string{{"create", "ticket"}, {"read", "company"}, {"update", "pos"}, {"read", "menu_masterdata"}},
			cannot: [][2]string{{"read", "menu_contract"}}},
		{name: "user table group adds to the first role", subject: access.Subject{UserID: 1, Roles: []access.Role{lead, member}},
			can:    [][2]string{{"update", "tag"}, {"remove", "tag"}, {"read", "company"}},
			cannot: [][2]string{{"create", "ticket"}, {"read", "tag"}}},
		{name: "user table group adds", subject: access.Subject{UserID: 1, Roles: []access.Role{lead}},
			can:    [][2]string{{"update", "tag"}, {"remove", "tag"}, {"read", "company"}, {"read", "menu_contract"}},
			cannot: [][2]string{{"read", "tag"}, {"read", "ticket"}}},
	}
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		fixture(t, d)
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				rules, err := access.RulesFor(context.Background(), d, c.subject)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range c.can {
					if !access.Can(rules, p[0], p[1]) {
						t.Errorf("cannot %s %s; rules %+v", p[0], p[1], rules)
					}
				}
				for _, p := range c.cannot {
					if access.Can(rules, p[0], p[1]) {
						t.Errorf("can %s %s; rules %+v", p[0], p[1], rules)
					}
				}
				if c.wantRules > 0 && len(rules) != c.wantRules {
					t.Errorf("got %d rules, want %d: %+v", len(rules), c.wantRules, rules)
				}
			})
		}
	})
}

func TestMenus(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		fixture(t, d)
		s := access.Subject{UserID: 99, External: true, Roles: []access.Role{
			{Code: "team_member", Name: "Team member", Menu: "member_menu"}, {Code: "lead", Name: "Lead"}}}
		g, err := access.Load(context.Background(), d, s)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(g.Menus())
		want := `[{"access_name":"member_menu","menus":[{"name":"ticket","value":["read","create"]}]},{"access_name":"lead","menus":[{"name":"contract","value":["read"]}]}]`
		if string(got) != want {
			t.Fatalf("menus\n got %s\nwant %s", got, want)
		}
		if ids := g.GroupIDs(); !slices.Equal(ids, []int64{1, 2}) {
			t.Fatalf("group ids %v", ids)
		}
		if names := g.Tables[1]; !slices.Equal(names, []string{"board", "ticket"}) {
			t.Fatalf("tables %v", names)
		}
	})
}
