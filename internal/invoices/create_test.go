package invoices_test

import (
	"strconv"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestCreateInvoice: POST /invoices creates an invoice with its areas and
// value types in one transaction; a refused value type or header writes
// nothing; another tenant's contract is refused; on both databases.
func TestCreateInvoice(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := &fixture{t: t, ta: apptest.NewApp(t, d), d: d}
		contract := f.one(`SELECT MIN(c.contract_id) FROM contract c JOIN company co ON co.company_id = c.company_id
			WHERE co.customergroup_id = 1 AND EXISTS (SELECT 1 FROM contract_area a WHERE a.contract_id = c.contract_id)`)
		company := f.one(`SELECT company_id FROM contract WHERE contract_id = ?`, contract)
		area := f.one(`SELECT MIN(area_id) FROM contract_area WHERE contract_id = ?`, contract)
		partnertype := f.one(`SELECT MIN(partnertype_id) FROM partnertype`)
		f.exec(`INSERT INTO invoicevaluetype (invoicevaluetype_name, unit_id) VALUES ('Heizgradtage', (SELECT MIN(unit_id) FROM unit))`)
		valueType := f.one(`SELECT MAX(invoicevaluetype_id) FROM invoicevaluetype`)
		header := func(number string) obj {
			return obj{"invoice_number": number, "invoice_date": "2025-03-01", "invoice_date_of_order": "2025-03-02",
				"invoice_contract_year": 2024, "company_id": company, "invoice_allocationarea": "120.5", "invoice_payment_date": "2025-04-01",
				"contract_id": contract, "area_id": []int64{area}, "partnertype_id": partnertype,
				"invoice_billing_period_from": "2024-01-01", "invoice_billing_period_to": "2024-12-31"}
		}
		invoices := func() int64 { return f.one(`SELECT COUNT(*) FROM invoice`) }
		links := func() int64 { return f.one(`SELECT COUNT(*) FROM invoice_invoicevaluetype`) }
		before, beforeLinks := invoices(), links()
		badPeriod := header("NK-X")
		badPeriod["invoice_billing_period_to"] = "2023-12-31"
		f.giveRights(leadB)
		f.ta.Run(t, []apptest.Scenario{
			{Name: "a missing value type: nothing written", Method: "POST", Path: "/invoices", As: admin, Status: 422,
				Body:     obj{"data": header("NK-X"), "value_types": []obj{{"invoicevaluetype_id": valueType, "value": "1.5"}, {"invoicevaluetype_id": 999999, "value": "2"}}},
				Contains: []string{`"value_types",1,"invoicevaluetype_id"]`}},
			{Name: "a value that is not a number: nothing written", Method: "POST", Path: "/invoices", As: admin, Status: 422,
				Body:     obj{"data": header("NK-X"), "value_types": []obj{{"invoicevaluetype_id": valueType, "value": "viel"}}},
				Contains: []string{`"value_types",0,"value"]`}},
			{Name: "a billing period ending before it starts", Method: "POST", Path: "/invoices", As: admin, Status: 422,
				Body: obj{"data": badPeriod}, Contains: []string{"invoice_billing_period_to"}},
			{Name: "another tenant's contract", Method: "POST", Path: "/invoices", As: leadB, Status: 422,
				Body: obj{"data": header("NK-X")}, Contains: []string{"company_id"}},
		})
		if invoices() != before || links() != beforeLinks {
			t.Fatalf("a refused create wrote: %d invoices (was %d), %d value type links (was %d)", invoices(), before, links(), beforeLinks)
		}
		var id int64
		f.ta.Run(t, []apptest.Scenario{
			{Name: "an invoice with its areas and value types", Method: "POST", Path: "/invoices", As: admin, Status: 201,
				Body:     obj{"data": header("NK-NEU-1"), "value_types": []obj{{"invoicevaluetype_id": valueType, "value": "1234.5"}}},
				Contains: []string{`"invoice_number":"NK-NEU-1"`},
				Check: func(t *testing.T, r apptest.Response) {
					var out struct {
						ID int64 `json:"id"`
					}
					r.JSON(t, &out)
					id = out.ID
				}},
		})
		if n := f.one(`SELECT COUNT(*) FROM invoice_invoicevaluetype WHERE invoice_id = ? AND invoicevaluetype_id = ?`, id, valueType); n != 1 {
			t.Fatalf("%d value type links, want 1", n)
		}
		if n := f.one(`SELECT COUNT(*) FROM invoice_area WHERE invoice_id = ? AND area_id = ?`, id, area); n != 1 {
			t.Fatalf("%d area links, want 1", n)
		}
		if n := f.one(`SELECT COUNT(*) FROM invoice i JOIN users u ON u.user_id = i.invoice_responsible_user_id
			WHERE i.invoice_id = ? AND u.user_email = ?`, id, admin); n != 1 {
			t.Fatalf("the new invoice's responsible user is not who entered it")
		}
		if r := f.do(admin, "GET", "/invoices/"+strconv.FormatInt(id, 10), nil); r.Status != 200 {
			t.Fatalf("the new invoice's page: %d %s", r.Status, r.Body)
		}
	})
}
