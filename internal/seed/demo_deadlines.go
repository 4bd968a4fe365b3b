package seed

import (
	"context"
	"errors"
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
// portfolio (Scale) is left as it is, but for one active option of the
// first group, which is exercised once (demoExercisedOption).
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
		if err := quietDeadlines(ctx, tx); err != nil {
			return err
		}
		return demoExercisedOption(ctx, tx, today)
	})
}

// demoExercisedOption exercises the first option of an active option of
// the first group that has two or more and whose first is still open (its
// notice date today or later), declared ten days ago (or today, when the
// contract is that young): the option's deadline moves on to the second
// option, and the contract's current end moves by one extension, as the
// contracts module derives them (decision 0064). The same option on every
// run.
func demoExercisedOption(ctx context.Context, tx *db.Tx, today time.Time) error {
	rows, err := tx.QueryContext(ctx, `SELECT ca.contractaction_id, ca.contract_id, ca.contractaction_options_count,
			ca.contractaction_extension_value, ca.contractaction_extension_unit, ca.contractaction_notice_period_value,
			ca.contractaction_notice_period_unit, c.contract_end_date, c.contract_begin_date
		FROM contractaction ca JOIN contract c ON c.contract_id = ca.contract_id
		JOIN company co ON co.company_id = c.company_id
		WHERE co.customergroup_id = ? AND ca.contractaction_type = ? AND ca.contractaction_status = ?
			AND ca.contractaction_options_count >= 2 AND ca.contractaction_notice_rule = ? AND ca.contractaction_notice_to = ?
		ORDER BY ca.contractaction_id`, demoGroupA, contracts.TypeActiveOption, contracts.StatusActive, contracts.RuleCalendar, contracts.ToDate)
	if err != nil {
		return fmt.Errorf("seed demo exercised option: %w", err)
	}
	type option struct {
		id, contract int64
		dl           contracts.Deadline
		begin        time.Time
	}
	var found *option
	for rows.Next() && found == nil {
		var o option
		var count, extValue, noticeValue int
		var end, begin string
		if err := rows.Scan(&o.id, &o.contract, &count, &extValue, &o.dl.Extension.Unit, &noticeValue, &o.dl.Notice.Unit, &end, &begin); err != nil {
			rows.Close()
			return fmt.Errorf("seed demo exercised option: %w", err)
		}
		t0, err1 := time.Parse(time.DateOnly, end[:10])
		b, err2 := time.Parse(time.DateOnly, begin[:10])
		if err := errors.Join(err1, err2); err != nil {
			rows.Close()
			return fmt.Errorf("seed demo exercised option %d: %w", o.id, err)
		}
		o.dl.Type, o.dl.OptionsCount, o.dl.ContractEnd, o.begin = contracts.TypeActiveOption, &count, &t0, b
		o.dl.Extension.Value, o.dl.Notice.Value = extValue, noticeValue
		if first, _ := contracts.OptionNotice(o.dl, 0); !first.Before(today) {
			found = &o
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("seed demo exercised option: %w", err)
	}
	if found == nil {
		return nil // a group without such an option: nothing to show
	}
	found.dl.Exercised = 1
	n, err := contracts.NoticeDate(found.dl, today)
	if err != nil {
		return fmt.Errorf("seed demo exercised option %d: %w", found.id, err)
	}
	declared := today.AddDate(0, 0, -10)
	if declared.Before(found.begin) {
		declared = today
	}
	if _, err := tx.ExecContext(ctx, `UPDATE contractaction SET contractaction_options_exercised = 1, contractaction_exercised_date = ?,
			contractaction_notice_date = ?, contractaction_effective_date = ?, contractaction_uses = ?, contractaction_expired = 0,
			row_version = row_version + 1
		WHERE contractaction_id = ?`, declared.Format(time.DateOnly), n.Date.Format(time.DateOnly), n.End.Format(time.DateOnly),
		n.Uses, found.id); err != nil {
		return fmt.Errorf("seed demo exercised option %d: %w", found.id, err)
	}
	// The current end is the later of the one stored (what the contract's
	// other deadlines reached) and the option's.
	end := contracts.ReachedEnd(found.dl, n).Format(time.DateOnly)
	if _, err := tx.ExecContext(ctx, `UPDATE contract SET contract_current_end_date = ?, row_version = row_version + 1
		WHERE contract_id = ? AND (contract_current_end_date IS NULL OR contract_current_end_date < ?)`, end, found.contract, end); err != nil {
		return fmt.Errorf("seed demo exercised option %d: %w", found.id, err)
	}
	return nil
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
