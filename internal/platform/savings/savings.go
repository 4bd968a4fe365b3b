// Package savings holds the one rule of the day a saving of the invoice
// review counts on (decision 0069), so that the savings page
// (internal/invoices) and the home's savings card (internal/dashboard)
// never disagree about a year: a claim (a contradiction point, with its
// claimed and accepted amounts) counts on the day it was made, a realised
// inspection result on the day it was recorded.
//
// The product keeps no date column of its own for either; the day a row
// was made is the time of its history's create row, which the engine
// writes for every create (the generator's points among them). A row
// without one (written by a seed, or carried over from before the
// product) counts on the day its statement was received, and failing
// that on the statement's date. The billing year (invoice_contract_year),
// which the savings page summed by before, lags the review by a year or
// more: the current year was empty by construction.
package savings

import (
	"fmt"
	"time"
)

// Entities whose rows a saving is read from.
const (
	// Point is the contradiction point: the claimed and accepted amounts.
	Point = "contradictionpoint"
	// Result is the inspection result: the realised value.
	Result = "inspectionresult"
)

// MadeSQL renders, as portable SQL, the moment a row of entity (Point or
// Result) under alias counts on: its history's create time, else its
// statement's (alias invoice) day of receipt, else the statement's date.
// On SQLite the value is text beginning with the day ("2026-04-20" or
// "2026-04-20 09:15:00+00:00"); PostgreSQL gives a timestamp; render it
// through db.DateText to read the day on both. entity, alias and invoice
// come from code, never from a request.
func MadeSQL(entity, alias, invoice string) string {
	h := "h_" + alias
	return fmt.Sprintf(`COALESCE((SELECT MIN(%[1]s.trackrecord_timestamp) FROM trackrecord %[1]s
		WHERE %[1]s.trackrecord_category = '%[2]s' AND %[1]s.trackrecord_row_id = %[3]s.%[2]s_id AND %[1]s.trackrecord_type = 'create'),
		%[4]s.invoice_received_date, %[4]s.invoice_date)`, h, entity, alias, invoice)
}

// YearBounds are the arguments of "made in year": the first moment of the
// year and of the next, as text both databases compare MadeSQL with
// (MadeSQL >= from AND MadeSQL < to).
func YearBounds(year int) (from, to string) {
	return fmt.Sprintf("%04d-01-01", year), fmt.Sprintf("%04d-01-01", year+1)
}

// YearOf reads the year of a day as MadeSQL rendered through db.DateText
// gives it ("2026-04-20..."), or of a time.Time; 0 when there is none.
func YearOf(v any) int {
	switch x := v.(type) {
	case time.Time:
		return x.UTC().Year()
	case string:
		return yearOfText(x)
	case []byte:
		return yearOfText(string(x))
	}
	return 0
}

func yearOfText(s string) int {
	if len(s) < 4 {
		return 0
	}
	y := 0
	for _, r := range s[:4] {
		if r < '0' || r > '9' {
			return 0
		}
		y = y*10 + int(r-'0')
	}
	return y
}
