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

// Clause is what the evaluation reads of an index clause.
type Clause struct {
	// Transmission is indextransmission_percent.
	Transmission decimal.Decimal
	// InPercent is change_in_percent: the threshold is MinPercent, else
	// MinPoints.
	InPercent bool
	// MinPercent and MinPoints are the thresholds; nil when empty.
	MinPercent, MinPoints *decimal.Decimal
}

// Proposal is one adjustment of a chain (rule 4).
type Proposal struct {
	Reference, Current           Month
	ReferenceValue, CurrentValue decimal.Decimal
	// ChangePoints and ChangePercent are rounded to 2 decimals for
	// storage; the computation used the unrounded values.
	ChangePoints, ChangePercent decimal.Decimal
	OldAmount, NewAmount        decimal.Decimal
	// Effective is the first day of the month after Current.
	Effective time.Time
}

// ErrNoValue is returned for a series value that is not positive.
var ErrNoValue = errors.New("indexation: an index value must be positive")

// Evaluate is rules 2–4 of decision 0011, a pure function: it walks the
// published months of s (already in the clause's base year, see Rebase)
// after the reference month ref, starting from amount, and answers the
// chain of adjustments the clause yields. skip, when not nil, names
// months that count as threshold not met from a reference (a rejected
// proposal: decision 0011). The reference month must be published
// (MissingMonthError otherwise).
func Evaluate(s *Series, c Clause, ref Month, amount decimal.Decimal, skip func(ref, current Month) bool) ([]Proposal, error) {
	vr, ok := s.Value(ref)
	if !ok {
		return nil, &MissingMonthError{Month: ref, Why: "reference"}
	}
	if !vr.IsPositive() {
		return nil, ErrNoValue
	}
	last, _ := s.Last()
	threshold, fast := c.scaledThreshold()
	fast = fast && s.scaled != nil
	var out []Proposal
	for m := ref + 1; m <= last; m++ {
		i := int(m - s.First)
		if !s.Has[i] {
			continue // not published: the walk goes on with the next month
		}
		if fast && !c.metScaled(s.scaled[i]-s.scaled[ref-s.First], s.scaled[ref-s.First], threshold) {
			continue
		}
		vm := s.Values[i]
		diff := vm.Sub(vr)
		if !c.met(diff, vr) || (skip != nil && skip(ref, m)) {
			continue
		}
		denominator := vr.Mul(hundred)
		// new = old × (1 + t/100 × Q/100) with Q/100 = (vm − vr)/vr, as one
		// exact quotient rounded to cents half away from zero.
		newAmount := amount.Mul(denominator.Add(c.Transmission.Mul(diff))).DivRound(denominator, 2)
		out = append(out, Proposal{
			Reference: ref, Current: m, ReferenceValue: vr, CurrentValue: vm,
			ChangePoints:  diff.Round(2),
			ChangePercent: diff.Mul(hundred).DivRound(vr, 2),
			OldAmount:     amount, NewAmount: newAmount,
			Effective: (m + 1).First(),
		})
		ref, vr, amount = m, vm, newAmount
	}
	return out, nil
}

// met is rule 3's threshold: |Q| ≥ minimal percent change (Q = diff/vr ×
// 100, compared without dividing: |diff| × 100 ≥ threshold × vr) or |P| ≥
// minimal point change; an empty or zero threshold is met by any change
// other than zero.
func (c Clause) met(diff, vr decimal.Decimal) bool {
	if diff.IsZero() {
		return false
	}
	threshold := c.MinPoints
	if c.InPercent {
		threshold = c.MinPercent
	}
	if threshold == nil || threshold.IsZero() {
		return true
	}
	if c.InPercent {
		return diff.Abs().Mul(hundred).GreaterThanOrEqual(threshold.Abs().Mul(vr))
	}
	return diff.Abs().GreaterThanOrEqual(threshold.Abs())
}

// scaledThreshold is the clause's threshold × 10⁴ (0: any change), and
// whether it fits the integer test.
func (c Clause) scaledThreshold() (int64, bool) {
	threshold := c.MinPoints
	if c.InPercent {
		threshold = c.MinPercent
	}
	if threshold == nil {
		return 0, true
	}
	n, ok := scaleOf(threshold.Abs())
	return n, ok && n <= 100*maxScaled/scale
}

// metScaled is met on values and threshold × 10⁴: |d| × 100 × 10⁴ ≥ t × vr
// for percent, |d| ≥ t for points (at most 10¹⁵ on either side).
func (c Clause) metScaled(d, vr, t int64) bool {
	if d == 0 {
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
