package clock

import (
	"testing"
	"time"
)

func TestTodayIsMidnightUTCOfNow(t *testing.T) {
	d := Today()
	if d.Hour() != 0 || d.Minute() != 0 || d.Location() != time.UTC {
		t.Fatalf("Today() = %s", d)
	}
	if n := Now().UTC(); n.Sub(d) < 0 || n.Sub(d) >= 24*time.Hour {
		t.Fatalf("Today() %s is not the day of Now() %s", d, n)
	}
}
