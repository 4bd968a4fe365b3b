// Package clock is the product's one source of the current time. Services
// take a `Now func() time.Time` for their tests; where none is given they
// use clock.Now, so that one switch moves every service's day at once.
//
// A normal build's Now is time.Now. A build with the tag `fakeclock` (tests
// only, never the shipped binary) starts the clock at the moment named by
// PORTFOLIO_FAKE_NOW and lets it run from there, so the suite can be run as
// if today were a month's last day or 29 February (scripts/test.sh).
package clock

import "time"

// offset is added to the machine's time; zero unless the fakeclock build
// sets it.
var offset time.Duration

// Now answers the current time: the machine's, moved by the fake clock's
// offset in a fakeclock build.
func Now() time.Time {
	if offset == 0 {
		return time.Now()
	}
	return time.Now().Add(offset)
}

// Today is Now's calendar day in UTC, at midnight.
func Today() time.Time {
	y, m, d := Now().UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
