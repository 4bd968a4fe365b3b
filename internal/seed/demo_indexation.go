package seed

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// demoIndexedRents are the demo rents with an index clause (issue 13), on
// the first contracts of the first demo customer group, so an evaluation
// run (POST /indexadjustments/run) has something to propose: a percent
// clause entered years late (a chain of proposals) and a point clause with
// a transmission below 100 %.
var demoIndexedRents = []struct {
	name, clause, rule string
	begin              string
	sum                string
	percent            bool
	threshold          string
	transmission       string
}{
	{"Grundmiete (indexiert)", "VPI 5 % Schwelle", "Anpassung bei ±5 % Änderung des VPI (2020 = 100)", "2021-01-01", "4500.00", true, "5", "100"},
	{"Nebenfläche (indexiert)", "VPI 4 Punkte, 80 %", "Anpassung bei ±4 Punkten Änderung, zu 80 % weitergegeben", "2022-06-01", "1850.00", false, "4", "80"},
}

// DemoIndexClauses gives the first contracts of the first demo customer
// group a rent with value deposit and an index clause on the default price
// index, once: a contract that already has the rent is left alone. It runs
// with `seed --demo`, after Demo; the test apps leave it out.
func DemoIndexClauses(ctx context.Context, d *db.DB) error {
	return d.InTx(ctx, func(tx *db.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT c.contract_id, c.company_id FROM contract c
			JOIN company co ON co.company_id = c.company_id
			WHERE co.customergroup_id = ? ORDER BY c.contract_id LIMIT ?`, demoGroupA, len(demoIndexedRents))
		if err != nil {
			return fmt.Errorf("seed demo index clauses: %w", err)
		}
		defer rows.Close()
		type contract struct{ id, company int64 }
		var contracts []contract
		for rows.Next() {
			var c contract
			if err := rows.Scan(&c.id, &c.company); err != nil {
				return fmt.Errorf("seed demo index clauses: %w", err)
			}
			contracts = append(contracts, c)
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("seed demo index clauses: %w", err)
		}
		if err := rows.Close(); err != nil {
			return fmt.Errorf("seed demo index clauses: %w", err)
		}
		for i, c := range contracts {
			if err := demoIndexedRent(ctx, tx, c.id, c.company, i); err != nil {
				return err
			}
		}
		return nil
	})
}

func demoIndexedRent(ctx context.Context, tx *db.Tx, contractID, companyID int64, i int) error {
	r := demoIndexedRents[i]
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM recurringpayment WHERE contract_id = ? AND recurringpayment_name = ?`,
		contractID, r.name).Scan(&n); err != nil {
		return fmt.Errorf("seed demo index clause: %w", err)
	}
	if n > 0 {
		return nil
	}
	var taxrate, account int64
	err := tx.QueryRowContext(ctx, `SELECT MIN(taxrate_id) FROM taxrate WHERE company_id = ?`, companyID).Scan(&taxrate)
	if err == nil {
		err = tx.QueryRowContext(ctx, `SELECT MIN(sachkonto_id) FROM sachkonto`).Scan(&account)
	}
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (taxrate == 0 || account == 0)) {
		return errors.New("seed demo index clause: the demo tax rates and ledger accounts are missing")
	}
	if err != nil {
		return fmt.Errorf("seed demo index clause: %w", err)
	}
	percent, minPercent, minPoints := 0, any(nil), any(nil)
	if r.percent {
		percent, minPercent = 1, r.threshold
	} else {
		minPoints = r.threshold
	}
	var clause int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO indexclause (indexclause_name, indexclause_adjustment_rule, indexclause_description,
		indexclause_baseyear, indexclause_begin_date, indextransmission_percent, change_in_percent,
		indexclause_minimal_percent_change, indexclause_minimal_point_change, priceindex_id)
		VALUES (?, ?, ?, 2020, ?, ?, ?, ?, ?, ?) RETURNING indexclause_id`,
		r.clause, r.rule, r.rule, r.begin, r.transmission, percent, minPercent, minPoints, schema.DefaultPriceIndexID).Scan(&clause); err != nil {
		return fmt.Errorf("seed demo index clause: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO recurringpayment (recurringpayment_name, contract_id, taxrate_id, recurringpaymenttype_id,
		sachkonto_id, recurringpayment_sum_per_month, recurringpayment_begin_date, recurringpayment_end_date, maturitytype_id,
		recurringpayment_maturity_date, recurringpayment_value_deposit, indexclause_id)
		VALUES (?, ?, ?, 1, ?, ?, ?, '2035-12-31', ?, ?, 1, ?)`,
		r.name, contractID, taxrate, account, r.sum, r.begin, schema.MaturityFixedDate, r.begin, clause); err != nil {
		return fmt.Errorf("seed demo indexed rent: %w", err)
	}
	return nil
}
