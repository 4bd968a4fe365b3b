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

// TestChargeRulesOnTheDemo: the generator on NK-DEMO-2025 (a lease
// capping administration costs at 4 % of the net rent of 60,000.00, no
// maintenance cap) claims the administration costs beyond the cap and
// warns about the uncapped maintenance, each naming its basis, in German
// and then in English; the warning adds nothing to the sum; NK-DEMO-2024
// (fifteen months, no agreed period) gets a warning for its period; a cap
// agreed later turns the maintenance warning into a claim. Both databases.
func TestChargeRulesOnTheDemo(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := &fixture{t: t, ta: apptest.NewApp(t, d), d: d}
		inv := f.one(`SELECT invoice_id FROM invoice WHERE invoice_number = ?`, seed.DemoInvoiceNumbers[2])
		f.generate(admin, inv)
		want := map[string]string{"admin_costs_over_cap": "1260.00", "maintenance_without_cap": "0.00"}
		if got := f.points(inv); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("points = %v, want %v", got, want)
		}
		if sum := f.text(`SELECT CAST(contradiction_sum AS TEXT) FROM contradiction WHERE invoice_id = ?`, inv); !strings.HasPrefix(sum, "1260") {
			t.Errorf("sum = %s, want 1260.00: a warning adds nothing", sum)
		}
		if n := f.one(`SELECT COUNT(*) FROM contradictionpoint p JOIN contradiction c ON c.contradiction_id = p.contradiction_id
			WHERE c.invoice_id = ? AND p.legally_clear = 1`, inv); n != 1 {
			t.Errorf("%d legally clear points, want 1 (the claim; the warning is not)", n)
		}
		f.texts(inv, map[string][]string{
			"admin_costs_over_cap": {"Verwaltungskosten von 3.660,00 €", "(1 Position)", "6,1 % der Nettomiete", "60.000,00 €",
				"im Mietvertrag vereinbarten 4 % (2.400,00 €)", "1.260,00 €"},
			"maintenance_without_cap": {"1.800,00 €", "BGH, Urteil vom 6. April 2005, XII ZR 158/01", "nicht zurück"},
		})

		f.exec(`UPDATE company SET company_language = 'en' WHERE company_id = (SELECT company_id FROM invoice WHERE invoice_id = ?)`, inv)
		f.generate(admin, inv)
		f.texts(inv, map[string][]string{
			"admin_costs_over_cap":    {"Administration costs of €3,660.00 (1 position) are 6.1 % of the net rent", "exceed the 4 % agreed in the lease (€2,400.00)"},
			"maintenance_without_cap": {"judgment of 6 April 2005, XII ZR 158/01", "we claim no amount on this point"},
		})

		// A maintenance cap of 1,500.00 a year turns the warning into the
		// claim of the excess over it.
		f.exec(`UPDATE contract SET contract_maintenance_cap = 1500 WHERE contract_id = (SELECT contract_id FROM invoice WHERE invoice_id = ?)`, inv)
		f.generate(admin, inv)
		want = map[string]string{"admin_costs_over_cap": "1260.00", "maintenance_over_cap": "300.00"}
		if got := f.points(inv); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("points with a maintenance cap = %v, want %v", got, want)
		}
		f.texts(inv, map[string][]string{"maintenance_over_cap": {"caps these costs at €1,500.00 a year, €1,500.00 for 12 months"}})

		// NK-DEMO-2024 (the same company, now English): fifteen months, the
		// lease agrees no period.
		long := f.one(`SELECT invoice_id FROM invoice WHERE invoice_number = ?`, seed.DemoInvoiceNumbers[1])
		f.generate(admin, long)
		if got := f.points(long)["billing_period_over_12_months"]; got != "0.00" {
			t.Errorf("billing period point claims %s, want a warning (0.00)", got)
		}
		f.texts(long, map[string][]string{"billing_period_over_12_months": {"(15 months)", "§ 556 (3) sentence 1 BGB", "more than 12 months", "we claim no amount"}})

		// An index adjustment approved from July 2025 raised the base rent
		// from 4,000.00 to today's 5,000.00 a month: the year's net rent is
		// 6 × 4,000 + 6 × 5,000 = 54,000.00, the 4 % cap 2,160.00, and the
		// claim 3,660.00 − 2,160.00 = 1,500.00.
		f.exec(`INSERT INTO indexclause (indexclause_name, indexclause_adjustment_rule, indexclause_description, indexclause_baseyear,
			indexclause_begin_date, indextransmission_percent, change_in_percent, priceindex_id)
			VALUES ('Wertsicherung', 'percent', '', 2020, '2024-01-01', 100, 1, 1)`)
		f.exec(`INSERT INTO indexadjustment (recurringpayment_id, indexclause_id, indexadjustment_reference_month, indexadjustment_current_month,
				indexadjustment_reference_value, indexadjustment_current_value, indexadjustment_change_points, indexadjustment_change_percent,
				indexadjustment_old_amount, indexadjustment_new_amount, indexadjustment_effective_date, indexadjustment_status)
			SELECT MIN(rp.recurringpayment_id), (SELECT MAX(indexclause_id) FROM indexclause), '2024-01', '2025-05', 100, 125, 25, 25,
				4000, 5000, '2025-07-01', 'approved'
			FROM recurringpayment rp WHERE rp.recurringpaymenttype_id = 1 AND rp.recurringpayment_sum_per_month = 5000
				AND rp.contract_id = (SELECT contract_id FROM invoice WHERE invoice_id = ?)`, inv)
		f.generate(admin, inv)
		if got := f.points(inv)["admin_costs_over_cap"]; got != "1500.00" {
			t.Errorf("administration claim after an index adjustment in the period = %s, want 1500.00", got)
		}
		f.texts(inv, map[string][]string{"admin_costs_over_cap": {"6.8 % of the net rent", "(€2,160.00)"}})
	})
}

// texts checks that each rule's point on invoice says every fragment.
func (f *fixture) texts(invoice int64, want map[string][]string) {
	f.t.Helper()
	for rule, fragments := range want {
		text := f.text(`SELECT p.contradictionpoint_text FROM contradictionpoint p JOIN contradiction c ON c.contradiction_id = p.contradiction_id
			WHERE c.invoice_id = ? AND p.contradictionpoint_rule = ?`, invoice, rule)
		text = strings.ReplaceAll(text, "\u00a0", " ") // money keeps its sign on the line
		for _, w := range fragments {
			if !strings.Contains(text, w) {
				f.t.Errorf("%s text %q lacks %q", rule, text, w)
			}
		}
	}
}
