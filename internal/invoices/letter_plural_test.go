package invoices_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestLetterCountsInThePluralOfItsLanguage: a package of one contradiction
// says "1 Abrechnung", "1 décompte", "1 statement" (CLDR: one is 1 in
// German and English, 0 and 1 in French), never "1 Abrechnungen"; the
// points are counted the same way; on both databases.
func TestLetterCountsInThePluralOfItsLanguage(t *testing.T) {
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Fatal("pdftotext (poppler-utils) is needed to read the letters back")
	}
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := &fixture{t: t, ta: apptest.NewApp(t, d), d: d}
		cur := f.one(`SELECT invoice_id FROM invoice WHERE invoice_number = ?`, seed.DemoInvoiceNumbers[1])
		pos := f.one(`SELECT k.pos_id FROM invoice i JOIN contract k ON k.contract_id = i.contract_id WHERE i.invoice_id = ?`, cur)
		f.generate(admin, cur)
		contra := f.one(`SELECT MIN(contradiction_id) FROM contradiction WHERE invoice_id = ?`, cur)
		points := f.one(`SELECT COUNT(*) FROM contradictionpoint WHERE contradiction_id = ? AND hidden = 0`, contra)
		if points < 2 {
			t.Fatalf("the demo invoice's contradiction has %d points; the test needs two or more", points)
		}
		r := f.do(admin, "POST", "/api/", obj{"action": "create", "entity": "contradictionpackage", "data": obj{"pos_id": pos, "contradictionpackage_name": "P-1"}})
		var created struct{ Data obj }
		r.JSON(t, &created)
		pkg := int64(created.Data["contradictionpackage_id"].(float64))
		if r := f.do(admin, "POST", "/api/", obj{"action": "update", "entity": "contradiction", "id": contra, "row_version": 1,
			"data": obj{"contradictionpackage_id": pkg}}); r.Status != 200 {
			t.Fatalf("pack the contradiction: %d %s", r.Status, r.Body)
		}
		for lang, want := range map[string]string{
			"de": fmt.Sprintf("(1 Abrechnung, %d Punkte, insgesamt", points),
			"fr": fmt.Sprintf("(1 décompte, %d points, au total", points),
			"en": fmt.Sprintf("(1 statement, %d points,", points),
		} {
			r := f.do(admin, "GET", fmt.Sprintf("/contradictionpackages/%d/letter.pdf?lang=%s", pkg, lang), nil)
			if r.Status != 200 {
				t.Fatalf("%s letter: %d %s", lang, r.Status, r.Body)
			}
			file := filepath.Join(t.TempDir(), "letter.pdf")
			if err := os.WriteFile(file, r.Body, 0o600); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(pdftotext, file, "-").Output()
			if err != nil {
				t.Fatalf("pdftotext: %v", err)
			}
			text := strings.Join(strings.Fields(strings.ReplaceAll(string(out), "\u00a0", " ")), " ")
			if !strings.Contains(text, want) {
				t.Errorf("%s letter lacks %q:\n%s", lang, want, text)
			}
		}
	})
}
