package contracts

import (
	"errors"
	"fmt"
	"time"
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

// Deadline is what a notice date is computed from.
type Deadline struct {
	Type string
	// ResiliationDate is the date a (special) resiliation takes effect.
	ResiliationDate *time.Time
	// OptionsCount is how often an option or extension may be used (nil:
	// without limit).
	OptionsCount *int
	// Extension is how far one use moves the contract's end.
	Extension Period
	// Notice is the notice period.
	Notice Period
	// ContractEnd is the contract's end date before any option is used.
	ContractEnd *time.Time
}

// Notice is a computed notice date.
type Notice struct {
	// Date is the notice date; nil when it cannot be known (an option on a
	// contract without end date).
	Date *time.Time
	// Uses is how many uses of the option or extension the date counts
	// (k); 0 for resiliations.
	Uses int
	// Expired: every option is used up and the last notice date is past.
	Expired bool
}

// Errors of NoticeDate for deadlines that lack what their type needs.
var (
	ErrNoticePeriod    = errors.New("contracts: the notice period needs a unit")
	ErrExtension       = errors.New("contracts: an option needs an extension with a unit")
	ErrResiliationDate = errors.New("contracts: a resiliation needs its resiliation date")
	ErrOptionsCount    = errors.New("contracts: the options count is at least 1")
	ErrDeadlineType    = errors.New("contracts: unknown deadline type")
)

// NoticeDate computes the notice date of dl as of today.
//
// Resiliations: the resiliation date minus the notice period. Options and
// extensions: the term ends T0 (the contract's end) and each use moves it
// by the extension period X, Tk = T0 + k·X (applied in one step from T0);
// the notice date is Tk minus the notice period for the smallest k, 0 ≤ k
// ≤ C (the options count; unlimited when nil), that is today or later.
// When every option is used up it is TC minus the notice period, in the
// past, and the deadline is expired.
func NoticeDate(dl Deadline, today time.Time) (Notice, error) {
	if !dl.Notice.Valid() {
		return Notice{}, ErrNoticePeriod
	}
	today = Day(today)
	switch dl.Type {
	case TypeResiliation, TypeSpecialResiliation:
		if dl.ResiliationDate == nil {
			return Notice{}, ErrResiliationDate
		}
		d := dl.Notice.AddTo(Day(*dl.ResiliationDate), -1)
		return Notice{Date: &d}, nil
	case TypeActiveOption, TypeAutomaticOption, TypeAutomaticExtension:
		return optionNotice(dl, today)
	}
	return Notice{}, fmt.Errorf("%w: %q", ErrDeadlineType, dl.Type)
}

func optionNotice(dl Deadline, today time.Time) (Notice, error) {
	if !dl.Extension.Valid() {
		return Notice{}, ErrExtension
	}
	if dl.OptionsCount != nil && *dl.OptionsCount < 1 {
		return Notice{}, ErrOptionsCount
	}
	if dl.ContractEnd == nil {
		return Notice{}, nil
	}
	end := Day(*dl.ContractEnd)
	at := func(k int) time.Time {
		return dl.Notice.AddTo(dl.Extension.times(k).AddTo(end, 1), -1)
	}
	limit := -1 // unlimited
	if dl.OptionsCount != nil {
		limit = *dl.OptionsCount
	}
	if dl.Extension.Value == 0 {
		limit = 0 // every use ends where the last one did
	}
	k := firstUse(at, today, limit, dl.Extension)
	d := at(k)
	return Notice{Date: &d, Uses: k, Expired: d.Before(today)}, nil
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
