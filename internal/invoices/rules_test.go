package invoices_test

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"portfolio/internal/invoices"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// pos is an agreed, apportionable position of cost type 1 that charges
// exactly its share: 1000 of 10000 units of 5000.00 is 500.00.
func pos(change func(*invoices.Position)) invoices.Position {
	p := invoices.Position{ID: 7, Name: "Reinigung", CostTypeID: 1, Apportionable: true,
		TotalUnits: d("10000"), UnitsCustomer: d("1000"), AmountTotal: d("5000.00"), AmountCustomer: d("500.00")}
	if change != nil {
		change(&p)
	}
	return p
}

type want struct {
	rule  string
	claim string
	clear bool
}

// TestRules: each rule, its exclusions and the rounding to cents half away
// from zero.
func TestRules(t *testing.T) {
	agreed := map[int64]bool{1: true}
	cases := []struct {
		name  string
		facts invoices.Facts
		want  []want
	}{
		{"a position charging its share: nothing", invoices.Facts{Agreed: agreed, Positions: []invoices.Position{pos(nil)}}, nil},
		{"cost type not agreed: the whole amount, legally clear",
			invoices.Facts{Agreed: map[int64]bool{2: true}, Positions: []invoices.Position{pos(nil)}},
			[]want{{invoices.RuleCostTypeNotAgreed, "500", true}}},
		{"cost type not agreed and not apportionable: found once, by the first rule",
			invoices.Facts{Agreed: map[int64]bool{}, Positions: []invoices.Position{pos(func(p *invoices.Position) { p.Apportionable = false })}},
			[]want{{invoices.RuleCostTypeNotAgreed, "500", true}}},
		{"cost type not agreed with a credit: nothing to claim",
			invoices.Facts{Agreed: map[int64]bool{}, Positions: []invoices.Position{pos(func(p *invoices.Position) { p.AmountCustomer = d("-20") })}}, nil},
		{"not apportionable: the whole amount, legally clear",
			invoices.Facts{Agreed: agreed, Positions: []invoices.Position{pos(func(p *invoices.Position) { p.Apportionable = false })}},
			[]want{{invoices.RuleNotApportionable, "500", true}}},
		{"not apportionable but nothing charged: nothing",
			invoices.Facts{Agreed: agreed, Positions: []invoices.Position{pos(func(p *invoices.Position) { p.Apportionable = false; p.AmountCustomer = d("0") })}}, nil},
		{"not apportionable and above its share: found once, as not apportionable",
			invoices.Facts{Agreed: agreed, Positions: []invoices.Position{pos(func(p *invoices.Position) { p.Apportionable = false; p.AmountCustomer = d("900") })}},
			[]want{{invoices.RuleNotApportionable, "900", true}}},
		{"share exceeded: the excess, not legally clear",
			invoices.Facts{Agreed: agreed, Positions: []invoices.Position{pos(func(p *invoices.Position) { p.AmountCustomer = d("650.55") })}},
			[]want{{invoices.RuleShareExceeded, "150.55", false}}},
		{"share exceeded by exactly one cent: tolerated",
			invoices.Facts{Agreed: agreed, Positions: []invoices.Position{pos(func(p *invoices.Position) { p.AmountCustomer = d("500.01") })}}, nil},
		{"share exceeded by two cents: found",
			invoices.Facts{Agreed: agreed, Positions: []invoices.Position{pos(func(p *invoices.Position) { p.AmountCustomer = d("500.02") })}},
			[]want{{invoices.RuleShareExceeded, "0.02", false}}},
		{"the share is rounded half away from zero: 3 × 1/8 = 0.375 → 0.38, so 0.39 is within a cent",
			invoices.Facts{Agreed: agreed, Positions: []invoices.Position{pos(func(p *invoices.Position) {
				p.TotalUnits, p.UnitsCustomer, p.AmountTotal, p.AmountCustomer = d("8"), d("1"), d("3"), d("0.39")
			})}}, nil}, // rounded down to 0.37, the excess would be 0.02: found
		{"a flat rate is not checked for its share",
			invoices.Facts{Agreed: agreed, Positions: []invoices.Position{pos(func(p *invoices.Position) { p.FlatRate = true; p.AmountCustomer = d("900") })}}, nil},
		{"no units: no share to compare",
			invoices.Facts{Agreed: agreed, Positions: []invoices.Position{pos(func(p *invoices.Position) { p.TotalUnits = d("0"); p.AmountCustomer = d("900") })}}, nil},
		{"flat rate raised against the previous year: the increase",
			invoices.Facts{Agreed: agreed, Year: 2024, Previous: map[int64]invoices.Position{1: {CostTypeID: 1, FlatRate: true, AmountCustomer: d("1200")}},
				Positions: []invoices.Position{pos(func(p *invoices.Position) { p.FlatRate = true; p.AmountCustomer = d("1380.004") })}},
			[]want{{invoices.RuleFlatRateChanged, "180", false}}},
		{"flat rate lowered: nothing",
			invoices.Facts{Agreed: agreed, Previous: map[int64]invoices.Position{1: {CostTypeID: 1, FlatRate: true, AmountCustomer: d("1200")}},
				Positions: []invoices.Position{pos(func(p *invoices.Position) { p.FlatRate = true; p.AmountCustomer = d("1100") })}}, nil},
		{"flat rate raised but not agreed: found as not agreed only",
			invoices.Facts{Agreed: map[int64]bool{}, Previous: map[int64]invoices.Position{1: {CostTypeID: 1, FlatRate: true, AmountCustomer: d("1200")}},
				Positions: []invoices.Position{pos(func(p *invoices.Position) { p.FlatRate = true; p.AmountCustomer = d("1380") })}},
			[]want{{invoices.RuleCostTypeNotAgreed, "1380", true}}},
		{"twelve months: nothing",
			invoices.Facts{Agreed: agreed, From: day("2024-01-01"), To: day("2024-12-31"), Positions: []invoices.Position{pos(nil)}}, nil},
		{"fifteen months: the share of the days beyond twelve months, after the other claims",
			invoices.Facts{Agreed: agreed, From: day("2024-01-01"), To: day("2025-03-31"), Positions: []invoices.Position{
				pos(func(p *invoices.Position) { p.AmountCustomer = d("3800"); p.TotalUnits = d("0") }),
				pos(func(p *invoices.Position) { p.ID = 8; p.Apportionable = false; p.AmountCustomer = d("640") }),
			}},
			// 3800 × 90 / 456 = 750.00
			[]want{{invoices.RuleNotApportionable, "640", true}, {invoices.RuleBillingPeriodLong, "750", false}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := invoices.Check(c.facts)
			if len(got) != len(c.want) {
				t.Fatalf("got %d findings %+v, want %d", len(got), got, len(c.want))
			}
			for i, w := range c.want {
				if got[i].Rule != w.rule || !got[i].Claim.Equal(d(w.claim)) || got[i].LegallyClear != w.clear {
					t.Errorf("finding %d = %s %s clear=%v, want %s %s clear=%v", i, got[i].Rule, got[i].Claim, got[i].LegallyClear, w.rule, w.claim, w.clear)
				}
			}
		})
	}
}

// TestRound2 rounds half away from zero.
func TestRound2(t *testing.T) {
	for in, want := range map[string]string{"0.125": "0.13", "-0.125": "-0.13", "2.675": "2.68", "0.124999": "0.12", "-2.005": "-2.01"} {
		if got := invoices.Round2(d(in)); !got.Equal(d(want)) {
			t.Errorf("Round2(%s) = %s, want %s", in, got, want)
		}
	}
}
