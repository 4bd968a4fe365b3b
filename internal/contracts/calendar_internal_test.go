package contracts

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestICSText: TEXT values escape backslash, semicolon, comma and line
// breaks; lines fold at 75 octets with CRLF and a leading space, never
// inside a UTF-8 character, and unfold to the original.
func TestICSText(t *testing.T) {
	for in, want := range map[string]string{
		`a,b;c\d`:      `a\,b\;c\\d`,
		"one\ntwo":     `one\ntwo`,
		"one\r\ntwo":   `one\ntwo`,
		"plain text":   "plain text",
		`already \n`:   `already \\n`,
		"Kündigung: ä": "Kündigung: ä",
	} {
		if got := icsEscape(in); got != want {
			t.Errorf("icsEscape(%q) = %q, want %q", in, got, want)
		}
	}
	long := "SUMMARY:" + strings.Repeat("Grüße, ", 40)
	var w icsWriter
	w.line(long)
	out := w.b.String()
	if !strings.HasSuffix(out, "\r\n") {
		t.Fatalf("no CRLF at the end: %q", out)
	}
	for i, l := range strings.Split(strings.TrimSuffix(out, "\r\n"), "\r\n") {
		if len(l) > 75 {
			t.Fatalf("line %d has %d octets", i, len(l))
		}
		if i > 0 && !strings.HasPrefix(l, " ") {
			t.Fatalf("continuation %d does not start with a space: %q", i, l)
		}
		if !utf8.ValidString(l) {
			t.Fatalf("line %d splits a character", i)
		}
	}
	if got := strings.ReplaceAll(strings.TrimSuffix(out, "\r\n"), "\r\n ", ""); got != long {
		t.Fatalf("unfolded %q, want %q", got, long)
	}
}
