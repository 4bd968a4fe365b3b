package deadline

import (
	"testing"
	"time"
)

func date(s string) time.Time {
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return d
}

func TestLightOf(t *testing.T) {
	today := date("2026-11-23")
	cases := map[string]Light{
		"2026-11-22": LightRed, "2026-11-23": LightRed, "2026-12-23": LightRed,
		"2026-12-24": LightYellow, "2027-02-21": LightYellow, "2027-02-22": LightGreen,
	}
	for d, want := range cases {
		if got := DefaultThresholds.LightOf(date(d), today); got != want {
			t.Errorf("%s: %s, want %s", d, got, want)
		}
	}
	// LastDays are LightOf's bounds: the last red and yellow days and the
	// day after each.
	red, yellow := DefaultThresholds.LastDays(today.Add(13 * time.Hour))
	for _, c := range []struct {
		d    time.Time
		want Light
	}{{red, LightRed}, {red.AddDate(0, 0, 1), LightYellow}, {yellow, LightYellow}, {yellow.AddDate(0, 0, 1), LightGreen}} {
		if got := DefaultThresholds.LightOf(c.d, today); got != c.want {
			t.Errorf("bound %s: %s, want %s", c.d.Format(time.DateOnly), got, c.want)
		}
	}
}

func TestTicketStatus(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	yellow, red := now.Add(-time.Hour), now.Add(time.Hour)
	cases := []struct {
		y, r time.Time
		want string
	}{
		{now.Add(time.Minute), now.Add(2 * time.Hour), BeforeDeadline},
		{yellow, red, CriticalYellow},
		{now, red, CriticalYellow},
		{yellow, now, OverDueRed},
		{yellow.Add(-time.Hour), yellow, OverDueRed},
	}
	for _, c := range cases {
		if got := TicketStatus(c.y, c.r, now); got != c.want {
			t.Errorf("yellow %s red %s: %s, want %s", c.y, c.r, got, c.want)
		}
	}
	sql, args := TicketStatusSQL("t.y", "t.r", "t.c", now)
	if want := "CASE WHEN t.c = 1 THEN NULL WHEN t.r <= ? THEN 'over_due_red' WHEN t.y <= ? THEN 'critical_yellow' ELSE 'before_deadline' END"; sql != want || len(args) != 2 {
		t.Errorf("sql %q %v", sql, args)
	}
}
