package jobs

import (
	"fmt"
	"time"
)

// Schedule says when a periodic job runs. The queue runs a periodic job at
// most once per Period, however many instances share the database: River
// inserts it as a job unique within the period that contains its scheduled
// time (periods are counted from the Unix epoch in UTC).
type Schedule interface {
	// Next is the first run strictly after t.
	Next(t time.Time) time.Time
	// Period is the span within which the job runs at most once (at least
	// one second).
	Period() time.Duration
	// String describes the schedule for people ("daily at 03:00 UTC").
	String() string
}

// interval runs once every period, offset into it: aligned to the Unix
// epoch, so every instance and every restart computes the same times.
type interval struct {
	every  time.Duration
	offset time.Duration
}

// Every runs a job once every period (at least one second), at the
// multiples of period since the Unix epoch: Every(time.Hour) runs on the
// hour. Unlike a timer started with the process, a restart never delays a
// run nor skips one.
func Every(period time.Duration) Schedule { return interval{every: period} }

// DailyAt runs a job once a day at hour:minute UTC.
func DailyAt(hour, minute int) Schedule {
	return interval{every: 24 * time.Hour, offset: time.Duration(hour)*time.Hour + time.Duration(minute)*time.Minute}
}

func (s interval) Next(t time.Time) time.Time {
	next := t.UTC().Add(-s.offset).Truncate(s.every).Add(s.every).Add(s.offset)
	if !next.After(t) {
		next = next.Add(s.every)
	}
	return next
}

func (s interval) Period() time.Duration { return s.every }

func (s interval) String() string {
	if s.every == 24*time.Hour {
		return fmt.Sprintf("daily at %02d:%02d UTC", int(s.offset.Hours()), int(s.offset.Minutes())%60)
	}
	if s.offset == 0 {
		return "every " + s.every.String()
	}
	return fmt.Sprintf("every %s at +%s", s.every, s.offset)
}

// offsetOf is the schedule's offset into its period: when within each
// period it runs (for display).
func offsetOf(s Schedule) time.Duration {
	epoch := time.Unix(0, 0).UTC()
	return s.Next(epoch.Add(-time.Nanosecond)).Sub(epoch) % s.Period()
}
