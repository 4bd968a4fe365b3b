package tables

import (
	"portfolio/internal/access"
	"slices"
	"strings"
	"unicode/utf8"

	"portfolio/internal/schema"
)

// Masked fields (schema.Field.Masked, the IBAN of bank data) are read in
// full only by callers who may update their entity. For everyone else the
// engine renders them masked wherever a statement reads them: list and
// record columns, labels of references, exports, filters and sorts (which
// then see the masked text only), and the keyword search leaves them out.
// History rows store them masked for everyone (maskText), so the audit
// trail is no way around the rule.

// maskShown is how many characters stay visible at each end.
const maskShown = 4

// maskedEntities lists the entities with a masked field.
func maskedEntities(reg *schema.Registry) []*schema.Entity {
	var out []*schema.Entity
	for _, e := range reg.Entities() {
		if slices.ContainsFunc(e.Fields, func(f schema.Field) bool { return f.Masked }) {
			out = append(out, e)
		}
	}
	return out
}

// masksFor names the entities whose masked fields c reads masked: those it
// may not update.
func (e *Engine) masksFor(c *caller) []string {
	var out []string
	for _, ent := range e.maskable {
		if !c.can(access.ActionUpdate, ent) {
			out = append(out, ent.Name)
		}
	}
	return out
}

// masks reports whether the scope reads entity's masked fields masked.
func (s Scope) masks(entity string) bool { return slices.Contains(s.masked, entity) }

// hidesField reports whether field f of entity ent is masked for the
// statement's caller.
func (s *source) hidesField(ent *schema.Entity, f *schema.Field) bool {
	return f.Masked && s.scope.masks(ent.Name)
}

// maskExpr renders the masked form of the text column sql: the first and
// last maskShown characters around one star per hidden character (all
// stars when the text is too short to show its ends). maxLen bounds the
// stars, as neither SQLite nor PostgreSQL spells repeat() the same way.
func maskExpr(sql string, maxLen int) string {
	if maxLen <= 0 {
		maxLen = 64
	}
	stars := "'" + strings.Repeat("*", maxLen) + "'"
	short := "substr(" + stars + ", 1, length(" + sql + "))"
	middle := "substr(" + stars + ", 1, length(" + sql + ") - 8)"
	return "CASE WHEN length(" + sql + ") <= 8 THEN " + short +
		" ELSE substr(" + sql + ", 1, 4) || " + middle + " || substr(" + sql + ", length(" + sql + ") - 3) END"
}

// maskText is maskExpr in Go, for history values.
func maskText(v any) any {
	text, ok := v.(string)
	if !ok {
		return v
	}
	n := utf8.RuneCountInString(text)
	if n <= 2*maskShown {
		return strings.Repeat("*", n)
	}
	r := []rune(text)
	return string(r[:maskShown]) + strings.Repeat("*", n-2*maskShown) + string(r[n-maskShown:])
}

// labelHides reports whether the label of ent shows a field masked for
// the caller, directly or through the references it is made of.
func (s *source) labelHides(ent *schema.Entity, depth int) bool {
	for _, name := range ent.Label {
		lf, ok := ent.Field(name)
		if !ok {
			continue
		}
		if s.hidesField(ent, lf) {
			return true
		}
		if lf.Stored() && lf.Ref != "" && lf.Name != ent.PK && depth < maxLabelDepth {
			if ref, ok := s.env.reg.Entity(lf.Ref); ok && s.labelHides(ref, depth+1) {
				return true
			}
		}
	}
	return false
}

// searchHides reports whether the keyword search must leave column c out
// because it would match characters masked for the caller.
func (c *colSpec) searchHides(s *source) bool {
	switch c.kind {
	case kindField:
		return !c.onLink && s.hidesField(s.base, c.field)
	case kindLabel, kindThroughLabel:
		ref, ok := s.env.reg.Entity(c.field.Ref)
		return ok && s.labelHides(ref, 0)
	}
	return false
}
