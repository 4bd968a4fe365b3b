package letter_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"portfolio/internal/platform/letter"
)

// pdfText extracts the text of a PDF with poppler's pdftotext, the way a
// reader's program would see it.
func pdfText(t *testing.T, pdf []byte, args ...string) string {
	t.Helper()
	tool := "pdftotext"
	if len(args) > 0 && args[0] == "pdfinfo" {
		tool, args = "pdfinfo", args[1:]
	}
	if _, err := exec.LookPath(tool); err != nil {
		t.Fatalf("%s is missing: install Debian's poppler-utils (apt-get install poppler-utils)", tool)
	}
	path := filepath.Join(t.TempDir(), "letter.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := append(args, path)
	if tool == "pdftotext" {
		cmd = append(cmd, "-")
	}
	out, err := exec.Command(tool, cmd...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v: %s", tool, err, out)
	}
	return string(out)
}

func sample() letter.Letter {
	return letter.Letter{
		Lang: "de", Title: "Mietanpassung",
		Sender:    []string{"Nordhandel Gruppe", "Hafenstraße 1", "20457 Hamburg"},
		Recipient: []string{"Rheinland Immobilien GmbH", "Frau Müller", "Königsallee 12", "40212 Düsseldorf"},
		Place:     "Hamburg", Date: "23.11.2026",
		Subject: "Anpassung der Miete nach § 4 Wertsicherungsklausel",
		Body: `<p>Sehr geehrte Frau Müller,</p><p>der <b>Verbraucherpreisindex</b> ist von <i>118,2</i> auf 121,0 Punkte gestiegen.</p>` +
			`<ul><li>Übertragung: 75 %</li><li>neue Miete: 1.234,56 €</li></ul><ol><li>erstens</li><li>zweitens</li></ol>` +
			`<script>alert("nie")</script>`,
		Facts:   []letter.Fact{{"Alte Miete", "1.200,00 €"}, {"Neue Miete", "1.234,56 €"}},
		Closing: "<p>Mit freundlichen Grüßen</p>",
		Footer:  "Quelle: © Statistisches Bundesamt (Destatis), dl-de/by-2-0", PageLabel: "Seite %d von %s",
		Created: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC),
	}
}

func TestRenderPrintsEveryPartInReadableText(t *testing.T) {
	pdf, err := letter.Bytes(sample())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(pdf), "%PDF-") {
		t.Fatalf("not a PDF: %q", pdf[:8])
	}
	text := pdfText(t, pdf)
	for _, want := range []string{
		"Nordhandel Gruppe · Hafenstraße 1 · 20457 Hamburg", "Frau Müller", "40212 Düsseldorf", "Hamburg, 23.11.2026",
		"Anpassung der Miete nach § 4 Wertsicherungsklausel", "Sehr geehrte Frau Müller,",
		"der Verbraucherpreisindex ist von 118,2 auf 121,0 Punkte gestiegen.", "• Übertragung: 75 %", "neue Miete: 1.234,56 €",
		"1. erstens", "2. zweitens", "Alte Miete", "1.200,00 €", "Neue Miete", "Mit freundlichen Grüßen",
		"Quelle: © Statistisches Bundesamt (Destatis)", "Seite 1 von 1",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the letter's text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "alert") {
		t.Errorf("a script's text printed:\n%s", text)
	}
	info := pdfText(t, pdf, "pdfinfo")
	if !strings.Contains(info, "Title:           Mietanpassung") || !strings.Contains(info, "Pages:           1") {
		t.Errorf("pdfinfo:\n%s", info)
	}
}

func TestRenderBreaksLongLettersOntoNumberedPages(t *testing.T) {
	l := sample()
	l.Body = strings.Repeat("<p>Ein langer Absatz über Indexklauseln, Schwellenwerte und Übertragungssätze, der sich über mehrere Zeilen erstreckt und den Platz einer Seite füllt.</p>", 40)
	pdf, err := letter.Bytes(l)
	if err != nil {
		t.Fatal(err)
	}
	text := pdfText(t, pdf)
	if !strings.Contains(text, "Seite 1 von 3") && !strings.Contains(text, "Seite 1 von 2") {
		t.Fatalf("no page count on page 1:\n%s", text)
	}
	if !strings.Contains(text, "Mit freundlichen Grüßen") {
		t.Errorf("the closing is lost after the page break")
	}
}

func TestFill(t *testing.T) {
	out, err := letter.Fill(`<p>Neue Miete: {{ new_amount }} ab {{effective_date}}; {{new_amount}}</p>`,
		map[string]string{"new_amount": "1.234,56 € <b>", "effective_date": "01.01.2027"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `<p>Neue Miete: 1.234,56 € &lt;b&gt; ab 01.01.2027; 1.234,56 € &lt;b&gt;</p>`; out != want {
		t.Fatalf("Fill = %q, want %q", out, want)
	}
	_, err = letter.Fill(`{{a}} {{ b }} {{a}} {{known}}`, map[string]string{"known": "x"})
	var unknown *letter.UnknownPlaceholdersError
	if !errors.As(err, &unknown) || strings.Join(unknown.Names, ",") != "a,b" {
		t.Fatalf("err = %v, want the unknown placeholders a and b", err)
	}
	if got := strings.Join(letter.Placeholders(`{{x}} {{ y }} {{x}}`), ","); got != "x,y" {
		t.Fatalf("Placeholders = %q", got)
	}
}
