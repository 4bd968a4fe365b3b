package invoices

import (
	"time"

	"github.com/shopspring/decimal"
)

// The generator's rules (decision 0016), by the code stored in
// contradictionpoint_rule. Each rule's title and text come from the text
// module with code RuleModulePrefix+rule in the company's language.
const (
	RuleCostTypeNotAgreed  = "costtype_not_agreed"
	RuleNotApportionable   = "not_apportionable"
	RuleShareExceeded      = "share_exceeded"
	RuleFlatRateChanged    = "flat_rate_changed"
	RuleBillingPeriodLong  = "billing_period_over_12_months"
	RuleModulePrefix       = "contradiction_rule_"
	LetterModule           = "contradiction_letter"
	maxBillingPeriodMonths = 12
)

// Rules lists every rule in the order the generator applies them.
var Rules = []string{RuleCostTypeNotAgreed, RuleNotApportionable, RuleShareExceeded, RuleFlatRateChanged, RuleBillingPeriodLong}

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
}

// Round2 rounds to cents, half away from zero.
func Round2(d decimal.Decimal) decimal.Decimal { return d.Round(2) }

// Check applies the rules to one invoice, in order, and answers its
// findings: positions in their order, then the invoice-level finding.
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
//   - billing_period_over_12_months: the billing period is longer than
//     twelve months; claim = what the positions charge beyond the claims
//     above, pro rata for the days beyond twelve months.
//
// A claim must be positive: an amount_customer of zero or a credit is
// nothing to object to (the claim field holds no negative amounts).
func Check(f Facts) []Finding {
	var out []Finding
	rest := decimal.Zero // what the positions charge beyond the claims
	for i := range f.Positions {
		p := &f.Positions[i]
		found := finding(f, p)
		rest = rest.Add(p.AmountCustomer)
		if found != nil {
			rest = rest.Sub(found.Claim)
			out = append(out, *found)
		}
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

// billingPeriod finds a billing period longer than twelve months: the
// claim is rest × (days beyond twelve months) / (days of the period),
// both ends counted.
func billingPeriod(f Facts, rest decimal.Decimal) *Finding {
	if f.From.IsZero() || f.To.IsZero() || f.To.Before(f.From) {
		return nil
	}
	limit := f.From.AddDate(0, maxBillingPeriodMonths, 0) // first day beyond twelve months
	if f.To.Before(limit) {
		return nil
	}
	days := int64(f.To.Sub(f.From).Hours()/24) + 1
	beyond := int64(f.To.Sub(limit).Hours()/24) + 1
	claim := Round2(rest.Mul(decimal.NewFromInt(beyond)).DivRound(decimal.NewFromInt(days), 10))
	if !claim.IsPositive() {
		return nil
	}
	months := (f.To.Year()-f.From.Year())*12 + int(f.To.Month()-f.From.Month()) + 1
	return &Finding{Rule: RuleBillingPeriodLong, Claim: claim, Months: months}
}
