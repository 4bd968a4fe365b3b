package contracts

import (
	"testing"
	"time"
)

// parseDay agrees with time.Parse(time.DateOnly) on what it accepts and
// leaves everything else to it.
func TestParseDayAgreesWithTimeParse(t *testing.T) {
	for _, s := range []string{"2027-12-31", "2028-02-29", "0001-01-01", "9999-12-31",
		"2027-02-29", "2027-02-30", "2027-13-01", "2027-00-10", "2027-01-00", "2027-1-01", "20271231", "2027-12-3x", "", "2027-12-31T00"} {
		got, ok := parseDay(s)
		want, err := time.Parse(time.DateOnly, s)
		if ok != (err == nil) {
			t.Errorf("parseDay(%q): ok %v, time.Parse error %v", s, ok, err)
			continue
		}
		if ok && !got.Equal(want) {
			t.Errorf("parseDay(%q) = %v, want %v", s, got, want)
		}
	}
}
