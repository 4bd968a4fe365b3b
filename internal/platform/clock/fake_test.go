//go:build fakeclock

package clock

import (
	"os"
	"testing"
	"time"
)

// TestFakeClockStartsAtTheNamedDay runs only in the fakeclock build the
// date-shifted CI pass uses: its clock must say the day it was given.
func TestFakeClockStartsAtTheNamedDay(t *testing.T) {
	v := os.Getenv(FakeNowEnv)
	if v == "" {
		// Unset, the fakeclock build keeps the machine's time.
		if d := Now().Sub(time.Now()); d < -time.Second || d > time.Second {
			t.Fatalf("%s unset, but Now() is %s off the machine's time", FakeNowEnv, d)
		}
		return
	}
	want, err := parseFake(v)
	if err != nil {
		t.Fatal(err)
	}
	if got := Now(); got.Sub(want) < 0 || got.Sub(want) > time.Minute {
		t.Fatalf("Now() = %s, want about %s", got, want)
	}
	if got := Today().Format(time.DateOnly); got != want.UTC().Format(time.DateOnly) {
		t.Fatalf("Today() = %s, want %s", got, want.UTC().Format(time.DateOnly))
	}
}
