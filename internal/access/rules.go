package access

// Rules derives the CASL rules: manage on all for the administrator;
// otherwise read on Auth and dashboard, the c/r/u/d rights of the first
// role's and the user's own table groups over every table of the group, and
// the first role's applicable menu and table access rows. Only the first
// valid role counts (specification "portfolio and invoices", section 6:
// "others pass when their first role matches"); the other roles a user
// holds give no rights. Duplicates are dropped, first occurrence kept, so
// the order is stable.
func (g *Grants) Rules() []Rule {
	if g.Subject.IsAdmin() {
		return []Rule{{Action: ActionManage, Subject: SubjectAll}}
	}
	b := ruleSet{seen: map[[2]string]bool{}}
	b.add(ActionRead, "Auth")
	b.add(ActionRead, "dashboard")
	first, hasRole := g.Subject.FirstRole()
	if hasRole {
		for _, c := range g.RoleCruds[first.Code] {
			b.addCrud(c, g.Tables[c.TablegroupID])
		}
	}
	for _, c := range g.UserCruds {
		b.addCrud(c, g.Tables[c.TablegroupID])
	}
	for _, e := range g.Entries {
		if !hasRole || e.RoleCode != first.Code {
			continue
		}
		subject := e.Subject
		if e.Kind == "menu" {
			subject = MenuPrefix + e.Subject
		}
		b.add(e.Action, subject)
	}
	return b.rules
}

type ruleSet struct {
	rules []Rule
	seen  map[[2]string]bool
}

func (b *ruleSet) add(action, subject string) {
	k := [2]string{action, subject}
	if b.seen[k] {
		return
	}
	b.seen[k] = true
	b.rules = append(b.rules, Rule{Action: action, Subject: subject})
}

// addCrud maps crud_c to create, crud_r to list and read, crud_u to update
// and crud_d to remove, on every table of the group.
func (b *ruleSet) addCrud(c Crud, tables []string) {
	for _, t := range tables {
		if c.C {
			b.add(ActionCreate, t)
		}
		if c.R {
			b.add(ActionList, t)
			b.add(ActionRead, t)
		}
		if c.U {
			b.add(ActionUpdate, t)
		}
		if c.D {
			b.add(ActionRemove, t)
		}
	}
}

// MenuAccess is one role's menu configuration: the browser's
// configs[].config_val entry {access_name, menus}.
type MenuAccess struct {
	AccessName string `json:"access_name"`
	Menus      []Menu `json:"menus"`
}

// Menu is one menu subject with the actions the role has on it.
type Menu struct {
	Name  string   `json:"name"`
	Value []string `json:"value"`
}

// Menus groups the applicable menu access rows by role (in rank order,
// named by the role's menu name, else its code) and subject (in the order
// of the access rows). A role without menu rows still appears, with no
// menus, so the browser sees every role's configuration.
func (g *Grants) Menus() []MenuAccess {
	out := make([]MenuAccess, 0, len(g.Subject.Roles))
	for _, r := range g.Subject.Roles {
		name := r.Menu
		if name == "" {
			name = r.Code
		}
		out = append(out, MenuAccess{AccessName: name, Menus: g.menusOf(r.Code)})
	}
	return out
}

func (g *Grants) menusOf(code string) []Menu {
	menus := []Menu{}
	index := map[string]int{}
	for _, e := range g.Entries {
		if e.Kind != "menu" || e.RoleCode != code {
			continue
		}
		i, ok := index[e.Subject]
		if !ok {
			i = len(menus)
			index[e.Subject] = i
			menus = append(menus, Menu{Name: e.Subject, Value: []string{}})
		}
		menus[i].Value = append(menus[i].Value, e.Action)
	}
	return menus
}
