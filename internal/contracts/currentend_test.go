package contracts

import (
	"testing"
	"time"
)

// TestCurrentEnd: the end a contract runs to now is its agreed end moved
// by the options exercised and the automatic extensions made, counted once
// from the agreed end (decision 0064).
func TestCurrentEnd(t *testing.T) {
	two, one := 2, 1
	option := func(end string, exercised int) Deadline {
		return Deadline{Type: TypeActiveOption, OptionsCount: &two, Exercised: exercised, ContractEnd: datePtr(end),
			Extension: Period{Value: 5, Unit: UnitYear}, Notice: Period{Value: 12, Unit: UnitMonth}}
	}
	yearly := func(end string, count *int) Deadline {
		return Deadline{Type: TypeAutomaticExtension, OptionsCount: count, ContractEnd: datePtr(end),
			Extension: Period{Value: 1, Unit: UnitYear}, Notice: Period{Value: 3, Unit: UnitMonth}}
	}
	withTo := func(dl Deadline, to string) Deadline { dl.To = to; return dl }
	cases := []struct {
		name      string
		end       string // the agreed end
		deadlines []Deadline
		today     string
		want      string
	}{
		{"no deadline", "2027-12-31", nil, "2026-12-03", "2027-12-31"},
		{"an option not exercised", "2027-12-31", []Deadline{option("2027-12-31", 0)}, "2026-12-03", "2027-12-31"},
		{"1 of 2 options of 5 years exercised", "2027-12-31", []Deadline{option("2027-12-31", 1)}, "2026-12-03", "2032-12-31"},
		{"the exercise undone", "2027-12-31", []Deadline{option("2027-12-31", 0)}, "2026-12-03", "2027-12-31"},
		{"the end date edited: the current end follows", "2028-06-30", []Deadline{option("2028-06-30", 1)}, "2026-12-03", "2033-06-30"},
		{"both options exercised", "2027-12-31", []Deadline{option("2027-12-31", 2)}, "2026-12-03", "2037-12-31"},
		{"the second option lapsed: the end the first reached", "2027-12-31", []Deadline{option("2027-12-31", 1)}, "2032-06-01", "2032-12-31"},
		{"the first option lapsed", "2027-12-31", []Deadline{option("2027-12-31", 0)}, "2027-06-01", "2027-12-31"},
		{"exercised to a year's end", "2027-06-30", []Deadline{withTo(option("2027-06-30", 1), ToYearEnd)}, "2026-12-03", "2032-12-31"},
		{"an automatic extension before its first notice date", "2027-12-31", []Deadline{yearly("2027-12-31", nil)}, "2027-09-30", "2027-12-31"},
		{"an automatic extension that prolonged once", "2027-12-31", []Deadline{yearly("2027-12-31", nil)}, "2027-10-01", "2028-12-31"},
		{"an automatic extension that prolonged for years", "2019-12-31", []Deadline{yearly("2019-12-31", nil)}, "2026-12-03", "2027-12-31"},
		{"two automatic extensions used up: one term past the last notice", "2027-12-31", []Deadline{yearly("2027-12-31", &two)}, "2030-01-01", "2029-12-31"},
		{"one automatic extension used up", "2027-12-31", []Deadline{yearly("2027-12-31", &one)}, "2028-01-01", "2028-12-31"},
		{"a resiliation moves nothing", "2027-12-31", []Deadline{{Type: TypeResiliation, ResiliationDate: datePtr("2029-12-31"),
			Notice: Period{Value: 6, Unit: UnitMonth}}}, "2026-12-03", "2027-12-31"},
		{"the latest of several", "2027-12-31", []Deadline{option("2027-12-31", 1), yearly("2027-12-31", nil)}, "2029-01-01", "2032-12-31"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var reached []*time.Time
			for _, dl := range c.deadlines {
				n, err := NoticeDate(dl, date(c.today))
				if err != nil {
					t.Fatal(err)
				}
				reached = append(reached, ReachedEnd(dl, n))
			}
			if got := CurrentEnd(datePtr(c.end), reached...); got == nil || got.Format(time.DateOnly) != c.want {
				t.Fatalf("current end %v, want %s", got, c.want)
			}
		})
	}
	if CurrentEnd(nil) != nil {
		t.Error("a contract without an end date has a current end")
	}
}

// TestReachedEndOfStoredValues: the end a deadline reached, read back
// from its stored derived values, is the one computed.
func TestReachedEndOfStoredValues(t *testing.T) {
	two := 2
	dl := Deadline{Type: TypeAutomaticOption, OptionsCount: &two, ContractEnd: datePtr("2027-12-31"),
		Extension: Period{Value: 1, Unit: UnitYear}, Notice: Period{Value: 3, Unit: UnitMonth}}
	for _, today := range []string{"2027-01-01", "2028-01-01", "2030-01-01"} {
		n, err := NoticeDate(dl, date(today))
		if err != nil {
			t.Fatal(err)
		}
		rec := derivedValues(n)
		rec["contractaction_type"], rec["contractaction_options_count"] = dl.Type, int64(2)
		rec["contractaction_extension_value"], rec["contractaction_extension_unit"] = int64(1), UnitYear
		rec["contractaction_notice_period_value"], rec["contractaction_notice_period_unit"] = int64(3), UnitMonth
		rec[fieldStatus] = StatusActive
		if got, want := deadlineReached(rec, dl.ContractEnd), ReachedEnd(dl, n); !sameDay(got, want) {
			t.Errorf("%s: stored %v, computed %v", today, got, want)
		}
		rec[fieldStatus] = StatusCancelled
		if got := deadlineReached(rec, dl.ContractEnd); got != nil {
			t.Errorf("%s: a cancelled deadline reached %v", today, got)
		}
	}
}
