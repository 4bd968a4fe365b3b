package tables_test

import (
	"context"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
)

// TestPageOfSmallAndLargeTenant: a sorted page of a tenant's list is the
// same whether the tenant owns most of the table (the sort index is walked)
// or a tiny share of it (the tenant's rows are collected and sorted).
func TestPageOfSmallAndLargeTenant(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		page := func(as string) []string {
			ans := e.list(as, obj{"action": "read-rich", "entity": "pos", "order_by": "pos_name", "order_dir": "ASC", "per_page": 10,
				"filter": []obj{{"field": "pos_name", "op": "contains", "value": "e"}}})
			var names []string
			for _, r := range ans.Data.Data {
				names = append(names, r["pos_name"].(string))
			}
			return names
		}
		want := func(group int64) []string {
			rows, err := d.QueryContext(context.Background(), `SELECT p.pos_name FROM pos p JOIN company c ON c.company_id = p.company_id
				WHERE c.customergroup_id = ? AND LOWER(p.pos_name) LIKE '%e%' ORDER BY p.pos_name, p.pos_id LIMIT 10`, group)
			if err != nil {
				t.Fatal(err)
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
			return out
		}
		check := func(stage string) {
			for _, c := range []struct {
				as    string
				group int64
			}{{lead, 1}, {leadB, 2}} {
				got, exp := page(c.as), want(c.group)
				if len(exp) == 0 || len(got) != len(exp) {
					t.Fatalf("%s, %s: got %v, want %v", stage, c.as, got, exp)
				}
				for i := range exp {
					if got[i] != exp[i] {
						t.Fatalf("%s, %s: got %v, want %v", stage, c.as, got, exp)
					}
				}
			}
		}
		check("demo data: both groups are small (their rows are collected and sorted)")
		// 3,000 more points of sale in group 1 make it large (the sort index
		// is walked) while group 2 stays small.
		if err := seed.Scale(context.Background(), d, 3000, nil, seed.WithScaleInvoices(0), seed.WithScaleGroup(1)); err != nil {
			t.Fatal(err)
		}
		e = newEnv(t, d) // a new engine: no cached shares
		check("after the scale seed: group 1 large, group 2 small")
	})
}

// TestLargeTenantThreshold pins the rule that picks the form.
func TestLargeTenantThreshold(t *testing.T) {
	for _, c := range []struct {
		mine, all int64
		large     bool
	}{{100000, 100036, true}, {12, 100036, false}, {5000, 100000, false}, {7100, 100000, true}, {24, 36, false}, {3024, 3036, true}} {
		if got := tables.IsLargeTenant(c.mine, c.all); got != c.large {
			t.Errorf("IsLargeTenant(%d, %d) = %v, want %v", c.mine, c.all, got, c.large)
		}
	}
	// Whole lists and exports walk the index only for a tenant owning half
	// the table or more; pages follow IsLargeTenant.
	for _, c := range []struct {
		mine, all int64
		limit     int
		walk      bool
	}{{100000, 100036, 100000, true}, {7100, 100000, 100000, false}, {7100, 100000, 50, true},
		{50000, 100000, 0, true}, {49999, 100000, 0, false}, {12, 100036, 1000, false}, {0, 0, 0, false}} {
		if got := tables.WalkSortIndex(c.mine, c.all, c.limit); got != c.walk {
			t.Errorf("WalkSortIndex(%d, %d, %d) = %v, want %v", c.mine, c.all, c.limit, got, c.walk)
		}
	}
	// Small tables (30 tickets) are always walked with the correlated
	// scope, whatever share the tenant owns; large ones as WalkSortIndex.
	for _, c := range []struct {
		mine, all int64
		limit     int
		correlate bool
	}{{30, 30, 50, true}, {3, 2000, 50, true}, {3, 2001, 50, false}, {12, 100036, 50, false}, {100000, 100036, 50, true}} {
		if got := tables.CorrelateScope(c.mine, c.all, c.limit); got != c.correlate {
			t.Errorf("CorrelateScope(%d, %d, %d) = %v, want %v", c.mine, c.all, c.limit, got, c.correlate)
		}
	}
}
