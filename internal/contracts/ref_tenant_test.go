package contracts_test

import (
	"context"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestStepTwoTaxRateOfTheContractsCompany: contract step 2 writes its
// recurring payments through the engine, so a payment's tax rate is one
// of its contract's company (issue 38: a Südmarkt tax rate was accepted on
// a Nordhandel contract), on create and on update, and a refused row
// writes nothing. Demo companies 1 and 2 are Nordhandel's, 3 Südmarkt's;
// the demo seed gives each its tax rates.
func TestStepTwoTaxRateOfTheContractsCompany(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		contract, _ := contractOf(t, d, 1)
		rate := func(company int64) (id int64) {
			t.Helper()
			if err := d.QueryRowContext(ctx, `SELECT MIN(taxrate_id) FROM taxrate WHERE company_id = ?`, company).Scan(&id); err != nil {
				t.Fatalf("a tax rate of company %d: %v", company, err)
			}
			return id
		}
		own, sister, foreign := rate(1), rate(2), rate(3)
		ta.Run(t, []apptest.Scenario{{Name: "an account", Method: "POST", Path: "/api/", As: admin, Status: 201,
			Body: obj{"action": "create", "entity": "sachkonto", "data": obj{"sachkonto_number": "4711", "sachkonto_name": "Rent"}}}})
		row := paymentRow(t, d, contract)
		count := func() (n int) {
			t.Helper()
			if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM recurringpayment WHERE contract_id = ?`, contract).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		before := count()
		step := func(rows ...obj) obj { return obj{"contract_id": contract, "recurringpayments": rows} }
		refused := []string{`"recurringpayments",1,"taxrate_id"]`, `"type":"not_available"`, "The selected Tax rate is not available"}
		var answer obj
		ta.Run(t, []apptest.Scenario{
			{Name: "another group's tax rate", Method: "POST", Path: "/contracts/step/2", As: admin, Status: 422,
				Body: step(withKV(row, "taxrate_id", own), withKV(row, "taxrate_id", foreign)), Contains: refused},
			{Name: "in French", Method: "POST", Path: "/contracts/step/2", As: admin, Status: 422, Header: map[string]string{"Accept-Language": "fr"},
				Body: step(withKV(row, "taxrate_id", own), withKV(row, "taxrate_id", foreign)), Contains: []string{"n’est pas disponible"}},
			{Name: "another company's tax rate of the group", Method: "POST", Path: "/contracts/step/2", As: admin, Status: 422,
				Body: step(withKV(row, "taxrate_id", own), withKV(row, "taxrate_id", sister)), Contains: refused},
		})
		if n := count(); n != before {
			t.Fatalf("refused steps wrote rows: %d, want %d", n, before)
		}
		ta.Run(t, []apptest.Scenario{
			{Name: "the contract company's tax rate", Method: "POST", Path: "/contracts/step/2", As: admin, Status: 200,
				Body: step(withKV(row, "taxrate_id", own, "recurringpayment_name", "Eigener Satz")), Contains: []string{"Eigener Satz"},
				Check: func(t *testing.T, r apptest.Response) { answer = written(t, r) }},
		})
		var stored obj
		for _, p := range answer["recurringpayments"].([]any) {
			if p := p.(map[string]any); p["recurringpayment_name"] == "Eigener Satz" {
				stored = p
			}
		}
		if stored == nil {
			t.Fatalf("the new payment is not in the answer: %v", answer)
		}
		update := func(taxrate int64) obj {
			return step(obj{"recurringpayment_id": stored["recurringpayment_id"], "row_version": stored["row_version"], "taxrate_id": taxrate})
		}
		ta.Run(t, []apptest.Scenario{
			{Name: "update to another group's tax rate", Method: "PUT", Path: "/contracts/step/2", As: admin, Status: 422,
				Body: update(foreign), Contains: []string{`"recurringpayments",0,"taxrate_id"]`, `"type":"not_available"`}},
			{Name: "update to another company's tax rate", Method: "PUT", Path: "/contracts/step/2", As: admin, Status: 422,
				Body: update(sister), Contains: []string{`"recurringpayments",0,"taxrate_id"]`, `"type":"not_available"`}},
		})
	})
}
