package invoices_test

import (
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"portfolio/internal/invoices"
	"portfolio/internal/schema"
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
		{"fifteen months, the lease agrees twelve: the share of the days beyond them, after the other claims",
			invoices.Facts{Agreed: agreed, From: day("2024-01-01"), To: day("2025-03-31"), Terms: invoices.Terms{BillingMonths: 12}, Positions: []invoices.Position{
				pos(func(p *invoices.Position) { p.AmountCustomer = d("3800"); p.TotalUnits = d("0") }),
				pos(func(p *invoices.Position) { p.ID = 8; p.Apportionable = false; p.AmountCustomer = d("640") }),
			}},
			// 3800 × 90 / 456 = 750.00
			[]want{{invoices.RuleNotApportionable, "640", true}, {invoices.RuleBillingPeriodAgreed, "750", false}}},
		// § 556 Abs. 3 S. 1 BGB (annual settlement) binds residential leases;
		// § 578 BGB does not extend it to commercial premises, so without an
		// agreed period the rule only warns.
		{"fifteen months, no period agreed: a warning without a claim",
			invoices.Facts{Agreed: agreed, From: day("2024-01-01"), To: day("2025-03-31"), Positions: []invoices.Position{
				pos(func(p *invoices.Position) { p.AmountCustomer = d("3800"); p.TotalUnits = d("0") }),
			}},
			[]want{{invoices.RuleBillingPeriodLong, "0", false}}},
		{"thirteen months, the lease agrees fourteen: nothing",
			invoices.Facts{Agreed: agreed, From: day("2024-01-01"), To: day("2025-01-31"), Terms: invoices.Terms{BillingMonths: 14}, Positions: []invoices.Position{pos(nil)}}, nil},
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
				if got[i].Warning() && got[i].LegallyClear {
					t.Errorf("finding %d: a warning (claim %s) is legally clear; a finding that claims nothing only asks", i, got[i].Claim)
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

// adminPos and maint are positions of cost types 2 (administration) and 3
// (maintenance) that charge exactly their share.
func adminPos(amount string) invoices.Position {
	return invoices.Position{ID: 20, Name: "Verwaltung", CostTypeID: 2, Category: invoices.CategoryAdministration, Apportionable: true,
		TotalUnits: d("1"), UnitsCustomer: d("1"), AmountTotal: d(amount), AmountCustomer: d(amount)}
}

func maint(amount string) invoices.Position {
	p := adminPos(amount)
	p.ID, p.Name, p.CostTypeID, p.Category = 21, "Instandhaltung", 3, invoices.CategoryMaintenance
	return p
}

func capOf(s string) decimal.NullDecimal { return decimal.NullDecimal{Decimal: d(s), Valid: true} }

// TestChargeRules: the category rules of decision 0061 with their
// thresholds, claims and warnings.
func TestChargeRules(t *testing.T) {
	agreed := map[int64]bool{1: true, 2: true, 3: true}
	year := func(terms invoices.Terms, positions ...invoices.Position) invoices.Facts {
		return invoices.Facts{Agreed: agreed, From: day("2025-01-01"), To: day("2025-12-31"), Terms: terms, Positions: positions,
			NetRent: d("60000"), GrossRent: d("71400")}
	}
	cases := []struct {
		name  string
		facts invoices.Facts
		want  []want
	}{
		{"administration costs within the agreed cap: nothing",
			year(invoices.Terms{AdminCapPercent: capOf("4")}, adminPos("2400.00")), nil},
		{"administration costs above the agreed cap: the excess, legally clear (6.1 % of 60,000 against 4 %)",
			year(invoices.Terms{AdminCapPercent: capOf("4")}, adminPos("3660.00")),
			[]want{{invoices.RuleAdminOverCap, "1260", true}}},
		{"the cap is summed over every administration position",
			year(invoices.Terms{AdminCapPercent: capOf("4.5")}, adminPos("1500.00"), func() invoices.Position { p := adminPos("1300.00"); p.ID = 22; return p }()),
			[]want{{invoices.RuleAdminOverCap, "100", true}}}, // 2800 − 2700
		{"a position another rule claims is not measured again",
			year(invoices.Terms{AdminCapPercent: capOf("4")}, func() invoices.Position { p := adminPos("3660.00"); p.Apportionable = false; return p }()),
			[]want{{invoices.RuleNotApportionable, "3660", true}}},
		{"a cap but no base rent: nothing to measure against",
			func() invoices.Facts {
				f := year(invoices.Terms{AdminCapPercent: capOf("4")}, adminPos("3660.00"))
				f.NetRent = d("0")
				return f
			}(), nil},
		// BGH, judgment of 4 May 2011, XII ZR 112/09 (ZMR 2011, 788 = NZM
		// 2012, 83), as cited in ZAP 22/2016 (haufe.de, "Mietnebenkosten bei
		// der Geschäftsraummiete"): 5.5 % or 5.8 % of the gross rent is
		// customary; BGH, judgment of 9 December 2009, XII ZR 109/08
		// (haufe.de, Rz. 3): a fee of 5.5 % of the base rent including VAT.
		{"no cap, 5.5 % of the gross rent: customary, nothing",
			year(invoices.Terms{}, adminPos("3927.00")), nil}, // 71,400 × 5.5 % = 3,927.00
		{"no cap, above 5.5 % of the gross rent: a warning without a claim",
			year(invoices.Terms{}, adminPos("3927.01")),
			[]want{{invoices.RuleAdminAboveCustomary, "0", false}}},
		// BGH, judgment of 6 April 2005, XII ZR 158/01 (NJW-RR 2006, 84), as
		// followed in BGH, judgment of 10 September 2014, XII ZR 56/11,
		// Leitsatz b (betriebs-berater.ruw.de): putting the maintenance and
		// repair of common areas on the tenant in standard terms without a
		// cap violates § 307 Abs. 1, 2 BGB.
		{"maintenance of common areas without a cap: a warning without a claim",
			year(invoices.Terms{}, maint("1800.00")),
			[]want{{invoices.RuleMaintenanceWithoutCap, "0", false}}},
		{"maintenance within the agreed cap: nothing",
			year(invoices.Terms{MaintenanceCap: capOf("1800")}, maint("1800.00")), nil},
		{"maintenance above the agreed cap: the excess, legally clear",
			year(invoices.Terms{MaintenanceCap: capOf("1500")}, maint("1800.00")),
			[]want{{invoices.RuleMaintenanceOverCap, "300", true}}},
		{"the maintenance cap pro rata: fifteen months of 1,000.00 a year are 1,250.00",
			func() invoices.Facts {
				f := year(invoices.Terms{MaintenanceCap: capOf("1000"), BillingMonths: 15}, maint("1300.00"))
				f.From, f.To = day("2024-01-01"), day("2025-03-31")
				return f
			}(),
			[]want{{invoices.RuleMaintenanceOverCap, "50", true}}},
		{"the maintenance cap pro rata: seven months of 1,000.00 a year are 583.33 (half away from zero)",
			func() invoices.Facts {
				f := year(invoices.Terms{MaintenanceCap: capOf("1000")}, maint("600.00"))
				f.To = day("2025-07-31")
				return f
			}(),
			[]want{{invoices.RuleMaintenanceOverCap, "16.67", true}}},
		{"a credit of maintenance: nothing",
			year(invoices.Terms{}, maint("-50.00")), nil},
		{"the claims come off what the agreed billing period shares: 3,660 − 1,260 over 15 months, 3 beyond 12",
			func() invoices.Facts {
				f := year(invoices.Terms{AdminCapPercent: capOf("4"), BillingMonths: 12}, adminPos("3660.00"))
				f.From, f.To, f.NetRent = day("2024-01-01"), day("2025-03-31"), d("75000") // 4 % = 3,000.00
				return f
			}(),
			// admin: 660.00; rest 3,000.00 × 90 / 456 = 592.11
			[]want{{invoices.RuleAdminOverCap, "660", true}, {invoices.RuleBillingPeriodAgreed, "592.11", false}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := invoices.Check(c.facts)
			if len(got) != len(c.want) {
				t.Fatalf("got %d findings %+v, want %d", len(got), got, len(c.want))
			}
			for i, w := range c.want {
				if got[i].Rule != w.rule || !got[i].Claim.Equal(d(w.claim)) || got[i].LegallyClear != w.clear || got[i].Warning() != (w.claim == "0") {
					t.Errorf("finding %d = %s %s clear=%v warning=%v, want %s %s clear=%v", i, got[i].Rule, got[i].Claim, got[i].LegallyClear,
						got[i].Warning(), w.rule, w.claim, w.clear)
				}
			}
		})
	}
}

// TestRentOfPeriod: the base rent of a billing period, month by month,
// net and gross.
func TestRentOfPeriod(t *testing.T) {
	rent := invoices.RentPayment{PerMonth: d("5000"), TaxPercent: d("19"), Begin: day("2024-01-01")}
	raised := invoices.RentPayment{PerMonth: d("5150"), TaxPercent: d("19"), Begin: day("2025-07-01")}
	rent2 := rent
	rent2.End = day("2025-06-30")
	// Approving an index adjustment writes the new amount over the old one:
	// the period counts the old amount until the adjustment took effect.
	indexed := invoices.RentPayment{PerMonth: d("5300"), TaxPercent: d("19"), Begin: day("2024-01-01"),
		Adjustments: []invoices.RentAdjustment{{Effective: day("2026-03-01"), Old: d("5150")}, {Effective: day("2025-07-01"), Old: d("5000")}}}
	midMonth := invoices.RentPayment{PerMonth: d("5150"), TaxPercent: d("19"), Begin: day("2024-01-01"),
		Adjustments: []invoices.RentAdjustment{{Effective: day("2025-07-15"), Old: d("5000")}}}
	cases := []struct {
		name       string
		payments   []invoices.RentPayment
		from, to   string
		net, gross string
	}{
		{"a year", []invoices.RentPayment{rent}, "2025-01-01", "2025-12-31", "60000", "71400"},
		{"fifteen months: the annual rent pro rata", []invoices.RentPayment{rent}, "2024-01-01", "2025-03-31", "75000", "89250"},
		{"a raise in July", []invoices.RentPayment{rent2, raised}, "2025-01-01", "2025-12-31", "60900", "72471"},
		{"the rent begins in the period", []invoices.RentPayment{rent}, "2023-07-01", "2024-06-30", "30000", "35700"},
		{"index adjustments in July and after the period", []invoices.RentPayment{indexed}, "2025-01-01", "2025-12-31", "60900", "72471"},
		{"an adjustment in mid-July counts from August", []invoices.RentPayment{midMonth}, "2025-01-01", "2025-12-31", "60750", "72292.5"},
		{"every adjustment in force", []invoices.RentPayment{indexed}, "2026-03-01", "2027-02-28", "63600", "75684"},
		{"no period", []invoices.RentPayment{rent}, "", "", "0", "0"},
	}
	for _, c := range cases {
		var from, to time.Time
		if c.from != "" {
			from, to = day(c.from), day(c.to)
		}
		net, gross := invoices.RentOfPeriod(c.payments, from, to)
		if !net.Equal(d(c.net)) || !gross.Equal(d(c.gross)) {
			t.Errorf("%s: net %s gross %s, want %s %s", c.name, net, gross, c.net, c.gross)
		}
	}
}

// TestEveryRuleIsAnOptionOfThePointsRule: the generator writes only codes
// the contradictionpoint_rule field offers (the generic screens name them,
// the engine refuses others), and the field offers no rule that does not exist.
func TestEveryRuleIsAnOptionOfThePointsRule(t *testing.T) {
	point, ok := schema.Default().Entity("contradictionpoint")
	if !ok {
		t.Fatal("no contradictionpoint entity")
	}
	f, ok := point.Field("contradictionpoint_rule")
	if !ok {
		t.Fatal("no contradictionpoint_rule field")
	}
	var offered []string
	for _, o := range f.Options {
		offered = append(offered, o.Value.String())
	}
	if !slices.Equal(offered, invoices.Rules) {
		t.Errorf("contradictionpoint_rule offers %v, the generator's rules are %v", offered, invoices.Rules)
	}
}
