package letter

import (
	"fmt"
	"strings"

	"golang.org/x/net/html"
)

// The body of a letter is the HTML the rich-text editor writes: paragraphs
// (p, div), line breaks, headings (h1 to h3), bold, italic and underlined
// runs, and bulleted or numbered lists. Other tags print their text only;
// scripts, styles and comments print nothing.

const listIndent = 6.0

// flow is the state of one HTML body while it prints.
type flow struct {
	p *printer
	// written reports whether the current line holds text; space whether a
	// space is owed before the next word.
	written, space               bool
	bold, italic, under, heading int
	lists                        []list
	skip                         int
}

type list struct {
	ordered bool
	n       int
}

// html prints src as flowing text at the current position.
func (p *printer) html(src string) {
	if strings.TrimSpace(src) == "" {
		return
	}
	f := &flow{p: p}
	z := html.NewTokenizer(strings.NewReader(src))
	for {
		switch z.Next() {
		case html.ErrorToken:
			f.endLine()
			return
		case html.TextToken:
			if f.skip == 0 {
				f.text(string(z.Text()))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			f.start(string(name))
		case html.EndTagToken:
			name, _ := z.TagName()
			f.end(string(name))
		}
	}
}

func (f *flow) start(tag string) {
	switch tag {
	case "script", "style", "head", "title":
		f.skip++
	case "p", "div":
		f.endLine()
	case "h1", "h2", "h3":
		f.endLine()
		f.heading++
	case "br":
		f.newLine()
	case "b", "strong":
		f.bold++
	case "i", "em":
		f.italic++
	case "u":
		f.under++
	case "ul", "ol":
		f.endLine()
		f.lists = append(f.lists, list{ordered: tag == "ol"})
		f.p.pdf.SetLeftMargin(marginLeft + listIndent*float64(len(f.lists)))
	case "li":
		f.endLine()
		f.bullet()
	}
}

func (f *flow) end(tag string) {
	switch tag {
	case "script", "style", "head", "title":
		f.skip = max(f.skip-1, 0)
	case "p", "div":
		f.endParagraph()
	case "h1", "h2", "h3":
		f.endParagraph()
		f.heading = max(f.heading-1, 0)
	case "b", "strong":
		f.bold = max(f.bold-1, 0)
	case "i", "em":
		f.italic = max(f.italic-1, 0)
	case "u":
		f.under = max(f.under-1, 0)
	case "li":
		f.endLine()
	case "ul", "ol":
		f.endLine()
		if n := len(f.lists); n > 0 {
			f.lists = f.lists[:n-1]
		}
		f.p.pdf.SetLeftMargin(marginLeft + listIndent*float64(len(f.lists)))
		if len(f.lists) == 0 {
			f.p.pdf.Ln(lineHeight / 2)
		}
	}
}

// bullet prints the marker of a list item in the indent before the text.
func (f *flow) bullet() {
	if len(f.lists) == 0 {
		return
	}
	l := &f.lists[len(f.lists)-1]
	l.n++
	marker := "•"
	if l.ordered {
		marker = fmt.Sprintf("%d.", l.n)
	}
	pdf := f.p.pdf
	f.p.font("", bodySize)
	left, _, _, _ := pdf.GetMargins()
	pdf.SetX(left - listIndent + 1)
	pdf.CellFormat(listIndent-1, lineHeight, f.p.tr(marker), "", 0, "L", false, 0, "")
	pdf.SetX(left)
}

// text prints a run of text with collapsed white space.
func (f *flow) text(s string) {
	words := strings.Fields(s)
	if len(words) == 0 {
		if s != "" && f.written {
			f.space = true
		}
		return
	}
	lead := s[0] == ' ' || s[0] == '\n' || s[0] == '\t' || s[0] == '\r'
	trail := strings.ContainsAny(s[len(s)-1:], " \n\t\r")
	run := strings.Join(words, " ")
	if f.written && (f.space || lead) {
		run = " " + run
	}
	f.setFont()
	f.p.pdf.Write(lineHeight, f.p.tr(run))
	f.written, f.space = true, trail
}

func (f *flow) setFont() {
	style := ""
	if f.bold > 0 || f.heading > 0 {
		style += "B"
	}
	if f.italic > 0 {
		style += "I"
	}
	if f.under > 0 {
		style += "U"
	}
	size := bodySize
	if f.heading > 0 {
		size = bodySize + 1.5
	}
	f.p.font(style, size)
}

// newLine ends the line (a <br>), even an empty one.
func (f *flow) newLine() {
	f.p.pdf.Ln(lineHeight)
	f.written, f.space = false, false
}

// endLine ends the current line when it holds text.
func (f *flow) endLine() {
	if f.written {
		f.newLine()
	}
}

// endParagraph ends the line and leaves a gap after the paragraph.
func (f *flow) endParagraph() {
	f.endLine()
	f.p.pdf.Ln(lineHeight * 0.6)
}
