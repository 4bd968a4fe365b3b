package imports

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/schema"
	"portfolio/internal/tables"
)

// The contract workbook (/app/import-contract): contracts with their
// areas, deadlines and recurring payments from one XLSX workbook, a sheet
// per part, the rows of the other sheets joined to their contract by the
// contract key column. Every row is written through the engine's module
// API (CreateIn, LinkIn) in one transaction, so the contracts module's
// rules (its write hooks: deadline notice dates, status transitions, the
// contract's dates) apply as on the contract screens; any refused row
// rolls everything back.

// contractPart is one sheet of the contract workbook.
type contractPart struct {
	key    string // contract, area, deadline, payment
	entity string // the entity created, "" for the area links
	// relation is the contract's relation the area rows link through.
	relation string
	link     *schema.Link
}

const (
	partContract = "contract"
	partArea     = "area"
	partDeadline = "deadline"
	partPayment  = "payment"
	// contractAreaRelation is the contract's relation to its areas.
	contractAreaRelation = "contract_area_rel"
	contractAreaLink     = "contract_area"
)

// contractParts are the sheets in the workbook's order.
var contractParts = []contractPart{
	{key: partContract, entity: "contract"},
	{key: partArea, relation: contractAreaRelation},
	{key: partDeadline, entity: "contractaction"},
	{key: partPayment, entity: "recurringpayment"},
}

// ContractRowError is one refused value of one row of the contract
// workbook: the sheet (its name in the file), the row's line, where
// (["<sheet>", line, field]), the column and the message.
type ContractRowError struct {
	Sheet  string `json:"sheet"`
	Row    int    `json:"row"`
	Loc    []any  `json:"loc"`
	Column string `json:"column,omitempty"`
	Msg    string `json:"msg"`
	Type   string `json:"type,omitempty"`
}

// ContractAnswer is the answer of a contract workbook's validation or
// commit: the rows per part that are (or were) written and the row errors.
type ContractAnswer struct {
	Rows      map[string]int     `json:"rows"`
	Valid     map[string]int     `json:"valid"`
	Errors    []ContractRowError `json:"errors"`
	Committed bool               `json:"committed"`
	// Contracts are the keys of the contracts created, by contract key.
	Contracts map[string]int64 `json:"contracts,omitempty"`
	// ImportID is the import a commit is listed as (GET /imports), which
	// names it in the history rows and can be undone.
	ImportID int64 `json:"import_id,omitempty"`
}

// ContractWorkbookEntity is the entity of a contract workbook's import in
// the list of imports: its records span contracts, deadlines, recurring
// payments and area links.
const ContractWorkbookEntity = "contract_workbook"

// workbookEntities are the entities whose created records a contract
// workbook import keeps (one chunk each, in this order); its area links
// go with their contract.
var workbookEntities = []string{"contract", "contractaction", "recurringpayment"}

// cpart is a part found in the uploaded workbook with its columns.
type cpart struct {
	contractPart
	sheet  string
	parsed *Sheet
	keyIdx int
	cols   []column
	refs   map[string]map[string][]int64
}

// partFields are the fields a sheet of part p may fill: the entity's
// importable fields, or for the areas the area and the link's values.
func (s *Service) partFields(p contractPart) ([]*schema.Field, *schema.Entity, error) {
	if p.entity != "" {
		ent, ok := s.engine.Registry().Entity(p.entity)
		if !ok {
			return nil, nil, fmt.Errorf("imports: no entity %s", p.entity)
		}
		var out []*schema.Field
		for i := range ent.Fields {
			f := &ent.Fields[i]
			if importField(ent, f) && f.Name != "contract_id" {
				out = append(out, f)
			}
		}
		return out, ent, nil
	}
	l, ok := s.engine.Registry().Link(contractAreaLink)
	if !ok {
		return nil, nil, errors.New("imports: no contract_area link")
	}
	out := []*schema.Field{{Name: l.Right.Column, Label: "Area", Ref: l.Right.Entity, Type: schema.TypeInt}}
	for i := range l.Attrs {
		out = append(out, &l.Attrs[i])
	}
	return out, nil, nil
}

// partLabels are the labels of part p's fields in lang: the entity's as
// its screens name them, or for the area links the attribute labels of
// the link's columns (attribute_i18n, an administrator's edits included),
// falling back to the definitions' English labels.
func (s *Service) partLabels(ctx context.Context, p contractPart, fields []*schema.Field, ent *schema.Entity, lang string) (map[string]string, error) {
	if ent != nil {
		return s.engine.FieldLabels(ctx, ent.Name, lang)
	}
	fn, err := tables.LabelFunc(ctx, s.db, lang)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, f := range fields {
		if label := fn(f.Name, f.Label); label != "" {
			out[f.Name] = label
		}
	}
	return out, nil
}

// sheetTitle is the name of part's sheet in lang.
func (s *Service) sheetTitle(lang, part string) string {
	return s.catalog.T(lang, "server.imports.sheet_"+part, nil)
}

// partOf finds the part a sheet name names: its key or its title in any
// language (letters and digits, case ignored).
func (s *Service) partOf(name string) (contractPart, bool) {
	for _, p := range contractParts {
		if fold(name) == fold(p.key) {
			return p, true
		}
		for _, lang := range i18n.Languages {
			if fold(name) == fold(s.sheetTitle(lang, p.key)) {
				return p, true
			}
		}
	}
	return contractPart{}, false
}

// isKeyHeading reports whether heading is the contract key column.
func (s *Service) isKeyHeading(h string) bool {
	if fold(h) == "contractkey" {
		return true
	}
	for _, lang := range i18n.Languages {
		if fold(h) == fold(s.catalog.T(lang, "server.imports.contract_key", nil)) {
			return true
		}
	}
	return false
}

// matchColumns maps the headings of a sheet of part to its fields: the
// key column, then each heading to the field whose name or label (in
// English, German or French) it is. A heading matching nothing answers
// 422 naming the sheet and the column.
func (s *Service) matchColumns(ctx context.Context, cp *cpart) error {
	fields, ent, err := s.partFields(cp.contractPart)
	if err != nil {
		return err
	}
	names := map[string]*schema.Field{}
	add := func(key string, f *schema.Field) {
		if k := fold(key); k != "" {
			if _, taken := names[k]; !taken {
				names[k] = f
			}
		}
	}
	for _, f := range fields {
		add(f.Name, f)
		if ent != nil {
			add(strings.TrimPrefix(f.Name, ent.Name+"_"), f)
		}
		add(f.Label, f)
	}
	for _, lang := range i18n.Languages {
		labels, err := s.partLabels(ctx, cp.contractPart, fields, ent, lang)
		if err != nil {
			return err
		}
		for _, f := range fields {
			add(labels[f.Name], f)
		}
	}
	cp.keyIdx = -1
	used := map[string]string{}
	var errs []apperr.FieldError
	for i, h := range cp.parsed.Headings {
		if h == "" {
			continue
		}
		if s.isKeyHeading(h) && cp.keyIdx < 0 {
			cp.keyIdx = i
			continue
		}
		f, ok := names[fold(h)]
		loc := []any{"file", cp.sheet, columnName(i)}
		switch {
		case !ok:
			errs = append(errs, apperr.FieldError{Field: "file", Loc: loc, Key: "server.imports.sheet_unknown_column", Type: "value_error",
				Args: map[string]string{"sheet": cp.sheet, "column": h}})
		case used[f.Name] != "":
			errs = append(errs, apperr.FieldError{Field: "file", Loc: loc, Key: "server.imports.mapped_twice", Type: "value_error",
				Args: map[string]string{"field": f.Name, "column": h, "other": used[f.Name]}})
		default:
			used[f.Name] = h
			cp.cols = append(cp.cols, column{idx: i, heading: h, field: f})
		}
	}
	if cp.keyIdx < 0 {
		errs = append(errs, apperr.FieldError{Field: "file", Loc: []any{"file", cp.sheet}, Key: "server.imports.sheet_no_key", Type: "missing",
			Args: map[string]string{"sheet": cp.sheet, "column": s.catalog.T(i18n.LangFrom(ctx), "server.imports.contract_key", nil)}})
	}
	if len(errs) > 0 {
		return apperr.Validation(errs...)
	}
	return nil
}

// readContractWorkbook parses the parts of an XLSX contract workbook. A
// file that is no XLSX workbook, one without a contract sheet, a sheet
// without a heading row and an empty contract sheet answer 422; empty
// sheets of the other parts are left out. The workbook and each sheet it
// reads are held to the service's limits (413, decision 0067).
func (s *Service) readContractWorkbook(ctx context.Context, data []byte) ([]*cpart, error) {
	if !bytes.HasPrefix(data, []byte("PK\x03\x04")) {
		return nil, fileError("server.imports.not_workbook", nil)
	}
	rd := reading{Limits: s.limits, lang: i18n.LangFrom(ctx)}
	f, err := rd.openWorkbook(data)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*cpart
	seen := map[string]string{}
	for _, name := range f.GetSheetList() {
		p, ok := s.partOf(name)
		if !ok {
			continue // the lists of allowed values, notes
		}
		if other, dup := seen[p.key]; dup {
			return nil, fileError("server.imports.sheet_twice", map[string]string{"sheet": name, "other": other})
		}
		seen[p.key] = name
		b := &sheetReader{reading: rd, sheet: name}
		if err := readSheet(f, name, b); err != nil {
			return nil, inSheet(err, name)
		}
		if p.key != partContract && b.filled <= 1 {
			continue
		}
		sh, err := b.done()
		if err != nil {
			return nil, inSheet(err, name)
		}
		cp := &cpart{contractPart: p, sheet: name, parsed: sh, refs: map[string]map[string][]int64{}}
		if err := s.matchColumns(ctx, cp); err != nil {
			return nil, err
		}
		out = append(out, cp)
	}
	if _, ok := seen[partContract]; !ok {
		return nil, fileError("server.imports.no_contract_sheet", map[string]string{"sheet": s.sheetTitle(i18n.LangFrom(ctx), partContract)})
	}
	slices.SortStableFunc(out, func(a, b *cpart) int { return partIndex(a.key) - partIndex(b.key) })
	return out, nil
}

func partIndex(key string) int {
	return slices.IndexFunc(contractParts, func(p contractPart) bool { return p.key == key })
}

// inSheet puts the sheet's name into the location of a file error.
func inSheet(err error, sheet string) error {
	ae, ok := apperr.As(err)
	if !ok || ae.Kind != apperr.KindValidation {
		return err
	}
	fields := make([]apperr.FieldError, 0, len(ae.Fields))
	for _, f := range ae.Fields {
		if f.Key == "server.imports.not_spreadsheet" {
			// About the file, not the sheet: excelize could not read it.
			fields = append(fields, f)
			continue
		}
		args := map[string]string{"sheet": sheet}
		maps.Copy(args, f.Args)
		f.Args = args
		f.Loc = []any{"file", sheet}
		f.Key = f.Key + "_in_sheet"
		fields = append(fields, f)
	}
	return apperr.Validation(fields...)
}

// resolveParts looks up, within the caller's tenant, the rows the
// reference columns name, once per distinct text and sheet.
func (s *Service) resolveParts(ctx context.Context, parts []*cpart) error {
	for _, cp := range parts {
		for _, c := range cp.cols {
			if c.field.Ref == "" {
				continue
			}
			texts := map[string]bool{}
			for _, r := range cp.parsed.Rows {
				if c.idx < len(r) && strings.TrimSpace(r[c.idx]) != "" {
					texts[strings.TrimSpace(r[c.idx])] = true
				}
			}
			found, err := s.engine.ResolveLabels(ctx, s.db, c.field.Ref, alsoKeys(c.field.Ref), slices.Sorted(maps.Keys(texts)))
			if err != nil {
				return err
			}
			cp.refs[c.field.Name] = found
		}
	}
	return nil
}

// contractRun is one pass over the workbook's rows in a transaction.
type contractRun struct {
	s    *Service
	lang string
	ans  *ContractAnswer
	// created are the records written, by entity (workbookEntities).
	created map[string][]int64
}

func (r *contractRun) rowError(cp *cpart, line int, field, column, key, typ string, args map[string]string) {
	a := map[string]string{"column": column, "sheet": cp.sheet}
	maps.Copy(a, args)
	r.ans.Errors = append(r.ans.Errors, ContractRowError{Sheet: cp.sheet, Row: line, Loc: []any{cp.sheet, line, field}, Column: column,
		Type: typ, Msg: r.s.catalog.T(r.lang, key, a)})
}

// refused records the engine's refusal of a row as row errors; an error
// that is no validation is answered as it is.
func (r *contractRun) refused(cp *cpart, line int, err error) error {
	ae, ok := apperr.As(err)
	if !ok || ae.Kind != apperr.KindValidation || len(ae.Fields) == 0 {
		return err
	}
	for _, f := range ae.Fields {
		column := ""
		for _, c := range cp.cols {
			if c.field.Name == f.Field {
				column = c.heading
			}
		}
		r.ans.Errors = append(r.ans.Errors, ContractRowError{Sheet: cp.sheet, Row: line, Loc: []any{cp.sheet, line, f.Field}, Column: column,
			Type: f.Type, Msg: r.s.fieldMessage(r.lang, f)})
	}
	return nil
}

// values turns row i of cp into the values of a write, recording the
// row's unknown or ambiguous references (ok false).
func (r *contractRun) values(cp *cpart, i int) (map[string]any, bool) {
	row, line := cp.parsed.Rows[i], cp.parsed.Lines[i]
	data := map[string]any{}
	ok := true
	for _, c := range cp.cols {
		if c.idx >= len(row) || strings.TrimSpace(row[c.idx]) == "" {
			continue
		}
		cell := row[c.idx]
		if c.field.Ref == "" {
			data[c.field.Name] = cellValue(c.field, cell)
			continue
		}
		text := strings.TrimSpace(cell)
		ids := cp.refs[c.field.Name][text]
		switch {
		case len(ids) == 1:
			data[c.field.Name] = ids[0]
		case len(ids) > 1:
			r.rowError(cp, line, c.field.Name, c.heading, "server.imports.ambiguous_reference", "ambiguous_reference",
				map[string]string{"value": text, "count": strconv.Itoa(len(ids))})
			ok = false
		default:
			if n, err := strconv.ParseInt(text, 10, 64); err == nil && n > 0 {
				data[c.field.Name] = n
				continue
			}
			r.rowError(cp, line, c.field.Name, c.heading, "server.imports.unknown_reference", "unknown_reference", map[string]string{"value": text})
			ok = false
		}
	}
	return data, ok
}

// rowKey is the contract key of row i of cp ("" when empty).
func (cp *cpart) rowKey(i int) string {
	row := cp.parsed.Rows[i]
	if cp.keyIdx >= len(row) {
		return ""
	}
	return strings.TrimSpace(row[cp.keyIdx])
}

// write creates the workbook's rows inside tx: the contracts first (each
// key once), then each other part's rows for the contract their key
// names. Refused rows become row errors; the rows of a contract that was
// refused are not tried (its errors say why).
func (r *contractRun) write(ctx context.Context, tx *db.Tx, parts []*cpart) error {
	contracts := map[string]int64{}
	refusedKeys := map[string]bool{}
	for _, cp := range parts {
		r.ans.Rows[cp.key] = len(cp.parsed.Rows)
		r.ans.Valid[cp.key] = 0
		keyHeading := cp.parsed.Headings[cp.keyIdx]
		for i := range cp.parsed.Rows {
			line := cp.parsed.Lines[i]
			key := cp.rowKey(i)
			if key == "" {
				r.rowError(cp, line, "contract_key", keyHeading, "server.imports.no_contract_key", "missing", nil)
				continue
			}
			if cp.key == partContract {
				if _, dup := contracts[key]; dup || refusedKeys[key] {
					r.rowError(cp, line, "contract_key", keyHeading, "server.imports.contract_key_twice", "value_error", map[string]string{"value": key})
					continue
				}
				data, ok := r.values(cp, i)
				if !ok {
					refusedKeys[key] = true
					continue
				}
				id, err := r.s.engine.CreateIn(ctx, tx, cp.entity, data)
				if err != nil {
					refusedKeys[key] = true
					if err := r.refused(cp, line, err); err != nil {
						return err
					}
					continue
				}
				contracts[key] = id
				r.created[cp.entity] = append(r.created[cp.entity], id)
				r.ans.Valid[cp.key]++
				continue
			}
			contract, ok := contracts[key]
			if !ok {
				if !refusedKeys[key] {
					r.rowError(cp, line, "contract_key", keyHeading, "server.imports.unknown_contract_key", "unknown_reference", map[string]string{"value": key})
				}
				continue
			}
			data, ok := r.values(cp, i)
			if !ok {
				continue
			}
			var err error
			if cp.relation != "" {
				_, err = r.s.engine.LinkIn(ctx, tx, tables.LinkCommand{Relation: cp.relation, OwnerID: contract, Data: data})
			} else {
				data["contract_id"] = contract
				var id int64
				if id, err = r.s.engine.CreateIn(ctx, tx, cp.entity, data); err == nil {
					r.created[cp.entity] = append(r.created[cp.entity], id)
				}
			}
			if err != nil {
				if err := r.refused(cp, line, err); err != nil {
					return err
				}
				continue
			}
			r.ans.Valid[cp.key]++
		}
	}
	r.ans.Contracts = contracts
	return nil
}

// ContractWorkbook validates (commit false) or imports a contract
// workbook for the caller: every row through the engine's module API in
// one transaction, rolled back after a validation or when any row was
// refused (the commit then answers 422 naming sheet, row and field).
//
// A commit is kept as an import of the caller (ContractWorkbookEntity,
// listed by GET /imports) created in the same transaction: every history
// row the commit writes names it ("import <id>: <file>"), and it can be
// undone while nobody changed its records (UndoContractWorkbook).
func (s *Service) ContractWorkbook(ctx context.Context, fileName string, data []byte, commit bool) (*ContractAnswer, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	for _, e := range []string{"contract", "contractaction", "recurringpayment"} {
		if err := s.engine.Require(ctx, "create", e); err != nil {
			return nil, err
		}
	}
	parts, err := s.readContractWorkbook(ctx, data)
	if err != nil {
		return nil, err
	}
	if err := s.resolveParts(ctx, parts); err != nil {
		return nil, err
	}
	run := &contractRun{s: s, lang: i18n.LangFrom(ctx), ans: &ContractAnswer{Rows: map[string]int{}, Valid: map[string]int{}, Errors: []ContractRowError{}},
		created: map[string][]int64{}}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		wctx := ctx
		var id int64
		if commit {
			var err error
			if id, err = s.insertWorkbookImport(ctx, tx, p.UserID, fileName, parts); err != nil {
				return err
			}
			wctx = tables.WithHistoryNote(ctx, workbookNote(id, fileName))
		}
		if err := run.write(wctx, tx, parts); err != nil {
			return err
		}
		if !commit || len(run.ans.Errors) > 0 {
			return errRollback
		}
		run.ans.ImportID = id
		return s.finishWorkbookImport(wctx, tx, id, run)
	})
	if err != nil && !errors.Is(err, errRollback) {
		return nil, err
	}
	ans := run.ans
	slices.SortStableFunc(ans.Errors, func(a, b ContractRowError) int {
		if d := partIndexBySheet(parts, a.Sheet) - partIndexBySheet(parts, b.Sheet); d != 0 {
			return d
		}
		return a.Row - b.Row
	})
	if len(ans.Errors) > maxReport {
		ans.Errors = ans.Errors[:maxReport]
	}
	if commit && len(ans.Errors) > 0 {
		fields := make([]apperr.FieldError, 0, len(ans.Errors))
		for _, e := range ans.Errors {
			field, _ := e.Loc[2].(string)
			fields = append(fields, apperr.FieldError{Field: field, Loc: e.Loc, Message: e.Msg, Type: e.Type})
		}
		return nil, apperr.Validation(fields...)
	}
	if !commit {
		ans.Contracts = nil
	} else {
		ans.Committed = true
	}
	return ans, nil
}

func partIndexBySheet(parts []*cpart, sheet string) int {
	for i, cp := range parts {
		if cp.sheet == sheet {
			return i
		}
	}
	return len(parts)
}

// contractUpload serves POST /imports-contract/validate and /commit: the
// multipart field file.
func (h *handler) contractUpload(commit bool) func(w http.ResponseWriter, r *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		name, data, err := readFile(r)
		if err != nil {
			return err
		}
		ans, err := h.s.ContractWorkbook(r.Context(), name, data, commit)
		if err != nil {
			return err
		}
		status := http.StatusOK
		if commit {
			status = http.StatusCreated
		}
		httpapi.WriteJSON(w, status, ans)
		return nil
	}
}

// contractTemplate serves GET /imports-contract/template.
func (h *handler) contractTemplate(w http.ResponseWriter, r *http.Request) error {
	b, err := h.s.ContractTemplate(r.Context())
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	w.Header().Set("Content-Disposition", `attachment; filename="contract-import.xlsx"`)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(b)
	return err
}

// ContractTemplate is the contract workbook to fill: a sheet per part
// (named in the request's language), each headed by the contract key and
// the labels of the fields it fills, required ones marked by the order of
// the definitions, and for each field with fixed options a drop-down list
// of them (from the sheet "Lists"). Its sheets and headings are
// recognised on upload.
func (s *Service) ContractTemplate(ctx context.Context) ([]byte, error) {
	for _, e := range []string{"contract", "contractaction", "recurringpayment"} {
		if err := s.engine.Require(ctx, "create", e); err != nil {
			return nil, err
		}
	}
	lang := i18n.LangFrom(ctx)
	f := excelize.NewFile()
	defer f.Close()
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return nil, fmt.Errorf("imports: template: %w", err)
	}
	first := f.GetSheetName(0)
	lists := &listSheet{f: f, name: "Lists"}
	// The part sheets first, the lists after them.
	for n, p := range contractParts {
		sheet := s.sheetTitle(lang, p.key)
		if n == 0 {
			if err := f.SetSheetName(first, sheet); err != nil {
				return nil, fmt.Errorf("imports: template: %w", err)
			}
		} else if _, err := f.NewSheet(sheet); err != nil {
			return nil, fmt.Errorf("imports: template: %w", err)
		}
	}
	for _, p := range contractParts {
		sheet := s.sheetTitle(lang, p.key)
		fields, ent, err := s.partFields(p)
		if err != nil {
			return nil, err
		}
		labels, err := s.partLabels(ctx, p, fields, ent, lang)
		if err != nil {
			return nil, err
		}
		headings := []string{s.catalog.T(lang, "server.imports.contract_key", nil)}
		for _, fd := range fields {
			label := labels[fd.Name]
			if label == "" {
				label = fd.Label
			}
			if label == "" {
				label = fd.Name
			}
			headings = append(headings, label)
		}
		for i, h := range headings {
			cell, _ := excelize.CoordinatesToCellName(i+1, 1)
			if err := f.SetCellValue(sheet, cell, h); err != nil {
				return nil, fmt.Errorf("imports: template: %w", err)
			}
			if err := f.SetCellStyle(sheet, cell, cell, bold); err != nil {
				return nil, fmt.Errorf("imports: template: %w", err)
			}
		}
		for i, fd := range fields {
			if len(fd.Options) == 0 {
				continue
			}
			values := make([]string, len(fd.Options))
			for j, o := range fd.Options {
				values[j] = o.Label
			}
			if err := lists.dropDown(sheet, i+2, headings[i+1], values); err != nil {
				return nil, err
			}
		}
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		return nil, fmt.Errorf("imports: template: %w", err)
	}
	return buf.Bytes(), nil
}

// listSheet holds the allowed values of a template's columns, one column
// each, which the columns' data validation lists.
type listSheet struct {
	f    *excelize.File
	name string
	cols int
}

// dropDown lists values in a new column of the list sheet and makes
// column col of sheet (1: A) offer them from row 2 on.
func (l *listSheet) dropDown(sheet string, col int, title string, values []string) error {
	if l.cols == 0 {
		if _, err := l.f.NewSheet(l.name); err != nil {
			return fmt.Errorf("imports: template: %w", err)
		}
	}
	l.cols++
	colName, _ := excelize.ColumnNumberToName(l.cols)
	if err := l.f.SetCellValue(l.name, colName+"1", sheet+": "+title); err != nil {
		return fmt.Errorf("imports: template: %w", err)
	}
	for j, v := range values {
		if err := l.f.SetCellValue(l.name, fmt.Sprintf("%s%d", colName, j+2), v); err != nil {
			return fmt.Errorf("imports: template: %w", err)
		}
	}
	dv := excelize.NewDataValidation(true)
	target, _ := excelize.ColumnNumberToName(col)
	dv.Sqref = fmt.Sprintf("%s2:%s%d", target, target, templateRows)
	dv.SetSqrefDropList(fmt.Sprintf("%s!$%s$2:$%s$%d", l.name, colName, colName, len(values)+1))
	if err := l.f.AddDataValidation(sheet, dv); err != nil {
		return fmt.Errorf("imports: template: %w", err)
	}
	return nil
}

// readFile reads the multipart field file of a request.
func readFile(r *http.Request) (string, []byte, error) {
	noFile := apperr.Validation(apperr.FieldError{Field: "file", Key: "server.imports.no_file", Type: "missing"})
	if err := r.ParseMultipartForm(8 << 20); err != nil {
		return "", nil, readError(err, noFile)
	}
	file, header, err := r.FormFile("file")
	if err != nil {
		return "", nil, noFile
	}
	defer file.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(file); err != nil {
		return "", nil, readError(err, noFile)
	}
	name := filepath.Base(header.Filename)
	if name == "" || name == "." || name == "/" {
		name = "workbook.xlsx"
	}
	return name, buf.Bytes(), nil
}
