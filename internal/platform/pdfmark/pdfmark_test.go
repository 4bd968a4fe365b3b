package pdfmark_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-pdf/fpdf"

	"portfolio/internal/platform/pdfmark"
)

// document is a real two-page PDF.
func document(t *testing.T) []byte {
	t.Helper()
	p := fpdf.New("P", "mm", "A4", "")
	for _, text := range []string{"Mietvertrag Seite eins", "Seite zwei"} {
		p.AddPage()
		p.SetFont("Helvetica", "", 12)
		p.Cell(40, 10, text)
	}
	var b bytes.Buffer
	if err := p.Output(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// signature is a small PNG with a stroke.
func signature(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 120, 40))
	for x := 10; x < 110; x++ {
		img.Set(x, 20+(x%7), color.Black)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// poppler runs a poppler-utils tool on b and answers its output.
func poppler(t *testing.T, tool string, b []byte, args ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.pdf")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	args = append(args, path)
	if tool == "pdftotext" {
		args = append(args, "-")
	}
	out, err := exec.Command(tool, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", tool, err, out)
	}
	return string(out)
}

func TestCheck(t *testing.T) {
	pages, err := pdfmark.Check(bytes.NewReader(document(t)))
	if err != nil || pages != 2 {
		t.Fatalf("a real PDF: %d pages, %v", pages, err)
	}
	for name, b := range map[string][]byte{
		"only the header": []byte("%PDF-1.4\nthis is not a PDF at all\n%%EOF\n"),
		"a GIF":           []byte("GIF89a........"),
		"truncated":       document(t)[:200],
	} {
		if _, err := pdfmark.Check(bytes.NewReader(b)); !errors.Is(err, pdfmark.ErrNotPDF) {
			t.Errorf("%s: %v, want ErrNotPDF", name, err)
		}
	}
}

func TestStampAndSign(t *testing.T) {
	orig := document(t)
	keep := append([]byte(nil), orig...)
	var stamped bytes.Buffer
	if err := pdfmark.Stamp(bytes.NewReader(orig), &stamped, []string{"Eingang 23.11.2026", "Ada Admin", "Ticket 17"}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(orig, keep) {
		t.Fatal("the original changed")
	}
	first := poppler(t, "pdftotext", stamped.Bytes(), "-f", "1", "-l", "1")
	for _, want := range []string{"Eingang 23.11.2026", "Ada Admin", "Ticket 17", "Mietvertrag Seite eins"} {
		if !strings.Contains(first, want) {
			t.Errorf("stamped first page lacks %q:\n%s", want, first)
		}
	}
	if second := poppler(t, "pdftotext", stamped.Bytes(), "-f", "2", "-l", "2"); strings.Contains(second, "Ticket 17") {
		t.Errorf("the second page is stamped too:\n%s", second)
	}
	if info := poppler(t, "pdfinfo", stamped.Bytes()); !strings.Contains(info, "Pages:           2") {
		t.Errorf("pdfinfo:\n%s", info)
	}

	sig, err := pdfmark.Image(signature(t), 2000)
	if err != nil {
		t.Fatal(err)
	}
	var signed bytes.Buffer
	if err := pdfmark.Sign(bytes.NewReader(orig), &signed, sig, []string{"Signed by Ada Admin", "2026-11-23 23:50 UTC"}); err != nil {
		t.Fatal(err)
	}
	text := poppler(t, "pdftotext", signed.Bytes(), "-f", "1", "-l", "1")
	if !strings.Contains(text, "Signed by Ada Admin") || !strings.Contains(text, "2026-11-23 23:50 UTC") {
		t.Errorf("signed first page:\n%s", text)
	}
	images := poppler(t, "pdfimages", signed.Bytes(), "-list")
	if !strings.Contains(images, "image") || strings.Count(images, "\n") < 3 {
		t.Errorf("the signed copy has no image:\n%s", images)
	}
	if _, err := pdfmark.Image([]byte("not an image"), 2000); !errors.Is(err, pdfmark.ErrNotImage) {
		t.Errorf("not an image: %v", err)
	}
}
