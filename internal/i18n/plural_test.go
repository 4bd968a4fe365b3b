package i18n

import (
	"strings"
	"testing"
)

// The categories follow CLDR's cardinal rules for whole numbers
// (https://www.unicode.org/cldr/charts/46/supplemental/language_plural_rules.html):
// English and German "one" is exactly 1; French "one" is 0 and 1, "many"
// a non-zero multiple of a million.
func TestPluralCategory(t *testing.T) {
	cases := []struct {
		lang string
		n    int64
		want string
	}{
		{"en", 0, PluralOther}, {"en", 1, PluralOne}, {"en", 2, PluralOther}, {"en", 21, PluralOther}, {"en", 1_000_000, PluralOther},
		{"de", 0, PluralOther}, {"de", 1, PluralOne}, {"de", 11, PluralOther},
		{"fr", 0, PluralOne}, {"fr", 1, PluralOne}, {"fr", 2, PluralOther}, {"fr", 1_000_000, PluralMany}, {"fr", 3_000_000, PluralMany},
		{"fr", 1_500_000, PluralOther}, {"xx", 1, PluralOne}, {"en", -1, PluralOne},
	}
	for _, c := range cases {
		if got := PluralCategory(c.lang, c.n); got != c.want {
			t.Errorf("PluralCategory(%s, %d) = %s, want %s", c.lang, c.n, got, c.want)
		}
	}
}

func TestNPicksTheLanguagesForm(t *testing.T) {
	c := MustLoad()
	cases := []struct {
		lang string
		n    int64
		want string
	}{
		{"en", 1, "1 day"}, {"en", 0, "0 days"}, {"en", 25, "25 days"},
		{"de", 1, "1 Tag"}, {"de", 25, "25 Tage"},
		{"fr", 0, "0 jour"}, {"fr", 1, "1 jour"}, {"fr", 2, "2 jours"}, {"fr", 2_000_000, "2000000 jours"},
		{"it", 1, "1 day"},
	}
	for _, tc := range cases {
		if got := c.N(tc.lang, "mail.deadlines.days", tc.n, nil); got != tc.want {
			t.Errorf("N(%s, %d) = %q, want %q", tc.lang, tc.n, got, tc.want)
		}
	}
}

// TestEveryPluralKeyHasItsForms: a text with a "_one" form has an "_other"
// form in every language, so N never falls back to a key.
func TestEveryPluralKeyHasItsForms(t *testing.T) {
	c := MustLoad()
	for _, lang := range Languages {
		for _, k := range c.Keys(lang) {
			base, ok := strings.CutSuffix(k, "_"+PluralOne)
			if !ok {
				continue
			}
			for _, l := range Languages {
				if !c.Has(l, base+"_"+PluralOther) {
					t.Errorf("%s has %s but %s lacks %s_other", lang, k, l, base)
				}
			}
		}
	}
}
