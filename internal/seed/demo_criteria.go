package seed

import (
	"context"
	"fmt"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// demoCriteria are the demo contract conditions (criteria) with their kinds
// and choices. Criteria 1 and 39 are the two that carry a numeric value
// (schema.CriteriaWithValueA and B); the others offer choices.
var (
	demoCriteriaTypes = []struct {
		id       int64
		name     string
		hasValue int
	}{{1, "Mietkonditionen", 1}, {2, "Nutzungsrechte", 0}}
	demoCriteria = []struct {
		id, typ int64
		name    string
		choices []string
	}{
		{schema.CriteriaWithValueA, 1, "Mietfreie Zeit (Monate)", nil},
		{2, 2, "Konkurrenzschutz", []string{"Vereinbart", "Nicht vereinbart"}},
		{3, 2, "Untervermietung", []string{"Erlaubt", "Mit Zustimmung des Vermieters", "Ausgeschlossen"}},
		{4, 2, "Sortimentsbindung", []string{"Textil", "Lebensmittel"}},
		{schema.CriteriaWithValueB, 1, "Kaution (Monatsmieten)", nil},
	}
)

// demoConditionsPerGroup is how many of each demo customer group's
// contracts get conditions.
const demoConditionsPerGroup = 6

// DemoConditions gives the first contracts of each demo customer group a
// few conditions (the condition list, /app/condition-list), with the
// criteria, kinds and choices they use, once: a group whose contracts
// already have conditions is left alone. It runs with `seed --demo`, after
// Demo; the test apps leave it out, so tests start without criteria (the
// first one they create is criteria 1, which carries a value).
func DemoConditions(ctx context.Context, d *db.DB) error {
	return d.InTx(ctx, func(tx *db.Tx) error {
		if err := demoCriteriaMasterData(ctx, d, tx); err != nil {
			return err
		}
		for _, p := range demoPortfolios {
			if err := demoGroupConditions(ctx, tx, p.group); err != nil {
				return err
			}
		}
		return d.ResetSequences(ctx, tx, "contract_criteria", "contract_criteria_id")
	})
}

func demoCriteriaMasterData(ctx context.Context, d *db.DB, tx *db.Tx) error {
	for _, ct := range demoCriteriaTypes {
		if _, err := tx.ExecContext(ctx, `INSERT INTO criteriatype (criteriatype_id, criteriatype_name, has_value) VALUES (?, ?, ?)
			ON CONFLICT DO NOTHING`, ct.id, ct.name, ct.hasValue); err != nil {
			return fmt.Errorf("seed demo criteria type %s: %w", ct.name, err)
		}
	}
	for _, c := range demoCriteria {
		if _, err := tx.ExecContext(ctx, `INSERT INTO criteria (criteria_id, criteria_name, criteriatype_id) VALUES (?, ?, ?)
			ON CONFLICT DO NOTHING`, c.id, c.name, c.typ); err != nil {
			return fmt.Errorf("seed demo criteria %s: %w", c.name, err)
		}
		for _, name := range c.choices {
			if _, err := tx.ExecContext(ctx, `INSERT INTO choice (criteria_id, choice_name, has_value)
				SELECT CAST(? AS BIGINT), CAST(? AS TEXT), 0 WHERE NOT EXISTS (SELECT 1 FROM choice WHERE criteria_id = ? AND choice_name = ?)`,
				c.id, name, c.id, name); err != nil {
				return fmt.Errorf("seed demo choice %s: %w", name, err)
			}
		}
	}
	for _, seq := range [][2]string{{"criteriatype", "criteriatype_id"}, {"criteria", "criteria_id"}} {
		if err := d.ResetSequences(ctx, tx, seq[0], seq[1]); err != nil {
			return err
		}
	}
	return nil
}

// demoGroupConditions gives the group's first contracts, by id, their
// conditions: rent-free months, competition protection, subletting and
// (every other contract) a deposit.
func demoGroupConditions(ctx context.Context, tx *db.Tx, group int64) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM contract_criteria cc JOIN contract c ON c.contract_id = cc.contract_id
		JOIN company co ON co.company_id = c.company_id WHERE co.customergroup_id = ?`, group).Scan(&n); err != nil {
		return fmt.Errorf("seed demo conditions of group %d: %w", group, err)
	}
	if n > 0 {
		return nil
	}
	contracts, err := demoGroupContracts(ctx, tx, group)
	if err != nil {
		return err
	}
	for i, id := range contracts {
		rows := []struct {
			criteria int64
			value    any
			choice   string
		}{
			{schema.CriteriaWithValueA, 2 + i%4, ""},
			{2, nil, []string{"Vereinbart", "Nicht vereinbart"}[i%2]},
			{3, nil, []string{"Erlaubt", "Mit Zustimmung des Vermieters", "Ausgeschlossen"}[i%3]},
		}
		if i%2 == 0 {
			rows = append(rows, struct {
				criteria int64
				value    any
				choice   string
			}{schema.CriteriaWithValueB, 3, ""})
		}
		for _, r := range rows {
			if _, err := tx.ExecContext(ctx, `INSERT INTO contract_criteria (contract_id, criteria_id, value, choice_id, valid_from, "exists")
				SELECT c.contract_id, CAST(? AS BIGINT), CAST(? AS NUMERIC(18,4)), (SELECT MIN(choice_id) FROM choice WHERE criteria_id = ? AND choice_name = ?), c.contract_begin_date, 1
				FROM contract c WHERE c.contract_id = ?`,
				r.criteria, r.value, r.criteria, r.choice, id); err != nil {
				return fmt.Errorf("seed demo condition of contract %d: %w", id, err)
			}
		}
	}
	return nil
}

// demoGroupContracts returns the ids of the group's first contracts.
func demoGroupContracts(ctx context.Context, tx *db.Tx, group int64) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT c.contract_id FROM contract c
		JOIN company co ON co.company_id = c.company_id WHERE co.customergroup_id = ? ORDER BY c.contract_id LIMIT ?`,
		group, demoConditionsPerGroup)
	if err != nil {
		return nil, fmt.Errorf("seed demo conditions of group %d: %w", group, err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("seed demo conditions of group %d: %w", group, err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
