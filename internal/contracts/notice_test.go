package contracts

import (
	"errors"
	"testing"
	"time"

	"portfolio/internal/platform/holidays"
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
		end     string // the end the notice is for
		uses    int
		expired bool
		err     error
	}{
		// Resiliations: resiliation date minus notice.
		{name: "resiliation 6 months from month end", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-12-31"), Notice: months(6)}, want: "2027-06-30", end: "2027-12-31"},
		{name: "resiliation 1 month from March 31", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-03-31"), Notice: months(1)}, want: "2027-02-28", end: "2027-03-31"},
		{name: "resiliation 1 year from leap day", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2028-02-29"), Notice: Period{1, UnitYear}}, want: "2027-02-28", end: "2028-02-29"},
		{name: "resiliation 3 months clamped", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-05-30"), Notice: months(3)}, want: "2027-02-28", end: "2027-05-30"},
		{name: "resiliation weeks", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-03-01"), Notice: Period{2, UnitWeek}}, want: "2027-02-15", end: "2027-03-01"},
		{name: "resiliation days across a year", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-01-10"), Notice: Period{20, UnitDay}}, want: "2026-12-21", end: "2027-01-10"},
		{name: "resiliation zero notice", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-01-10"), Notice: Period{0, UnitDay}}, want: "2027-01-10", end: "2027-01-10"},
		{name: "special resiliation in the past stays", dl: Deadline{Type: TypeSpecialResiliation, ResiliationDate: datePtr("2025-06-30"), Notice: months(3)}, want: "2025-03-31", end: "2025-06-30"},
		{name: "special resiliation two years", dl: Deadline{Type: TypeSpecialResiliation, ResiliationDate: datePtr("2029-08-31"), Notice: Period{2, UnitYear}}, want: "2027-08-31", end: "2029-08-31"},
		{name: "resiliation without date", dl: Deadline{Type: TypeResiliation, Notice: months(3)}, err: ErrResiliationDate},
		{name: "notice without unit", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-01-01"), Notice: Period{3, ""}}, err: ErrNoticePeriod},
		{name: "unknown type", dl: Deadline{Type: "sometime", Notice: months(1)}, err: ErrDeadlineType},

		// Options and extensions: Tk = T0 + k·X, notice Tk − notice period,
		// exactly C deadlines (k = 0 … C−1).
		{name: "option not yet due", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2028-12-31"), OptionsCount: intPtr(2), Extension: Period{5, UnitYear}, Notice: months(12)},
			want: "2027-12-31", end: "2028-12-31"},
		// An active option must be declared: its notice date passing without
		// the declaration ends the chain; the second option never comes.
		{name: "active option: first notice passed unexercised, the chain ends", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2027-03-31"), OptionsCount: intPtr(2), Extension: Period{5, UnitYear}, Notice: months(6)},
			want: "2026-09-30", end: "2027-03-31", expired: true},
		{name: "active option: first exercised, the second one's notice", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2027-03-31"), OptionsCount: intPtr(2), Exercised: 1, Extension: Period{5, UnitYear}, Notice: months(6)},
			want: "2031-09-30", end: "2032-03-31", uses: 1},
		{name: "active option: both exercised, nothing left", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2027-03-31"), OptionsCount: intPtr(2), Exercised: 2, Extension: Period{5, UnitYear}, Notice: months(6)},
			want: "2031-09-30", end: "2037-03-31", uses: 2, expired: true},
		{name: "active option, unlimited, exercised three times", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2015-12-31"), Exercised: 3, Extension: Period{5, UnitYear}, Notice: months(12)},
			want: "2029-12-31", end: "2030-12-31", uses: 3},
		{name: "active option exercised more often than it may be", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2027-03-31"), OptionsCount: intPtr(2), Exercised: 3, Extension: Period{5, UnitYear}, Notice: months(6)},
			err: ErrExercised},
		{name: "only active options are exercised", dl: Deadline{Type: TypeAutomaticOption, ContractEnd: datePtr("2027-03-31"), OptionsCount: intPtr(2), Exercised: 1, Extension: Period{5, UnitYear}, Notice: months(6)},
			err: ErrExercised},
		// Automatic options prolong unless someone objects: the next term's
		// notice date follows while options remain.
		{name: "automatic option: first notice passed, the second term counts", dl: Deadline{Type: TypeAutomaticOption, ContractEnd: datePtr("2027-03-31"), OptionsCount: intPtr(2), Extension: Period{5, UnitYear}, Notice: months(6)},
			want: "2031-09-30", end: "2032-03-31", uses: 1},
		{name: "option: notice today counts", dl: Deadline{Type: TypeAutomaticOption, ContractEnd: datePtr("2027-05-23"), OptionsCount: intPtr(1), Extension: Period{1, UnitYear}, Notice: months(6)},
			want: "2026-11-23", end: "2027-05-23"},
		{name: "one option, its notice yesterday: used up", dl: Deadline{Type: TypeAutomaticOption, ContractEnd: datePtr("2027-05-22"), OptionsCount: intPtr(1), Extension: Period{1, UnitYear}, Notice: months(6)},
			want: "2026-11-22", end: "2027-05-22", expired: true},
		// Issue 39: one 5-year option whose only deadline was 2025-12-31
		// showed an active deadline on 2030-12-31.
		{name: "one 5-year option, its only deadline passed", dl: Deadline{Type: TypeAutomaticOption, ContractEnd: datePtr("2026-06-30"), OptionsCount: intPtr(1), Extension: Period{5, UnitYear}, Notice: months(6)},
			want: "2025-12-31", end: "2026-06-30", expired: true},
		{name: "options used up: expired", dl: Deadline{Type: TypeAutomaticOption, ContractEnd: datePtr("2015-12-31"), OptionsCount: intPtr(2), Extension: Period{3, UnitYear}, Notice: months(6)},
			want: "2018-06-30", end: "2018-12-31", uses: 1, expired: true},
		{name: "one active option lapsed", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2020-01-31"), OptionsCount: intPtr(1), Extension: Period{2, UnitYear}, Notice: months(3)},
			want: "2019-10-31", end: "2020-01-31", expired: true},
		{name: "unlimited extension, monthly, from long ago", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("1995-01-31"), Extension: months(1), Notice: months(3)},
			want: "2026-11-30", end: "2027-02-28", uses: 385},
		{name: "unlimited extension by years", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("2010-12-31"), Extension: Period{1, UnitYear}, Notice: months(6)},
			want: "2027-06-30", end: "2027-12-31", uses: 17},
		{name: "unlimited extension from a leap day", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("2024-02-29"), Extension: Period{1, UnitYear}, Notice: Period{0, UnitDay}},
			want: "2027-02-28", end: "2027-02-28", uses: 3},
		{name: "k·X in one step keeps the 31st", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("2026-08-31"), Extension: months(6), Notice: Period{0, UnitDay}},
			want: "2027-02-28", end: "2027-02-28", uses: 1},
		{name: "k·X in one step, two uses", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("2026-01-30"), Extension: months(6), Notice: Period{0, UnitDay}},
			want: "2027-01-30", end: "2027-01-30", uses: 2},
		{name: "extension in weeks", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("2026-11-01"), Extension: Period{2, UnitWeek}, Notice: Period{1, UnitWeek}},
			want: "2026-12-06", end: "2026-12-13", uses: 3},
		{name: "extension in days", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("2026-11-20"), Extension: Period{10, UnitDay}, Notice: Period{3, UnitDay}},
			want: "2026-11-27", end: "2026-11-30", uses: 1},
		{name: "zero extension: no later term", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("2026-01-31"), Extension: Period{0, UnitMonth}, Notice: months(1)},
			want: "2025-12-31", end: "2026-01-31", expired: true},
		{name: "contract without end: no date", dl: Deadline{Type: TypeActiveOption, OptionsCount: intPtr(1), Extension: months(12), Notice: months(6)}},
		{name: "option without extension unit", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2030-01-01"), Extension: Period{1, ""}, Notice: months(6)}, err: ErrExtension},
		{name: "options count 0", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2030-01-01"), OptionsCount: intPtr(0), Extension: months(12), Notice: months(6)}, err: ErrOptionsCount},
		{name: "options count 3, the last term", dl: Deadline{Type: TypeAutomaticOption, ContractEnd: datePtr("2025-06-30"), OptionsCount: intPtr(3), Extension: Period{1, UnitYear}, Notice: months(3)},
			want: "2027-03-31", end: "2027-06-30", uses: 2},
		{name: "options count 3, all passed", dl: Deadline{Type: TypeAutomaticOption, ContractEnd: datePtr("2023-06-30"), OptionsCount: intPtr(3), Extension: Period{1, UnitYear}, Notice: months(3)},
			want: "2025-03-31", end: "2025-06-30", uses: 2, expired: true},
		{name: "notice in years from month end", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2029-04-30"), OptionsCount: intPtr(1), Extension: Period{5, UnitYear}, Notice: Period{2, UnitYear}},
			want: "2027-04-30", end: "2029-04-30"},
		{name: "notice in weeks", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2027-01-04"), OptionsCount: intPtr(1), Extension: Period{1, UnitYear}, Notice: Period{4, UnitWeek}},
			want: "2026-12-07", end: "2027-01-04"},

		// Notice to the end of a month, quarter, half-year, year: the
		// termination takes effect at the first such end on or after the
		// date named, the notice period counts back from there.
		{name: "to a month's end", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-04-15"), Notice: months(3), To: ToMonthEnd},
			want: "2027-01-31", end: "2027-04-30"},
		{name: "to a month's end, named on one", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-04-30"), Notice: months(3), To: ToMonthEnd},
			want: "2027-01-31", end: "2027-04-30"},
		{name: "to a quarter's end", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-11-02"), Notice: months(6), To: ToQuarterEnd},
			want: "2027-06-30", end: "2027-12-31"},
		{name: "to a quarter's end, leap February", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2028-05-31"), Notice: months(3), To: ToQuarterEnd},
			want: "2028-03-31", end: "2028-06-30"},
		{name: "to a half-year's end", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2028-01-01"), Notice: months(6), To: ToHalfYearEnd},
			want: "2027-12-31", end: "2028-06-30"},
		{name: "to a year's end", dl: Deadline{Type: TypeSpecialResiliation, ResiliationDate: datePtr("2027-02-01"), Notice: Period{12, UnitMonth}, To: ToYearEnd},
			want: "2026-12-31", end: "2027-12-31"},
		{name: "option to a quarter's end", dl: Deadline{Type: TypeActiveOption, ContractEnd: datePtr("2028-11-15"), OptionsCount: intPtr(1), Extension: Period{5, UnitYear}, Notice: months(6), To: ToQuarterEnd},
			want: "2028-06-30", end: "2028-12-31"},
		{name: "unknown notice end", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-01-01"), Notice: months(1), To: "week_end"}, err: ErrNoticeRule},
		{name: "unknown notice rule", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-01-01"), Notice: months(1), Rule: "oral"}, err: ErrNoticeRule},

		// § 580a Abs. 2 BGB: the third working day of the quarter before the
		// end's quarter (issue 39's required results).
		{name: "580a for 2027-12-31", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-12-31"), Rule: Rule580a},
			want: "2027-07-05", end: "2027-12-31"},
		{name: "580a for 2028-06-30", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2028-06-30"), Rule: Rule580a},
			want: "2028-01-05", end: "2028-06-30"},
		{name: "580a moves the end to the quarter's", dl: Deadline{Type: TypeResiliation, ResiliationDate: datePtr("2027-11-15"), Rule: Rule580a, Notice: months(1)},
			want: "2027-07-05", end: "2027-12-31"},
		{name: "580a on an automatic extension", dl: Deadline{Type: TypeAutomaticExtension, ContractEnd: datePtr("2020-12-31"), Extension: Period{1, UnitYear}, Rule: Rule580a},
			want: "2027-07-05", end: "2027-12-31", uses: 7},
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
			end := ""
			if n.End != nil {
				end = n.End.Format(time.DateOnly)
			}
			if got != c.want || end != c.end || n.Uses != c.uses || n.Expired != c.expired {
				t.Fatalf("got %q end %q uses %d expired %v, want %q end %q uses %d expired %v", got, end, n.Uses, n.Expired, c.want, c.end, c.uses, c.expired)
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
			if !at.Before(today) || (count != nil && k == *count-1) {
				break
			}
			k++
		}
		if got.Uses != k {
			t.Fatalf("%+v: uses %d, stepping finds %d", dl, got.Uses, k)
		}
	}
}

// TestNotice580a: § 580a Abs. 2 BGB for every quarter end from 2026 to
// 2031: the notice reaches the other party by the third working day of
// the quarter before. Working days exclude Sundays and the public holidays
// of the location's state (internal/platform/holidays); a Saturday counts
// unless it would be the third (BGH NJW 2005, 2154). Issue 39 requires
// 2027-12-31 → 2027-07-05 and 2028-06-30 → 2028-01-05; the others follow
// by hand from the calendars of kalender-365.de (feiertage.php?yy=…).
func TestNotice580a(t *testing.T) {
	cases := []struct {
		end, state, want, why string
	}{
		{"2026-09-30", "Berlin", "2026-04-07", "Good Friday 3 April, Saturday 4 would be the third, Easter Monday 6"},
		{"2027-06-30", "Berlin", "2027-01-05", "New Year on a Friday, Saturday 2 is the first"},
		{"2027-09-30", "Berlin", "2027-04-05", "Saturday 3 would be the third"},
		{"2027-12-31", "Berlin", "2027-07-05", "Saturday 3 would be the third"},
		{"2028-03-31", "Berlin", "2027-10-04", "Saturday 2 is the second, Sunday 3 October"},
		{"2028-06-30", "Berlin", "2028-01-05", "New Year on a Saturday"},
		{"2028-09-30", "Berlin", "2028-04-04", "Saturday 1 is the first"},
		{"2028-12-31", "Berlin", "2028-07-04", "Saturday 1 is the first"},
		{"2029-03-31", "Berlin", "2028-10-05", "Tag der Deutschen Einheit on a Tuesday"},
		{"2029-06-30", "Berlin", "2029-01-04", "New Year on a Monday"},
		{"2029-09-30", "Berlin", "2029-04-05", "Easter Sunday 1 April, Easter Monday 2"},
		{"2029-12-31", "Berlin", "2029-07-04", "Sunday 1 July"},
		{"2030-03-31", "Berlin", "2029-10-04", "Tag der Deutschen Einheit on a Wednesday"},
		{"2030-06-30", "Berlin", "2030-01-04", "New Year on a Tuesday"},
		{"2030-09-30", "Berlin", "2030-04-03", "Easter late (21 April)"},
		{"2030-12-31", "Berlin", "2030-07-03", "plain weekdays"},
		{"2031-03-31", "Berlin", "2030-10-04", "Tag der Deutschen Einheit on a Thursday"},
		// The state's holidays: Heilige Drei Könige (6 January) in
		// Bavaria, Baden-Württemberg and Saxony-Anhalt only.
		{"2031-06-30", "Berlin", "2031-01-06", "Saturday 4 would be the third"},
		{"2031-06-30", "Bayern", "2031-01-07", "and Monday 6 is Heilige Drei Könige"},
		{"2031-06-30", "Sachsen-Anhalt", "2031-01-07", "Heilige Drei Könige"},
		{"2031-06-30", "Hessen", "2031-01-06", "no Heilige Drei Könige"},
		{"2031-06-30", "", "2031-01-06", "unknown state: the nationwide holidays"},
	}
	for _, c := range cases {
		dl := Deadline{Type: TypeResiliation, ResiliationDate: datePtr(c.end), Rule: Rule580a, Workdays: holidays.NewCalendar(c.state)}
		n, err := NoticeDate(dl, date("2026-01-01"))
		if err != nil {
			t.Fatal(err)
		}
		if got := n.Date.Format(time.DateOnly); got != c.want || n.End.Format(time.DateOnly) != c.end {
			t.Errorf("%s in %q: notice %s for %s, want %s (%s)", c.end, c.state, got, n.End.Format(time.DateOnly), c.want, c.why)
		}
	}
}

// TestEndOf: the first end of a month, quarter, half-year or year on or
// after a date.
func TestEndOf(t *testing.T) {
	for _, c := range []struct{ d, to, want string }{
		{"2027-02-10", ToMonthEnd, "2027-02-28"}, {"2028-02-10", ToMonthEnd, "2028-02-29"}, {"2027-01-31", ToMonthEnd, "2027-01-31"},
		{"2027-01-01", ToQuarterEnd, "2027-03-31"}, {"2027-03-31", ToQuarterEnd, "2027-03-31"}, {"2027-04-01", ToQuarterEnd, "2027-06-30"},
		{"2027-12-01", ToQuarterEnd, "2027-12-31"}, {"2027-06-30", ToHalfYearEnd, "2027-06-30"}, {"2027-07-01", ToHalfYearEnd, "2027-12-31"},
		{"2027-01-01", ToYearEnd, "2027-12-31"}, {"2027-05-05", ToDate, "2027-05-05"}, {"2027-05-05", "", "2027-05-05"},
	} {
		if got := EndOf(date(c.d), c.to).Format(time.DateOnly); got != c.want {
			t.Errorf("EndOf(%s, %s) = %s, want %s", c.d, c.to, got, c.want)
		}
	}
}
