package indexation

import (
	"errors"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// shippedSeries is the shipped German consumer price index (2020 = 100).
func shippedSeries(t *testing.T) *Series {
	t.Helper()
	b, err := shipped.ReadFile(DefaultSeriesFile)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	values := map[Month]decimal.Decimal{}
	for _, pt := range p.Points {
		values[pt.Month] = pt.Value
	}
	return NewSeries(2020, values)
}

func month(t *testing.T, s string) Month {
	t.Helper()
	m, err := ParseMonth(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func dec(s string) *decimal.Decimal {
	d := decimal.RequireFromString(s)
	return &d
}

// chainText renders a chain as "ref>cur vr>vc points percent old>new effective" lines.
func chainText(ps []Proposal) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Reference.String() + ">" + p.Current.String() + " " + p.ReferenceValue.String() + ">" + p.CurrentValue.String() +
			" " + p.ChangePoints.StringFixed(2) + " " + p.ChangePercent.StringFixed(2) + " " + p.OldAmount.StringFixed(2) + ">" +
			p.NewAmount.StringFixed(2) + " " + p.Effective.Format("2006-01-02") + "\n")
	}
	return b.String()
}

// TestEvaluate: chains computed by hand (with a calculator, from the
// values of the shipped file) for the rules of decision 0011.
func TestEvaluate(t *testing.T) {
	vpi := shippedSeries(t)
	rebased2015, err := Rebase(vpi, 2015)
	if err != nil {
		t.Fatal(err)
	}
	hundred := *dec("100")
	cases := []struct {
		name   string
		series *Series
		clause Clause
		ref    string
		amount string
		skip   func(ref, cur Month) bool
		want   string
	}{
		{
			// 5 % of 101.0 is reached by 108.1 (7.03 %), not by 106.0 (4.95 %); then from 108.1 by 113.7
			// (5.18 %, not 113.5 = 4.99 %); then from 113.7 by 119.4 (5.01 %).
			name: "percent threshold, a chain entered late", series: vpi, ref: "2021-01", amount: "1000.00",
			clause: Clause{Transmission: hundred, InPercent: true, MinPercent: dec("5")},
			want: "2021-01>2022-03 101>108.1 7.10 7.03 1000.00>1070.30 2022-04-01\n" +
				"2022-03>2022-11 108.1>113.7 5.60 5.18 1070.30>1125.75 2022-12-01\n" +
				"2022-11>2024-06 113.7>119.4 5.70 5.01 1125.75>1182.19 2024-07-01\n",
		},
		{
			// 3 points over 114.3 first at 117.5 (3.2 points, 2.80 %); 60 % of it: 2500 × 1.0167979… = 2541.99.
			name: "point threshold, transmission 60 %", series: vpi, ref: "2023-01", amount: "2500.00",
			clause: Clause{Transmission: *dec("60"), MinPoints: dec("3.0")},
			want:   "2023-01>2023-08 114.3>117.5 3.20 2.80 2500.00>2541.99 2023-09-01\n",
		},
		{
			// Base year 2015: the twelve 2015 values sum to 1134.2; 2016-01 (93.6) becomes
			// 93.6 × 1200 / 1134.2 = 99.03 → 99.0 and 2021-06 (102.9) 108.87 → 108.9: exactly
			// 10.00 % over 99.0, equal to the threshold, so met.
			name: "rebased base year, threshold met with equality", series: rebased2015, ref: "2016-01", amount: "800.00",
			clause: Clause{Transmission: hundred, InPercent: true, MinPercent: dec("10")},
			want: "2016-01>2021-06 99>108.9 9.90 10.00 800.00>880.00 2021-07-01\n" +
				"2021-06>2022-10 108.9>120.1 11.20 10.28 880.00>970.51 2022-11-01\n",
		},
		{
			// 117.8 → 117.3 is −0.5 points: a decrease counts like an increase.
			name: "decrease", series: vpi, ref: "2023-10", amount: "1000.00",
			clause: Clause{Transmission: hundred, MinPoints: dec("0.5")},
			want: "2023-10>2023-11 117.8>117.3 -0.50 -0.42 1000.00>995.76 2023-12-01\n" +
				"2023-11>2024-02 117.3>118.1 0.80 0.68 995.76>1002.55 2024-03-01\n" +
				"2024-02>2024-03 118.1>118.6 0.50 0.42 1002.55>1006.79 2024-04-01\n" +
				"2024-03>2024-04 118.6>119.2 0.60 0.51 1006.79>1011.88 2024-05-01\n" +
				"2024-04>2024-07 119.2>119.8 0.60 0.50 1011.88>1016.97 2024-08-01\n",
		},
		{
			// No threshold: every change other than zero (2024-09 equals 2024-08: none).
			name: "empty threshold", series: vpi, ref: "2024-06", amount: "1234.56",
			clause: Clause{Transmission: hundred},
			want: "2024-06>2024-07 119.4>119.8 0.40 0.34 1234.56>1238.70 2024-08-01\n" +
				"2024-07>2024-08 119.8>119.7 -0.10 -0.08 1238.70>1237.67 2024-09-01\n" +
				"2024-08>2024-10 119.7>120.2 0.50 0.42 1237.67>1242.84 2024-11-01\n",
		},
		{
			name: "zero threshold is empty", series: vpi, ref: "2024-08", amount: "100.00",
			clause: Clause{Transmission: hundred, InPercent: true, MinPercent: dec("0")},
			want:   "2024-08>2024-10 119.7>120.2 0.50 0.42 100.00>100.42 2024-11-01\n",
		},
		{
			// A rejected proposal (2021-01 → 2022-03) is skipped: the next month meeting the threshold counts.
			name: "rejected month skipped", series: vpi, ref: "2021-01", amount: "1000.00",
			clause: Clause{Transmission: hundred, InPercent: true, MinPercent: dec("5")},
			skip:   func(r, c Month) bool { return r.String() == "2021-01" && c.String() == "2022-03" },
			want:   "2021-01>2022-04 101>108.8 7.80 7.72 1000.00>1077.23 2022-05-01\n",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Evaluate(c.series, c.clause, month(t, c.ref), decimal.RequireFromString(c.amount), c.skip)
			if err != nil {
				t.Fatal(err)
			}
			text := chainText(got)
			if c.name == "rejected month skipped" {
				text = strings.SplitAfter(text, "\n")[0]
			}
			if text != c.want {
				t.Errorf("chain\n%s\nwant\n%s", text, c.want)
			}
		})
	}
}

// TestEvaluateMissingMonths: a reference month without a value is an
// error naming it; a month missing in the walk is passed over; rebasing
// needs all twelve months of the base year.
func TestEvaluateMissingMonths(t *testing.T) {
	vpi := shippedSeries(t)
	values := map[Month]decimal.Decimal{}
	for i, v := range vpi.Values {
		if vpi.Has[i] && (vpi.First+Month(i)).String() != "2024-03" {
			values[vpi.First+Month(i)] = v
		}
	}
	gap := NewSeries(2020, values)
	hundred := decimal.NewFromInt(100)
	_, err := Evaluate(gap, Clause{Transmission: hundred}, month(t, "2024-03"), hundred, nil)
	var missing *MissingMonthError
	if !errors.As(err, &missing) || missing.Month.String() != "2024-03" {
		t.Fatalf("err %v, want the missing 2024-03", err)
	}
	got, err := Evaluate(gap, Clause{Transmission: hundred}, month(t, "2024-02"), hundred, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got[0].Current.String() != "2024-04" || got[0].ReferenceValue.String() != "118.1" || got[0].NewAmount.StringFixed(2) != "100.93" {
		t.Errorf("first after the gap: %s", chainText(got[:1]))
	}
	if _, err := Rebase(gap, 2024); !errors.As(err, &missing) || missing.Month.String() != "2024-03" || missing.Why != "rebase" {
		t.Errorf("rebase over the gap: %v", err)
	}
	if _, err := Evaluate(vpi, Clause{Transmission: hundred}, month(t, "2024-11"), hundred, nil); !errors.As(err, &missing) {
		t.Errorf("a reference not yet published: %v", err)
	}
}
