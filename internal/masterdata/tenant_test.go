package masterdata_test

import (
	"bytes"
	"fmt"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// TestEveryPathStaysInItsTenant: every master-data call that names a
// record of customer group 1 (by path, query or body key), made by
// lead.b@ (customer group 2, every table right and the relation tabs),
// answers byte for byte as for a missing record, and changes nothing.
func TestEveryPathStaysInItsTenant(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		f.giveRights(lead, leadB)
		for _, rel := range []string{"pos_area_rel", "pos_tag_rel", "pos_document_rel", "location_partnercompany_rel"} {
			f.exec(`INSERT INTO access (access_kind, access_subject, access_action, role_code, access_teams, access_options)
				VALUES ('table', ?, 'update', 'lead', '', '')`, rel)
		}
		company := int64(1)
		pos := f.firstID(`SELECT MIN(pos_id) FROM pos WHERE company_id = 1`)
		loc := f.firstID(`SELECT MIN(location_id) FROM location WHERE company_id = 1`)
		addr := f.firstID(`SELECT address_id FROM location WHERE location_id = ?`, loc)
		area := f.firstID(`SELECT MIN(a.area_id) FROM area a WHERE a.location_id = ?`, loc)
		contact := f.firstID(`SELECT MIN(contactperson_id) FROM contactperson WHERE company_id = 1`)
		const missing = int64(999999)
		calls := []struct {
			method string
			path   func(id int64) string
			body   func(id int64) any
		}{
			{"PUT", func(int64) string { return "/companies/" }, func(id int64) any {
				return map[string]any{"company_id": id, "row_version": 1, "company_name": "Taken"}
			}},
			{"PUT", func(int64) string { return "/pos" }, func(id int64) any { return map[string]any{"pos_id": id, "row_version": 1, "pos_name": "Taken"} }},
			{"DELETE", func(int64) string { return "/pos" }, func(id int64) any { return map[string]any{"pos_id": id, "area_ids": []int64{area}} }},
			{"PUT", func(int64) string { return "/locations" }, func(id int64) any {
				return map[string]any{"location_id": id, "row_version": 1, "location_name": "Taken"}
			}},
			{"GET", func(id int64) string { return fmt.Sprintf("/locations/%d/partnercompanies", id) }, nil},
			{"POST", func(int64) string { return "/locations/partnercompany" }, func(id int64) any {
				return map[string]any{"location_id": id, "partnercompany_id": 1, "partnertype_id": 1, "valid_from": "2024-01-01"}
			}},
			{"GET", func(id int64) string { return fmt.Sprintf("/companies/%d", id) }, nil},
			{"GET", func(id int64) string { return fmt.Sprintf("/locations/%d", id) }, nil},
			{"PUT", func(int64) string { return "/contacts" }, func(id int64) any {
				return map[string]any{"contactperson_id": id, "row_version": 1, "contactperson_firstname": "Taken"}
			}},
			{"GET", func(id int64) string { return fmt.Sprintf("/contacts/%d", id) }, nil},
		}
		ids := map[int]int64{0: company, 1: pos, 2: pos, 3: loc, 4: loc, 5: loc, 6: company, 7: loc, 8: contact, 9: contact}
		for i, c := range calls {
			var foreignBody, missingBody any
			if c.body != nil {
				foreignBody, missingBody = c.body(ids[i]), c.body(missing)
			}
			foreign := f.do(leadB, c.method, c.path(ids[i]), foreignBody)
			absent := f.do(leadB, c.method, c.path(missing), missingBody)
			if foreign.Status != 404 || !bytes.Equal(foreign.Body, absent.Body) || foreign.Status != absent.Status {
				t.Errorf("%s %s: another tenant's record answers %d %s, a missing one %d %s", c.method, c.path(ids[i]),
					foreign.Status, foreign.Body, absent.Status, absent.Body)
			}
		}
		// Updates that name another tenant's record inside an own one.
		own := f.firstID(`SELECT MIN(location_id) FROM location l JOIN company c ON c.company_id = l.company_id WHERE c.customergroup_id = 2`)
		for _, b := range []map[string]any{
			{"location_id": own, "row_version": f.version("location", own), "address": map[string]any{"edit": true, "address_id": addr, "row_version": 1, "address_house_number": "1"}},
			{"location_id": own, "row_version": f.version("location", own), "address_id": addr},
			{"location_id": own, "row_version": f.version("location", own), "company_id": company},
		} {
			res := f.do(leadB, "PUT", "/locations", b)
			if res.Status != 404 && res.Status != 422 {
				t.Errorf("PUT /locations %v: %d %s, want 404 or 422", b, res.Status, res.Body)
			}
		}
		if n := f.count(`SELECT COUNT(*) FROM pos WHERE pos_name = 'Taken'`) + f.count(`SELECT COUNT(*) FROM location WHERE location_name = 'Taken'`) +
			f.count(`SELECT COUNT(*) FROM company WHERE company_name = 'Taken'`) +
			f.count(`SELECT COUNT(*) FROM contactperson WHERE contactperson_firstname = 'Taken'`); n != 0 {
			t.Fatalf("a refused call wrote %d rows", n)
		}
		if f.version("location", own) != 1 {
			t.Fatalf("a refused location change was written")
		}
	})
}
