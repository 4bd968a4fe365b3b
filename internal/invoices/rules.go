package invoices

import (
	"time"

	"github.com/shopspring/decimal"
)

// The generator's rules (decision 0016), by the code stored in
// contradictionpoint_rule. Each rule's title and text come from the text
// module with code RuleModulePrefix+rule in the company's language.
//
// The plausibility rules of decision 0061 name their basis: a claim where
// the lease caps or limits the charge, a warning (claim 0, not legally
// clear) where only a statute or a decision speaks against it.
const (
	RuleCostTypeNotAgreed     = "costtype_not_agreed"
	RuleNotApportionable      = "not_apportionable"
	RuleShareExceeded         = "share_exceeded"
	RuleFlatRateChanged       = "flat_rate_changed"
	RuleAdminOverCap          = "admin_costs_over_cap"
	RuleAdminAboveCustomary   = "admin_costs_above_customary"
	RuleMaintenanceOverCap    = "maintenance_over_cap"
	RuleMaintenanceWithoutCap = "maintenance_without_cap"
	RuleBillingPeriodAgreed   = "billing_period_over_agreed"
	RuleBillingPeriodLong     = "billing_period_over_12_months"
	RuleModulePrefix          = "contradiction_rule_"
	LetterModule              = "contradiction_letter"
	maxBillingPeriodMonths    = 12
)

// Cost type categories (costtype_category) the plausibility rules read.
const (
	CategoryAdministration = "administration"
	CategoryMaintenance    = "maintenance"
)

// Rules lists every rule in the order the generator applies them.
var Rules = []string{RuleCostTypeNotAgreed, RuleNotApportionable, RuleShareExceeded, RuleFlatRateChanged,
	RuleAdminOverCap, RuleAdminAboveCustomary, RuleMaintenanceOverCap, RuleMaintenanceWithoutCap,
	RuleBillingPeriodAgreed, RuleBillingPeriodLong}

// CustomaryAdminPercent is the share of the gross rent above which
// administration costs without an agreed cap give a warning: the BGH
// called 5.5 % (to 5.8 %) of the gross rent customary (judgment of 4 May
// 2011, XII ZR 112/09, as cited in ZAP 22/2016; 5.5 % of the base rent
// including VAT in the judgment of 9 December 2009, XII ZR 109/08).
var CustomaryAdminPercent = decimal.RequireFromString("5.5")

// cent is the tolerance of share_exceeded.
var cent = decimal.New(1, -2)

// Position is what the rules read of an invoice position. Missing numbers
// are zero.
type Position struct {
	ID             int64
	Name           string
	CostTypeID     int64
	CostType       string
	FlatRate       bool
	Apportionable  bool
	TotalUnits     decimal.Decimal
	UnitsCustomer  decimal.Decimal
	AmountTotal    decimal.Decimal
	AmountCustomer decimal.Decimal
	Category       string // the cost type's costtype_category
}

// Terms are what the lease agrees on its service charges (decision 0061);
// a null figure means the lease agrees nothing.
type Terms struct {
	AdminCapPercent decimal.NullDecimal // of the net rent of the billing period
	MaintenanceCap  decimal.NullDecimal // per year
	BillingMonths   int                 // 0 when not agreed
}

// Facts are what the rules read of one invoice: its billing period, the
// cost types its contract agrees on, its positions, and the flat-rate
// positions of the contract's invoice of the previous contract year by
// cost type (the latest invoice of that year).
type Facts struct {
	From, To  time.Time // zero when not given
	Year      int       // invoice_contract_year, 0 when not given
	Agreed    map[int64]bool
	Positions []Position
	Previous  map[int64]Position
	Terms     Terms
	// NetRent and GrossRent are the base rent of the billing period
	// (RentOfPeriod); zero when the invoice has no period or the
	// contract no base rent.
	NetRent, GrossRent decimal.Decimal
}

// Finding is one thing the rules object to: the rule, the position (0 for
// the invoice as a whole), the claim in cents, whether it is legally
// clear, and what the rule's text names.
type Finding struct {
	Rule         string
	Position     *Position
	Claim        decimal.Decimal
	LegallyClear bool
	// Expected is share_exceeded's fair share, Previous flat_rate_changed's
	// amount of the previous year, Months billing_period's length.
	Expected, Previous decimal.Decimal
	Months             int
	// What the category rules measured: the positions charged (Charged,
	// Count of them), the base they were measured against (Base: the
	// rent, or the cap pro rata), the share of the rent in percent
	// (Percent), the figure of the lease or the decision (Limit: percent,
	// amount per year or months) and the limit as an amount (LimitAmount).
	Charged, Base, Percent, Limit, LimitAmount decimal.Decimal
	Count                                      int
}

// Warning reports whether the finding claims nothing: its point asks, it
// does not demand (a claim is always positive, decision 0061).
func (f Finding) Warning() bool { return f.Claim.IsZero() }

// Round2 rounds to cents, half away from zero.
func Round2(d decimal.Decimal) decimal.Decimal { return d.Round(2) }

// Check applies the rules to one invoice, in order, and answers its
// findings: positions in their order, then the invoice-level findings.
//
//   - costtype_not_agreed: the cost type is not among the contract's;
//     claim = amount_customer (legally clear).
//   - not_apportionable: not apportionable and amount_customer > 0; claim =
//     amount_customer (legally clear); not for a position found above.
//   - share_exceeded: not a flat rate, total_units > 0, units_customer > 0,
//     and amount_customer exceeds round2(amount_total × units_customer /
//     total_units) by more than 0.01; claim = the excess; only for
//     positions neither rule above found.
//   - flat_rate_changed: a flat rate whose amount_customer is higher than
//     the same cost type's flat rate on the contract's invoice of the
//     previous contract year; claim = the increase; only for positions no
//     rule above found.
//   - the category rules (administration, maintenance; categoryFindings)
//     over the positions no rule above found.
//   - billing period: longer than the lease allows (claim, pro rata for
//     the days beyond, on what the positions charge beyond the claims
//     above) or, with nothing agreed, longer than twelve months (warning).
//
// A claim must be positive: an amount_customer of zero or a credit is
// nothing to object to (the claim field holds no negative amounts).
func Check(f Facts) []Finding {
	var out []Finding
	rest := decimal.Zero // what the positions charge beyond the claims
	var open []Position  // the positions no position rule found
	for i := range f.Positions {
		p := &f.Positions[i]
		found := finding(f, p)
		rest = rest.Add(p.AmountCustomer)
		if found != nil {
			rest = rest.Sub(found.Claim)
			out = append(out, *found)
		} else {
			open = append(open, *p)
		}
	}
	for _, c := range categoryFindings(f, open) {
		rest = rest.Sub(c.Claim)
		out = append(out, c)
	}
	if long := billingPeriod(f, rest); long != nil {
		out = append(out, *long)
	}
	return out
}

// finding is the first rule that finds position p, or nil.
func finding(f Facts, p *Position) *Finding {
	positive := p.AmountCustomer.IsPositive()
	if positive && !f.Agreed[p.CostTypeID] {
		return &Finding{Rule: RuleCostTypeNotAgreed, Position: p, Claim: Round2(p.AmountCustomer), LegallyClear: true}
	}
	if positive && !p.Apportionable {
		return &Finding{Rule: RuleNotApportionable, Position: p, Claim: Round2(p.AmountCustomer), LegallyClear: true}
	}
	if !p.FlatRate && p.TotalUnits.IsPositive() && p.UnitsCustomer.IsPositive() {
		expected := Round2(p.AmountTotal.Mul(p.UnitsCustomer).DivRound(p.TotalUnits, 10))
		excess := p.AmountCustomer.Sub(expected)
		if excess.GreaterThan(cent) {
			return &Finding{Rule: RuleShareExceeded, Position: p, Claim: Round2(excess), Expected: expected}
		}
	}
	if prev, ok := f.Previous[p.CostTypeID]; ok && p.FlatRate && prev.FlatRate {
		increase := Round2(p.AmountCustomer.Sub(prev.AmountCustomer))
		if increase.IsPositive() {
			return &Finding{Rule: RuleFlatRateChanged, Position: p, Claim: increase, Previous: prev.AmountCustomer}
		}
	}
	return nil
}

// billingPeriod finds a billing period longer than the lease allows
// (Terms.BillingMonths): the claim is rest × (days beyond the agreed
// months) / (days of the period), both ends counted. With nothing agreed,
// a period longer than twelve months is a warning: § 556 Abs. 3 S. 1 BGB
// (annual settlement) binds residential leases; a commercial lease is
// bound only by agreement, so there is nothing to claim.
func billingPeriod(f Facts, rest decimal.Decimal) *Finding {
	if f.From.IsZero() || f.To.IsZero() || f.To.Before(f.From) {
		return nil
	}
	allowed := f.Terms.BillingMonths
	if allowed <= 0 {
		if f.To.Before(f.From.AddDate(0, maxBillingPeriodMonths, 0)) {
			return nil
		}
		return &Finding{Rule: RuleBillingPeriodLong, Months: periodMonths(f.From, f.To),
			Limit: decimal.NewFromInt(maxBillingPeriodMonths)}
	}
	limit := f.From.AddDate(0, allowed, 0) // first day beyond the agreed months
	if f.To.Before(limit) {
		return nil
	}
	days := int64(f.To.Sub(f.From).Hours()/24) + 1
	beyond := int64(f.To.Sub(limit).Hours()/24) + 1
	claim := Round2(rest.Mul(decimal.NewFromInt(beyond)).DivRound(decimal.NewFromInt(days), 10))
	if !claim.IsPositive() {
		return nil
	}
	return &Finding{Rule: RuleBillingPeriodAgreed, Claim: claim, Months: periodMonths(f.From, f.To),
		Limit: decimal.NewFromInt(int64(allowed))}
}

// periodMonths is how many calendar months the period from..to touches.
func periodMonths(from, to time.Time) int {
	return (to.Year()-from.Year())*12 + int(to.Month()-from.Month()) + 1
}
