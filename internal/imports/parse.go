package imports

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"

	"portfolio/internal/apperr"
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
// and a first row that is no heading row answer 422 naming the problem.
func Parse(data []byte) (*Sheet, error) {
	var rows [][]string
	var err error
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		rows, err = readXLSX(data)
	case looksLikeText(data):
		rows, err = readCSV(data)
	default:
		return nil, fileError("server.imports.not_spreadsheet", nil)
	}
	if err != nil {
		return nil, err
	}
	return sheetOf(rows)
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

// readXLSX reads the first sheet row by row (excelize's streaming reader),
// cells as excelize formats them.
func readXLSX(data []byte) ([][]string, error) {
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		return nil, fileError("server.imports.not_spreadsheet", nil)
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, fileError("server.imports.empty", nil)
	}
	it, err := f.Rows(sheets[0])
	if err != nil {
		return nil, fileError("server.imports.not_spreadsheet", nil)
	}
	defer it.Close()
	var rows [][]string
	for it.Next() {
		cols, err := it.Columns()
		if err != nil {
			return nil, fileError("server.imports.not_spreadsheet", nil)
		}
		rows = append(rows, cols)
	}
	if err := it.Error(); err != nil {
		return nil, fileError("server.imports.not_spreadsheet", nil)
	}
	return rows, nil
}

// readCSV decodes data (UTF-8 with or without byte order mark, else
// Windows-1252) and splits it by the separator its first line uses most.
func readCSV(data []byte) ([][]string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	text := string(data)
	if !utf8.Valid(data) {
		dec, err := charmap.Windows1252.NewDecoder().Bytes(data)
		if err != nil {
			return nil, fileError("server.imports.not_spreadsheet", nil)
		}
		text = string(dec)
	}
	first, _, _ := strings.Cut(text, "\n")
	r := csv.NewReader(strings.NewReader(text))
	r.Comma = ','
	if strings.Count(first, ";") > strings.Count(first, ",") {
		r.Comma = ';'
	}
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	var rows [][]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			line := "?"
			if errors.As(err, &pe) {
				line = strconv.Itoa(pe.Line)
			}
			return nil, fileError("server.imports.bad_csv", map[string]string{"line": line})
		}
		rows = append(rows, rec)
	}
	return rows, nil
}

// sheetOf takes the first non-empty row as the headings and keeps the
// non-empty rows below it.
func sheetOf(rows [][]string) (*Sheet, error) {
	start := -1
	for i, r := range rows {
		if !blank(r) {
			start = i
			break
		}
	}
	if start < 0 {
		return nil, fileError("server.imports.empty", nil)
	}
	heads := trimRight(rows[start])
	s := &Sheet{}
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
			return nil, fileError("server.imports.duplicate_heading", map[string]string{"heading": h, "column": columnName(i)})
		}
		seen[strings.ToLower(h)] = true
	}
	filled := len(seen)
	if numeric > 0 && numeric*2 >= filled {
		return nil, fileError("server.imports.no_heading", map[string]string{"line": strconv.Itoa(start + 1)})
	}
	for i := range heads {
		heads[i] = strings.TrimSpace(heads[i])
	}
	s.Headings = heads
	for i := start + 1; i < len(rows); i++ {
		r := rows[i]
		if blank(r) {
			continue
		}
		r = trimRight(r)
		for j, v := range r {
			if j >= len(heads) || heads[j] == "" {
				if strings.TrimSpace(v) != "" {
					return nil, fileError("server.imports.no_heading_column", map[string]string{"column": columnName(j), "line": strconv.Itoa(i + 1)})
				}
			}
		}
		if len(r) > len(heads) {
			r = r[:len(heads)]
		}
		s.Rows = append(s.Rows, r)
		s.Lines = append(s.Lines, i+1)
	}
	if len(s.Rows) == 0 {
		return nil, fileError("server.imports.empty", nil)
	}
	return s, nil
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
