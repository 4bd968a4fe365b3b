package contracts

import (
	"errors"
	"fmt"
	"time"

	"portfolio/internal/platform/holidays"
)

// The notice date of a contract deadline: the last day on which the
// notice (or the declaration of an option) must reach the other party.
// The rules are in docs/decisions/0008-notice-dates.md; every function
// here works on calendar dates (UTC midnight) and never on clock times.

// Period units of notice periods and extensions.
const (
	UnitDay   = "day"
	UnitWeek  = "week"
	UnitMonth = "month"
	UnitYear  = "year"
)

// Deadline types.
const (
	TypeActiveOption       = "active_option"
	TypeAutomaticOption    = "automatic_option"
	TypeAutomaticExtension = "automatic_extension"
	TypeResiliation        = "resiliation"
	TypeSpecialResiliation = "special_resiliation"
)

// Period is a length of time in one unit: n days, weeks, months or years.
type Period struct {
	Value int
	Unit  string
}

// Valid reports whether p has a known unit and a value of at least 0.
func (p Period) Valid() bool {
	switch p.Unit {
	case UnitDay, UnitWeek, UnitMonth, UnitYear:
		return p.Value >= 0
	}
	return false
}

// times is k·p, one period k times as long.
func (p Period) times(k int) Period { return Period{Value: p.Value * k, Unit: p.Unit} }

// AddTo returns d moved by p (forwards for sign 1, backwards for -1).
// Weeks are 7 days and years 12 months; months keep the day of the month,
// clamped to the target month's length, and the last day of a month maps
// to the last day of the target month.
func (p Period) AddTo(d time.Time, sign int) time.Time {
	switch p.Unit {
	case UnitDay:
		return d.AddDate(0, 0, sign*p.Value)
	case UnitWeek:
		return d.AddDate(0, 0, sign*7*p.Value)
	case UnitYear:
		return AddMonths(d, sign*12*p.Value)
	default:
		return AddMonths(d, sign*p.Value)
	}
}

// AddMonths moves date d by n months (n < 0: backwards): the day of the
// month stays, clamped to the length of the target month, and the last
// day of a month becomes the last day of the target month.
func AddMonths(d time.Time, n int) time.Time {
	d = Day(d)
	first := time.Date(d.Year(), d.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, n, 0)
	last := lastDay(first)
	day := d.Day()
	if day == lastDay(d) || day > last {
		day = last
	}
	return time.Date(first.Year(), first.Month(), day, 0, 0, 0, 0, time.UTC)
}

// lastDay is the number of days of d's month.
func lastDay(d time.Time) int {
	return time.Date(d.Year(), d.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// Day is d's calendar date at UTC midnight.
func Day(d time.Time) time.Time {
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
}

// Notice rules (contractaction_notice_rule): how the notice date follows
// from the end the notice is for.
const (
	// RuleCalendar: the end minus the notice period, on calendar dates,
	// never shifted for weekends or holidays (§ 193 BGB does not apply to
	// notices: BGH NZM 2005, 391).
	RuleCalendar = "calendar"
	// Rule580a: § 580a Abs. 2 BGB, the notice reaches the other party by
	// the third working day of a calendar quarter for the end of the next
	// quarter.
	Rule580a = "statutory_580a"
)

// Ends a notice may be given to (contractaction_notice_to): the
// termination takes effect at the first such end on or after the date the
// deadline names.
const (
	ToDate        = "date"
	ToMonthEnd    = "month_end"
	ToQuarterEnd  = "quarter_end"
	ToHalfYearEnd = "half_year_end"
	ToYearEnd     = "year_end"
)

// Workdays tells working days (holidays.Calendar): neither Sundays nor
// public holidays.
type Workdays interface {
	Workday(d time.Time) bool
}

// Deadline is what a notice date is computed from.
type Deadline struct {
	Type string
	// ResiliationDate is the date a (special) resiliation is to take
	// effect (moved to the next end Notice To allows).
	ResiliationDate *time.Time
	// OptionsCount is how often an option or extension may be used (nil:
	// without limit).
	OptionsCount *int
	// Exercised is how many options of an active option were exercised.
	Exercised int
	// Extension is how far one use moves the contract's end.
	Extension Period
	// Notice is the notice period (not used by Rule580a).
	Notice Period
	// Rule is the notice rule (empty: RuleCalendar); To the end the notice
	// is given to (empty: ToDate).
	Rule, To string
	// Workdays are the location's working days, which Rule580a counts
	// (nil: the nationwide holidays only).
	Workdays Workdays
	// ContractEnd is the contract's end date before any option is used.
	ContractEnd *time.Time
}

// Notice is a computed notice date.
type Notice struct {
	// Date is the notice date; nil when it cannot be known (an option on a
	// contract without end date).
	Date *time.Time
	// End is the end the notice is for: the date a resiliation takes
	// effect, or the end of the term an option or extension would prolong
	// (after every active option was exercised: the end they reached).
	End *time.Time
	// Uses is how many uses of the option or extension come before this
	// deadline's term (k); 0 for resiliations.
	Uses int
	// Expired: no deadline is left to watch. Every option was used up (the
	// last notice date passed, or every active option was exercised), or
	// an active option was not exercised by its notice date, which ends
	// the chain.
	Expired bool
}

// Errors of NoticeDate for deadlines that lack what their type needs.
var (
	ErrNoticePeriod    = errors.New("contracts: the notice period needs a unit")
	ErrExtension       = errors.New("contracts: an option needs an extension with a unit")
	ErrResiliationDate = errors.New("contracts: a resiliation needs its resiliation date")
	ErrOptionsCount    = errors.New("contracts: the options count is at least 1")
	ErrExercised       = errors.New("contracts: only active options are exercised, at most as often as their options count")
	ErrDeadlineType    = errors.New("contracts: unknown deadline type")
	ErrNoticeRule      = errors.New("contracts: unknown notice rule or notice end")
)

// NoticeDate computes the notice date of dl as of today
// (docs/decisions/0008-notice-dates.md).
//
// Resiliations: the end E is the resiliation date, moved to the next end
// dl.To allows; the notice date is E minus the notice period, or with
// Rule580a the third working day of the quarter before E's quarter (E
// moved to a quarter's end first).
//
// Options and extensions: the term ends T0 (the contract's end) and each
// use moves it by the extension period X, Tk = T0 + k·X (applied in one
// step from T0), and each term's notice date follows from Tk as a
// resiliation's from E. There are exactly C deadlines, k = 0 … C−1 (C the
// options count; unlimited when nil). An active option must be declared:
// k is the number exercised, and when its notice date passes without the
// declaration the chain ends (expired); once all C are exercised nothing
// is left to watch (expired, End TC). Automatic options and extensions
// prolong unless someone objects: k is the smallest one whose notice date
// is today or later; when even k = C−1 has passed, they are used up
// (expired).
func NoticeDate(dl Deadline, today time.Time) (Notice, error) {
	if err := checkRule(dl); err != nil {
		return Notice{}, err
	}
	today = Day(today)
	switch dl.Type {
	case TypeResiliation, TypeSpecialResiliation:
		if dl.Exercised != 0 {
			return Notice{}, ErrExercised
		}
		if dl.ResiliationDate == nil {
			return Notice{}, ErrResiliationDate
		}
		d, end := noticeFor(dl, Day(*dl.ResiliationDate))
		return Notice{Date: &d, End: &end}, nil
	case TypeActiveOption, TypeAutomaticOption, TypeAutomaticExtension:
		return optionNotice(dl, today)
	}
	return Notice{}, fmt.Errorf("%w: %q", ErrDeadlineType, dl.Type)
}

// checkRule refuses an unknown rule or end, and a calendar notice without
// a period.
func checkRule(dl Deadline) error {
	switch dl.To {
	case "", ToDate, ToMonthEnd, ToQuarterEnd, ToHalfYearEnd, ToYearEnd:
	default:
		return fmt.Errorf("%w: %q", ErrNoticeRule, dl.To)
	}
	switch dl.Rule {
	case Rule580a:
		return nil
	case "", RuleCalendar:
		if !dl.Notice.Valid() {
			return ErrNoticePeriod
		}
		return nil
	}
	return fmt.Errorf("%w: %q", ErrNoticeRule, dl.Rule)
}

// noticeFor answers the notice date for a termination at end, and the end
// the termination takes effect (end moved to the next end the rules
// allow).
func noticeFor(dl Deadline, end time.Time) (notice, effective time.Time) {
	effective = EndOf(end, dl.To)
	if dl.Rule != Rule580a {
		return dl.Notice.AddTo(effective, -1), effective
	}
	effective = EndOf(effective, ToQuarterEnd)
	quarter := time.Date(effective.Year(), effective.Month()-2, 1, 0, 0, 0, 0, time.UTC) // the first day of E's quarter
	return ThirdWorkday(quarter.AddDate(0, -3, 0), dl.Workdays), effective
}

// EndOf is the first end of kind to (ToMonthEnd, ...) on or after d; d
// itself for ToDate.
func EndOf(d time.Time, to string) time.Time {
	months := 0 // the length of the periods whose ends count
	switch to {
	case ToMonthEnd:
		months = 1
	case ToQuarterEnd:
		months = 3
	case ToHalfYearEnd:
		months = 6
	case ToYearEnd:
		months = 12
	default:
		return d
	}
	m := int(d.Month()) + (months-int(d.Month())%months)%months // the period's last month
	return time.Date(d.Year(), time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC)
}

// ThirdWorkday is the third working day from first (the first day of a
// quarter) on: Sundays and holidays do not count, and a Saturday counts
// except as the third (BGH NJW 2005, 2154: the last day of a period is
// never a Saturday). Without w only the nationwide holidays count.
func ThirdWorkday(first time.Time, w Workdays) time.Time {
	if w == nil {
		w = holidays.NewCalendar("")
	}
	n := 0
	for d := first; ; d = d.AddDate(0, 0, 1) {
		if !w.Workday(d) || (n == 2 && d.Weekday() == time.Saturday) {
			continue
		}
		if n++; n == 3 {
			return d
		}
	}
}

func optionNotice(dl Deadline, today time.Time) (Notice, error) {
	if !dl.Extension.Valid() {
		return Notice{}, ErrExtension
	}
	if dl.OptionsCount != nil && *dl.OptionsCount < 1 {
		return Notice{}, ErrOptionsCount
	}
	if dl.Exercised < 0 || (dl.Exercised > 0 && dl.Type != TypeActiveOption) ||
		(dl.OptionsCount != nil && dl.Exercised > *dl.OptionsCount) {
		return Notice{}, ErrExercised
	}
	if dl.ContractEnd == nil {
		return Notice{}, nil
	}
	last := -1 // the last deadline's k; unlimited
	if dl.OptionsCount != nil {
		last = *dl.OptionsCount - 1
	}
	if dl.Extension.Value == 0 {
		last = 0 // every use ends where the last one did
	}
	at := func(k int) time.Time { d, _ := OptionNotice(dl, k); return d }
	k := dl.Exercised
	if dl.Type != TypeActiveOption {
		k = firstUse(at, today, last, dl.Extension)
	} else if last >= 0 && k > last {
		// Every option was exercised: the last deadline was met, and the
		// contract runs to the end the last option reached.
		d, _ := OptionNotice(dl, last)
		end := EndOf(dl.Extension.times(k).AddTo(Day(*dl.ContractEnd), 1), dl.To)
		return Notice{Date: &d, End: &end, Uses: k, Expired: true}, nil
	}
	d, end := OptionNotice(dl, k)
	return Notice{Date: &d, End: &end, Uses: k, Expired: d.Before(today)}, nil
}

// OptionNotice is the notice date of an option's or extension's term k
// (0: the contract's own end) and that term's end.
func OptionNotice(dl Deadline, k int) (notice, end time.Time) {
	return noticeFor(dl, dl.Extension.times(k).AddTo(Day(*dl.ContractEnd), 1))
}

// firstUse finds the smallest k (0 ≤ k, and k ≤ limit unless limit < 0)
// whose notice date at(k) is today or later, or limit when there is none.
// at is increasing in k; the search starts a little before the k the
// average length of X suggests, so old contracts with short extensions do
// not cost one step per period since their end.
func firstUse(at func(int) time.Time, today time.Time, limit int, x Period) int {
	k := 0
	if !at(0).Before(today) {
		return 0
	}
	if days := approxDays(x); days > 0 {
		k = max(int(today.Sub(at(0)).Hours()/24/days)-2, 0)
		for k > 0 && !at(k).Before(today) {
			k /= 2
		}
	}
	for {
		if limit >= 0 && k >= limit {
			return limit
		}
		if !at(k).Before(today) {
			return k
		}
		k++
	}
}

// approxDays is the average length of p in days.
func approxDays(p Period) float64 {
	switch p.Unit {
	case UnitDay:
		return float64(p.Value)
	case UnitWeek:
		return 7 * float64(p.Value)
	case UnitMonth:
		return 30.436875 * float64(p.Value)
	case UnitYear:
		return 365.2425 * float64(p.Value)
	}
	return 0
}
