package seed

import (
	"context"
	"fmt"
	"time"

	"portfolio/internal/contracts"
	"portfolio/internal/db"
)

// demoDeadlinePlan is how many days from the seed's today the notice dates
// of some resiliations of each demo customer group fall, and who answers
// for them: something to act on within 30, 90 and 365 days, and one
// overdue, in the deadline list, the digest and the calendar feed.
var demoDeadlinePlan = []struct {
	group       int64
	days        []int
	responsible []string // taken in turn
}{
	{demoGroupA, []int{-12, 6, 18, 27, 45, 75, 88, 150, 240, 330}, []string{"team_lead@demo.test", "team_member@demo.test"}},
	{demoGroupB, []int{9, 52, 200}, []string{"team_lead@demo.test"}},
}

// demoQuietStatuses are given to the automatic extensions of the first
// contracts of the first group, so the list shows deadlines without a light.
var demoQuietStatuses = []string{contracts.StatusInactive, contracts.StatusStopped}

// DemoDeadlines makes the demo deadlines tell something as of today: some
// active resiliations whose notice dates fall within the next 30, 90 and
// 365 days (and one overdue) with a responsible demo user, and a few
// deadlines that are not active. It runs with `seed --demo`, after Demo,
// on every run (the dates move with the day it runs); the test apps leave
// it out, so the alert tests start without announcements due. The generated
// portfolio (Scale) is left as it is.
func DemoDeadlines(ctx context.Context, d *db.DB, today time.Time) error {
	today = contracts.Day(today)
	return d.InTx(ctx, func(tx *db.Tx) error {
		for _, p := range demoDeadlinePlan {
			ids, err := demoResiliations(ctx, tx, p.group, len(p.days))
			if err != nil {
				return err
			}
			for i, id := range ids {
				if err := planDeadline(ctx, tx, id, today.AddDate(0, 0, p.days[i]), p.responsible[i%len(p.responsible)]); err != nil {
					return err
				}
			}
		}
		return quietDeadlines(ctx, tx)
	})
}

// demoResiliations returns up to n resiliations of the group's contracts,
// always the same ones.
func demoResiliations(ctx context.Context, tx *db.Tx, group int64, n int) ([]int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT ca.contractaction_id FROM contractaction ca
		JOIN contract c ON c.contract_id = ca.contract_id
		JOIN company co ON co.company_id = c.company_id
		WHERE co.customergroup_id = ? AND ca.contractaction_type = ?
		ORDER BY ca.contractaction_id LIMIT ?`, group, contracts.TypeResiliation, n)
	if err != nil {
		return nil, fmt.Errorf("seed demo deadlines of group %d: %w", group, err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("seed demo deadlines of group %d: %w", group, err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// planDeadline turns resiliation id into an active one with a three-month
// notice period whose notice date is about target (as the contracts module
// computes it), answered for by the user with email responsible.
func planDeadline(ctx context.Context, tx *db.Tx, id int64, target time.Time, responsible string) error {
	resiliation := contracts.AddMonths(target, 3)
	period := contracts.Period{Value: 3, Unit: contracts.UnitMonth}
	n, err := contracts.NoticeDate(contracts.Deadline{Type: contracts.TypeResiliation, ResiliationDate: &resiliation, Notice: period}, target)
	if err != nil {
		return fmt.Errorf("seed demo deadline %d: %w", id, err)
	}
	_, err = tx.ExecContext(ctx, `UPDATE contractaction SET contractaction_resiliation_date = ?,
			contractaction_notice_period_value = ?, contractaction_notice_period_unit = ?, contractaction_notice_date = ?,
			contractaction_effective_date = ?, contractaction_status = ?,
			contractaction_responsible_user_id = (SELECT user_id FROM users WHERE user_email = ?),
			row_version = row_version + 1
		WHERE contractaction_id = ?`,
		resiliation.Format(time.DateOnly), period.Value, period.Unit, n.Date.Format(time.DateOnly), n.End.Format(time.DateOnly), contracts.StatusActive,
		responsible, id)
	if err != nil {
		return fmt.Errorf("seed demo deadline %d: %w", id, err)
	}
	return nil
}

// quietDeadlines gives the automatic extensions of the first contracts of
// the first group the statuses of demoQuietStatuses.
func quietDeadlines(ctx context.Context, tx *db.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT ca.contractaction_id FROM contractaction ca
		JOIN contract c ON c.contract_id = ca.contract_id
		JOIN company co ON co.company_id = c.company_id
		WHERE co.customergroup_id = ? AND ca.contractaction_type = ?
		ORDER BY ca.contractaction_id LIMIT ?`, demoGroupA, contracts.TypeAutomaticExtension, len(demoQuietStatuses))
	if err != nil {
		return fmt.Errorf("seed demo deadline statuses: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fmt.Errorf("seed demo deadline statuses: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("seed demo deadline statuses: %w", err)
	}
	for i, id := range ids {
		if _, err := tx.ExecContext(ctx, `UPDATE contractaction SET contractaction_status = ?, row_version = row_version + 1
			WHERE contractaction_id = ?`, demoQuietStatuses[i], id); err != nil {
			return fmt.Errorf("seed demo deadline %d: %w", id, err)
		}
	}
	return nil
}
