package dashboard_test

import (
	"context"
	"fmt"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// getMap answers user's GET /dashboard/map.
func getMap(t *testing.T, ta *apptest.TestApp, user string) portfolioMap {
	t.Helper()
	r := ta.Do("GET", "/dashboard/map", ta.Token(user), nil)
	if r.Status != 200 {
		t.Fatalf("%s: map: %d %s", user, r.Status, r.Body)
	}
	var m portfolioMap
	r.JSON(t, &m)
	return m
}

// inGroupCount is the number of points of sale of group g (0: all).
func inGroupCount(t *testing.T, d *db.DB, g int64) int {
	return int(one(t, d, `SELECT COUNT(*) FROM pos p JOIN company co ON co.company_id = p.company_id WHERE `+inGroup(g)))
}

// TestMapCache: the map is cached per tenant scope and data generation: a
// point of sale created (through the API, then placed by a plain SQL
// write) shows on the very next request, and the callers of two customer
// groups, asking in turns, each get their own group's map.
func TestMapCache(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		ta := apptest.NewApp(t, d)
		g, gb := groupOf(t, d, lead), groupOf(t, d, leadB)
		if g == 0 || gb == 0 || g == gb {
			t.Fatalf("the demo leads' groups: %d and %d", g, gb)
		}
		// Twice each, in turns: the second answer comes from the cache.
		for range 2 {
			for user, group := range map[string]int64{admin: 0, lead: g, leadB: gb} {
				m := getMap(t, ta, user)
				if want := inGroupCount(t, d, group); m.Placed+m.Unplaced != want {
					t.Fatalf("%s: %d placed and %d unplaced, want %d of group %d", user, m.Placed, m.Unplaced, want, group)
				}
			}
		}
		before, beforeB, beforeAdmin := getMap(t, ta, lead), getMap(t, ta, leadB), getMap(t, ta, admin)

		// A new point of sale of the lead's group, through the generic create.
		var company, contact int64
		if err := d.QueryRowContext(ctx, `SELECT p.company_id, p.contactperson_id FROM pos p JOIN company co ON co.company_id = p.company_id
			WHERE co.customergroup_id = ? AND p.contactperson_id IS NOT NULL ORDER BY p.pos_id LIMIT 1`, g).Scan(&company, &contact); err != nil {
			t.Fatal(err)
		}
		r := ta.Do("POST", "/api/", ta.Token(admin), map[string]any{"action": "create", "entity": "pos", "data": map[string]any{
			"company_id": company, "contactperson_id": contact, "pos_name": "Map cache test", "pos_branchnumber": "MC-1",
			"pos_first_year": 2020, "pos_opening_date": "2020-01-01"}})
		if r.Status != 200 && r.Status != 201 {
			t.Fatalf("create pos: %d %s", r.Status, r.Body)
		}
		pos := int64(one(t, d, `SELECT pos_id FROM pos WHERE pos_branchnumber = 'MC-1'`))
		after := getMap(t, ta, lead)
		if after.Unplaced != before.Unplaced+1 || after.Placed != before.Placed {
			t.Errorf("lead after a create: %d placed, %d unplaced; before %d, %d", after.Placed, after.Unplaced, before.Placed, before.Unplaced)
		}
		if a := getMap(t, ta, admin); a.Unplaced != beforeAdmin.Unplaced+1 {
			t.Errorf("admin after a create: %d unplaced, before %d", a.Unplaced, beforeAdmin.Unplaced)
		}
		if b := getMap(t, ta, leadB); b.Placed != beforeB.Placed || b.Unplaced != beforeB.Unplaced {
			t.Errorf("the other group's lead sees %d placed, %d unplaced; before %d, %d", b.Placed, b.Unplaced, beforeB.Placed, beforeB.Unplaced)
		}

		// Placed at a location of a placed point of sale by a plain SQL
		// write: the generation's trigger makes the next answer new.
		var location int64
		if err := d.QueryRowContext(ctx, `SELECT pl.location_id FROM pos_location pl JOIN pos p ON p.pos_id = pl.pos_id
			JOIN company co ON co.company_id = p.company_id WHERE co.customergroup_id = ? ORDER BY pl.location_id LIMIT 1`, g).Scan(&location); err != nil {
			t.Fatal(err)
		}
		if _, err := d.ExecContext(ctx, `INSERT INTO pos_location (pos_id, location_id) VALUES (?, ?)`, pos, location); err != nil {
			t.Fatal(err)
		}
		placed := getMap(t, ta, lead)
		if placed.Placed != before.Placed+1 || placed.Unplaced != before.Unplaced {
			t.Errorf("lead after placing it: %d placed, %d unplaced; before %d, %d", placed.Placed, placed.Unplaced, before.Placed, before.Unplaced)
		}
		if b := getMap(t, ta, leadB); fmt.Sprint(b) != fmt.Sprint(beforeB) {
			t.Errorf("the other group's map changed: %+v", b)
		}
	})
}
