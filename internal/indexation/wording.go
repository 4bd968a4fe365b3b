package indexation

import (
	"database/sql"
	"time"

	"github.com/shopspring/decimal"
)

// clauseWordingColumns are the clause fields saying how the contract words
// it (issue 39), in the order wording.targets scans them.
const clauseWordingColumns = `c.indexclause_percent_decimals, c.indexclause_threshold_rule, c.indexclause_min_months,
		c.indexclause_schedule_months, c.indexclause_max_percent, c.indexclause_min_percent, c.indexclause_upward_only`

// wording is a clause's wording fields as read.
type wording struct {
	decimals, minMonths, schedule sql.NullInt64
	rule                          sql.NullString
	maxPercent, minPercent        decimal.NullDecimal
	upward                        sql.NullInt64
}

func (w *wording) targets() []any {
	return []any{&w.decimals, &w.rule, &w.minMonths, &w.schedule, &w.maxPercent, &w.minPercent, &w.upward}
}

// apply sets the wording on c; empty fields keep the rule before them.
func (w *wording) apply(c *Clause) {
	if w.decimals.Valid {
		c.Rounds, c.Decimals = true, int32(w.decimals.Int64)
	}
	c.MoreThan = w.rule.String == "more_than"
	c.MinMonths, c.ScheduleMonths = int(w.minMonths.Int64), int(w.schedule.Int64)
	if w.maxPercent.Valid {
		c.MaxPercent = &w.maxPercent.Decimal
	}
	if w.minPercent.Valid {
		c.MinRentPercent = &w.minPercent.Decimal
	}
	c.UpwardOnly = w.upward.Int64 == 1
}

// PaymentBounds are the bounds of a payment's chain (rule 5): no change
// takes effect before the month after the payment's and its contract's
// begin, none after the payment's end month; the amount took effect in
// the month after the reference month when it is an approved adjustment's
// (approved), else with the clause or the payment, whichever began later.
// Zero dates bound nothing.
func PaymentBounds(clauseBegin, payBegin, payEnd, contractBegin time.Time, ref Month, approved bool) Bounds {
	b := Bounds{Since: ref + 1}
	if !approved {
		b.Since = MonthOf(clauseBegin)
		if !payBegin.IsZero() {
			b.Since = max(b.Since, MonthOf(payBegin))
		}
	}
	for _, d := range []time.Time{payBegin, contractBegin} {
		if !d.IsZero() {
			b.From = max(b.From, MonthOf(d)+1)
		}
	}
	if !payEnd.IsZero() {
		b.To = MonthOf(payEnd)
	}
	return b
}
