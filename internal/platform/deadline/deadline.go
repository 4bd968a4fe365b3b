// Package deadline holds the two traffic-light rules every screen shares:
// a contract deadline's light from its notice date (settings
// PORTFOLIO_DEADLINE_RED_DAYS and _YELLOW_DAYS) and a ticket's deadline
// status from its yellow and red deadlines. The contracts module, the
// engine's derived ticket_deadline_status and the dashboards all decide
// with these functions, so a figure on the dashboard and the badge in a
// list never disagree (decision 0019).
package deadline

import "time"

// Light is a contract deadline's traffic light.
type Light string

// Traffic lights.
const (
	LightRed    Light = "red"
	LightYellow Light = "yellow"
	LightGreen  Light = "green"
)

// Thresholds are the days before a notice date at which a deadline turns
// red and yellow (settings; 30 and 90 by default).
type Thresholds struct {
	Red, Yellow int
}

// DefaultThresholds are the traffic-light thresholds without settings.
var DefaultThresholds = Thresholds{Red: 30, Yellow: 90}

// Day is the calendar day of d at midnight UTC.
func Day(d time.Time) time.Time {
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
}

// LightOf is the traffic light of a notice date as of today: red within
// Red days or past, yellow within Yellow days, green otherwise.
func (t Thresholds) LightOf(notice, today time.Time) Light {
	days := int(Day(notice).Sub(Day(today)).Hours() / 24)
	switch {
	case days <= t.Red:
		return LightRed
	case days <= t.Yellow:
		return LightYellow
	}
	return LightGreen
}

// lightRank orders lights from none to red.
var lightRank = map[Light]int{"": 0, LightGreen: 1, LightYellow: 2, LightRed: 3}

// Worse is the worse of two lights, "" (no deadline ahead) being the best:
// a group of deadlines (a point of sale's, a map marker's) takes the colour
// of its most urgent one.
func Worse(a, b Light) Light {
	if lightRank[b] > lightRank[a] {
		return b
	}
	return a
}

// LastDays are the last notice days that are still red and still yellow as
// of today, LightOf's rule as date bounds for a query: a notice date up to
// red is red, up to yellow yellow, later green.
func (t Thresholds) LastDays(today time.Time) (red, yellow time.Time) {
	d := Day(today)
	return d.AddDate(0, 0, t.Red), d.AddDate(0, 0, t.Yellow)
}

// Ticket deadline statuses of open tickets.
const (
	BeforeDeadline = "before_deadline"
	CriticalYellow = "critical_yellow"
	OverDueRed     = "over_due_red"
)

// TicketStatuses are the ticket deadline statuses, least urgent first.
var TicketStatuses = []string{BeforeDeadline, CriticalYellow, OverDueRed}

// TicketStatus is an open ticket's deadline status at now: over_due_red
// from its red deadline on, critical_yellow from its yellow deadline on,
// before_deadline before. A closed ticket has none (the caller's
// concern). TicketStatusSQL is the same rule as SQL.
func TicketStatus(yellow, red, now time.Time) string {
	switch {
	case !red.After(now):
		return OverDueRed
	case !yellow.After(now):
		return CriticalYellow
	}
	return BeforeDeadline
}

// TicketStatusSQL renders TicketStatus over the columns yellow and red
// (and NULL when the closed column, if given, is 1) as a CASE expression
// with its two arguments (now, truncated to the second).
func TicketStatusSQL(yellow, red, closed string, now time.Time) (string, []any) {
	at := now.UTC().Truncate(time.Second)
	c := ""
	if closed != "" {
		c = "WHEN " + closed + " = 1 THEN NULL "
	}
	return "CASE " + c + "WHEN " + red + " <= ? THEN '" + OverDueRed + "' WHEN " + yellow +
		" <= ? THEN '" + CriticalYellow + "' ELSE '" + BeforeDeadline + "' END", []any{at, at}
}

// Due is a dated item a user answers for, as the daily digest and the
// calendar feed show it: a contract's notice date, a statement's
// objection deadline. Its texts are in the reader's language.
type Due struct {
	// Key names the item among every module's items
	// ("deadline/12", "statement/7/objection"): an announcement is
	// remembered by it, and a calendar event's identity is built from it.
	Key  string
	Date time.Time
	// Title says what is due, and of which record.
	Title string
	// Rule says how the date was found, in words.
	Rule string
	// Path is the record's page below the product's public URL.
	Path string
}
