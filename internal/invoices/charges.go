package invoices

import (
	"time"

	"github.com/shopspring/decimal"
)

// The category rules of decision 0061: administration costs and the
// maintenance of common areas, measured per invoice over the positions of
// the category that no position rule found (what those rules claim is not
// measured again).

var hundred = decimal.NewFromInt(100)

// RentPayment is a base-rent payment of a contract as RentOfPeriod reads
// it: the sum per month (net), the tax rate in percent, and its validity
// (zero dates are open ends).
type RentPayment struct {
	PerMonth, TaxPercent decimal.Decimal
	Begin, End           time.Time
	// Adjustments are the payment's approved index adjustments. Approving
	// one writes its new amount over PerMonth, so before each one took
	// effect the payment was that adjustment's old amount.
	Adjustments []RentAdjustment
}

// RentAdjustment is an approved index adjustment of a rent: from
// Effective on, the amount changed from Old.
type RentAdjustment struct {
	Effective time.Time
	Old       decimal.Decimal
}

// perMonthIn is the sum per month in force on day (the first of a month):
// the old amount of the earliest adjustment that took effect after it, or
// the current amount when none did.
func (p RentPayment) perMonthIn(day time.Time) decimal.Decimal {
	var next *RentAdjustment
	for i, a := range p.Adjustments {
		if a.Effective.After(day) && (next == nil || a.Effective.Before(next.Effective)) {
			next = &p.Adjustments[i]
		}
	}
	if next == nil {
		return p.PerMonth
	}
	return next.Old
}

// RentOfPeriod is the net and the gross base rent of the billing period
// from..to: for each calendar month the period touches, the sums per month
// of the payments in force in that month (begun by its last day, not ended
// before its first), each at the amount it had on the month's first day
// (index adjustments that took effect later in the period count from
// their month on). A twelve-month period gives the annual rent; a
// shorter or longer one the annual rent pro rata to its months. Gross adds
// each payment's tax rate. Both are rounded to cents.
func RentOfPeriod(payments []RentPayment, from, to time.Time) (net, gross decimal.Decimal) {
	net, gross = decimal.Zero, decimal.Zero
	if from.IsZero() || to.IsZero() || to.Before(from) {
		return net, gross
	}
	first := time.Date(from.Year(), from.Month(), 1, 0, 0, 0, 0, time.UTC)
	for m := first; !m.After(to); m = m.AddDate(0, 1, 0) {
		last := m.AddDate(0, 1, -1)
		for _, p := range payments {
			if (!p.Begin.IsZero() && p.Begin.After(last)) || (!p.End.IsZero() && p.End.Before(m)) {
				continue
			}
			amount := p.perMonthIn(m)
			net = net.Add(amount)
			gross = gross.Add(amount.Mul(hundred.Add(p.TaxPercent)).Div(hundred))
		}
	}
	return Round2(net), Round2(gross)
}

// categoryFindings applies the category rules to the positions open (no
// position rule found them): administration costs, then maintenance.
func categoryFindings(f Facts, open []Position) []Finding {
	var out []Finding
	if x := adminCosts(f, sumOf(open, CategoryAdministration)); x != nil {
		out = append(out, *x)
	}
	if x := maintenance(f, sumOf(open, CategoryMaintenance)); x != nil {
		out = append(out, *x)
	}
	return out
}

// charged is what the positions of one category charge, and how many.
type charged struct {
	amount decimal.Decimal
	count  int
}

func sumOf(open []Position, category string) charged {
	c := charged{amount: decimal.Zero}
	for _, p := range open {
		if p.Category == category {
			c.amount = c.amount.Add(p.AmountCustomer)
			c.count++
		}
	}
	return c
}

// adminCosts measures the administration costs against the lease's cap
// (percent of the net rent of the period): the excess is a legally clear
// claim. Without a cap, more than CustomaryAdminPercent of the gross rent
// is a warning. Without a rent to measure against there is no finding.
func adminCosts(f Facts, c charged) *Finding {
	if !c.amount.IsPositive() {
		return nil
	}
	if agreed := f.Terms.AdminCapPercent; agreed.Valid {
		if !f.NetRent.IsPositive() {
			return nil
		}
		limit := Round2(f.NetRent.Mul(agreed.Decimal).Div(hundred))
		excess := Round2(c.amount.Sub(limit))
		if !excess.IsPositive() {
			return nil
		}
		return &Finding{Rule: RuleAdminOverCap, Claim: excess, LegallyClear: true, Charged: c.amount, Count: c.count,
			Base: f.NetRent, Percent: percentOf(c.amount, f.NetRent), Limit: agreed.Decimal, LimitAmount: limit}
	}
	if !f.GrossRent.IsPositive() {
		return nil
	}
	limit := Round2(f.GrossRent.Mul(CustomaryAdminPercent).Div(hundred))
	if !c.amount.GreaterThan(limit) {
		return nil
	}
	return &Finding{Rule: RuleAdminAboveCustomary, Charged: c.amount, Count: c.count,
		Base: f.GrossRent, Percent: percentOf(c.amount, f.GrossRent), Limit: CustomaryAdminPercent, LimitAmount: limit}
}

// maintenance measures the maintenance of common areas against the lease's
// cap per year, pro rata to the months of the billing period (twelve when
// the invoice has none): the excess is a legally clear claim. Without a
// cap any such charge is a warning: putting these costs on a commercial
// tenant without a cap is void in standard terms (BGH XII ZR 158/01).
func maintenance(f Facts, c charged) *Finding {
	if !c.amount.IsPositive() {
		return nil
	}
	agreed := f.Terms.MaintenanceCap
	if !agreed.Valid {
		return &Finding{Rule: RuleMaintenanceWithoutCap, Charged: c.amount, Count: c.count}
	}
	months := maxBillingPeriodMonths
	if !f.From.IsZero() && !f.To.Before(f.From) {
		months = periodMonths(f.From, f.To)
	}
	limit := Round2(agreed.Decimal.Mul(decimal.NewFromInt(int64(months))).Div(decimal.NewFromInt(maxBillingPeriodMonths)))
	excess := Round2(c.amount.Sub(limit))
	if !excess.IsPositive() {
		return nil
	}
	return &Finding{Rule: RuleMaintenanceOverCap, Claim: excess, LegallyClear: true, Charged: c.amount, Count: c.count,
		Months: months, Limit: agreed.Decimal, LimitAmount: limit}
}

// percentOf is part in percent of whole, to two decimals.
func percentOf(part, whole decimal.Decimal) decimal.Decimal {
	return part.Mul(hundred).DivRound(whole, 2)
}
