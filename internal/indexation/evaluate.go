package indexation

import (
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
)

// Month is a calendar month counted from year 0 (year*12 + month-1), so
// months compare and step as integers.
type Month int

// MonthOf is the month of a date.
func MonthOf(t time.Time) Month { return Month(t.Year()*12 + int(t.Month()) - 1) }

// ParseMonth reads YYYY-MM.
func ParseMonth(s string) (Month, error) {
	t, err := time.Parse("2006-01", s)
	if err != nil || len(s) != 7 {
		return 0, fmt.Errorf("indexation: month %q is not YYYY-MM", s)
	}
	return MonthOf(t), nil
}

// Year is the month's year.
func (m Month) Year() int { return int(m) / 12 }

// String is YYYY-MM.
func (m Month) String() string { return fmt.Sprintf("%04d-%02d", int(m)/12, int(m)%12+1) }

// First is the first day of the month.
func (m Month) First() time.Time {
	return time.Date(int(m)/12, time.Month(int(m)%12+1), 1, 0, 0, 0, 0, time.UTC)
}

// Series is a price index series' monthly values as published: value i
// belongs to month First+i; months not published are missing (Has false).
type Series struct {
	BaseYear int
	First    Month
	Values   []decimal.Decimal
	Has      []bool
	// scaled are the values × 10⁴ as integers (nil when a value does not
	// fit): the walk compares them without allocating (rule 3 is the same
	// comparison, exactly, on integers).
	scaled []int64
}

// scale is 10⁴: the values have at most 4 decimals.
const scale = 10000

// maxScaled bounds scaled values and thresholds so that the products of
// the threshold test stay far inside int64.
const maxScaled = 1_000_000_000

// scaleOf is d × 10⁴ as an integer, if exact and within maxScaled.
func scaleOf(d decimal.Decimal) (int64, bool) {
	x := d.Shift(4)
	if !x.IsInteger() || x.Abs().GreaterThan(decimal.NewFromInt(maxScaled)) {
		return 0, false
	}
	return x.IntPart(), true
}

// withScaled fills s.scaled when every value fits.
func (s *Series) withScaled() *Series {
	scaled := make([]int64, len(s.Values))
	for i, v := range s.Values {
		if !s.Has[i] {
			continue
		}
		n, ok := scaleOf(v)
		if !ok {
			return s
		}
		scaled[i] = n
	}
	s.scaled = scaled
	return s
}

// NewSeries builds a series from month → value.
func NewSeries(baseYear int, values map[Month]decimal.Decimal) *Series {
	s := &Series{BaseYear: baseYear}
	if len(values) == 0 {
		return s
	}
	first, last := Month(1<<30), Month(-1)
	for m := range values {
		first, last = min(first, m), max(last, m)
	}
	s.First = first
	s.Values = make([]decimal.Decimal, last-first+1)
	s.Has = make([]bool, last-first+1)
	for m, v := range values {
		s.Values[m-first], s.Has[m-first] = v, true
	}
	return s.withScaled()
}

// Value is the value of month m and whether it is published.
func (s *Series) Value(m Month) (decimal.Decimal, bool) {
	i := int(m - s.First)
	if i < 0 || i >= len(s.Values) || !s.Has[i] {
		return decimal.Decimal{}, false
	}
	return s.Values[i], true
}

// Last is the last published month (ok false for an empty series).
func (s *Series) Last() (Month, bool) {
	for i := len(s.Has) - 1; i >= 0; i-- {
		if s.Has[i] {
			return s.First + Month(i), true
		}
	}
	return 0, false
}

// MissingMonthError is a month whose value a clause needs and the series
// does not have (422 on run, naming the month).
type MissingMonthError struct {
	Month Month
	// Why says what the month is needed for: "reference" or "rebase".
	Why string
}

func (e *MissingMonthError) Error() string {
	return fmt.Sprintf("indexation: no index value for %s (%s)", e.Month, e.Why)
}

var (
	hundred  = decimal.NewFromInt(100)
	twelve00 = decimal.NewFromInt(1200)
)

// Rebase is rule 1 of decision 0011: the series expressed in base year
// year, each value × 100 / (average of the 12 monthly values of year),
// rounded to one decimal half up. A series already in year is returned as
// published. All twelve months of year must be published.
func Rebase(s *Series, year int) (*Series, error) {
	if year == s.BaseYear {
		return s, nil
	}
	sum := decimal.Zero
	for m := Month(year * 12); m < Month(year*12+12); m++ {
		v, ok := s.Value(m)
		if !ok {
			return nil, &MissingMonthError{Month: m, Why: "rebase"}
		}
		sum = sum.Add(v)
	}
	if !sum.IsPositive() {
		return nil, fmt.Errorf("indexation: the values of %d sum to %s", year, sum)
	}
	out := &Series{BaseYear: year, First: s.First, Values: make([]decimal.Decimal, len(s.Values)), Has: s.Has}
	for i, v := range s.Values {
		if s.Has[i] {
			// v × 100 / (sum / 12) = v × 1200 / sum; DivRound rounds half
			// away from zero, which is half up for these positive values.
			out.Values[i] = v.Mul(twelve00).DivRound(sum, 1)
		}
	}
	return out.withScaled(), nil
}

// Clause is what the evaluation reads of an index clause. Its zero value
// of every wording field (Rounds, MoreThan, MinMonths, ScheduleMonths,
// MaxPercent, MinRentPercent, UpwardOnly) is the rule before the clause
// could word them (decision 0011).
type Clause struct {
	// Transmission is indextransmission_percent.
	Transmission decimal.Decimal
	// InPercent is change_in_percent: the threshold is MinPercent, else
	// MinPoints.
	InPercent bool
	// MinPercent and MinPoints are the thresholds; nil when empty.
	MinPercent, MinPoints *decimal.Decimal
	// Rounds says the rate of change is rounded half up to Decimals
	// places before the threshold test and before it is applied
	// (indexclause_percent_decimals).
	Rounds   bool
	Decimals int32
	// MoreThan is indexclause_threshold_rule more_than: a change equal to
	// the threshold does not adjust.
	MoreThan bool
	// MinMonths is indexclause_min_months: a change takes effect at least
	// that many months after the last one (0: none).
	MinMonths int
	// ScheduleMonths is indexclause_schedule_months: changes take effect
	// only every that many months from Begin (0: any month).
	ScheduleMonths int
	// Begin is the month of indexclause_begin_date (the schedule's start).
	Begin Month
	// MaxPercent and MinRentPercent bound the rent's change of one
	// adjustment in percent (indexclause_max_percent, _min_percent); nil
	// when empty.
	MaxPercent, MinRentPercent *decimal.Decimal
	// UpwardOnly is indexclause_upward_only: decreases are not applied
	// (such a clause may be void, § 2 Abs. 3 PrKlG).
	UpwardOnly bool
}

// Bounds are what limits a chain besides its clause, in months a change
// takes effect in (the 1st of the month after the compared month): Since
// is when the amount the walk starts from took effect (MinMonths count
// from it), From and To the first and last month a change may take effect
// in (To 0: no end), the payment's and its contract's life.
type Bounds struct {
	Since, From, To Month
}

// Proposal is one adjustment of a chain (rule 4).
type Proposal struct {
	Reference, Current           Month
	ReferenceValue, CurrentValue decimal.Decimal
	// ChangePoints and ChangePercent are rounded to 2 decimals for
	// storage; the computation used the unrounded values (or the rate
	// rounded as the clause says).
	ChangePoints, ChangePercent decimal.Decimal
	OldAmount, NewAmount        decimal.Decimal
	// Effective is the first day of the month after Current.
	Effective time.Time
	// rate, since and first are what Clause.RuleOf needs to say how the
	// clause produced it: the rate as tested, the month the amount took
	// effect, whether it takes effect in the first month the bounds allow.
	rate  Rate
	since Month
	first bool
}

// ErrNoValue is returned for a series value that is not positive.
var ErrNoValue = errors.New("indexation: an index value must be positive")

// Evaluate is EvaluateWithin without bounds: the amount took effect in
// the reference month and changes may take effect in any month.
func Evaluate(s *Series, c Clause, ref Month, amount decimal.Decimal, skip func(ref, current Month) bool) ([]Proposal, error) {
	return EvaluateWithin(s, c, ref, amount, Bounds{Since: ref}, skip)
}

// EvaluateWithin is rules 2–5 of decision 0011, a pure function: it walks
// the published months of s (as the clause compares them, see
// ComparedBaseYear) after the reference month ref, starting from amount,
// and answers the chain of adjustments the clause yields within b. skip,
// when not nil, names months that count as threshold not met from a
// reference (a rejected proposal: decision 0011). The reference month must
// be published (MissingMonthError otherwise).
func EvaluateWithin(s *Series, c Clause, ref Month, amount decimal.Decimal, b Bounds, skip func(ref, current Month) bool) ([]Proposal, error) {
	vr, ok := s.Value(ref)
	if !ok {
		return nil, &MissingMonthError{Month: ref, Why: "reference"}
	}
	if !vr.IsPositive() {
		return nil, ErrNoValue
	}
	last, _ := s.Last()
	if b.To != 0 {
		last = min(last, b.To-1)
	}
	threshold, fast := c.scaledThreshold()
	fast = fast && s.scaled != nil
	since := b.Since
	var out []Proposal
	for m := ref + 1; m <= last; m++ {
		i := int(m - s.First)
		if !s.Has[i] || !c.allows(m+1, since, b) {
			continue // not published or not allowed: the walk goes on with the next month
		}
		if fast && !c.metScaled(s.scaled[i]-s.scaled[ref-s.First], s.scaled[ref-s.First], threshold) {
			continue
		}
		vm := s.Values[i]
		rate, ok := c.test(vm.Sub(vr), vr)
		if !ok || (skip != nil && skip(ref, m)) {
			continue
		}
		p := c.propose(ref, m, vr, vm, amount, rate)
		p.rate, p.since, p.first = rate, since, m+1 == b.From && b.From > ref+1
		out = append(out, p)
		ref, vr, amount, since = m, vm, p.NewAmount, m+1
	}
	return out, nil
}

// allows reports whether a change may take effect in month e: within the
// bounds, MinMonths after since, on the schedule.
func (c Clause) allows(e, since Month, b Bounds) bool {
	if e < b.From || (c.MinMonths > 0 && e < since+Month(c.MinMonths)) {
		return false
	}
	return c.ScheduleMonths <= 0 || (e > c.Begin && int(e-c.Begin)%c.ScheduleMonths == 0)
}

// Rate is a rate of change as the clause applies it: Num/Den percent,
// exact (Den positive); Rounded when the clause rounds it.
type Rate struct {
	Num, Den decimal.Decimal
	Rounded  bool
}

// test is rule 3's threshold on diff = v(m) − v(ref): whether the change
// adjusts, and the rate of change it is applied with (the percentage,
// rounded as the clause says). An empty or zero threshold is met by any
// change other than zero (after rounding); an upward-only clause ignores
// decreases.
func (c Clause) test(diff, vr decimal.Decimal) (Rate, bool) {
	rate := Rate{Num: diff.Mul(hundred), Den: vr}
	if c.Rounds {
		rate = Rate{Num: rate.Num.DivRound(vr, c.Decimals), Den: one, Rounded: true}
	}
	if rate.Num.IsZero() || (c.UpwardOnly && rate.Num.IsNegative()) {
		return rate, false
	}
	threshold := c.MinPoints
	if c.InPercent {
		threshold = c.MinPercent
	}
	if threshold == nil || threshold.IsZero() {
		return rate, true
	}
	// |Q| against the threshold without dividing: |Num| against t × Den.
	have, want := rate.Num.Abs(), threshold.Abs().Mul(rate.Den)
	if !c.InPercent {
		have, want = diff.Abs(), threshold.Abs()
	}
	cmp := have.Cmp(want)
	return rate, cmp > 0 || (cmp == 0 && !c.MoreThan)
}

var one = decimal.NewFromInt(1)

// propose is rule 4: new = old × (1 + r/100) with r = transmission × Q /
// 100, bounded by the clause's cap and floor, as one exact quotient
// rounded to cents half away from zero.
func (c Clause) propose(ref, m Month, vr, vm, amount decimal.Decimal, q Rate) Proposal {
	num, den, _ := c.rentRate(q)
	diff := vm.Sub(vr)
	return Proposal{
		Reference: ref, Current: m, ReferenceValue: vr, CurrentValue: vm,
		ChangePoints:  diff.Round(2),
		ChangePercent: diff.Mul(hundred).DivRound(vr, 2),
		OldAmount:     amount,
		NewAmount:     amount.Mul(den.Mul(hundred).Add(num)).DivRound(den.Mul(hundred), 2),
		Effective:     (m + 1).First(),
	}
}

// rentRate is the rent's change of rate q in percent, num/den: the
// transmitted share (transmission × Q / 100), set to the cap or the floor
// when beyond it (bound "max" or "min").
func (c Clause) rentRate(q Rate) (num, den decimal.Decimal, bound string) {
	num, den = c.Transmission.Mul(q.Num), q.Den.Mul(hundred)
	if c.MaxPercent != nil && num.GreaterThan(c.MaxPercent.Mul(den)) {
		return *c.MaxPercent, one, "max"
	}
	if c.MinRentPercent != nil && num.LessThan(c.MinRentPercent.Mul(den)) {
		return *c.MinRentPercent, one, "min"
	}
	return num, den, ""
}

// scaledThreshold is the clause's threshold × 10⁴ (0: any change), and
// whether it fits the integer test. A rounding clause is tested against
// the threshold less one unit of its last decimal: a rate rounded up to
// the threshold is at least that.
func (c Clause) scaledThreshold() (int64, bool) {
	threshold := c.MinPoints
	if c.InPercent {
		threshold = c.MinPercent
	}
	if threshold == nil {
		return 0, true
	}
	t := threshold.Abs()
	if c.Rounds && c.InPercent {
		t = decimal.Max(decimal.Zero, t.Sub(decimal.New(1, -c.Decimals)))
	}
	n, ok := scaleOf(t)
	return n, ok && n <= 100*maxScaled/scale
}

// metScaled is a necessary condition of test on values and threshold ×
// 10⁴: |d| × 100 × 10⁴ ≥ t × vr for percent, |d| ≥ t for points (at most
// 10¹⁵ on either side).
func (c Clause) metScaled(d, vr, t int64) bool {
	if d == 0 || (c.UpwardOnly && d < 0) {
		return false
	}
	if d < 0 {
		d = -d
	}
	if t == 0 {
		return true
	}
	if c.InPercent {
		return d*100*scale >= t*vr
	}
	return d >= t
}

// ComparedBaseYear is the base year a clause compares the series in
// (rule 1): a percent clause compares the published values whatever base
// year it names (a percentage does not depend on the base); a point
// clause its own base year.
func ComparedBaseYear(inPercent bool, clauseYear, seriesYear int) int {
	if inPercent {
		return seriesYear
	}
	return clauseYear
}
