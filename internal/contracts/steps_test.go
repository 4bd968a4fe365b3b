package contracts_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"portfolio/internal/db"
	platformclock "portfolio/internal/platform/clock"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// basicData copies the basic data of demo contract id as a step 0 body.
func basicData(t *testing.T, d *db.DB, id int64) obj {
	t.Helper()
	var name string
	var typ, company, pos, location, currency int64
	err := d.QueryRowContext(context.Background(), `SELECT contract_name, contracttype_id, company_id, pos_id, location_id, currency_id
		FROM contract WHERE contract_id = ?`, id).Scan(&name, &typ, &company, &pos, &location, &currency)
	if err != nil {
		t.Fatal(err)
	}
	return obj{"contract_name": name + " (step 0)", "contracttype_id": typ, "company_id": company, "pos_id": pos,
		"location_id": location, "currency_id": currency, "contract_begin_date": "2026-01-01", "contract_end_date": "2031-12-31",
		"contract_first_possible_end_date": "2028-12-31"}
}

// TestContractSteps: step 0 creates and changes a contract's basic data,
// step 2 saves its recurring payments all or nothing, step 7 links
// documents; each answers the contract.
func TestContractSteps(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		base, _ := contractOf(t, d, 1)
		foreign, _ := contractOf(t, d, 3)
		data := basicData(t, d, base)
		var created obj
		ta.Run(t, []apptest.Scenario{
			{Name: "step 0 creates", Method: "POST", Path: "/contracts/step/0", As: admin, Body: data, Status: 201,
				Contains: []string{`"contract_migration_checked":0`, `"recurringpayments":[]`, `"deadlines":[]`},
				Check:    func(t *testing.T, r apptest.Response) { created = written(t, r) }},
			{Name: "step 0 end before begin", Method: "POST", Path: "/contracts/step/0", As: admin, Status: 422,
				Body: withKV(data, "contract_end_date", "2025-01-01"), Contains: []string{`"loc":["body","contract_end_date"]`}},
			{Name: "step 0 without name", Method: "POST", Path: "/contracts/step/0", As: admin, Status: 422,
				Body: withKV(data, "contract_name", "-"), Contains: []string{`"loc":["body","contract_name"]`}},
			{Name: "step 0 not json", Method: "POST", Path: "/contracts/step/0", As: admin, Status: 422, Body: `[1]`},
			{Name: "step 0 a lead may not create", Method: "POST", Path: "/contracts/step/0", As: lead, Status: 403, Body: data},
		})
		id := int64(created["contract_id"].(float64))
		version := int64(created["row_version"].(float64))
		path := fmt.Sprintf("/contracts/step/0/%d", id)
		ta.Run(t, []apptest.Scenario{
			{Name: "step 0 updates", Method: "PUT", Path: path, As: admin, Status: 200,
				Body: obj{"row_version": version, "contract_name": "Renamed"}, Contains: []string{`"contract_name":"Renamed"`}},
			{Name: "step 0 stale", Method: "PUT", Path: path, As: admin, Status: 409, Body: obj{"row_version": version, "contract_name": "X"}},
			{Name: "step 0 without row_version", Method: "PUT", Path: path, As: admin, Status: 422,
				Body: obj{"contract_name": "X"}, Contains: []string{`"loc":["body","row_version"]`}},
			{Name: "step 0 end before begin on update", Method: "PUT", Path: path, As: admin, Status: 422,
				Body: obj{"row_version": version + 1, "contract_end_date": "2020-01-01"}, Contains: []string{`"loc":["body","contract_end_date"]`}},
			{Name: "step 0 a lead may not change contracts", Method: "PUT", Path: fmt.Sprintf("/contracts/step/0/%d", foreign), As: lead, Status: 403,
				Body: obj{"row_version": 1, "contract_name": "X"}},
			{Name: "step 0 missing contract", Method: "PUT", Path: "/contracts/step/0/99999999", As: admin, Status: 404,
				Body: obj{"row_version": 1, "contract_name": "X"}},
		})
		// The contract's deadlines carry their traffic light as of today.
		deadline := func(days int) obj {
			return obj{"action": "create", "entity": "contractaction", "data": obj{"contract_id": id, "contractaction_acting_by": "mieter",
				"contractaction_type": "resiliation", "contractaction_notice_period_value": 0, "contractaction_notice_period_unit": "day",
				"contractaction_resiliation_date": platformclock.Now().UTC().AddDate(0, 0, days).Format(time.DateOnly)}}
		}
		ta.Run(t, []apptest.Scenario{
			{Name: "a deadline in 60 days", Method: "POST", Path: "/api/", As: admin, Status: 201, Body: deadline(60)},
			{Name: "the contract shows it yellow", Method: "GET", Path: fmt.Sprintf("/contracts/%d", id), As: admin, Status: 200,
				Contains: []string{`"traffic_light":"yellow"`}, Absent: []string{`"traffic_light":"red"`}},
			{Name: "a deadline in 10 days", Method: "POST", Path: "/api/", As: admin, Status: 201, Body: deadline(10)},
			{Name: "the contract shows it red", Method: "GET", Path: fmt.Sprintf("/contracts/%d", id), As: admin, Status: 200,
				Contains: []string{`"traffic_light":"red"`, `"traffic_light":"yellow"`}},
		})
		stepPayments(t, d, ta, id)
	})
}

// stepPayments exercises step 2 on contract id, with a payment of another
// contract as the foreign row.
func stepPayments(t *testing.T, d *db.DB, ta *apptest.TestApp, id int64) {
	t.Helper()
	ctx := context.Background()
	var company int64
	if err := d.QueryRowContext(ctx, `SELECT company_id FROM contract WHERE contract_id = ?`, id).Scan(&company); err != nil {
		t.Fatal(err)
	}
	ta.Run(t, []apptest.Scenario{{Name: "a tax rate", Method: "POST", Path: "/api/", As: admin, Status: 201,
		Body: obj{"action": "create", "entity": "taxrate", "data": obj{"company_id": company, "taxrate_code": "S", "taxrate_value": 19}}},
		{Name: "an account", Method: "POST", Path: "/api/", As: admin, Status: 201,
			Body: obj{"action": "create", "entity": "sachkonto", "data": obj{"sachkonto_number": "4711", "sachkonto_name": "Rent"}}},
		{Name: "a payment type", Method: "POST", Path: "/api/", As: admin, Status: 201,
			Body: obj{"action": "create", "entity": "recurringpaymenttype", "data": obj{"recurringpaymenttype_name": "Rent"}}},
		{Name: "a maturity type", Method: "POST", Path: "/api/", As: admin, Status: 201,
			Body: obj{"action": "create", "entity": "maturitytype", "data": obj{"maturitytype_name": "Fixed date"}}}})
	row := paymentRow(t, d, id)
	var otherRow int64
	ta.Run(t, []apptest.Scenario{{Name: "a payment of another contract", Method: "POST", Path: "/contracts/step/2", As: admin, Status: 200,
		Body: obj{"contract_id": foreignOf(t, d, id), "recurringpayments": []obj{row}}}})
	if err := d.QueryRowContext(ctx, `SELECT MAX(recurringpayment_id) FROM recurringpayment`).Scan(&otherRow); err != nil {
		t.Fatal(err)
	}
	row["recurringpayment_name"] = "Step rent"
	count := func() (n int) {
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM recurringpayment WHERE contract_id = ?`, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	var answer obj
	ta.Run(t, []apptest.Scenario{
		{Name: "step 2 creates two rows", Method: "POST", Path: "/contracts/step/2", As: admin, Status: 200,
			Body:     obj{"contract_id": id, "recurringpayments": []obj{row, withKV(row, "recurringpayment_name", "Step charge")}},
			Contains: []string{"Step rent", "Step charge"}, Check: func(t *testing.T, r apptest.Response) { answer = written(t, r) }},
		{Name: "step 2 a bad second row writes nothing", Method: "POST", Path: "/contracts/step/2", As: admin, Status: 422,
			Body:     obj{"contract_id": id, "recurringpayments": []obj{row, withKV(row, "recurringpayment_end_date", "1990-01-01")}},
			Contains: []string{`"loc":["body","recurringpayments",1,"recurringpayment_end_date"]`}},
		{Name: "step 2 a row of another contract", Method: "PUT", Path: "/contracts/step/2", As: admin, Status: 422,
			Body:     obj{"contract_id": id, "recurringpayments": []obj{withKV(row, "recurringpayment_id", otherRow, "row_version", 1)}},
			Contains: []string{`"loc":["body","recurringpayments",0,"recurringpayment_id"]`}},
		{Name: "step 2 removing a row of another contract", Method: "PUT", Path: "/contracts/step/2", As: admin, Status: 422,
			Body: obj{"contract_id": id, "remove_ids": []int64{otherRow}}, Contains: []string{`"loc":["body","remove_ids",0]`}},
		{Name: "step 2 not a list", Method: "PUT", Path: "/contracts/step/2", As: admin, Status: 422,
			Body: obj{"contract_id": id, "recurringpayments": "x"}, Contains: []string{`"loc":["body","recurringpayments"]`}},
		{Name: "step 2 missing contract", Method: "PUT", Path: "/contracts/step/2", As: admin, Status: 404,
			Body: obj{"contract_id": 99999999, "recurringpayments": []obj{}}},
	})
	if n := count(); n != 2 {
		t.Fatalf("after the refused writes: %d rows, want 2", n)
	}
	rows := answer["recurringpayments"].([]any)
	first := rows[0].(map[string]any)
	second := rows[1].(map[string]any)
	ta.Run(t, []apptest.Scenario{
		{Name: "step 2 updates one, removes one, adds one", Method: "PUT", Path: "/contracts/step/2", As: admin, Status: 200,
			Body: obj{"contract_id": id, "remove_ids": []any{second["recurringpayment_id"]}, "recurringpayments": []obj{
				{"recurringpayment_id": first["recurringpayment_id"], "row_version": first["row_version"], "recurringpayment_name": "Step rent 2"},
				withKV(row, "recurringpayment_name", "Step third")}},
			Contains: []string{"Step rent 2", "Step third"}, Absent: []string{"Step charge"}},
	})
	if n := count(); n != 2 {
		t.Fatalf("after update, remove and add: %d rows, want 2", n)
	}
}

// paymentRow is a valid recurring payment of contract (without contract).
func paymentRow(t *testing.T, d *db.DB, contract int64) obj {
	t.Helper()
	ctx := context.Background()
	var tax, account int64
	if err := d.QueryRowContext(ctx, `SELECT MIN(taxrate_id) FROM taxrate`).Scan(&tax); err != nil {
		t.Fatalf("a tax rate: %v", err)
	}
	if err := d.QueryRowContext(ctx, `SELECT MIN(sachkonto_id) FROM sachkonto`).Scan(&account); err != nil {
		t.Fatalf("an account: %v", err)
	}
	return obj{"recurringpayment_name": "Step rent", "taxrate_id": tax, "recurringpaymenttype_id": 1, "sachkonto_id": account,
		"recurringpayment_sum_per_month": 100, "recurringpayment_begin_date": "2026-01-01", "recurringpayment_end_date": "2027-12-31",
		"maturitytype_id": 1, "recurringpayment_maturity_date": "2026-01-05"}
}

// foreignOf is another contract than id.
func foreignOf(t *testing.T, d *db.DB, id int64) (other int64) {
	t.Helper()
	if err := d.QueryRowContext(context.Background(), `SELECT MIN(contract_id) FROM contract WHERE contract_id <> ?`, id).Scan(&other); err != nil {
		t.Fatal(err)
	}
	return other
}

// withKV copies m with the pairs kv set ("-" removes a key).
func withKV(m obj, kv ...any) obj {
	out := obj{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "-" {
			delete(out, kv[i].(string))
			continue
		}
		out[kv[i].(string)] = kv[i+1]
	}
	return out
}
