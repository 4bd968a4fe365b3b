// Package holidays computes the German public holidays of any year: the
// nationwide ones and those of each state (Land), the Easter-based ones
// from the Gregorian Easter date. Deadlines that count working days
// (§ 580a Abs. 2 BGB) ask it which days are not working days.
//
// Only holidays a state's law names for the whole state are included;
// holidays of single municipalities (Augsburger Friedensfest, Fronleichnam
// in parts of Saxony and Thuringia, Mariä Himmelfahrt in Catholic parts of
// Bavaria) are not, since a location is known by its state only.
package holidays

import (
	"strings"
	"time"
)

// State codes (ISO 3166-2:DE without the country prefix).
const (
	BW = "BW" // Baden-Württemberg
	BY = "BY" // Bayern
	BE = "BE" // Berlin
	BB = "BB" // Brandenburg
	HB = "HB" // Bremen
	HH = "HH" // Hamburg
	HE = "HE" // Hessen
	MV = "MV" // Mecklenburg-Vorpommern
	NI = "NI" // Niedersachsen
	NW = "NW" // Nordrhein-Westfalen
	RP = "RP" // Rheinland-Pfalz
	SL = "SL" // Saarland
	SN = "SN" // Sachsen
	ST = "ST" // Sachsen-Anhalt
	SH = "SH" // Schleswig-Holstein
	TH = "TH" // Thüringen
)

// stateNames maps the names a state is stored under (the postal code
// table's German names, the codes themselves and the English names) to its
// code; keys are folded with fold.
var stateNames = map[string]string{}

func init() {
	for code, names := range map[string][]string{
		BW: {"Baden-Württemberg"}, BY: {"Bayern", "Bavaria"}, BE: {"Berlin"}, BB: {"Brandenburg"},
		HB: {"Bremen"}, HH: {"Hamburg"}, HE: {"Hessen", "Hesse"}, MV: {"Mecklenburg-Vorpommern", "Mecklenburg-Western Pomerania"},
		NI: {"Niedersachsen", "Lower Saxony"}, NW: {"Nordrhein-Westfalen", "North Rhine-Westphalia"},
		RP: {"Rheinland-Pfalz", "Rhineland-Palatinate"}, SL: {"Saarland"}, SN: {"Sachsen", "Saxony"},
		ST: {"Sachsen-Anhalt", "Saxony-Anhalt"}, SH: {"Schleswig-Holstein"}, TH: {"Thüringen", "Thuringia"},
	} {
		stateNames[fold(code)] = code
		for _, n := range names {
			stateNames[fold(n)] = code
		}
	}
}

// fold is a state name compared without case, spaces and the umlaut's
// spelling ("Thueringen").
func fold(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.NewReplacer("ü", "ue", "ä", "ae", "ö", "oe", " ", "", "-", "").Replace(s)
	return s
}

// StateCode answers the code of a German state given by name or code
// ("Bayern", "BY", "Bavaria"), or "" for one it does not know.
func StateCode(name string) string { return stateNames[fold(name)] }

// Holiday is a public holiday.
type Holiday struct {
	Date time.Time
	// Name is the holiday's German name.
	Name string
}

// rule is one holiday: its date in a year, whether it applies there in
// that year, and its name.
type rule struct {
	name  string
	date  func(year int, easter time.Time) time.Time
	holds func(year int, state string) bool
}

func fixed(m time.Month, d int) func(int, time.Time) time.Time {
	return func(y int, _ time.Time) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
}

func fromEaster(days int) func(int, time.Time) time.Time {
	return func(_ int, e time.Time) time.Time { return e.AddDate(0, 0, days) }
}

// everywhere holds in every state; in lists the states where a holiday
// holds, from the year since.
func everywhere(int, string) bool { return true }

func in(since int, states ...string) func(int, string) bool {
	return func(y int, s string) bool {
		if y < since {
			return false
		}
		for _, x := range states {
			if x == s {
				return true
			}
		}
		return false
	}
}

// rules are the holidays by the states' holiday laws (Feiertagsgesetze) as
// of 2025, with the years since which the newer ones hold.
var rules = []rule{
	{"Neujahr", fixed(time.January, 1), everywhere},
	{"Heilige Drei Könige", fixed(time.January, 6), in(0, BW, BY, ST)},
	{"Internationaler Frauentag", fixed(time.March, 8), func(y int, s string) bool {
		return in(2019, BE)(y, s) || in(2023, MV)(y, s)
	}},
	{"Karfreitag", fromEaster(-2), everywhere},
	{"Ostersonntag", fromEaster(0), in(0, BB)},
	{"Ostermontag", fromEaster(1), everywhere},
	{"Tag der Arbeit", fixed(time.May, 1), everywhere},
	{"Christi Himmelfahrt", fromEaster(39), everywhere},
	{"Pfingstsonntag", fromEaster(49), in(0, BB)},
	{"Pfingstmontag", fromEaster(50), everywhere},
	{"Fronleichnam", fromEaster(60), in(0, BW, BY, HE, NW, RP, SL)},
	{"Mariä Himmelfahrt", fixed(time.August, 15), in(0, SL)},
	{"Weltkindertag", fixed(time.September, 20), in(2019, TH)},
	{"Tag der Deutschen Einheit", fixed(time.October, 3), func(y int, _ string) bool { return y >= 1990 }},
	{"Reformationstag", fixed(time.October, 31), func(y int, s string) bool {
		// Nationwide once, for the 500th anniversary in 2017.
		return y == 2017 || in(0, BB, MV, SN, ST, TH)(y, s) || in(2018, HB, HH, NI, SH)(y, s)
	}},
	{"Allerheiligen", fixed(time.November, 1), in(0, BW, BY, NW, RP, SL)},
	{"Buß- und Bettag", repentanceDay, func(y int, s string) bool { return y < 1995 || s == SN }},
	{"1. Weihnachtstag", fixed(time.December, 25), everywhere},
	{"2. Weihnachtstag", fixed(time.December, 26), everywhere},
}

// repentanceDay is Buß- und Bettag: the Wednesday before 23 November.
func repentanceDay(y int, _ time.Time) time.Time {
	d := time.Date(y, time.November, 22, 0, 0, 0, 0, time.UTC)
	for d.Weekday() != time.Wednesday {
		d = d.AddDate(0, 0, -1)
	}
	return d
}

// Easter is the date of Easter Sunday of a year of the Gregorian calendar
// (the anonymous Gregorian algorithm, Meeus/Jones/Butcher).
func Easter(year int) time.Time {
	a, b, c := year%19, year/100, year%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	return time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
}

// Of answers the public holidays of year in state (a code; "" for the
// nationwide ones only), in date order.
func Of(year int, state string) []Holiday {
	easter := Easter(year)
	var out []Holiday
	for _, r := range rules {
		if r.holds(year, state) {
			out = append(out, Holiday{Date: r.date(year, easter), Name: r.name})
		}
	}
	for i := 1; i < len(out); i++ { // few rows, nearly in order
		for j := i; j > 0 && out[j].Date.Before(out[j-1].Date); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Calendar answers whether days are working days in one state. It keeps
// the holidays of each year it was asked about, so a long run over many
// deadlines computes each year once; it is not safe for concurrent use.
type Calendar struct {
	state string
	years map[int]map[time.Time]bool
}

// NewCalendar is the calendar of state (a code or a name; unknown or "":
// the nationwide holidays only).
func NewCalendar(state string) *Calendar {
	return &Calendar{state: StateCode(state), years: map[int]map[time.Time]bool{}}
}

// State is the calendar's state code ("" for the nationwide holidays).
func (c *Calendar) State() string { return c.state }

// Holiday reports whether d (a calendar date at UTC midnight) is a public
// holiday.
func (c *Calendar) Holiday(d time.Time) bool {
	y := d.Year()
	days, ok := c.years[y]
	if !ok {
		days = map[time.Time]bool{}
		for _, h := range Of(y, c.state) {
			days[h.Date] = true
		}
		c.years[y] = days
	}
	return days[time.Date(y, d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)]
}

// Workday reports whether d is a working day (Werktag): neither a Sunday
// nor a public holiday. Saturdays are working days.
func (c *Calendar) Workday(d time.Time) bool {
	return d.Weekday() != time.Sunday && !c.Holiday(d)
}
