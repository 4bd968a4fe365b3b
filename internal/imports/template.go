package imports

import (
	"bytes"
	"context"
	"fmt"
	"net/http"

	"github.com/xuri/excelize/v2"

	"portfolio/internal/i18n"
)

// templateRows is how far down the template's lists of allowed values
// apply.
const templateRows = 100001

// template serves GET /imports/template?entity=: a workbook to fill.
func (h *handler) template(w http.ResponseWriter, r *http.Request) error {
	entity := r.URL.Query().Get("entity")
	b, err := h.s.Template(r.Context(), entity)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	w.Header().Set("Content-Disposition", `attachment; filename="`+entity+`-import.xlsx"`)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(b)
	return err
}

// Template is a workbook for importing entity: one sheet headed by the
// labels (in the request's language) of the fields an import fills,
// required ones first as the definitions order them, and for each field
// with fixed options a drop-down list of them (from a second sheet). Its
// headings map themselves on upload. The caller needs the create right.
func (s *Service) Template(ctx context.Context, entity string) ([]byte, error) {
	ent, err := s.importable(entity)
	if err != nil {
		return nil, err
	}
	if err := s.engine.Require(ctx, "create", entity); err != nil {
		return nil, err
	}
	fields, err := s.fieldChoices(ctx, ent)
	if err != nil {
		return nil, err
	}
	f := excelize.NewFile()
	defer f.Close()
	sheet := s.catalog.T(i18n.LangFrom(ctx), "table."+entity, nil)
	if len(sheet) > 31 || sheet == "table."+entity {
		sheet = entity
	}
	if err := f.SetSheetName(f.GetSheetName(0), sheet); err != nil {
		return nil, fmt.Errorf("imports: template: %w", err)
	}
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return nil, fmt.Errorf("imports: template: %w", err)
	}
	lists := ""
	listCol := 0
	for i, fc := range fields {
		cell, _ := excelize.CoordinatesToCellName(i+1, 1)
		if err := f.SetCellValue(sheet, cell, fc.Label); err != nil {
			return nil, fmt.Errorf("imports: template: %w", err)
		}
		if err := f.SetCellStyle(sheet, cell, cell, bold); err != nil {
			return nil, fmt.Errorf("imports: template: %w", err)
		}
		field, ok := ent.Field(fc.Name)
		if !ok || len(field.Options) == 0 { // a relation's column (LinkColumns) names records, not options
			continue
		}
		if lists == "" {
			lists = "Lists"
			if _, err := f.NewSheet(lists); err != nil {
				return nil, fmt.Errorf("imports: template: %w", err)
			}
		}
		listCol++
		colName, _ := excelize.ColumnNumberToName(listCol)
		if err := f.SetCellValue(lists, colName+"1", fc.Label); err != nil {
			return nil, fmt.Errorf("imports: template: %w", err)
		}
		for j, o := range field.Options {
			if err := f.SetCellValue(lists, fmt.Sprintf("%s%d", colName, j+2), o.Label); err != nil {
				return nil, fmt.Errorf("imports: template: %w", err)
			}
		}
		dv := excelize.NewDataValidation(true)
		target, _ := excelize.ColumnNumberToName(i + 1)
		dv.Sqref = fmt.Sprintf("%s2:%s%d", target, target, templateRows)
		dv.SetSqrefDropList(fmt.Sprintf("%s!$%s$2:$%s$%d", lists, colName, colName, len(field.Options)+1))
		if err := f.AddDataValidation(sheet, dv); err != nil {
			return nil, fmt.Errorf("imports: template: %w", err)
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return nil, fmt.Errorf("imports: template: %w", err)
	}
	return buf.Bytes(), nil
}
