package tables

import (
	"context"
	"fmt"

	"portfolio/internal/apperr"
	"portfolio/internal/schema"
)

// MaxExportRows is the hard cap of one export; a filter selecting more
// rows is refused (422) rather than cut short silently.
const MaxExportRows = 1000000

// ExportQuery asks for a file of a list: the list's filter, keyword, sort
// and columns (paging is ignored: every matching row is exported). Format
// is csv or xlsx.
type ExportQuery struct {
	List   ListQuery
	Format string
}

// Export is an export ready to be written: the open cursor (every row), the
// translated column headers and the file name. The caller must close the
// cursor.
type Export struct {
	Cursor   *Cursor
	Headers  []string
	Filename string
	Format   string
	// Text marks the columns holding text (formula escaping applies).
	Text []bool
}

// Export checks q like a list and opens a cursor over every matching row.
// Foreign keys are exported as their labels; headers are the translated
// field labels.
func (e *Engine) Export(ctx context.Context, q ExportQuery) (*Export, error) {
	if q.Format != "csv" && q.Format != "xlsx" {
		return nil, apperr.Validation(apperr.FieldError{Field: "format", Key: "validation.one_of", Type: "enum",
			Args: map[string]string{"field": "format", "values": "csv, xlsx"}})
	}
	c, err := e.callerOf(ctx)
	if err != nil {
		return nil, err
	}
	t, err := e.resolveTarget(q.List.Entity)
	if err != nil {
		return nil, err
	}
	if err := e.authorizeList(c, t); err != nil {
		return nil, err
	}
	p, err := e.plan(ctx, c, t, q.List)
	if err != nil {
		return nil, err
	}
	p.limit, p.offset = 0, 0
	p.out = exportColumns(t.cat, p.out, q.List.Columns)
	n, err := e.count(ctx, e.db, e.env(), c, p)
	if err != nil {
		return nil, err
	}
	if n > MaxExportRows {
		return nil, apperr.Validation(apperr.FieldError{Field: "filter", Key: "server.tables.export.too_many", Type: "value_error",
			Args: map[string]string{"field": "filter", "max": fmt.Sprint(MaxExportRows)}})
	}
	attrs, err := e.servedAttributes(ctx, t, q.List.Lang)
	if err != nil {
		return nil, err
	}
	cur, err := e.open(ctx, e.db, c, p, false)
	if err != nil {
		return nil, err
	}
	ex := &Export{Cursor: cur, Format: q.Format,
		Filename: fmt.Sprintf("%s-%s.%s", q.List.Entity, e.now().UTC().Format("2006-01-02"), q.Format)}
	ex.Headers, ex.Text = exportHeaders(p.out, attrs)
	return ex, nil
}

// exportHeaders are the translated labels of the columns (a label column
// is headed by its foreign key's label) and which columns hold text.
func exportHeaders(cols []*colSpec, attrs []schema.AttributeDefinition) ([]string, []bool) {
	labels := map[string]string{}
	for _, a := range attrs {
		labels[a.Attribute] = a.AttributeI18n
	}
	headers, text := make([]string, 0, len(cols)), make([]bool, 0, len(cols))
	for _, col := range cols {
		name := col.name
		if col.kind == kindLabel || col.kind == kindThroughLabel {
			name = col.field.Name
		}
		headers = append(headers, firstOf(labels[name], name))
		text = append(text, col.text())
	}
	return headers, text
}

// exportColumns are the chosen columns exactly (names resolved by the
// plan), or every column but row_version and the labels; foreign keys are
// replaced by their labels.
func exportColumns(cat *catalog, cols []*colSpec, chosenNames []string) []*colSpec {
	chosen := len(chosenNames) > 0
	if chosen {
		cols = make([]*colSpec, 0, len(chosenNames))
		for _, name := range chosenNames {
			c, _ := cat.lookup(name)
			cols = append(cols, c)
		}
	}
	out := make([]*colSpec, 0, len(cols))
	seen := map[string]bool{}
	for _, c := range cols {
		if !chosen && (c.kind == kindVersion || c.kind == kindLabel || c.kind == kindThroughLabel) {
			continue
		}
		if (c.kind == kindField || c.kind == kindThrough) && c.field != nil && c.field.Ref != "" && c.field.Name != "" {
			if l, ok := cat.lookup(c.name + LabelSuffix); ok && !isKeyOf(c) {
				c = l
			}
		}
		if !seen[c.name] {
			seen[c.name] = true
			out = append(out, c)
		}
	}
	return out
}

// isKeyOf reports whether c is the row's own key (exported as a number).
func isKeyOf(c *colSpec) bool { return c.field.Type == schema.TypeID && c.field.Ref == "" }

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
