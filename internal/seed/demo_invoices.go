package seed

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"portfolio/internal/db"
)

// DemoInvoiceNumbers are the numbers of the two demo invoices written for
// the invoice review (issue 14): the previous year's statement with its
// flat rate, and a statement that breaks every generator rule once.
var DemoInvoiceNumbers = [2]string{"NK-DEMO-2023", "NK-DEMO-2024"}

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
			// An invoice is for areas of its contract (a required field:
			// without them no one could save a change to it).
			if _, err := tx.ExecContext(ctx, `INSERT INTO invoice_area (invoice_id, area_id)
				SELECT DISTINCT CAST(? AS BIGINT), area_id FROM contract_area WHERE contract_id = ?`, id, contract); err != nil {
				return 0, fmt.Errorf("seed demo invoice %s areas: %w", number, err)
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
