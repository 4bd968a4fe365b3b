package i18n

import "strconv"

// Plural categories of CLDR (Unicode Language Plural Rules) that the
// product's languages use for whole numbers; i18next's plural keys carry
// the same names as suffixes ("report.statements_one").
const (
	PluralOne   = "one"
	PluralMany  = "many"
	PluralOther = "other"
)

// PluralCategory answers the CLDR cardinal category of the whole number n
// in lang (CLDR 46, plurals.xml, the rules for integers, v = 0):
//
//	en, de: one when n = 1, else other ("1 statement", "0 statements")
//	fr:     one when n is 0 or 1; many when n is a non-zero multiple of
//	        1,000,000 ("1 000 000 de décomptes"); else other ("0 décompte")
//
// An unknown language follows English.
func PluralCategory(lang string, n int64) string {
	if n < 0 {
		n = -n
	}
	switch lang {
	case "fr":
		switch {
		case n == 0 || n == 1:
			return PluralOne
		case n%1_000_000 == 0:
			return PluralMany
		}
		return PluralOther
	default:
		if n == 1 {
			return PluralOne
		}
		return PluralOther
	}
}

// N translates the form of key that lang uses for the count n: the text
// of key_<category>, falling back to key_other (a language without a
// separate "many" text uses its "other"), then to T's fallbacks. {count}
// is filled with n, the other placeholders from args.
func (c *Catalog) N(lang, key string, n int64, args map[string]string) string {
	filled := map[string]string{"count": strconv.FormatInt(n, 10)}
	for k, v := range args {
		filled[k] = v
	}
	if !Supported(lang) {
		lang = Default
	}
	for _, form := range []string{PluralCategory(lang, n), PluralOther} {
		if c.Has(lang, key+"_"+form) {
			return c.T(lang, key+"_"+form, filled)
		}
	}
	return c.T(lang, key+"_"+PluralOther, filled)
}
