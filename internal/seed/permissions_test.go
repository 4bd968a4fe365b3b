package seed

import (
	"testing"

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
