package indexation

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"portfolio/internal/i18n"
)

// tiny is a series (2020 = 100) of the given month → value pairs.
func tiny(t *testing.T, pairs ...string) *Series {
	t.Helper()
	values := map[Month]decimal.Decimal{}
	for i := 0; i < len(pairs); i += 2 {
		values[month(t, pairs[i])] = decimal.RequireFromString(pairs[i+1])
	}
	return NewSeries(2020, values)
}

func places32(n int32) (bool, int32) { return true, n }

// TestEvaluateWording: the clause fields of decision 0011 (rule 5), each
// against the chain today's rule gives, on the shipped series (Destatis
// 61111-0002) or on the published examples' own values.
func TestEvaluateWording(t *testing.T) {
	vpi := shippedSeries(t)
	h := *dec("100")
	rounds := func(c Clause, n int32) Clause { c.Rounds, c.Decimals = places32(n); return c }
	pct5 := Clause{Transmission: h, InPercent: true, MinPercent: dec("5")}
	cases := []struct {
		name   string
		series *Series
		clause Clause
		ref    string
		amount string
		bounds *Bounds
		want   string // the first proposals of the chain
		rule   string // the first proposal's explanation in English
	}{
		{
			// Destatis, "Wertsicherungsklauseln" (destatis.de, Preise > Verbraucherpreisindex): take the current
			// index and the index of the last adjustment from its publications; IHK Schleswig-Holstein,
			// "Informationen zu Preisindizes": a change in percent does not depend on the base year. A 10 %
			// clause "VPI 2015 = 100" from June 2021 compares the published 102.9 with 113.5 (October 2022,
			// +10.30 %), not the rebased 108.9 with 120.1: 1000 × 113.5 / 102.9 = 1103.01 (rebased: 1102.85).
			name: "percent clause on published values", series: vpi, ref: "2021-06", amount: "1000.00",
			clause: Clause{Transmission: h, InPercent: true, MinPercent: dec("10")},
			want:   "2021-06>2022-10 102.9>113.5 10.60 10.30 1000.00>1103.01 2022-11-01\n",
			rule:   "+10.30 %, threshold 10 % reached",
		},
		{
			// Issue 39: a 5 % clause from January 2021 (101.0) with one decimal is reached in February 2022
			// (106.0: 4.9505 % → 5.0 %), a month before the unrounded rule (March 2022, 108.1); the rent
			// follows the rounded rate: 1000 × 1.050 = 1050.00.
			name: "rounded to one decimal reaches the threshold", series: vpi, ref: "2021-01", amount: "1000.00",
			clause: rounds(pct5, 1),
			want:   "2021-01>2022-02 101>106 5.00 4.95 1000.00>1050.00 2022-03-01\n",
			rule:   "+4.95 %, rounded to 5.0 % (one decimal), threshold 5 % reached",
		},
		{
			name: "unrounded, the same clause waits", series: vpi, ref: "2021-01", amount: "1000.00", clause: pct5,
			want: "2021-01>2022-03 101>108.1 7.10 7.03 1000.00>1070.30 2022-04-01\n",
			rule: "+7.03 %, threshold 5 % reached",
		},
		{
			// deutschlandimmobilien.webflow.io/glossar/indexierung-immobilien (also kysoh.com, "Wie berechne
			// ich die Miete nach Verbraucherpreisindex?"): 600 € at 106.6, the index rises to 109.3:
			// 109.3 ÷ 106.6 × 100 − 100 = 2.5 %, the rent 615 € (unrounded 2.5328 % gives 615.20 €).
			name: "600 euros, 106.6 to 109.3, one decimal", series: tiny(t, "2023-01", "106.6", "2024-01", "109.3"),
			ref: "2023-01", amount: "600.00", clause: rounds(Clause{Transmission: h, InPercent: true}, 1),
			want: "2023-01>2024-01 106.6>109.3 2.70 2.53 600.00>615.00 2024-02-01\n",
			rule: "+2.53 %, rounded to 2.5 % (one decimal), any change adjusts",
		},
		{
			name: "600 euros unrounded", series: tiny(t, "2023-01", "106.6", "2024-01", "109.3"),
			ref: "2023-01", amount: "600.00", clause: Clause{Transmission: h, InPercent: true},
			want: "2023-01>2024-01 106.6>109.3 2.70 2.53 600.00>615.20 2024-02-01\n",
		},
		{
			// Issue 39's example: 1,000 € at 103.8 → 105.3 with two decimals: 1.5 / 103.8 = 1.44508 % →
			// 1.45 %, 1,014.50 € (unrounded 1,014.45 €).
			name: "1000 euros, 103.8 to 105.3, two decimals", series: tiny(t, "2023-01", "103.8", "2023-07", "105.3"),
			ref: "2023-01", amount: "1000.00", clause: rounds(Clause{Transmission: h, InPercent: true}, 2),
			want: "2023-01>2023-07 103.8>105.3 1.50 1.45 1000.00>1014.50 2023-08-01\n",
		},
		{
			// "um mehr als 5 %": exactly 5.0 % (rounded) does not adjust; 7.03 % in March 2022 does.
			name: "more than 5 %, exactly 5.0 does not adjust", series: vpi, ref: "2021-01", amount: "1000.00",
			clause: func() Clause { c := rounds(pct5, 1); c.MoreThan = true; return c }(),
			want:   "2021-01>2022-03 101>108.1 7.10 7.03 1000.00>1070.00 2022-04-01\n",
			rule:   "+7.03 %, rounded to 7.0 % (one decimal), more than 5 % required, reached",
		},
		{
			// Exactly 10 % without rounding: 100 → 110.
			name: "more than, unrounded equality", series: tiny(t, "2023-01", "100", "2023-02", "110", "2023-03", "110.1"),
			ref: "2023-01", amount: "100.00", clause: Clause{Transmission: h, InPercent: true, MinPercent: dec("10"), MoreThan: true},
			want: "2023-01>2023-03 100>110.1 10.10 10.10 100.00>110.10 2023-04-01\n",
		},
		{
			// Any change, at least 12 months between changes: the first after the clause's begin (the amount
			// took effect in 2024-01) may take effect in 2025-01, compared on December 2024... the series
			// ends in October 2024, so the months below are a tiny series.
			name: "minimum months", series: tiny(t, "2023-01", "100", "2023-03", "103", "2023-12", "104", "2024-01", "104", "2024-06", "110", "2024-12", "112"),
			ref: "2023-01", amount: "1000.00", clause: Clause{Transmission: h, InPercent: true, MinPercent: dec("3"), MinMonths: 12},
			bounds: &Bounds{Since: month(t, "2023-01")},
			// 2023-03 crosses 3 % but may take effect only in 2024-01: compared on December 2023 (104).
			// Then 12 months since 2024-01: 2024-06 (+5.77 %) waits until 2024-12 (112, +7.69 %).
			want: "2023-01>2023-12 100>104 4.00 4.00 1000.00>1040.00 2024-01-01\n" +
				"2023-12>2024-12 104>112 8.00 7.69 1040.00>1120.00 2025-01-01\n",
			rule: "+4.00 %, threshold 3 % reached; unchanged for 12 months since 1 January 2023",
		},
		{
			// Every 24 months from the begin (2021-01): compared only on 2022-12 (113.2, +12.08 % over
			// 101.0) for 2023-01, and on 2024-12 (not published yet): nothing between.
			name: "fixed schedule of 24 months", series: vpi, ref: "2021-01", amount: "1000.00",
			clause: Clause{Transmission: h, InPercent: true, MinPercent: dec("5"), ScheduleMonths: 24, Begin: month(t, "2021-01")},
			want:   "2021-01>2022-12 101>113.2 12.20 12.08 1000.00>1120.79 2023-01-01\n",
			rule:   "+12.08 %, threshold 5 % reached; compared every 24 months from 1 January 2021",
		},
		{
			// A cap of 6 % on one adjustment: +7.03 % gives 1060.00.
			name: "cap", series: vpi, ref: "2021-01", amount: "1000.00",
			clause: func() Clause { c := pct5; c.MaxPercent = dec("6"); return c }(),
			want:   "2021-01>2022-03 101>108.1 7.10 7.03 1000.00>1060.00 2022-04-01\n",
			rule:   "+7.03 %, threshold 5 % reached; capped at 6 % per adjustment",
		},
		{
			// A floor of −0.2 % on one decrease: 117.8 → 117.3 (−0.42 %) gives −0.2 %.
			name: "floor on a decrease", series: vpi, ref: "2023-10", amount: "1000.00",
			clause: Clause{Transmission: h, MinPoints: dec("0.5"), MinRentPercent: dec("-0.2")},
			want:   "2023-10>2023-11 117.8>117.3 -0.50 -0.42 1000.00>998.00 2023-12-01\n",
			rule:   "-0.5 points (-0.42 %), threshold 0.5 points reached; at least -0.2 % per adjustment",
		},
		{
			// Decreases adjust like increases (§ 2 Abs. 3 PrKlG): 117.8 → 117.3.
			name: "decrease applied", series: vpi, ref: "2023-10", amount: "1000.00",
			clause: Clause{Transmission: h, MinPoints: dec("0.5")},
			want:   "2023-10>2023-11 117.8>117.3 -0.50 -0.42 1000.00>995.76 2023-12-01\n",
		},
		{
			// Upward only: the decrease of 2023-11 is not applied; the next rise of 0.5 points over 117.8
			// is 2024-03 (118.6).
			name: "upward only ignores the decrease", series: vpi, ref: "2023-10", amount: "1000.00",
			clause: Clause{Transmission: h, MinPoints: dec("0.5"), UpwardOnly: true},
			want:   "2023-10>2024-03 117.8>118.6 0.80 0.68 1000.00>1006.79 2024-04-01\n",
		},
		{
			// Issue 39: a payment beginning 2027-01-01 got proposals effective 2022-04-01, 2022-12-01 and
			// 2024-07-01; its first change may take effect after its begin and none after its end.
			name: "no proposal before the payment", series: vpi, ref: "2021-01", amount: "1000.00", clause: pct5,
			bounds: &Bounds{Since: month(t, "2021-01"), From: month(t, "2027-02")},
		},
		{
			name: "first month the payment allows", series: vpi, ref: "2021-01", amount: "1000.00", clause: pct5,
			bounds: &Bounds{Since: month(t, "2021-01"), From: month(t, "2023-01")},
			want:   "2021-01>2022-12 101>113.2 12.20 12.08 1000.00>1120.79 2023-01-01\n",
			rule:   "+12.08 %, threshold 5 % reached; first change the payment and its contract allow (1 January 2023)",
		},
		{
			name: "none after the payment's end", series: vpi, ref: "2021-01", amount: "1000.00", clause: pct5,
			bounds: &Bounds{Since: month(t, "2021-01"), To: month(t, "2022-12")},
			want:   "2021-01>2022-03 101>108.1 7.10 7.03 1000.00>1070.30 2022-04-01\n",
		},
	}
	cat := i18n.MustLoad()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := Bounds{Since: month(t, c.ref)}
			if c.bounds != nil {
				b = *c.bounds
			}
			got, err := EvaluateWithin(c.series, c.clause, month(t, c.ref), decimal.RequireFromString(c.amount), b, nil)
			if err != nil {
				t.Fatal(err)
			}
			text := chainText(got)
			if n := strings.Count(c.want, "\n"); n > 0 && n < len(got) {
				text = strings.Join(strings.SplitAfter(text, "\n")[:n], "")
			}
			if text != c.want {
				t.Errorf("chain\n%s\nwant\n%s", text, c.want)
			}
			if c.rule != "" && len(got) > 0 {
				if e := Explain(cat, "en", c.clause.RuleOf(got[0]).JSON()); e.Text != c.rule {
					t.Errorf("rule %q\nwant %q", e.Text, c.rule)
				}
			}
		})
	}
}

// TestComparedBaseYear: only a point clause is rebased to its base year.
func TestComparedBaseYear(t *testing.T) {
	if got := ComparedBaseYear(true, 2015, 2020); got != 2020 {
		t.Errorf("percent clause compares in %d", got)
	}
	if got := ComparedBaseYear(false, 2015, 2020); got != 2015 {
		t.Errorf("point clause compares in %d", got)
	}
}
