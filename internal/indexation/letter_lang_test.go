package indexation_test

import (
	"context"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// germanLetterWords are words of the German adjustment letter (its
// template, facts, rule and closing) that a French or English letter must
// not contain. The demo's clause and payment names are the client's data,
// in the client's words ("VPI 5 % Schwelle", "Grundmiete (indexiert)"),
// and stay as written; the test removes them before it looks.
var germanLetterWords = []string{"Sehr geehrte", "Wertsicherungsklausel", "Zahlung", "Vertrag", "Standort", "Punkte",
	"Monatsbetrag", "Betrag", "Berechnung", "Anpassung", "Seite", "Mit freundlichen", "Schwellenwert", "weitergegeben",
	"Verbraucherpreisindex", "Statistisches Bundesamt", "Januar 2", "Februar 2", "März", "Mai 2", "Juni 2", "Juli 2", "Oktober", "Dezember",
	" und ", " von ", " der ", " die ", " das ", " ab dem ", " nach "}

// TestDemoAdjustmentLettersAreInTheirLanguage (issue 38): the adjustment
// letters the demo's indexed rents get read French or English throughout
// in French or English (the series, the rule, the figures and the closing
// too), German in German. On both databases, read back with pdftotext.
func TestDemoAdjustmentLettersAreInTheirLanguage(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		if err := seed.DemoIndexClauses(ctx, d); err != nil {
			t.Fatal(err)
		}
		ta.Run(t, []apptest.Scenario{{Name: "the demo's evaluation run", Method: "POST", Path: "/indexadjustments/run", As: admin,
			Status: 200, Body: obj{}, Contains: []string{`"errors":[]`}}})
		rows, err := d.QueryContext(ctx, `SELECT a.indexadjustment_id, p.recurringpayment_name, c.indexclause_name
			FROM indexadjustment a JOIN recurringpayment p ON p.recurringpayment_id = a.recurringpayment_id
			JOIN indexclause c ON c.indexclause_id = a.indexclause_id ORDER BY a.indexadjustment_id`)
		if err != nil {
			t.Fatal(err)
		}
		type adjustment struct {
			id            int64
			payment, name string
		}
		var adjustments []adjustment
		for rows.Next() {
			var a adjustment
			if err := rows.Scan(&a.id, &a.payment, &a.name); err != nil {
				t.Fatal(err)
			}
			adjustments = append(adjustments, a)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		payments := map[string]bool{}
		for _, a := range adjustments {
			payments[a.payment] = true
		}
		if len(payments) < 2 {
			t.Fatalf("the demo run proposed adjustments of %d rents, want both demo rents: %v", len(payments), adjustments)
		}
		seen := map[string]bool{}
		for _, a := range adjustments {
			// One letter per rent is enough: the others differ only in figures.
			if seen[a.payment] {
				continue
			}
			seen[a.payment] = true
			// The German letter cites its series' source and licence in German too.
			german := letterText(t, ta, teamLead, a.id, "de")
			for _, w := range []string{"Sehr geehrte", "Verbraucherpreisindex für Deutschland", "Weiterverwendung mit Quellenangabe"} {
				if !strings.Contains(german, w) {
					t.Errorf("the German letter of %q lacks %q:\n%s", a.payment, w, german)
				}
			}
			if strings.Contains(german, "reuse permitted") {
				t.Errorf("the German letter of %q cites its licence in English:\n%s", a.payment, german)
			}
			for _, lang := range []string{"fr", "en"} {
				text := letterText(t, ta, teamLead, a.id, lang)
				rest := strings.NewReplacer(a.payment, "", a.name, "").Replace(text)
				for _, w := range germanLetterWords {
					if strings.Contains(rest, w) {
						t.Errorf("the %s letter of %q says %q:\n%s", lang, a.payment, w, text)
					}
				}
			}
		}
	})
}
