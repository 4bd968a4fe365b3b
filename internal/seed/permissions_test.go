package seed

import (
	"testing"

	"portfolio/internal/access"
	"portfolio/internal/schema"
)

// TestPermissionSubjectsExist: every table of a table group is an entity and
// every table access subject is an entity's access subject or a relation
// tab's API name, so a typo cannot silently grant nothing.
func TestPermissionSubjectsExist(t *testing.T) {
	reg := schema.Default()
	subjects := map[string]bool{}
	for _, e := range reg.Entities() {
		subjects[e.AccessSubject] = true
		subjects[e.Subject] = true
		for _, r := range e.Relations {
			subjects[r.APIName(e.Name)] = true
		}
	}
	for _, g := range tablegroups {
		for _, table := range g.tables {
			if _, ok := reg.Entity(table); !ok {
				t.Errorf("table group %q names %q, which is no entity", g.name, table)
			}
		}
	}
	for _, r := range tableAccess {
		for _, s := range r.subjects {
			if !subjects[s] {
				t.Errorf("table access names subject %q, which is neither an entity nor a relation tab", s)
			}
		}
	}
	covered := map[string]bool{}
	for _, g := range tablegroups {
		for _, table := range g.tables {
			if covered[table] {
				t.Errorf("table %q is in two table groups", table)
			}
			covered[table] = true
		}
	}
	for _, e := range reg.Entities() {
		if !covered[e.Name] && e.Name != "savedview" {
			t.Errorf("entity %q is in no table group: only administrators could use it", e.Name)
		}
	}
}

// TestGovernedTabs: the relation tabs access governs by their own subject
// exist, and the tax rates tab is granted to nobody (administrators only).
func TestGovernedTabs(t *testing.T) {
	reg := schema.Default()
	tabs := map[string]bool{}
	for _, e := range reg.Entities() {
		for _, r := range e.Relations {
			tabs[r.APIName(e.Name)] = true
		}
	}
	cases := []struct {
		name string
		tabs []string
	}{{"pos", access.PosTabs}, {"contract", access.ContractTabs}, {"company", access.CompanyTabs}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, tab := range c.tabs {
				if !tabs[tab] {
					t.Errorf("governed tab %q is no relation tab", tab)
				}
				if !access.GovernedTab(tab) {
					t.Errorf("GovernedTab(%q) = false", tab)
				}
			}
		})
	}
	for _, r := range tableAccess {
		for _, s := range r.subjects {
			if s == access.TaxRatesTab {
				t.Errorf("table access grants %s to %v: tax rates are the administrator's alone", s, r.roles)
			}
		}
	}
	if access.GovernedTab("contract_costtype_rel") {
		t.Error("contract_costtype_rel is not listed in section 6")
	}
}
