package imports

import (
	"context"
	"strings"
	"unicode"

	"portfolio/internal/i18n"
	"portfolio/internal/schema"
)

// Importable lists the entities the import takes, with the text fields a
// reference to a row of them may name besides the row's label (a point of
// sale by its branch number, a company by its short name).
var Importable = map[string][]string{
	"company":          {"company_shortname"},
	"partnercompany":   {"partnercompany_shortname"},
	"contactperson":    nil,
	"pos":              {"pos_branchnumber"},
	"location":         nil,
	"area":             nil,
	"contract":         nil,
	"recurringpayment": nil,
	"invoiceposition":  nil,
}

// Parents names, per entity, the reference field an import fills from the
// route instead of a column: the positions of one invoice are imported
// at /app/table/invoiceposition/import/{invoice} (decision 0024).
var Parents = map[string]string{
	"invoiceposition": "invoice_id",
}

// alsoKeys are the extra look-up fields of entity (Importable); entities
// that are not imported themselves are named by their label only.
func alsoKeys(entity string) []string { return Importable[entity] }

// importField reports whether f is a column an import may fill: a stored
// or single-select field the generic create writes (not the key, not
// computed, not read-only, shown on create).
func importField(ent *schema.Entity, f *schema.Field) bool {
	if f.Name == ent.PK || !f.Writable() || f.HiddenOnCreate || f.WriteOnly || Parents[ent.Name] == f.Name {
		return false
	}
	if f.Through != "" {
		return !f.Multiple && f.Ref != ""
	}
	return f.Stored()
}

// fold reduces a heading or label to lower-case letters and digits.
func fold(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// suggest proposes a field for each heading: the user's remembered
// mapping for the entity first, then a field whose name (with or without
// the entity's prefix) or whose label in English, German or French equals
// the heading (letters and digits, case ignored). Each field is proposed
// once, to the first heading that matches it.
func (s *Service) suggest(ctx context.Context, ent *schema.Entity, headings []string, remembered map[string]string) (map[string]string, error) {
	names := map[string]string{}
	add := func(key, field string) {
		if k := fold(key); k != "" {
			if _, taken := names[k]; !taken {
				names[k] = field
			}
		}
	}
	for i := range ent.Fields {
		f := &ent.Fields[i]
		if importField(ent, f) {
			add(f.Name, f.Name)
			add(strings.TrimPrefix(f.Name, ent.Name+"_"), f.Name)
		}
	}
	for _, lang := range i18n.Languages {
		labels, err := s.engine.FieldLabels(ctx, ent.Name, lang)
		if err != nil {
			return nil, err
		}
		for i := range ent.Fields {
			f := &ent.Fields[i]
			if importField(ent, f) && labels[f.Name] != "" {
				add(labels[f.Name], f.Name)
			}
		}
	}
	out := map[string]string{}
	used := map[string]bool{}
	for _, h := range headings {
		if field, ok := remembered[h]; ok && h != "" {
			if f, ok := ent.Field(field); ok && importField(ent, f) && !used[field] {
				out[h] = field
				used[field] = true
			}
		}
	}
	for _, h := range headings {
		if _, done := out[h]; done || h == "" {
			continue
		}
		if field, ok := names[fold(h)]; ok && !used[field] {
			out[h] = field
			used[field] = true
		}
	}
	return out, nil
}
