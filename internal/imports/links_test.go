package imports_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// mapCounts are GET /dashboard/map's counts as the admin.
func (f *fixture) mapCounts(t testing.TB) (placed, unplaced int) {
	t.Helper()
	r := f.ta.Do("GET", "/dashboard/map", f.ta.Token(admin), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET /dashboard/map: %d %s", r.Status, r.Body)
	}
	var m struct{ Placed, Unplaced int }
	r.JSON(t, &m)
	return m.Placed, m.Unplaced
}

// TestImportLinksLocations: a workbook of points of sale may name each
// one's location by its label ("Location", suggested in any language):
// an unknown one is a row error; the commit links every new point of
// sale to its location in the same transaction, with history naming the
// import, so the portfolio map places them at once; undo removes the
// links with the points of sale.
func TestImportLinksLocations(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		var site string
		if err := d.QueryRowContext(context.Background(), `SELECT l.location_name FROM location l JOIN company c ON c.company_id = l.company_id
			WHERE c.company_name = 'Nordhandel Retail GmbH' ORDER BY l.location_id LIMIT 1`).Scan(&site); err != nil {
			t.Fatal(err)
		}
		placed, unplaced := f.mapCounts(t)
		headings := append(append([]any{}, posHeadings...), "Standort")
		rows := func(second string) [][]any {
			return [][]any{headings,
				{"Nordhandel Retail GmbH", "Linked 1", "LNK-1", 2001, "Udo Unique", "2015-06-01", site},
				{"Nordhandel Retail GmbH", "Linked 2", "LNK-2", 2002, "Udo Unique", "2016-06-01", second},
				{"Nordhandel Retail GmbH", "Linked 3", "LNK-3", 2003, "Udo Unique", "2017-06-01", ""},
			}
		}
		mapping := map[string]string{"Standort": "pos_location_rel"}
		for k, v := range posMapping {
			mapping[k] = v
		}

		bad := f.mustUpload(t, admin, "pos", workbook(t, rows("Nowhere Centre")))
		if bad.SuggestedMapping["Standort"] != "pos_location_rel" {
			t.Fatalf("suggested: %v", bad.SuggestedMapping)
		}
		found := false
		for _, c := range bad.Fields {
			found = found || c.Name == "pos_location_rel" && c.Label == "Locations" && c.Reference == "location"
		}
		if !found {
			t.Fatalf("fields offered: %+v", bad.Fields)
		}
		status, v, body := f.validate(t, admin, bad.ImportID, mapping)
		if status != 200 || v.Valid != 2 || v.Invalid != 1 || len(v.Errors) != 1 ||
			fmt.Sprint(v.Errors[0].Loc) != "[rows 3 pos_location_rel]" || !strings.Contains(v.Errors[0].Msg, "Nowhere Centre") {
			t.Fatalf("validate with an unknown location: %d %s", status, body)
		}
		if r := f.ta.Do("POST", fmt.Sprintf("/imports/%d/validate", bad.ImportID), f.ta.Token(admin),
			obj{"mapping": map[string]string{"Name": "pos_name", "Standort": "pos_area_rel"}}); r.Status != http.StatusUnprocessableEntity ||
			!strings.Contains(string(r.Body), "not_writable") {
			t.Fatalf("a relation the import does not link: %d %s", r.Status, r.Body)
		}

		up := f.mustUpload(t, admin, "pos", workbook(t, rows(site)))
		if status, v, body := f.validate(t, admin, up.ImportID, mapping); status != 200 || v.Valid != 3 {
			t.Fatalf("validate: %d %s", status, body)
		}
		if r := f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID)); r.Status != http.StatusOK {
			t.Fatalf("commit: %d %s", r.Status, r.Body)
		}
		linked := `SELECT COUNT(*) FROM pos_location pl JOIN pos p ON p.pos_id = pl.pos_id JOIN location l ON l.location_id = pl.location_id
			WHERE p.pos_branchnumber IN ('LNK-1', 'LNK-2', 'LNK-3') AND l.location_name = ?`
		if got := f.one(t, linked, site); got != 2 {
			t.Fatalf("links to %q: %d", site, got)
		}
		note := fmt.Sprintf("import %d: points.xlsx", up.ImportID)
		if got := f.one(t, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'pos' AND trackrecord_comment = ?`, note); got != 5 {
			t.Fatalf("history rows naming the import (3 creates, 2 links): %d", got)
		}
		if p, u := f.mapCounts(t); p != placed+2 || u != unplaced+1 {
			t.Fatalf("map after the commit: %d placed, %d unplaced; before %d, %d", p, u, placed, unplaced)
		}

		if r := f.post(t, admin, fmt.Sprintf("/imports/%d/undo", up.ImportID)); r.Status != http.StatusOK {
			t.Fatalf("undo: %d %s", r.Status, r.Body)
		}
		if got := f.one(t, `SELECT COUNT(*) FROM pos WHERE pos_branchnumber IN ('LNK-1', 'LNK-2', 'LNK-3')`); got != 0 {
			t.Fatalf("points of sale left after undo: %d", got)
		}
		if got := f.one(t, `SELECT COUNT(*) FROM pos_location WHERE pos_id NOT IN (SELECT pos_id FROM pos)`); got != 0 {
			t.Fatalf("links left after undo: %d", got)
		}
		if p, u := f.mapCounts(t); p != placed || u != unplaced {
			t.Fatalf("map after undo: %d placed, %d unplaced; before %d, %d", p, u, placed, unplaced)
		}

		// A user who may create points of sale but not link their locations
		// is neither offered nor suggested the column, and a mapping to it
		// is refused.
		const teamLead = "team_lead@demo.test"
		if _, err := d.ExecContext(context.Background(), `DELETE FROM access WHERE role_code = 'team_lead' AND access_subject = 'pos_location_rel'`); err != nil {
			t.Fatal(err)
		}
		up = f.mustUpload(t, teamLead, "pos", workbook(t, rows(site)))
		if _, ok := up.SuggestedMapping["Standort"]; ok {
			t.Fatalf("suggested without the right to link: %v", up.SuggestedMapping)
		}
		for _, c := range up.Fields {
			if c.Name == "pos_location_rel" {
				t.Fatalf("offered without the right to link: %+v", up.Fields)
			}
		}
		if status, _, body := f.validate(t, teamLead, up.ImportID, mapping); status != http.StatusUnprocessableEntity ||
			!strings.Contains(string(body), "not_writable") || !strings.Contains(string(body), `"loc":["body","mapping","Standort"]`) {
			t.Fatalf("a mapping to locations without the right to link: %d %s", status, body)
		}
	})
}
