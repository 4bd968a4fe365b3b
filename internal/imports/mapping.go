package imports

import (
	"context"
	"strings"
	"unicode"

	"portfolio/internal/apperr"
	"portfolio/internal/i18n"
	"portfolio/internal/schema"
	"portfolio/internal/tables"
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

// LinkColumns names, per entity, the many-to-many relations a column may
// fill: each cell names the other end by its label (a point of sale's
// location, which places it on the portfolio map), and the row's new
// record is linked to it in the commit's transaction through the engine
// (LinkIn: the tab's right, the tenant, the link's history). A column is
// mapped to the relation's API name (pos_location_rel).
var LinkColumns = map[string][]string{
	"pos": {"location"},
}

// importLink answers the relation of ent that a column mapped to api may
// fill (LinkColumns), or nil.
func importLink(ent *schema.Entity, api string) *schema.Relation {
	for _, name := range LinkColumns[ent.Name] {
		for i := range ent.Relations {
			rel := &ent.Relations[i]
			if rel.Name == name && rel.Kind == schema.ManyToMany && rel.APIName(ent.Name) == api {
				return rel
			}
		}
	}
	return nil
}

// importLinks answers the relations of ent a column may fill.
func importLinks(ent *schema.Entity) []*schema.Relation {
	var out []*schema.Relation
	for i := range ent.Relations {
		if rel := &ent.Relations[i]; importLink(ent, rel.APIName(ent.Name)) != nil {
			out = append(out, rel)
		}
	}
	return out
}

// mappable reports whether a column may be mapped to target: a field an
// import fills or one of links (the relations the caller may link).
func mappable(ent *schema.Entity, target string, links []*schema.Relation) bool {
	if f, ok := ent.Field(target); ok {
		return importField(ent, f)
	}
	for _, rel := range links {
		if rel.APIName(ent.Name) == target {
			return true
		}
	}
	return false
}

// linkable answers the relations of ent an import links (LinkColumns)
// that the caller may link.
func (s *Service) linkable(ctx context.Context, ent *schema.Entity) ([]*schema.Relation, error) {
	var out []*schema.Relation
	for _, rel := range importLinks(ent) {
		err := s.engine.RequireLink(ctx, rel.APIName(ent.Name))
		if apperr.IsKind(err, apperr.KindForbidden) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, rel)
	}
	return out, nil
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
	links, err := s.linkable(ctx, ent)
	if err != nil {
		return nil, err
	}
	for _, rel := range links {
		add(rel.Name, rel.APIName(ent.Name))
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
		linkNames, err := s.linkLabels(ctx, ent, lang)
		if err != nil {
			return nil, err
		}
		for _, rel := range links {
			for _, label := range linkNames[rel.APIName(ent.Name)] {
				add(label, rel.APIName(ent.Name))
			}
		}
	}
	out := map[string]string{}
	used := map[string]bool{}
	for _, h := range headings {
		if field, ok := remembered[h]; ok && h != "" {
			if mappable(ent, field, links) && !used[field] {
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

// linkLabels answers the labels in lang of the relations of ent a column
// may fill, by API name: the relation's tab title (an administrator's
// edit included) and the label of a reference to the entity it links (a
// heading "Location" as well as "Locations").
func (s *Service) linkLabels(ctx context.Context, ent *schema.Entity, lang string) (map[string][]string, error) {
	rels := importLinks(ent)
	out := map[string][]string{}
	if len(rels) == 0 {
		return out, nil
	}
	fn, err := tables.LabelFunc(ctx, s.db, lang)
	if err != nil {
		return nil, err
	}
	for _, rel := range rels {
		api := rel.APIName(ent.Name)
		names := []string{firstText(fn(api, lang), rel.Label, rel.Name)}
		if target, ok := s.engine.Registry().Entity(rel.Target); ok {
			names = append(names, fn(target.PK, lang)) // "Location", "Standort", "Site"
		}
		out[api] = names
	}
	return out, nil
}

// firstText answers the first of texts that is not empty.
func firstText(texts ...string) string {
	for _, t := range texts {
		if t != "" {
			return t
		}
	}
	return ""
}
