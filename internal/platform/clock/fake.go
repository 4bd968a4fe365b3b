//go:build fakeclock

package clock

import (
	"fmt"
	"os"
	"time"
)

// FakeNowEnv names the moment a fakeclock build starts its clock at:
// RFC 3339 ("2027-02-28T09:30:00Z") or a date ("2028-02-29", 09:00 UTC).
const FakeNowEnv = "PORTFOLIO_FAKE_NOW"

func init() {
	v := os.Getenv(FakeNowEnv)
	if v == "" {
		return
	}
	start, err := parseFake(v)
	if err != nil {
		panic(fmt.Sprintf("clock: %s=%q: %v", FakeNowEnv, v, err))
	}
	offset = time.Until(start)
	if offset == 0 {
		offset = time.Nanosecond
	}
}

func parseFake(v string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	d, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("neither RFC 3339 nor a date: %w", err)
	}
	return d.Add(9 * time.Hour), nil
}
