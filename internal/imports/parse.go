package imports

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/transform"

	"portfolio/internal/apperr"
	"portfolio/internal/i18n"
)

// Sheet is a parsed spreadsheet: the headings of its first row and the
// cell texts of the rows below (empty rows left out; Lines holds each
// row's line number in the file, the heading being line 1).
type Sheet struct {
	Headings []string
	Rows     [][]string
	Lines    []int
}

// fileError is the 422 about the uploaded file itself.
func fileError(key string, args map[string]string) error {
	return apperr.Validation(apperr.FieldError{Field: "file", Key: key, Type: "value_error", Args: args})
}

// Parse reads an XLSX workbook (its first sheet) or a CSV text (UTF-8 or
// Windows-1252, separated by ";" or ","). Anything else, an empty sheet
// and a first row that is no heading row answer 422 naming the problem; a
// file past one of lim answers 413 as soon as the limit is crossed, in
// the language of ctx (decision 0067).
func Parse(ctx context.Context, data []byte, lim Limits) (*Sheet, error) {
	rd := reading{Limits: lim.orDefaults(), lang: i18n.LangFrom(ctx)}
	b := &sheetReader{reading: rd}
	var err error
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		err = rd.readXLSX(data, b)
	case looksLikeText(data):
		err = rd.readCSV(data, b)
	default:
		return nil, fileError("server.imports.not_spreadsheet", nil)
	}
	if err != nil {
		return nil, err
	}
	return b.done()
}

// looksLikeText reports whether the start of data can be a CSV text: no
// NUL bytes and no other control characters than tab, CR and LF.
func looksLikeText(data []byte) bool {
	head := data[:min(len(data), 8192)]
	for _, b := range head {
		if b < 0x20 && b != '\t' && b != '\r' && b != '\n' {
			return false
		}
	}
	return true
}

// openWorkbook checks an XLSX file against the limits (checkWorkbook)
// and opens it with excelize; the caller closes it, which removes the
// temporary files excelize made.
func (r reading) openWorkbook(data []byte) (*excelize.File, error) {
	if err := r.checkWorkbook(data); err != nil {
		return nil, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), r.options())
	if err != nil {
		if f != nil {
			_ = f.Close()
		}
		return nil, fileError("server.imports.not_spreadsheet", nil)
	}
	return f, nil
}

// readXLSX reads the first sheet.
func (r reading) readXLSX(data []byte, b *sheetReader) error {
	f, err := r.openWorkbook(data)
	if err != nil {
		return err
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return fileError("server.imports.empty", nil)
	}
	return readSheet(f, sheets[0], b)
}

// readSheet gives the rows of sheet to b one by one (excelize's streaming
// reader, cells as excelize formats them), stopping at the first error:
// nothing past a crossed limit is read.
func readSheet(f *excelize.File, sheet string, b *sheetReader) error {
	it, err := f.Rows(sheet)
	if err != nil {
		return fileError("server.imports.not_spreadsheet", nil)
	}
	defer it.Close()
	// The iterator also stops at each row number a row skips (an empty
	// line), so line is the row's number.
	for line := 1; it.Next(); line++ {
		if line > excelize.TotalRows {
			return b.tooManyRows(b.sheet)
		}
		cols, err := it.Columns()
		if err != nil {
			return fileError("server.imports.not_spreadsheet", nil)
		}
		if err := b.add(line, cols); err != nil {
			return err
		}
	}
	if err := it.Error(); err != nil {
		return fileError("server.imports.not_spreadsheet", nil)
	}
	return nil
}

// readCSV decodes data (UTF-8 with or without byte order mark, else
// Windows-1252) as a stream and splits it by the separator its first line
// uses most, giving b one record after the other.
func (r reading) readCSV(data []byte, b *sheetReader) error {
	if int64(len(data)) > r.csvBytes() {
		return r.csvTooLarge()
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var text io.Reader = bytes.NewReader(data)
	if !utf8.Valid(data) {
		text = transform.NewReader(text, charmap.Windows1252.NewDecoder())
	}
	// The separators are ASCII, the same bytes in both encodings.
	first, _, _ := bytes.Cut(data, []byte("\n"))
	in := &csvLines{r: text}
	cr := csv.NewReader(in)
	cr.Comma = ','
	if bytes.Count(first, []byte(";")) > bytes.Count(first, []byte(",")) {
		cr.Comma = ';'
	}
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true
	for line := 1; ; line++ {
		in.next(cr.InputOffset())
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if errors.Is(err, errLineTooLong) {
			return r.lineTooLong()
		}
		if err != nil {
			var pe *csv.ParseError
			at := "?"
			if errors.As(err, &pe) {
				at = strconv.Itoa(pe.Line)
			}
			return fileError("server.imports.bad_csv", map[string]string{"line": at})
		}
		if err := b.add(line, rec); err != nil {
			return err
		}
	}
}

// sheetReader builds a Sheet from its rows given in order, as they are
// read: the first non-empty row is the headings, the non-empty rows below
// it are kept. It refuses a row as soon as it crosses a limit: more than
// MaxRows rows below the headings, more than MaxCells cells, a row of
// more cells than a spreadsheet has columns.
type sheetReader struct {
	reading
	// sheet names the sheet in the limit messages (a contract
	// workbook's); empty for the one sheet of an upload.
	sheet string
	s     Sheet
	// heads is the heading row until the first row below it, when it is
	// checked (checked); headLine is its line.
	heads    []string
	headLine int
	checked  bool
	// filled counts the non-empty rows, the headings included; cells the
	// cells read of them.
	filled int
	cells  int
}

// add takes the row at line (1 the file's first).
func (b *sheetReader) add(line int, r []string) error {
	if len(r) > excelize.MaxColumns {
		return b.rowTooWide()
	}
	if blank(r) {
		return nil
	}
	b.filled++
	if b.cells += len(r); b.cells > b.MaxCells {
		return b.tooManyCells(b.sheet)
	}
	if b.filled == 1 {
		b.heads, b.headLine = r, line
		return nil
	}
	if err := b.checkHeadings(); err != nil {
		return err
	}
	if len(b.s.Rows) >= b.MaxRows {
		return b.tooManyRows(b.sheet)
	}
	heads := b.s.Headings
	r = trimRight(r)
	for j, v := range r {
		if j >= len(heads) || heads[j] == "" {
			if strings.TrimSpace(v) != "" {
				return fileError("server.imports.no_heading_column", map[string]string{"column": columnName(j), "line": strconv.Itoa(line)})
			}
		}
	}
	if len(r) > len(heads) {
		r = r[:len(heads)]
	}
	b.s.Rows = append(b.s.Rows, r)
	b.s.Lines = append(b.s.Lines, line)
	return nil
}

// checkHeadings checks the heading row once: no heading twice, and
// headings rather than values.
func (b *sheetReader) checkHeadings() error {
	if b.checked {
		return nil
	}
	b.checked = true
	heads := trimRight(b.heads)
	seen := map[string]bool{}
	numeric := 0
	for i, h := range heads {
		h = strings.TrimSpace(h)
		if h == "" {
			continue
		}
		if looksLikeValue(h) {
			numeric++
		}
		if seen[strings.ToLower(h)] {
			return fileError("server.imports.duplicate_heading", map[string]string{"heading": h, "column": columnName(i)})
		}
		seen[strings.ToLower(h)] = true
	}
	filled := len(seen)
	if numeric > 0 && numeric*2 >= filled {
		return fileError("server.imports.no_heading", map[string]string{"line": strconv.Itoa(b.headLine)})
	}
	for i := range heads {
		heads[i] = strings.TrimSpace(heads[i])
	}
	b.s.Headings = heads
	b.heads = nil
	return nil
}

// done is the sheet read: an empty one, or one with headings only,
// answers 422.
func (b *sheetReader) done() (*Sheet, error) {
	if b.filled == 0 {
		return nil, fileError("server.imports.empty", nil)
	}
	if err := b.checkHeadings(); err != nil {
		return nil, err
	}
	if len(b.s.Rows) == 0 {
		return nil, fileError("server.imports.empty", nil)
	}
	return &b.s, nil
}

func blank(r []string) bool {
	for _, v := range r {
		if strings.TrimSpace(v) != "" {
			return false
		}
	}
	return true
}

func trimRight(r []string) []string {
	n := len(r)
	for n > 0 && strings.TrimSpace(r[n-1]) == "" {
		n--
	}
	return r[:n]
}

// looksLikeValue reports whether a heading cell is rather a value: a
// number or a date.
func looksLikeValue(s string) bool {
	if _, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", "."), 64); err == nil {
		return true
	}
	_, ok := parseDate(s)
	return ok
}

// columnName is the spreadsheet's name of column i (0: A).
func columnName(i int) string {
	name, err := excelize.ColumnNumberToName(i + 1)
	if err != nil {
		return fmt.Sprint(i + 1)
	}
	return name
}
