package invoices_test

import (
	"strings"
	"testing"

	"portfolio/internal/db"
	platformclock "portfolio/internal/platform/clock"
	"portfolio/internal/platform/letter"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// germanWords are words of the demo's German point texts and frame that a
// French or English letter must not contain.
// (The names of positions and cost types are the client's data, in the
// client's words: "Verwaltungspauschale", "Winterdienst".)
var germanWords = []string{"Abrechnung", "über der vereinbarten", "Instandhaltung", "Mietvertrag", "Abrechnungszeitraum",
	"Pauschale erhöht", "Kostenart", "umlagefähig", "Anteil", "Forderung", "Betrag", " nicht ", " und ", " wir ", "Sehr geehrte"}

// TestLetterIsInItsLanguageThroughout (issue 38): a letter is addressed
// to the contract's manager at its address; the points the generator
// wrote for a German company's statements read in French or English in a
// French or English letter, the frame too; a point someone edited stays
// as written (no translation can say what they wrote), and so does one
// whose statement's figures changed since. On both databases, read back
// with pdftotext.
func TestLetterIsInItsLanguageThroughout(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := &fixture{t: t, ta: apptest.NewApp(t, d), d: d}
		for _, number := range seed.DemoInvoiceNumbers[1:] {
			inv := f.one(`SELECT invoice_id FROM invoice WHERE invoice_number = ?`, number)
			if lang := f.text(`SELECT COALESCE(co.company_language, 'de') FROM invoice i JOIN company co ON co.company_id = i.company_id
				WHERE i.invoice_id = ?`, inv); lang != "de" {
				t.Fatalf("%s's company writes %q; the test needs a German one", number, lang)
			}
			pkg, contra := f.packGenerated(inv)
			german := f.letterText(pkg, "de")
			if !strings.Contains(german, "Abrechnung") {
				t.Fatalf("%s: the German letter does not read German:\n%s", number, german)
			}
			// The addressee: the contract's manager with its office's address.
			for _, want := range []string{"Rheinland Immobilien GmbH", "Rheinuferstraße 12"} {
				if !strings.Contains(german, want) {
					t.Errorf("%s: the letter's addressee lacks %q:\n%s", number, want, german)
				}
			}
			for _, lang := range []string{"fr", "en"} {
				text := f.letterText(pkg, lang)
				if day := letter.Date(platformclock.Now(), lang); strings.Count(text, day) != 1 {
					t.Errorf("%s: the %s letter gives its date %q %d times, want once:\n%s", number, lang, day, strings.Count(text, day), text)
				}
				for _, w := range germanWords {
					if strings.Contains(text, w) {
						t.Errorf("%s: the %s letter says %q:\n%s", number, lang, w, text)
					}
				}
			}

			// Someone rewrites a point's text in German: the English letter
			// shows that text as written, its title and the other points
			// translated.
			point := f.one(`SELECT MIN(contradictionpoint_id) FROM contradictionpoint WHERE contradiction_id = ? AND hidden = 0`, contra)
			if r := f.do(admin, "POST", "/api/", obj{"action": "update", "entity": "contradictionpoint", "id": point, "row_version": 1,
				"data": obj{"contradictionpoint_text": "<p>Bitte erläutern Sie diese Position und belegen Sie sie.</p>"}}); r.Status != 200 {
				t.Fatalf("edit a point: %d %s", r.Status, r.Body)
			}
			const edited = "Bitte erläutern Sie diese Position und belegen Sie sie."
			text := f.letterText(pkg, "en")
			if !strings.Contains(text, edited) {
				t.Errorf("%s: the English letter lost the edited point:\n%s", number, text)
			}
			for _, w := range germanWords {
				if strings.Contains(strings.Replace(text, edited, "", 1), w) {
					t.Errorf("%s: besides the edited text, the English letter says %q:\n%s", number, w, text)
				}
			}
		}
	})
}
