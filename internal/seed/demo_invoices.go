package seed

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/invoices"
	"portfolio/internal/schema"
)

// DemoInvoiceNumbers are the numbers of the demo invoices written for the
// invoice review (issue 14): the previous year's statement with its flat
// rate, a statement over fifteen months that breaks every position rule
// once, and (issue 39, decision 0061) a statement of another contract
// whose administration costs exceed the lease's cap and whose
// maintenance of common areas the lease does not cap.
var DemoInvoiceNumbers = [3]string{"NK-DEMO-2023", "NK-DEMO-2024", "NK-DEMO-2025"}

// Cost type categories of the demo (decision 0061): the management costs
// are administration costs, the new cost type of common-area maintenance
// is maintenance; the others stay "other".
var demoCostTypeCategories = []struct{ name, category string }{
	{"Verwaltungskosten", "administration"},
	{demoMaintenanceCostType, "maintenance"},
}

const demoMaintenanceCostType = "Instandhaltung Gemeinschaftsflächen"

// demoChargeTerms is what the contract of NK-DEMO-2025 agrees: a cap of
// 4 % of the net rent on administration costs and no cap on maintenance,
// with a base rent of 5,000.00 a month (60,000.00 a year). Its positions
// charge 3,660.00 of administration costs (6.1 %: a claim of 1,260.00) and
// 1,800.00 of maintenance (a warning).
var demoChargeTerms = struct {
	capPercent, rent string
	positions        [2]struct{ name, costtype, amountTotal, amount string }
}{"4", "5000.00", [2]struct{ name, costtype, amountTotal, amount string }{
	{"Objektverwaltung", "Verwaltungskosten", "24400.00", "3660.00"},
	{"Instandhaltung Mall", demoMaintenanceCostType, "12000.00", "1800.00"},
}}

// demoReviewPositions are the positions of the second demo invoice, by
// cost type name (as the demo portfolio names them): each finds one rule
// of the contradiction generator, and the last finds none.
var demoReviewPositions = []struct {
	name, costtype                    string
	total, units, amountTotal, amount string
	flat, apportionable               bool
}{
	{"Verwaltungspauschale", "Hausmeister", "1", "1", "1380.00", "1380.00", true, true},           // flat_rate_changed: +180.00
	{"Center-Management", "Verwaltungskosten", "1000", "150", "16000.00", "2400.00", false, true}, // costtype_not_agreed
	{"Winterdienst", "Müllabfuhr", "1000", "150", "4000.00", "640.00", false, false},              // not_apportionable
	{"Reinigung Mall", "Gebäudereinigung", "1000", "150", "12000.00", "1950.50", false, true},     // share_exceeded: 150.50
	{"Grundsteuer", "Grundsteuer", "1000", "100", "8000.00", "800.00", false, true},               // in order
}

// demoInvoiceReview gives the demo data what the contradiction generator
// checks, once: every demo contract agrees on the apportionable cost types
// its invoices charge (a contract that already has cost types is left
// alone), and the first contract of the first demo customer group gets
// two invoices (2023 with a flat rate; 2024 over fifteen months with one
// position per rule). Nothing is written when the invoices exist.
func demoInvoiceReview(ctx context.Context, d *db.DB) error {
	if err := d.InTx(ctx, func(tx *db.Tx) error { return demoCategories(ctx, tx) }); err != nil {
		return err
	}
	if err := demoPositionRules(ctx, d); err != nil {
		return err
	}
	if err := d.InTx(ctx, func(tx *db.Tx) error { return demoChargeRules(ctx, tx) }); err != nil {
		return err
	}
	if err := d.InTx(ctx, func(tx *db.Tx) error { return demoStatementDeadlines(ctx, tx) }); err != nil {
		return err
	}
	return d.InTx(ctx, func(tx *db.Tx) error { return demoLandlord(ctx, tx) })
}

// demoLandlord makes Rheinland Immobilien the manager of the demo
// statements' contracts, with a contact person at its office, so an
// objection letter has an addressee with an address. Done once: a
// partner company that has contact persons is left alone.
func demoLandlord(ctx context.Context, tx *db.Tx) error {
	var n int64
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM contactperson WHERE partnercompany_id = ?`, demoPartnerCo).Scan(&n); err != nil {
		return fmt.Errorf("seed demo landlord: %w", err)
	}
	if n > 0 {
		return nil
	}
	var city int64
	err := tx.QueryRowContext(ctx, `SELECT COALESCE((SELECT MIN(city_id) FROM city WHERE city_name = 'Köln'), (SELECT MIN(city_id) FROM city))`).Scan(&city)
	if err != nil {
		return fmt.Errorf("seed demo landlord: city: %w", err)
	}
	var address int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO address (address_street, address_house_number, city_id)
		VALUES ('Rheinuferstraße', '12', ?) RETURNING address_id`, city).Scan(&address); err != nil {
		return fmt.Errorf("seed demo landlord: address: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO contactperson (contactperson_firstname, contactperson_lastname, contactperson_shortname,
			contactperson_function, contactsalutation_id, address_id, partnercompany_id)
		VALUES ('Petra', 'Verwalter', 'PV', 'Objektverwaltung', (SELECT MIN(contactsalutation_id) FROM contactsalutation), ?, ?)`,
		address, demoPartnerCo); err != nil {
		return fmt.Errorf("seed demo landlord: contact person: %w", err)
	}
	for _, number := range DemoInvoiceNumbers {
		if _, err := tx.ExecContext(ctx, `INSERT INTO contract_partnercompany (contract_id, partnercompany_id, partner_role)
			SELECT DISTINCT i.contract_id, CAST(? AS BIGINT), 'manager' FROM invoice i
			WHERE i.invoice_number = ? AND NOT EXISTS (SELECT 1 FROM contract_partnercompany l
				WHERE l.contract_id = i.contract_id AND l.partnercompany_id = ? AND l.partner_role = 'manager')`,
			demoPartnerCo, number, demoPartnerCo); err != nil {
			return fmt.Errorf("seed demo landlord of %s: %w", number, err)
		}
	}
	return nil
}

// demoStatementDeadlines gives the demo invoices the day they were received
// (five days after their date) and the deadlines internal/invoices derives
// from it (decision 0062): NK-DEMO-2024's objection deadline has passed,
// NK-DEMO-2025's lies ahead. Each also gets its contract's areas: an
// invoice requires them, and without them no one could save a change.
// Invoices that have a day of receipt are left alone.
func demoStatementDeadlines(ctx context.Context, tx *db.Tx) error {
	for _, number := range DemoInvoiceNumbers {
		var id, contract int64
		var date, periodTo sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT invoice_id, contract_id, CAST(invoice_date AS TEXT), CAST(invoice_billing_period_to AS TEXT)
			FROM invoice WHERE invoice_number = ? AND invoice_received_date IS NULL`, number).Scan(&id, &contract, &date, &periodTo)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return fmt.Errorf("seed demo statement deadlines of %s: %w", number, err)
		}
		issued, err := time.Parse(time.DateOnly, date.String[:min(len(date.String), 10)])
		if err != nil {
			return fmt.Errorf("seed demo statement deadlines of %s: %w", number, err)
		}
		received := issued.AddDate(0, 0, 5)
		var settlement any
		if end, err := time.Parse(time.DateOnly, periodTo.String[:min(len(periodTo.String), 10)]); err == nil {
			settlement = invoices.SettlementDeadline(end, invoices.StatutoryMonths).Format(time.DateOnly)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE invoice SET invoice_received_date = ?, invoice_objection_deadline = ?,
				invoice_settlement_deadline = ? WHERE invoice_id = ?`, received.Format(time.DateOnly),
			invoices.ObjectionDeadline(received, invoices.StatutoryMonths).Format(time.DateOnly), settlement, id); err != nil {
			return fmt.Errorf("seed demo statement deadlines of %s: %w", number, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO invoice_area (invoice_id, area_id)
			SELECT DISTINCT CAST(? AS BIGINT), area_id FROM contract_area WHERE contract_id = ? ON CONFLICT DO NOTHING`, id, contract); err != nil {
			return fmt.Errorf("seed demo invoice %s areas: %w", number, err)
		}
	}
	return nil
}

// demoCategories categorises the demo cost types, adding the maintenance
// one; a cost type someone categorised already is left alone.
func demoCategories(ctx context.Context, tx *db.Tx) error {
	for _, c := range demoCostTypeCategories {
		id, err := ensureNamed(ctx, tx, "costtype", c.name)
		if err != nil {
			return fmt.Errorf("seed demo cost type categories: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE costtype SET costtype_category = ? WHERE costtype_id = ? AND costtype_category = 'other'`,
			c.category, id); err != nil {
			return fmt.Errorf("seed demo cost type categories: %w", err)
		}
	}
	return nil
}

// demoPositionRules writes NK-DEMO-2023 and NK-DEMO-2024, once.
func demoPositionRules(ctx context.Context, d *db.DB) error {
	return d.InTx(ctx, func(tx *db.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM invoice WHERE invoice_number = ?`, DemoInvoiceNumbers[1]).Scan(&n); err != nil {
			return fmt.Errorf("seed demo invoices: %w", err)
		}
		if n > 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO contract_costtype (contract_id, costtype_id)
			SELECT DISTINCT i.contract_id, p.costtype_id FROM invoice i JOIN invoiceposition p ON p.invoice_id = i.invoice_id
			WHERE p.apportionable = 1 AND NOT EXISTS (SELECT 1 FROM contract_costtype x WHERE x.contract_id = i.contract_id)`); err != nil {
			return fmt.Errorf("seed demo contract cost types: %w", err)
		}
		var contract, company, partnertype int64
		err := tx.QueryRowContext(ctx, `SELECT c.contract_id, c.company_id FROM contract c JOIN company co ON co.company_id = c.company_id
			WHERE co.customergroup_id = ? ORDER BY c.contract_id LIMIT 1`, demoGroupA).Scan(&contract, &company)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err == nil {
			err = tx.QueryRowContext(ctx, `SELECT MIN(partnertype_id) FROM partnertype`).Scan(&partnertype)
		}
		if err != nil {
			return fmt.Errorf("seed demo invoices: %w", err)
		}
		costtype := func(name string) (int64, int64, error) {
			var ct, ext int64
			err := tx.QueryRowContext(ctx, `SELECT c.costtype_id, (SELECT MIN(externalcosttype_id) FROM externalcosttype)
				FROM costtype c WHERE c.costtype_name = ?`, name).Scan(&ct, &ext)
			if err != nil {
				return 0, 0, fmt.Errorf("seed demo invoices: cost type %s: %w", name, err)
			}
			return ct, ext, nil
		}
		// The contract agrees on what the positions charge, except the
		// management costs and the winter service is charged though not
		// apportionable.
		for _, p := range demoReviewPositions {
			if p.costtype == "Verwaltungskosten" {
				continue
			}
			ct, _, err := costtype(p.costtype)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO contract_costtype (contract_id, costtype_id) VALUES (?, ?) ON CONFLICT DO NOTHING`,
				contract, ct); err != nil {
				return fmt.Errorf("seed demo contract cost types: %w", err)
			}
		}
		invoice := func(number string, year int, from, to string) (int64, error) {
			var id int64
			err := tx.QueryRowContext(ctx, `INSERT INTO invoice (invoice_date, invoice_date_of_order, invoice_contract_year, company_id,
				invoice_allocationarea, invoice_payment_date, contract_id, partnertype_id, invoice_description, invoice_number,
				invoice_billing_period_from, invoice_billing_period_to) VALUES (?, ?, ?, ?, 150, ?, ?, ?, ?, ?, ?, ?) RETURNING invoice_id`,
				fmt.Sprintf("%d-04-15", year+1), fmt.Sprintf("%d-04-20", year+1), year, company, fmt.Sprintf("%d-05-15", year+1),
				contract, partnertype, fmt.Sprintf("Nebenkostenabrechnung %d", year), number, from, to).Scan(&id)
			if err != nil {
				return 0, fmt.Errorf("seed demo invoice %s: %w", number, err)
			}
			return id, nil
		}
		position := func(invoice int64, name, costtypeName, total, units, amountTotal, amount string, flat, apportionable bool) error {
			ct, ext, err := costtype(costtypeName)
			if err != nil {
				return err
			}
			_, err = tx.ExecContext(ctx, `INSERT INTO invoiceposition (invoice_id, invoiceposition_name, externalcosttype_id, costtype_id,
				unit_id, total_units, units_customer, flat_rate, amount_total, amount_customer, apportionable)
				VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)`, invoice, name, ext, ct, total, units, boolInt(flat), amountTotal, amount, boolInt(apportionable))
			if err != nil {
				return fmt.Errorf("seed demo invoice position %s: %w", name, err)
			}
			return nil
		}
		prev, err := invoice(DemoInvoiceNumbers[0], 2023, "2023-01-01", "2023-12-31")
		if err != nil {
			return err
		}
		if err := position(prev, "Verwaltungspauschale", "Hausmeister", "1", "1", "1200.00", "1200.00", true, true); err != nil {
			return err
		}
		cur, err := invoice(DemoInvoiceNumbers[1], 2024, "2024-01-01", "2025-03-31")
		if err != nil {
			return err
		}
		for _, p := range demoReviewPositions {
			if err := position(cur, p.name, p.costtype, p.total, p.units, p.amountTotal, p.amount, p.flat, p.apportionable); err != nil {
				return err
			}
		}
		return nil
	})
}

// demoChargeRules writes NK-DEMO-2025 on the third contract of the first
// demo customer group, once (the first two carry the index clauses'
// rents of DemoIndexClauses): the contract's cap, base rent and cost
// types, the invoice over 2025 and its two positions.
func demoChargeRules(ctx context.Context, tx *db.Tx) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM invoice WHERE invoice_number = ?`, DemoInvoiceNumbers[2]).Scan(&n); err != nil {
		return fmt.Errorf("seed demo charge rules: %w", err)
	}
	if n > 0 {
		return nil
	}
	var contract, company, partnertype, taxrate, account, ext int64
	err := tx.QueryRowContext(ctx, `SELECT c.contract_id, c.company_id FROM contract c JOIN company co ON co.company_id = c.company_id
		WHERE co.customergroup_id = ? ORDER BY c.contract_id LIMIT 1 OFFSET 2`, demoGroupA).Scan(&contract, &company)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err == nil {
		err = tx.QueryRowContext(ctx, `SELECT (SELECT MIN(partnertype_id) FROM partnertype), (SELECT MIN(taxrate_id) FROM taxrate WHERE company_id = ? AND taxrate_code = 'UST19'),
			(SELECT MIN(sachkonto_id) FROM sachkonto), (SELECT MIN(externalcosttype_id) FROM externalcosttype)`, company).
			Scan(&partnertype, &taxrate, &account, &ext)
	}
	if err != nil {
		return fmt.Errorf("seed demo charge rules: %w", err)
	}
	t := demoChargeTerms
	if _, err := tx.ExecContext(ctx, `UPDATE contract SET contract_admin_cost_cap_percent = ? WHERE contract_id = ?`, t.capPercent, contract); err != nil {
		return fmt.Errorf("seed demo charge rules: contract cap: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO recurringpayment (recurringpayment_name, contract_id, taxrate_id, recurringpaymenttype_id,
		sachkonto_id, recurringpayment_sum_per_month, recurringpayment_begin_date, recurringpayment_end_date, maturitytype_id,
		recurringpayment_maturity_date, recurringpayment_value_deposit) VALUES ('Grundmiete', ?, ?, ?, ?, ?, '2024-01-01', '2033-12-31', ?, '2024-01-01', 0)`,
		contract, taxrate, schema.PaymentTypeBaseRent, account, t.rent, schema.MaturityFixedDate); err != nil {
		return fmt.Errorf("seed demo charge rules: base rent: %w", err)
	}
	var invoice int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO invoice (invoice_date, invoice_date_of_order, invoice_contract_year, company_id,
		invoice_allocationarea, invoice_payment_date, contract_id, partnertype_id, invoice_description, invoice_number,
		invoice_billing_period_from, invoice_billing_period_to)
		VALUES ('2026-04-15', '2026-04-20', 2025, ?, 150, '2026-05-15', ?, ?, 'Nebenkostenabrechnung 2025', ?, '2025-01-01', '2025-12-31')
		RETURNING invoice_id`, company, contract, partnertype, DemoInvoiceNumbers[2]).Scan(&invoice); err != nil {
		return fmt.Errorf("seed demo invoice %s: %w", DemoInvoiceNumbers[2], err)
	}
	for _, p := range t.positions {
		if err := demoChargePosition(ctx, tx, contract, invoice, ext, p.name, p.costtype, p.amountTotal, p.amount); err != nil {
			return err
		}
	}
	return nil
}

// demoChargePosition writes one position of NK-DEMO-2025 (150 of 1,000
// units, its exact share) and lets the contract agree on its cost type.
func demoChargePosition(ctx context.Context, tx *db.Tx, contract, invoice, ext int64, name, costtype, amountTotal, amount string) error {
	var ct int64
	if err := tx.QueryRowContext(ctx, `SELECT costtype_id FROM costtype WHERE costtype_name = ?`, costtype).Scan(&ct); err != nil {
		return fmt.Errorf("seed demo invoice position %s: cost type: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO contract_costtype (contract_id, costtype_id) VALUES (?, ?) ON CONFLICT DO NOTHING`,
		contract, ct); err != nil {
		return fmt.Errorf("seed demo contract cost types: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO invoiceposition (invoice_id, invoiceposition_name, externalcosttype_id, costtype_id,
		unit_id, total_units, units_customer, flat_rate, amount_total, amount_customer, apportionable)
		VALUES (?, ?, ?, ?, 1, 1000, 150, 0, ?, ?, 1)`, invoice, name, ext, ct, amountTotal, amount); err != nil {
		return fmt.Errorf("seed demo invoice position %s: %w", name, err)
	}
	return nil
}

// demoStatementResponsible makes the MVM team member the responsible user
// of the demo statements that have none, so they hear of their deadlines
// (decision 0063). It runs once the demo users exist.
func demoStatementResponsible(ctx context.Context, tx *db.Tx) error {
	for _, number := range DemoInvoiceNumbers {
		if _, err := tx.ExecContext(ctx, `UPDATE invoice SET invoice_responsible_user_id =
				(SELECT user_id FROM users WHERE user_email = 'team_member@demo.test')
			WHERE invoice_number = ? AND invoice_responsible_user_id IS NULL`, number); err != nil {
			return fmt.Errorf("seed demo invoice %s responsible: %w", number, err)
		}
	}
	return nil
}
