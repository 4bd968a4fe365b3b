package documents

import (
	"strings"
	"testing"

	"portfolio/internal/i18n"
)

// TestSignedNameInTheSignersLanguage: the signed copy of a document is
// named in the language of whoever signed it, within the name's length.
func TestSignedNameInTheSignersLanguage(t *testing.T) {
	s := &Service{catalog: i18n.MustLoad()}
	for lang, want := range map[string]string{"de": "Mietvertrag (signiert)", "en": "Mietvertrag (signed)", "fr": "Mietvertrag (signé)"} {
		if got := s.signedName(lang, "Mietvertrag"); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	long := strings.Repeat("ä", 250)
	if got := s.signedName("de", long); got != strings.Repeat("ä", 200)+" (signiert)" {
		t.Errorf("a long name: %d runes", len([]rune(got)))
	}
}
