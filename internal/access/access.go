// Package access computes what a user may do: CASL-shaped rules (action,
// subject, inverted, conditions) from the user's roles, table groups and the
// access table, plus the menu configuration the browser shows. The browser
// evaluates the same rules with CASL; the server checks them with Can.
//
// The package does not know how a caller was authenticated: callers describe
// the user with a Subject, so access never imports auth.
package access

import (
	"encoding/json"
	"strings"
)

// Well-known actions and subjects.
const (
	ActionManage = "manage" // matches every action
	ActionCreate = "create"
	ActionList   = "list"
	ActionRead   = "read"
	ActionUpdate = "update"
	ActionRemove = "remove"
	SubjectAll   = "all" // matches every subject

	// AdminRoleName and AdminRoleCode identify the administrator role; a
	// user whose first valid role carries either gets manage on all.
	AdminRoleName = "Administratoren"
	AdminRoleCode = "admin"

	// MenuPrefix starts the subject of a menu-access rule ("menu_ticket").
	MenuPrefix = "menu_"
)

// Role is one role the user holds today, in rank order.
type Role struct {
	ID   int64
	Code string
	Name string
	// Menu is the role's menu name (role_menu): the access_name of its menu
	// configuration.
	Menu string
}

// Team is one team the user belongs to today.
type Team struct {
	ID   int64
	Name string
	Type string
}

// Subject describes the user whose rights are computed. Roles and teams must
// already be limited to those valid today.
type Subject struct {
	UserID   int64
	Roles    []Role
	Teams    []Team
	External bool
	// Options are the user's access options. None exist yet, so an access
	// row restricted by options never matches (see decision 0003).
	Options []string
}

// IsAdmin reports whether the first valid role is the administrator role.
func (s Subject) IsAdmin() bool {
	return len(s.Roles) > 0 && (s.Roles[0].Name == AdminRoleName || s.Roles[0].Code == AdminRoleCode)
}

// FirstRole is the first valid role (by rank), the only one whose rights
// count; ok is false for a user without roles.
func (s Subject) FirstRole() (r Role, ok bool) {
	if len(s.Roles) == 0 {
		return Role{}, false
	}
	return s.Roles[0], true
}

// RoleCodes lists the codes of the roles in rank order.
func (s Subject) RoleCodes() []string {
	out := make([]string, 0, len(s.Roles))
	for _, r := range s.Roles {
		out = append(out, r.Code)
	}
	return out
}

// inTeams reports whether the user belongs to one of the comma-separated
// team names in list ("" means no restriction).
func (s Subject) inTeams(list string) bool {
	names := splitList(list)
	if len(names) == 0 {
		return true
	}
	for _, t := range s.Teams {
		for _, n := range names {
			if strings.EqualFold(t.Name, n) {
				return true
			}
		}
	}
	return false
}

// hasOption reports whether the user has one of the comma-separated options
// in list ("" means no restriction).
func (s Subject) hasOption(list string) bool {
	opts := splitList(list)
	if len(opts) == 0 {
		return true
	}
	for _, have := range s.Options {
		for _, o := range opts {
			if have == o {
				return true
			}
		}
	}
	return false
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if p := strings.TrimSpace(part); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Rule is one CASL raw rule. Conditions are kept opaque (a JSON object in
// CASL's MongoDB-query form) until the tenant-scope issue gives them a
// grammar; none are produced yet.
type Rule struct {
	Action     string          `json:"action"`
	Subject    string          `json:"subject"`
	Inverted   bool            `json:"inverted,omitempty"`
	Conditions json.RawMessage `json:"conditions,omitempty"`
}

// Can reports whether rules allow action on the subject type, with CASL's
// semantics: "manage" matches any action, "all" any subject, later rules
// take precedence over earlier ones, and at the level of a subject type a
// conditional rule allows (when not inverted) but never forbids (when
// inverted), because its conditions could only be checked on a record.
func Can(rules []Rule, action, subject string) bool {
	for i := len(rules) - 1; i >= 0; i-- {
		r := rules[i]
		if !matches(r.Action, action, ActionManage) || !matches(r.Subject, subject, SubjectAll) {
			continue
		}
		if len(r.Conditions) > 0 && r.Inverted {
			continue
		}
		return !r.Inverted
	}
	return false
}

func matches(have, want, wildcard string) bool {
	return have == want || have == wildcard
}
