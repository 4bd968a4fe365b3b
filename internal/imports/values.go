package imports

import (
	"math"
	"strconv"
	"strings"
	"time"

	"portfolio/internal/schema"
)

// dateLayouts are the day formats a cell may use besides an Excel serial
// number: ISO (the export's), German, French/British and US spreadsheet
// defaults.
var dateLayouts = []string{"2006-01-02", "02.01.2006", "2.1.2006", "02/01/2006", "2/1/2006", "01-02-06", "1-2-06", "2006-01-02T15:04:05Z07:00", "2006-01-02 15:04:05"}

// parseDate reads a day in one of dateLayouts.
func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// excelEpoch is day 0 of Excel's 1900 date system (with its leap-year bug).
var excelEpoch = time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)

// cellValue converts the text of a cell for field f into what the engine's
// create takes: the text itself for text fields, numbers with a decimal
// comma read as numbers, days in the usual spreadsheet forms as
// YYYY-MM-DD, yes/no words as 1/0, an option's label as its value. A cell
// that cannot be converted is passed on unchanged, so that the engine's
// validation names the field and the rule.
func cellValue(f *schema.Field, s string) any {
	if f.Type != schema.TypeString {
		s = strings.TrimSpace(s)
	}
	s = unescapeFormula(s)
	switch f.Type {
	case schema.TypeDate, schema.TypeDateTime:
		if t, ok := parseDate(s); ok {
			if f.Type == schema.TypeDate {
				return t.Format("2006-01-02")
			}
			return t.UTC().Format(time.RFC3339)
		}
		if n, err := strconv.ParseFloat(s, 64); err == nil && n > 0 && n < 2958466 {
			t := excelEpoch.Add(time.Duration(math.Round(n*86400)) * time.Second)
			if f.Type == schema.TypeDate {
				return t.Format("2006-01-02")
			}
			return t.Format(time.RFC3339)
		}
	case schema.TypeDecimal, schema.TypeInt:
		if strings.Contains(s, ",") && !strings.Contains(s, ".") {
			s = strings.ReplaceAll(s, ",", ".")
		} else if strings.Contains(s, ",") && strings.Index(s, ".") < strings.Index(s, ",") {
			s = strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", ".") // 1.234,50
		} else {
			s = strings.ReplaceAll(s, ",", "") // 1,234.50
		}
	case schema.TypeBool:
		switch strings.ToLower(s) {
		case "1", "x", "true", "yes", "ja", "oui", "wahr", "vrai":
			return "1"
		case "0", "false", "no", "nein", "non", "falsch", "faux":
			return "0"
		}
	}
	if len(f.Options) > 0 {
		for _, o := range f.Options {
			if strings.EqualFold(o.Label, s) {
				return o.Value.String()
			}
		}
	}
	return s
}

// unescapeFormula undoes the export's guard against formulas: a text
// starting with = + - @, a tab or a carriage return got a leading quote.
func unescapeFormula(s string) string {
	if len(s) > 1 && s[0] == '\'' && strings.ContainsRune("=+-@\t\r", rune(s[1])) {
		return s[1:]
	}
	return s
}
