package seed

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"portfolio/internal/schema"
)

// Right is one default right of a role: action on subject, for members of
// Teams only when it names any (comma-separated, as in the access table).
type Right struct {
	Role, Subject, Action, Teams string
}

// DefaultRights lists the default table rights of every non-administrator
// role (the administrator manages everything): the table groups' flags on
// each of their tables and the table access rows. Subjects are entity names
// (an access subject such as customer_group is given as its entity,
// customergroup) and relation tabs by their API name. A right granted
// without teams and with teams counts as without.
func DefaultRights() []Right {
	canonical := canonicalSubjects()
	got := map[[3]string]string{}
	var order [][3]string
	add := func(role, subject, action, teams string) {
		if c, ok := canonical[subject]; ok {
			subject = c
		}
		k := [3]string{role, subject, action}
		have, seen := got[k]
		if !seen {
			order = append(order, k)
			got[k] = teams
			return
		}
		if have != "" && teams == "" {
			got[k] = ""
		}
	}
	for _, role := range allRoles {
		for _, g := range tablegroups {
			flags := crudByRole[role][g.name]
			for _, table := range g.tables {
				for _, f := range []struct{ letter, action string }{{"c", "create"}, {"r", "list"}, {"r", "read"}, {"u", "update"}, {"d", "remove"}} {
					if strings.Contains(flags, f.letter) {
						add(role, table, f.action, "")
					}
				}
			}
		}
	}
	for _, r := range defaultAccessRows() {
		if r.kind == "table" {
			add(r.role, r.subject, r.action, r.teams)
		}
	}
	out := make([]Right, 0, len(order))
	for _, k := range order {
		out = append(out, Right{Role: k[0], Subject: k[1], Action: k[2], Teams: got[k]})
	}
	return out
}

// canonicalSubjects maps each entity's access subject to its name.
func canonicalSubjects() map[string]string {
	out := map[string]string{}
	for _, e := range schema.Default().Entities() {
		if e.AccessSubject != e.Name {
			out[e.AccessSubject] = e.Name
		}
	}
	return out
}

// matrixActions are the actions of the table, with their letters.
var matrixActions = []struct{ action, letter string }{
	{"list", "L"}, {"read", "R"}, {"seeHeader", "H"}, {"note", "N"}, {"create", "C"}, {"update", "U"}, {"remove", "D"},
}

// RightsMatrixDoc renders docs/rights-matrix.md: the default rights, role
// by role, subject by subject and action by action, with the teams that
// restrict them, and the menus each role sees.
func RightsMatrixDoc() string {
	var b strings.Builder
	b.WriteString("# Default rights\n\n")
	b.WriteString("<!-- Generated from internal/seed/permissions.go; do not edit.\n     Regenerate: go test ./internal/seed -run TestRightsMatrixDoc -update -->\n\n")
	b.WriteString("What every role may do on a fresh installation and after `portfolio migrate` (decision 0059), from the specification's section 6. ")
	b.WriteString("The administrator (role Administratoren) may do everything and is left out. Only a user's first role counts. ")
	b.WriteString("Each cell lists the actions: **L** list, **R** read, **H** seeHeader, **N** note, **C** create, **U** update, **D** remove; ")
	b.WriteString("actions after \"in\" hold only for members of the teams named. A relation tab (`..._rel`) is a subject of its own: L reads it, C, U and D link and unlink. ")
	b.WriteString("Administrators change these rights under Administration (table groups, access); the defaults are in `internal/seed/permissions.go`.\n")
	rights := DefaultRights()
	cells := map[[2]string]map[string][]string{} // (role, subject) -> teams -> letters
	for _, r := range rights {
		k := [2]string{r.Role, r.Subject}
		if cells[k] == nil {
			cells[k] = map[string][]string{}
		}
		cells[k][r.Teams] = append(cells[k][r.Teams], r.Action)
	}
	grouped := map[string]bool{}
	for _, g := range tablegroups {
		writeMatrixTable(&b, g.name, g.tables, cells)
		for _, t := range g.tables {
			grouped[t] = true
		}
	}
	var tabs []string
	for _, r := range rights {
		if !grouped[r.Subject] && !slices.Contains(tabs, r.Subject) {
			tabs = append(tabs, r.Subject)
		}
	}
	sort.Strings(tabs)
	writeMatrixTable(&b, "Relation tabs", tabs, cells)
	writeMenuTable(&b)
	return b.String()
}

func writeMatrixTable(b *strings.Builder, title string, subjects []string, cells map[[2]string]map[string][]string) {
	fmt.Fprintf(b, "\n## %s\n\n| subject | %s |\n|---|%s\n", title, strings.Join(allRoles, " | "), strings.Repeat("---|", len(allRoles)))
	for _, s := range subjects {
		fmt.Fprintf(b, "| `%s` |", s)
		for _, role := range allRoles {
			fmt.Fprintf(b, " %s |", matrixCell(cells[[2]string{role, s}]))
		}
		b.WriteString("\n")
	}
}

// matrixCell renders one cell: the unrestricted letters, then the letters
// of each team restriction ("LR; CU in MVM, FM").
func matrixCell(byTeams map[string][]string) string {
	var parts []string
	teams := make([]string, 0, len(byTeams))
	for t := range byTeams {
		teams = append(teams, t)
	}
	sort.Strings(teams)
	for _, t := range teams {
		var letters string
		for _, a := range matrixActions {
			if slices.Contains(byTeams[t], a.action) {
				letters += a.letter
			}
		}
		if t == "" {
			parts = append([]string{letters}, parts...)
			continue
		}
		parts = append(parts, letters+" in "+strings.ReplaceAll(t, ",", ", "))
	}
	if len(parts) == 0 {
		return "–"
	}
	return strings.Join(parts, "; ")
}

func writeMenuTable(b *strings.Builder) {
	fmt.Fprintf(b, "\n## Menus\n\nExternal users never see the menus payment, administration, user, trackrecord, contradictionpackage, contradiction and inspectionresult.\n\n| menu | %s |\n|---|%s\n",
		strings.Join(allRoles, " | "), strings.Repeat("---|", len(allRoles)))
	var menus []string
	teams := map[[2]string]string{}
	for _, m := range menuAccess {
		if !slices.Contains(menus, m.menu) {
			menus = append(menus, m.menu)
		}
		for _, role := range m.roles {
			teams[[2]string{m.menu, role}] = "✓"
			if m.teams != "" {
				teams[[2]string{m.menu, role}] = "in " + strings.ReplaceAll(m.teams, ",", ", ")
			}
		}
	}
	for _, m := range menus {
		fmt.Fprintf(b, "| `%s` |", m)
		for _, role := range allRoles {
			cell, ok := teams[[2]string{m, role}]
			if !ok {
				cell = "–"
			}
			fmt.Fprintf(b, " %s |", cell)
		}
		b.WriteString("\n")
	}
}
