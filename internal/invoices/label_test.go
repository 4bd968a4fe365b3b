package invoices_test

import (
	"context"
	"fmt"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestInvoiceLabelIsIDNumberDate: a reference to an invoice is labelled
// by its id, number and date, as the specification's default list labels
// say ("invoice shows id, number, date"): in the choices of a list field,
// in a list's label column and sorted by it.
func TestInvoiceLabelIsIDNumberDate(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		var id int64
		var date string
		if err := d.QueryRowContext(context.Background(), `SELECT invoice_id, CAST(invoice_date AS TEXT) FROM invoice WHERE invoice_number = ?`,
			seed.DemoInvoiceNumbers[1]).Scan(&id, &date); err != nil {
			t.Fatal(err)
		}
		label := fmt.Sprintf("%d %s %s", id, seed.DemoInvoiceNumbers[1], date)
		ta.Run(t, []apptest.Scenario{
			{Name: "the choices of a field referring to invoices", As: admin, Method: "POST", Path: "/api/", Status: 200,
				Body:     obj{"action": "options", "entity": "invoiceposition", "field": "invoice_id", "per_page": 100},
				Contains: []string{fmt.Sprintf(`"label":%q`, label)}},
			{Name: "the label column of a list, sorted by it", As: admin, Method: "POST", Path: "/api/", Status: 200,
				Body: obj{"action": "read-rich", "entity": "invoiceposition", "columns": []string{"invoice_id", "invoice_id__label"},
					"order_by": "invoice_id__label", "filter": []obj{{"field": "invoice_id", "op": "eq", "value": id}}},
				Contains: []string{fmt.Sprintf(`"invoice_id__label":%q`, label)}},
		})
	})
}
