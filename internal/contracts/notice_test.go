package contracts

import (
	"errors"
	"testing"
	"time"
)

func date(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func datePtr(s string) *time.Time {
	d := date(s)
	return &d
}

func intPtr(n int) *int { return &n }

func TestAddMonths(t *testing.T) {
	cases := []struct {
		from string
		n    int
		want string
	}{
		{"2027-12-31", -6, "2027-06-30"}, // last day stays last day
		{"2027-03-31", -1, "2027-02-28"},
		{"2028-02-29", -12, "2027-02-28"},
		{"2027-05-30", -3, "2027-02-28"}, // clamped
		{"2027-02-28", 1, "2027-03-31"},  // Feb 28 is the last day of February 2027
		{"2028-02-28", 1, "2028-03-28"},  // not in a leap year's February
		{"2027-01-15", 1, "2027-02-15"},
		{"2027-01-30", 1, "2027-02-28"},
		{"2027-06-30", 6, "2027-12-31"},
		{"2027-11-30", 3, "2028-02-29"},
		{"2027-10-15", 0, "2027-10-15"},
		{"2027-01-31", -13, "2025-12-31"},
	}
	for _, c := range cases {
		if got := AddMonths(date(c.from), c.n).Format(time.DateOnly); got != c.want {
			t.Errorf("%s %+d months = %s, want %s", c.from, c.n, got, c.want)
		}
	}
}

func TestNoticeDate(t *testing.T) {
	months := func(n int) Period { return Period{n, UnitMonth} }
	today := date("2026-11-23")
	cases := []struct {
		name    string
		dl      Deadline
		want    string // "" for no date
		uses    int
		expired bool
		err     error
	}{
		// Resiliations: resiliation date minus notice.
		{name: "resiliation 6 months from month end", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-12-31"), Notice: months(6)}, want: "2027-06-30"},
		{name: "resiliation 1 month from March 31", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-03-31"), Notice: months(1)}, want: "2027-02-28"},
		{name: "resiliation 1 year from leap day", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2028-02-29"), Notice: Period{1, UnitYear}}, want: "2027-02-28"},
		{name: "resiliation 3 months clamped", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-05-30"), Notice: months(3)}, want: "2027-02-28"},
		{name: "resiliation weeks", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-03-01"), Notice: Period{2, UnitWeek}}, want: "2027-02-15"},
		{name: "resiliation days across a year", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-01-10"), Notice: Period{20, UnitDay}}, want: "2026-12-21"},
		{name: "resiliation zero notice", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-01-10"), Notice: Period{0, UnitDay}}, want: "2027-01-10"},
		{name: "special resiliation in the past stays", dl: Deadline{Type: TypeSpecialResiliation, ResiliationDate: datePtr("2025-06-30"), Notice: months(3)}, want: "2025-03-31"},
		{name: "special resiliation two years", dl: Deadline{Type: TypeSpecialResiliation, ResiliationDate: datePtr("2029-08-31"), Notice: Period{2, UnitYear}}, want: "2027-08-31"},
		{name: "resiliation without date", dl: Deadline{Type: TypeResiliation, Notice: months(3)}, err: ErrResiliationDate},
		{name: "notice without unit", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-01-01"), Notice: Period{3, ""}}, err: ErrNoticePeriod},
		{name: "unknown type", dl: Deadline{Type: "sometime", Notice: months(1)}, err: ErrDeadlineType},

		// Options and extensions: Tk = T0 + k·X, notice Tk − notice period.
		{name: "option not yet due", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2028-12-31"), OptionsCount: intPtr(2), Extension: Period{5, UnitYear}, Notice: months(12)},
			want: "2027-12-31"},
		{name: "option: first notice passed, first use counts", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2027-03-31"), OptionsCount: intPtr(2), Extension: Period{5, UnitYear}, Notice: months(6)},
			want: "2031-09-30", uses: 1},
		{name: "option: notice today counts", dl: Deadline{Type: TypeAutomaticOption, ContractEnd: datePtr("2027-05-23"), OptionsCount: intPtr(1), Extension: Period{1, UnitYear}, Notice: months(6)},
			want: "2026-11-23"},
		{name: "option: notice yesterday moves on", dl: Deadline{Type: TypeAutomaticOption, ContractEnd: datePtr("2027-05-22"), OptionsCount: intPtr(1), Extension: Period{1, UnitYear}, Notice: months(6)},
			want: "2027-11-22", uses: 1},
		{name: "options used up: expired", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2015-12-31"), OptionsCount: intPtr(2), Extension: Period{3, UnitYear}, Notice: months(6)},
			want: "2021-06-30", uses: 2, expired: true},
		{name: "one option used up", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2020-01-31"), OptionsCount: intPtr(1), Extension: Period{2, UnitYear}, Notice: months(3)},
			want: "2021-10-31", uses: 1, expired: true},
		{name: "unlimited extension, monthly, from long ago", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("1995-01-31"), Extension: months(1), Notice: months(3)},
			want: "2026-11-30", uses: 385},
		{name: "unlimited extension by years", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("2010-12-31"), Extension: Period{1, UnitYear}, Notice: months(6)},
			want: "2027-06-30", uses: 17},
		{name: "unlimited extension from a leap day", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("2024-02-29"), Extension: Period{1, UnitYear}, Notice: Period{0, UnitDay}},
			want: "2027-02-28", uses: 3},
		{name: "k·X in one step keeps the 31st", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("2026-08-31"), Extension: months(6), Notice: Period{0, UnitDay}},
			want: "2027-02-28", uses: 1},
		{name: "k·X in one step, two uses", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("2026-01-30"), Extension: months(6), Notice: Period{0, UnitDay}},
			want: "2027-01-30", uses: 2},
		{name: "extension in weeks", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("2026-11-01"), Extension: Period{2, UnitWeek}, Notice: Period{1, UnitWeek}},
			want: "2026-12-06", uses: 3},
		{name: "extension in days", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("2026-11-20"), Extension: Period{10, UnitDay}, Notice: Period{3, UnitDay}},
			want: "2026-11-27", uses: 1},
		{name: "zero extension: no later term", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("2026-01-31"), Extension: Period{0, UnitMonth}, Notice: months(1)},
			want: "2025-12-31", expired: true},
		{name: "contract without end: no date", dl: Deadline{Type: TypeActiveOption, OptionsCount: intPtr(1), Extension: months(12), Notice: months(6)}},
		{name: "option without extension unit", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2030-01-01"), Extension: Period{1, ""}, Notice: months(6)}, err: ErrExtension},
		{name: "options count 0", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2030-01-01"), OptionsCount: intPtr(0), Extension: months(12), Notice: months(6)}, err: ErrOptionsCount},
		{name: "options count 3, last use", dl: Deadline{Type: TypeAutomaticOption, ContractEnd: datePtr("2024-06-30"), OptionsCount: intPtr(3), Extension: Period{1, UnitYear}, Notice: months(3)},
			want: "2027-03-31", uses: 3},
		{name: "notice in years from month end", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2029-04-30"), OptionsCount: intPtr(1), Extension: Period{5, UnitYear}, Notice: Period{2, UnitYear}},
			want: "2027-04-30"},
		{name: "notice in weeks", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2027-01-04"), OptionsCount: intPtr(1), Extension: Period{1, UnitYear}, Notice: Period{4, UnitWeek}},
			want: "2026-12-07"},
	}
	if len(cases) < 30 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, err := NoticeDate(c.dl, today)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("error %v, want %v", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if n.Date != nil {
				got = n.Date.Format(time.DateOnly)
			}
			if got != c.want || n.Uses != c.uses || n.Expired != c.expired {
				t.Fatalf("got %q uses %d expired %v, want %q uses %d expired %v", got, n.Uses, n.Expired, c.want, c.uses, c.expired)
			}
		})
	}
}

// TestNoticeDateSearchMatchesStepping: the search for the first use that
// starts near the expected k finds what stepping k = 0, 1, 2, ... finds.
func TestNoticeDateSearchMatchesStepping(t *testing.T) {
	units := []string{UnitDay, UnitWeek, UnitMonth, UnitYear}
	today := date("2026-11-23")
	for i := range 20000 {
		end := date("1980-01-01").AddDate(0, 0, (i*7919)%20000)
		x := Period{Value: 1 + (i*31)%13, Unit: units[i%4]}
		notice := Period{Value: (i * 17) % 9, Unit: units[(i/4)%4]}
		var count *int
		if i%3 != 0 {
			count = intPtr(1 + i%40)
		}
		dl := Deadline{Type: TypeAutomaticExtension, ContractEnd: &end, Extension: x, Notice: notice, OptionsCount: count}
		got, err := NoticeDate(dl, today)
		if err != nil {
			t.Fatal(err)
		}
		k := 0
		for {
			at := notice.AddTo(x.times(k).AddTo(end, 1), -1)
			if !at.Before(today) || (count != nil && k == *count) {
				break
			}
			k++
		}
		if got.Uses != k {
			t.Fatalf("%+v: uses %d, stepping finds %d", dl, got.Uses, k)
		}
	}
}
