package letter

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// separators are the thousands and decimal separators per language.
var separators = map[string][2]string{"de": {".", ","}, "fr": {"\u00a0", ","}, "en": {",", "."}}

// monthNames are the months in the letters' languages.
var monthNames = map[string][12]string{
	"de": {"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"},
	"fr": {"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
	"en": {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
}

// Number writes d with places decimals, grouped, in lang (English for
// another language).
func Number(d decimal.Decimal, places int32, lang string) string {
	sep, ok := separators[lang]
	if !ok {
		sep = separators["en"]
	}
	fixed := d.StringFixed(places)
	sign := ""
	if strings.HasPrefix(fixed, "-") {
		sign, fixed = "-", fixed[1:]
	}
	whole, frac, _ := strings.Cut(fixed, ".")
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteString(sep[0])
		}
		b.WriteRune(r)
	}
	out := sign + b.String()
	if frac != "" {
		out += sep[1] + frac
	}
	return out
}

// Money writes an amount in euros in lang.
func Money(d decimal.Decimal, lang string) string {
	n := Number(d, 2, lang)
	if lang == "en" {
		if strings.HasPrefix(n, "-") {
			return "-€" + n[1:]
		}
		return "€" + n
	}
	return n + "\u00a0€"
}

// Date writes a day in lang.
func Date(t time.Time, lang string) string {
	switch lang {
	case "de":
		return t.Format("02.01.2006")
	case "fr":
		return t.Format("02/01/2006")
	}
	return fmt.Sprintf("%d %s %d", t.Day(), monthNames["en"][t.Month()-1], t.Year())
}

// Month writes a month ("März 2026") in lang.
func Month(year int, month time.Month, lang string) string {
	names, ok := monthNames[lang]
	if !ok {
		names = monthNames["en"]
	}
	return fmt.Sprintf("%s %d", names[month-1], year)
}

// Escape makes s safe inside a letter's HTML body.
func Escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
