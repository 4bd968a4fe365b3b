package db

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzContainsFolded: the match of pf_match (NFC only when the text is
// not, then folding rune by rune) agrees with folding the whole text and
// searching it.
func FuzzContainsFolded(f *testing.F) {
	for _, seed := range [][2]string{{"ÄRGER über Öl", "über"}, {"Müller GmbH", "müller"}, {"abc", ""}, {"", "a"}, {"ẞtraße", "ß"}, {"Su\u0308d", "süd"}, {"SÜD", "Su\u0308"}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, text, term string) {
		if !utf8.ValidString(text) || !utf8.ValidString(term) {
			return // SQLite hands the function valid UTF-8 text
		}
		folded := FoldText(term)
		lower := FoldText(text)
		if got, want := MatchFolded(text, folded, false), strings.Contains(lower, folded); got != want {
			t.Errorf("MatchFolded(%q, %q) = %v, want %v", text, folded, got, want)
		}
		if got, want := MatchFolded(text, folded, true), strings.HasPrefix(lower, folded); got != want {
			t.Errorf("prefix MatchFolded(%q, %q) = %v, want %v", text, folded, got, want)
		}
	})
}
