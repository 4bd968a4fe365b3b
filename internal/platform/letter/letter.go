// Package letter renders business letters as PDF files: the sender line and
// the recipient's address where a DIN 5008 window envelope shows them,
// place and date, a subject, a body written as simple HTML (the content of
// the editable text templates), an optional table of figures and a closing.
// Texts are UTF-8; the letters use the PDF core fonts, so every character
// of Windows-1252 (German, French and English text, the euro sign) prints
// and nothing needs to be embedded.
package letter

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"
)

// Letter is what one letter says.
type Letter struct {
	// Lang is the document's language (de, fr, en), Title its title in the
	// file's properties.
	Lang, Title string
	// Sender and Recipient are address lines, first line first.
	Sender, Recipient []string
	// Place and Date print right-aligned above the subject ("Köln,
	// 23.11.2026"); Date is already formatted in the letter's language.
	Place, Date string
	// Info are the blocks of the information block right of the address
	// field (DIN 5008: references, contact, dates), plain text, lines
	// separated by newlines; at most five are printed.
	Info    []string
	Subject string
	// Body and Closing are HTML (see blocks); Facts print between them.
	Body    string
	Facts   []Fact
	Closing string
	// Footer is small print at the bottom of every page (a source's
	// attribution); PageLabel names the page count ("Seite %d von %s").
	Footer, PageLabel string
	// Created is the creation date written into the file (zero: now).
	Created time.Time
}

// Fact is one row of the table of figures: a label and its value.
type Fact struct{ Label, Value string }

// Page geometry in millimetres (DIN 5008 form B: the address field starts
// 45 mm from the top edge, 20 mm from the left).
const (
	marginLeft   = 25.0
	marginRight  = 20.0
	marginTop    = 20.0
	marginBottom = 25.0
	addressTop   = 45.0
	addressWidth = 85.0
	subjectTop   = 100.0
	lineHeight   = 5.2
	bodySize     = 10.5
	smallSize    = 7.5
	// maxInfoBlocks is how many blocks the information block holds.
	maxInfoBlocks = 5
)

// Render writes the letter as a PDF file to w.
func Render(w io.Writer, l Letter) error {
	pdf := fpdf.New("P", "mm", "A4", "")
	tr := pdf.UnicodeTranslatorFromDescriptor("") // cp1252, embedded in fpdf
	p := &printer{pdf: pdf, tr: tr}
	pdf.SetMargins(marginLeft, marginTop, marginRight)
	pdf.SetAutoPageBreak(true, marginBottom)
	pdf.SetTitle(l.Title, true)
	pdf.SetLang(l.Lang)
	pdf.SetCreator("Portfolio", true)
	created := l.Created
	if created.IsZero() {
		created = time.Now()
	}
	pdf.SetCreationDate(created)
	pdf.SetModificationDate(created)
	pdf.AliasNbPages("{nb}")
	pdf.SetFooterFunc(func() { p.footer(l) })
	pdf.AddPage()

	p.header(l)
	p.html(l.Body)
	p.facts(l.Facts)
	p.html(l.Closing)
	if err := pdf.Error(); err != nil {
		return fmt.Errorf("letter: render: %w", err)
	}
	if err := pdf.Output(w); err != nil {
		return fmt.Errorf("letter: write: %w", err)
	}
	return nil
}

// Bytes renders the letter into memory.
func Bytes(l Letter) ([]byte, error) {
	var b bytes.Buffer
	if err := Render(&b, l); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// printer writes text with the letter's fonts, translated to cp1252.
type printer struct {
	pdf *fpdf.Fpdf
	tr  func(string) string
	// style is the current inline style (B, I, U), size the body size.
	style string
}

func (p *printer) font(style string, size float64) { p.pdf.SetFont("Helvetica", style, size) }

// header prints the sender line, the address field, place and date and the
// subject.
func (p *printer) header(l Letter) {
	pdf := p.pdf
	pdf.SetXY(marginLeft, addressTop)
	if len(l.Sender) > 0 {
		p.font("U", smallSize)
		pdf.CellFormat(addressWidth, 4, p.tr(strings.Join(l.Sender, " · ")), "", 1, "L", false, 0, "")
		pdf.Ln(2)
	}
	p.font("", bodySize)
	for _, line := range l.Recipient {
		pdf.SetX(marginLeft)
		pdf.CellFormat(addressWidth, lineHeight, p.tr(line), "", 1, "L", false, 0, "")
	}
	p.info(l.Info)
	when := strings.TrimSpace(strings.Join(nonEmpty(l.Place, l.Date), ", "))
	if when != "" {
		pdf.SetXY(marginLeft, subjectTop-12)
		width, _ := pdf.GetPageSize()
		pdf.CellFormat(width-marginLeft-marginRight, lineHeight, p.tr(when), "", 1, "R", false, 0, "")
	}
	pdf.SetXY(marginLeft, subjectTop)
	if l.Subject != "" {
		p.font("B", bodySize+1)
		pdf.MultiCell(0, lineHeight+0.6, p.tr(l.Subject), "", "L", false)
		pdf.Ln(lineHeight)
	}
	p.font("", bodySize)
}

// info prints the information block right of the address field, one
// block after the other with a small gap.
func (p *printer) info(blocks []string) {
	if len(blocks) == 0 {
		return
	}
	pdf := p.pdf
	width, _ := pdf.GetPageSize()
	x := marginLeft + addressWidth + 10
	pdf.SetXY(x, addressTop)
	p.font("", smallSize+1)
	for i, b := range nonEmpty(blocks...) {
		if i == maxInfoBlocks {
			break
		}
		pdf.SetX(x)
		pdf.MultiCell(width-marginRight-x, 3.8, p.tr(strings.TrimSpace(b)), "", "L", false)
		pdf.Ln(1.5)
	}
	p.font("", bodySize)
}

// facts prints the table of figures: labels left, values right-aligned.
func (p *printer) facts(rows []Fact) {
	if len(rows) == 0 {
		return
	}
	pdf := p.pdf
	width, _ := pdf.GetPageSize()
	usable := width - marginLeft - marginRight
	labelW, valueW := usable*0.62, usable*0.38
	pdf.Ln(1)
	for i, f := range rows {
		p.font("", bodySize)
		fill := i%2 == 0
		pdf.SetFillColor(242, 244, 247)
		pdf.CellFormat(labelW, lineHeight+1.2, p.tr(f.Label), "", 0, "L", fill, 0, "")
		p.font("B", bodySize)
		pdf.CellFormat(valueW, lineHeight+1.2, p.tr(f.Value), "", 1, "R", fill, 0, "")
	}
	p.font("", bodySize)
	pdf.Ln(lineHeight)
}

// footer prints the small print and the page number.
func (p *printer) footer(l Letter) {
	pdf := p.pdf
	pdf.SetY(-marginBottom + 6)
	p.font("", smallSize)
	pdf.SetTextColor(90, 90, 90)
	if l.Footer != "" {
		pdf.MultiCell(0, 3.4, p.tr(l.Footer), "", "L", false)
	}
	label := l.PageLabel
	if label == "" {
		label = "%d / %s"
	}
	pdf.CellFormat(0, 4, p.tr(fmt.Sprintf(label, pdf.PageNo(), "{nb}")), "", 0, "R", false, 0, "")
	pdf.SetTextColor(0, 0, 0)
}

func nonEmpty(s ...string) []string {
	out := s[:0:0]
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			out = append(out, v)
		}
	}
	return out
}
