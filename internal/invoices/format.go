package invoices

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// separators are the thousands and decimal separators per language.
var separators = map[string][2]string{"de": {".", ","}, "fr": {"\u00a0", ","}, "en": {",", "."}}

var monthNames = map[string][12]string{
	"en": {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
}

// formatNumber writes d with places decimals, grouped, in lang.
func formatNumber(d decimal.Decimal, places int32, lang string) string {
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

// formatMoney writes an amount in euros in lang.
func formatMoney(d decimal.Decimal, lang string) string {
	n := formatNumber(d, 2, lang)
	if lang == "en" {
		if strings.HasPrefix(n, "-") {
			return "-€" + n[1:]
		}
		return "€" + n
	}
	return n + "\u00a0€"
}

// formatDate writes a day in lang.
func formatDate(t time.Time, lang string) string {
	switch lang {
	case "de":
		return t.Format("02.01.2006")
	case "fr":
		return t.Format("02/01/2006")
	}
	return fmt.Sprintf("%d %s %d", t.Day(), monthNames["en"][t.Month()-1], t.Year())
}

// escape makes s safe inside the letter's HTML.
func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}
