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
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := &fixture{t: t, ta: apptest.NewApp(t, d), d: d}
		cur := f.one(`SELECT invoice_id FROM invoice WHERE invoice_number = ?`, seed.DemoInvoiceNumbers[1])
		pkg, contra := f.packGenerated(cur)
		points := f.one(`SELECT COUNT(*) FROM contradictionpoint WHERE contradiction_id = ? AND hidden = 0`, contra)
		if points < 2 {
			t.Fatalf("the demo invoice's contradiction has %d points; the test needs two or more", points)
		}
		for lang, want := range map[string]string{
			"de": fmt.Sprintf("(1 Abrechnung, %d Punkte, insgesamt", points),
			"fr": fmt.Sprintf("(1 décompte, %d points, au total", points),
			"en": fmt.Sprintf("(1 statement, %d points,", points),
		} {
			if text := f.letterText(pkg, lang); !strings.Contains(text, want) {
				t.Errorf("%s letter lacks %q:\n%s", lang, want, text)
			}
		}
	})
}

// packGenerated runs the generator on invoice and puts its contradiction
// into a new package of its point of sale; it answers both.
func (f *fixture) packGenerated(invoice int64) (pkg, contra int64) {
	f.t.Helper()
	pos := f.one(`SELECT k.pos_id FROM invoice i JOIN contract k ON k.contract_id = i.contract_id WHERE i.invoice_id = ?`, invoice)
	f.generate(admin, invoice)
	contra = f.one(`SELECT MIN(contradiction_id) FROM contradiction WHERE invoice_id = ?`, invoice)
	r := f.do(admin, "POST", "/api/", obj{"action": "create", "entity": "contradictionpackage", "data": obj{"pos_id": pos, "contradictionpackage_name": "P-1"}})
	var created struct{ Data obj }
	r.JSON(f.t, &created)
	pkg = int64(created.Data["contradictionpackage_id"].(float64))
	version := f.one(`SELECT row_version FROM contradiction WHERE contradiction_id = ?`, contra)
	if r := f.do(admin, "POST", "/api/", obj{"action": "update", "entity": "contradiction", "id": contra, "row_version": version,
		"data": obj{"contradictionpackage_id": pkg}}); r.Status != 200 {
		f.t.Fatalf("pack the contradiction: %d %s", r.Status, r.Body)
	}
	return pkg, contra
}

// letterText is package pkg's letter in lang as a reader's program reads
// it (pdftotext), its white space folded.
func (f *fixture) letterText(pkg int64, lang string) string {
	f.t.Helper()
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		f.t.Fatal("pdftotext (poppler-utils) is needed to read the letters back")
	}
	r := f.do(admin, "GET", fmt.Sprintf("/contradictionpackages/%d/letter.pdf?lang=%s", pkg, lang), nil)
	if r.Status != 200 {
		f.t.Fatalf("%s letter: %d %s", lang, r.Status, r.Body)
	}
	file := filepath.Join(f.t.TempDir(), "letter.pdf")
	if err := os.WriteFile(file, r.Body, 0o600); err != nil {
		f.t.Fatal(err)
	}
	out, err := exec.Command(pdftotext, file, "-").Output()
	if err != nil {
		f.t.Fatalf("pdftotext: %v", err)
	}
	return strings.Join(strings.Fields(strings.ReplaceAll(string(out), "\u00a0", " ")), " ")
}
