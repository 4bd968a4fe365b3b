package invoices_test

import (
	"fmt"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestCreatePackage: POST /contradictionpackages creates a package with its
// contradictions in one transaction. A contradiction of another point of
// sale (422 naming its place), one of another tenant or a missing one
// (404), a repeated one or an invalid package (422) write nothing: no
// package, no contradiction moved; on both databases.
func TestCreatePackage(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := &fixture{t: t, ta: apptest.NewApp(t, d), d: d}
		cur := f.one(`SELECT invoice_id FROM invoice WHERE invoice_number = ?`, seed.DemoInvoiceNumbers[1])
		prev := f.one(`SELECT invoice_id FROM invoice WHERE invoice_number = ?`, seed.DemoInvoiceNumbers[0])
		pos := f.one(`SELECT k.pos_id FROM invoice i JOIN contract k ON k.contract_id = i.contract_id WHERE i.invoice_id = ?`, cur)
		otherInvoice := f.one(`SELECT MIN(i.invoice_id) FROM invoice i JOIN contract k ON k.contract_id = i.contract_id
			JOIN company c ON c.company_id = i.company_id WHERE c.customergroup_id = 1 AND k.pos_id <> ?
			AND EXISTS (SELECT 1 FROM invoiceposition p WHERE p.invoice_id = i.invoice_id AND p.apportionable = 0)`, pos)
		f.generate(admin, cur, prev, otherInvoice)
		contra := f.one(`SELECT contradiction_id FROM contradiction WHERE invoice_id = ?`, cur)
		second := f.one(`SELECT COALESCE(MIN(contradiction_id), 0) FROM contradiction c JOIN invoice i ON i.invoice_id = c.invoice_id
			JOIN contract k ON k.contract_id = i.contract_id WHERE k.pos_id = ? AND c.contradiction_id <> ?`, pos, contra)
		foreign := f.one(`SELECT contradiction_id FROM contradiction WHERE invoice_id = ?`, otherInvoice)
		packed := func() int64 {
			return f.one(`SELECT COUNT(*) FROM contradiction WHERE contradictionpackage_id IS NOT NULL`)
		}
		packages := func() int64 { return f.one(`SELECT COUNT(*) FROM contradictionpackage`) }
		beforePackages, beforePacked := packages(), packed()
		body := func(name string, posID int64, ids ...int64) obj {
			return obj{"data": obj{"pos_id": posID, "contradictionpackage_name": name}, "contradiction_ids": ids}
		}
		ownPos := f.one(`SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 2`)
		f.giveRights(leadB)
		f.ta.Run(t, []apptest.Scenario{
			{Name: "a contradiction of another point of sale: 422 at its place", Method: "POST", Path: "/contradictionpackages", As: admin, Status: 422,
				Body: body("WP-X", pos, contra, foreign), Contains: []string{`"contradiction_ids",1]`, "point of sale"}},
			{Name: "a missing contradiction: 404", Method: "POST", Path: "/contradictionpackages", As: admin, Status: 404,
				Body: body("WP-X", pos, contra, 999999)},
			{Name: "a contradiction of another tenant: 404", Method: "POST", Path: "/contradictionpackages", As: leadB, Status: 404,
				Body: body("B-X", ownPos, contra)},
			{Name: "a repeated contradiction: 422", Method: "POST", Path: "/contradictionpackages", As: admin, Status: 422,
				Body: body("WP-X", pos, contra, contra), Contains: []string{`"contradiction_ids",1]`}},
			{Name: "a package without its name: 422", Method: "POST", Path: "/contradictionpackages", As: admin, Status: 422,
				Body: obj{"data": obj{"pos_id": pos}, "contradiction_ids": []int64{contra}}, Contains: []string{"contradictionpackage_name"}},
			{Name: "an unknown field: 400", Method: "POST", Path: "/contradictionpackages", As: admin, Status: 400,
				Body: obj{"data": obj{"pos_id": pos, "contradictionpackage_name": "WP-X"}, "ids": []int64{contra}}},
			{Name: "another tenant's point of sale: nothing", Method: "POST", Path: "/contradictionpackages", As: leadB, Status: 422,
				Body: body("B-X", pos), Contains: []string{"pos_id"}},
		})
		if packages() != beforePackages || packed() != beforePacked {
			t.Fatalf("a refused request wrote: %d packages (was %d), %d packed contradictions (was %d)", packages(), beforePackages, packed(), beforePacked)
		}
		if v := f.one(`SELECT row_version FROM contradiction WHERE contradiction_id = ?`, contra); v != 1 {
			t.Fatalf("a refused request changed the contradiction: row_version %d", v)
		}
		ids := []int64{contra}
		if second != 0 {
			ids = append(ids, second)
		}
		var pkg int64
		f.ta.Run(t, []apptest.Scenario{
			{Name: "a package with the contradictions of its point of sale", Method: "POST", Path: "/contradictionpackages", As: admin, Status: 201,
				Body: obj{"data": obj{"pos_id": pos, "contradictionpackage_name": "WP-2025-02", "contradictionpackage_description": "Zweites Paket"},
					"contradiction_ids": ids},
				Contains: []string{`"contradictionpackage_name":"WP-2025-02"`, `"row_version":1`},
				Check: func(t *testing.T, r apptest.Response) {
					var out struct {
						ID             int64   `json:"id"`
						Contradictions []int64 `json:"contradiction_ids"`
					}
					r.JSON(t, &out)
					pkg = out.ID
					if fmt.Sprint(out.Contradictions) != fmt.Sprint(ids) {
						t.Errorf("answered %v, want %v", out.Contradictions, ids)
					}
				}},
			{Name: "a package without contradictions", Method: "POST", Path: "/contradictionpackages", As: admin, Status: 201,
				Body: obj{"data": obj{"pos_id": pos, "contradictionpackage_name": "WP-leer"}}},
		})
		if n := f.one(`SELECT COUNT(*) FROM contradiction WHERE contradictionpackage_id = ?`, pkg); n != int64(len(ids)) {
			t.Fatalf("the package holds %d contradictions, want %d", n, len(ids))
		}
		if n := f.one(`SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'contradiction' AND trackrecord_type = 'update'
			AND trackrecord_row_id = ?`, contra); n != 1 {
			t.Errorf("%d update history rows of the packed contradiction, want 1", n)
		}
		if packages() != beforePackages+2 {
			t.Fatalf("%d packages, want %d", packages(), beforePackages+2)
		}
	})
}
