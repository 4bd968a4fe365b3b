package tables

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"portfolio/internal/httpapi"
)

func (h *handler) export(w http.ResponseWriter, r *http.Request, req *apiRequest) error {
	q, err := req.listQuery()
	if err != nil {
		return err
	}
	ex, err := h.e.Export(r.Context(), ExportQuery{List: q, Format: strings.ToLower(req.Format)})
	if err != nil {
		return err
	}
	defer ex.Cursor.Close()
	w.Header().Set("Content-Disposition", `attachment; filename="`+ex.Filename+`"`)
	w.Header().Set("Cache-Control", "no-store")
	if ex.Format == "xlsx" {
		err = writeXLSX(w, ex)
	} else {
		err = writeCSV(w, ex)
	}
	if err != nil {
		h.log.Error("export failed", "error", err, "request", httpapi.RequestID(r.Context()))
	}
	return nil
}

// escapeFormula keeps spreadsheet programs from running text as a
// formula: a text cell starting with = + - @, a tab or a carriage return
// gets a leading single quote.
func escapeFormula(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// cells returns the current row's values for a file.
func cells(ex *Export, dst []any) []any {
	dst = dst[:0]
	for i := 0; i < ex.Cursor.Columns(); i++ {
		v := ex.Cursor.Cell(i)
		if s, ok := v.(string); ok && ex.Text[i] {
			v = escapeFormula(s)
		}
		dst = append(dst, v)
	}
	return dst
}

// writeCSV streams the export as UTF-8 CSV with a byte order mark (so
// spreadsheet programs detect the encoding), comma-separated, CRLF line
// ends, fields quoted when needed (RFC 4180).
func writeCSV(w http.ResponseWriter, ex *Export) error {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(w, 32<<10)
	bw.WriteString("\ufeff")
	cw := csv.NewWriter(bw)
	cw.UseCRLF = true
	header := make([]string, len(ex.Headers))
	for i, hd := range ex.Headers {
		header[i] = escapeFormula(hd)
	}
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("tables: write csv: %w", err)
	}
	record := make([]string, len(ex.Headers))
	var row []any
	for ex.Cursor.Next() {
		row = cells(ex, row)
		for i, v := range row {
			record[i] = csvText(v)
		}
		if err := cw.Write(record); err != nil {
			return fmt.Errorf("tables: write csv: %w", err)
		}
		if ex.Cursor.Rows()%flushEvery == 0 {
			cw.Flush()
		}
	}
	cw.Flush()
	if err := ex.Cursor.Err(); err != nil {
		return err
	}
	if err := cw.Error(); err != nil {
		return fmt.Errorf("tables: write csv: %w", err)
	}
	return bw.Flush()
}

func csvText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		return x
	}
	return fmt.Sprint(v)
}

// writeXLSX writes the export as one worksheet through excelize's stream
// writer (rows go to a temporary file, not memory), then sends the file.
func writeXLSX(w http.ResponseWriter, ex *Export) error {
	f := excelize.NewFile()
	defer f.Close()
	sheet := f.GetSheetName(0)
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return fmt.Errorf("tables: xlsx: %w", err)
	}
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return fmt.Errorf("tables: xlsx: %w", err)
	}
	header := make([]any, len(ex.Headers))
	for i, hd := range ex.Headers {
		header[i] = excelize.Cell{StyleID: bold, Value: escapeFormula(hd)}
	}
	if err := sw.SetRow("A1", header); err != nil {
		return fmt.Errorf("tables: xlsx: %w", err)
	}
	var row []any
	for ex.Cursor.Next() {
		row = cells(ex, row)
		cell, _ := excelize.CoordinatesToCellName(1, ex.Cursor.Rows()+1)
		if err := sw.SetRow(cell, row); err != nil {
			return fmt.Errorf("tables: xlsx: %w", err)
		}
	}
	if err := ex.Cursor.Err(); err != nil {
		return err
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("tables: xlsx: %w", err)
	}
	w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	w.WriteHeader(http.StatusOK)
	if _, err := f.WriteTo(w); err != nil {
		return fmt.Errorf("tables: xlsx: %w", err)
	}
	return nil
}
