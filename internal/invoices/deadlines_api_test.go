package invoices_test

import (
	"fmt"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestStatementDeadlinesThroughTheAPI: an invoice's day of receipt and
// billing period give its objection and settlement deadlines (decision
// 0062); a contract's agreed periods replace the statutory twelve months,
// also for the invoices stored before; the invoice page says each
// deadline in words in the reader's language; on both databases.
func TestStatementDeadlinesThroughTheAPI(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := &fixture{t: t, ta: apptest.NewApp(t, d), d: d}
		// The demo statements were received five days after their date:
		// NK-DEMO-2025's objection deadline lies ahead of the product's day
		// (the seed's dates are fixed), NK-DEMO-2024's has passed.
		if got := f.text(`SELECT CAST(invoice_objection_deadline AS TEXT) || ' ' || CAST(invoice_settlement_deadline AS TEXT)
			FROM invoice WHERE invoice_number = ?`, seed.DemoInvoiceNumbers[2]); !strings.HasPrefix(got, "2027-04-20") || !strings.Contains(got, " 2026-12-31") {
			t.Errorf("demo %s deadlines = %q, want 2027-04-20 and 2026-12-31", seed.DemoInvoiceNumbers[2], got)
		}
		inv := f.one(`SELECT invoice_id FROM invoice WHERE invoice_number = ?`, seed.DemoInvoiceNumbers[1])
		r := f.ta.Do("GET", fmt.Sprintf("/invoices/%d", inv), f.ta.Token(teamMember), nil)
		if !strings.Contains(string(r.Body), `"kind":"objection","date":"2026-04-20","from":"2025-04-20","months":12,"agreed":false,"passed":true`) {
			t.Errorf("demo %s: %d %s, want its objection deadline of 2026-04-20 passed", seed.DemoInvoiceNumbers[1], r.Status, r.Body)
		}
		contract := f.one(`SELECT contract_id FROM invoice WHERE invoice_id = ?`, inv)
		version := f.one(`SELECT row_version FROM invoice WHERE invoice_id = ?`, inv)
		r = f.do(teamMember, "POST", "/api/?invoice", obj{"action": "update", "entity": "invoice", "id": inv, "row_version": version,
			"data": obj{"invoice_received_date": "2026-05-04", "invoice_billing_period_to": "2025-12-31"}})
		if r.Status != 200 {
			t.Fatalf("update invoice: %d %s", r.Status, r.Body)
		}
		deadlines := func() string {
			return f.text(`SELECT COALESCE(CAST(invoice_objection_deadline AS TEXT), '') || ' ' || COALESCE(CAST(invoice_settlement_deadline AS TEXT), '')
				FROM invoice WHERE invoice_id = ?`, inv)
		}
		if got := deadlines(); !strings.HasPrefix(got, "2027-05-04") || !strings.Contains(got, " 2026-12-31") {
			t.Fatalf("statutory deadlines = %q, want 2027-05-04 and 2026-12-31", got)
		}

		// The lease agrees six months to object: the stored invoice follows.
		cv := f.one(`SELECT row_version FROM contract WHERE contract_id = ?`, contract)
		r = f.do(teamMember, "POST", "/api/?contract", obj{"action": "update", "entity": "contract", "id": contract, "row_version": cv,
			"data": obj{"contract_objection_months": 6}})
		if r.Status != 200 {
			t.Fatalf("update contract: %d %s", r.Status, r.Body)
		}
		if got := deadlines(); !strings.HasPrefix(got, "2026-11-04") || !strings.Contains(got, " 2026-12-31") {
			t.Fatalf("agreed deadlines = %q, want 2026-11-04 and 2026-12-31", got)
		}
		r = f.do(teamMember, "POST", "/api/?contract", obj{"action": "update", "entity": "contract", "id": contract, "row_version": cv + 1,
			"data": obj{"contract_objection_months": 0}})
		if r.Status != 422 || !strings.Contains(string(r.Body), `"loc":["body","contract_objection_months"]`) {
			t.Errorf("a period of 0 months: %d %s, want 422 on contract_objection_months", r.Status, r.Body)
		}

		// A derived deadline is not written by hand.
		version = f.one(`SELECT row_version FROM invoice WHERE invoice_id = ?`, inv)
		f.do(admin, "POST", "/api/?invoice", obj{"action": "update", "entity": "invoice", "id": inv, "row_version": version,
			"data": obj{"invoice_objection_deadline": "2030-01-01"}})
		if got := deadlines(); !strings.HasPrefix(got, "2026-11-04") {
			t.Errorf("after writing the deadline by hand: %q", got)
		}

		// The invoice page explains both, in German for a German reader.
		r = f.ta.Do("GET", fmt.Sprintf("/invoices/%d", inv), f.ta.Token(teamMember), nil, "Accept-Language", "de")
		if r.Status != 200 {
			t.Fatalf("GET invoice: %d %s", r.Status, r.Body)
		}
		for _, want := range []string{
			`"kind":"objection"`, `"date":"2026-11-04"`, `"agreed":true`,
			"Einwendungen bis 4. November 2026: 6 Monate nach Zugang am 4. Mai 2026 (laut Mietvertrag)",
			"Abrechnung des Vermieters bis 31. Dezember 2026: 12 Monate nach Ende des Abrechnungszeitraums am 31. Dezember 2025, zum Monatsende (§ 556 Abs. 3 BGB)",
		} {
			if !strings.Contains(string(r.Body), want) {
				t.Errorf("invoice page lacks %s: %s", want, r.Body)
			}
		}
	})
}
