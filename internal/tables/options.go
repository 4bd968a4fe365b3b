package tables

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// OptionsQuery asks for the choices of one list field of an entity while a
// record of it is edited (or a list of it filtered): the rows of the
// referenced entity the caller can see that are choices for the record
// (Engine.choiceConds: the field's narrowing by the record's siblings and the
// caller's limits), found by keyword, a page at a time.
type OptionsQuery struct {
	Entity  string
	Field   string
	Record  map[string]any
	Keyword string
	PerPage int
	Page    int
}

// Option is one choice: the referenced row's key and its label.
type Option struct {
	Value int64  `json:"value"`
	Label string `json:"label"`
}

// Options is a page of choices; HasMore says whether another page follows.
type Options struct {
	Data    []Option `json:"data"`
	HasMore bool     `json:"has_more"`
}

// Limits of an options page.
const (
	defaultOptionsPage = 50
	maxOptionsPage     = 500
)

// Options answers the choices of a list field. Whoever may list, read,
// create or update rows of the entity may ask for them, whatever their
// rights on the referenced entity: the form of a ticket needs its teams
// even when the teams table is an administrator's. Only keys and labels of
// rows within the caller's tenant are answered, as the labels of a list
// answer them already.
func (e *Engine) Options(ctx context.Context, q OptionsQuery) (*Options, error) {
	c, err := e.callerOf(ctx)
	if err != nil {
		return nil, err
	}
	ent, ok := e.reg.Entity(q.Entity)
	if !ok {
		return nil, errUnknownEntity(q.Entity)
	}
	if !c.canAny(ent, access.ActionList, access.ActionRead, access.ActionCreate, access.ActionUpdate) {
		return nil, apperr.Forbidden("server.auth.forbidden")
	}
	if ent.Listed != nil {
		// A listed link is only read (its filters ask for options): the
		// rights of its list (decision 0012).
		if err := e.requireRows(c, access.ActionList, ent); err != nil {
			return nil, err
		}
	}
	f, ok := ent.Field(q.Field)
	if !ok || f.Internal || f.Ref == "" {
		return nil, apperr.Validation(apperr.FieldError{Field: "field", Key: "server.tables.not_a_list_field", Type: "value_error",
			Args: map[string]string{"field": "field"}})
	}
	target, _ := e.reg.Entity(f.Ref)
	rec, err := optionsRecord(ent, q.Record)
	if err != nil {
		return nil, err
	}
	out := &Options{Data: []Option{}}
	conds, ok, err := e.choiceConds(c, ent, f, target, rec)
	if err != nil {
		return nil, err
	}
	if !ok {
		return out, nil
	}
	st, err := e.optionsStatement(c, f, target, conds, q)
	if err != nil {
		return nil, err
	}
	size, page := pageSize(q.PerPage), max(q.Page, 1)
	if f.Reader {
		rc := e.readerCheckOf(ent, rec)
		// The caller learns who may read only rows the caller sees.
		for _, r := range rc.rows {
			anchor, _ := e.reg.Entity(r.entity)
			if ok, err := e.visible(ctx, e.db, c, anchor, r.id); err != nil || !ok {
				return out, err
			}
		}
		// The users are few: each is checked as a reader, the page cut
		// after the check so that paging stays exact.
		keep := func(o Option) (bool, error) { return e.mayRead(ctx, e.db, c, rc, o.Value) }
		return out, e.readOptions(ctx, out, st, size, (page-1)*size, keep)
	}
	st.sql += " LIMIT ? OFFSET ?"
	st.args = append(st.args, size+1, (page-1)*size)
	return out, e.readOptions(ctx, out, st, size, 0, nil)
}

// canAny reports whether the caller may do one of actions on e.
func (c *caller) canAny(e *schema.Entity, actions ...string) bool {
	for _, a := range actions {
		if c.can(a, e) {
			return true
		}
	}
	return false
}

// optionsRecord converts the record values a narrowing may read; values of
// unknown fields are ignored, a value of the wrong type is refused.
func optionsRecord(ent *schema.Entity, data map[string]any) (validate.Record, error) {
	rec := validate.Record{}
	var errs []apperr.FieldError
	for name, raw := range data {
		f, ok := ent.Field(name)
		if !ok || f.Internal {
			continue
		}
		v, te := coerceField(f, raw)
		if te != nil {
			errs = append(errs, apperr.FieldError{Field: "data." + name, Key: "server.tables.not_a_value", Type: "type_error",
				Args: map[string]string{"field": name}})
			continue
		}
		rec[name] = v
	}
	if len(errs) > 0 {
		return nil, apperr.Validation(errs...)
	}
	return rec, nil
}

func pageSize(n int) int {
	switch {
	case n <= 0:
		return defaultOptionsPage
	case n > maxOptionsPage:
		return maxOptionsPage
	}
	return n
}

// optionsStatement renders the choices: key and label of the visible
// target rows meeting conds and matching the keyword, ordered by label;
// the caller pages it.
func (e *Engine) optionsStatement(c *caller, f *schema.Field, target *schema.Entity, conds []frag, q OptionsQuery) (frag, error) {
	s := newSource(e.env(), c.scope, target)
	label, err := s.choiceLabel(f)
	if err != nil {
		return frag{}, err
	}
	where, err := s.where()
	if err != nil {
		return frag{}, err
	}
	parts := append([]frag{where}, conds...)
	if kw := strings.TrimSpace(q.Keyword); utf8.RuneCountInString(kw) >= MinSearchLen {
		if utf8.RuneCountInString(kw) > MaxFilterValueLen {
			return frag{}, filterErr("server.tables.filter.too_long", "max", fmt.Sprint(MaxFilterValueLen))
		}
		d := s.env.dialect
		match, arg := db.TextMatch(d, label, kw, false)
		parts = append(parts, frag{sql: match, args: []any{arg}})
	}
	w := and(parts...)
	stmt := "SELECT " + col("t", target.PK) + ", " + label + " FROM " + s.from()
	if !w.empty() {
		stmt += " WHERE " + w.sql
	}
	stmt += " ORDER BY 2, 1"
	return frag{sql: stmt, args: w.args}, nil
}

// readOptions runs st and fills out with up to size options: after skip
// of them, and of those keep accepts (nil: all), one more telling
// HasMore. The rows are read before keep runs, so that keep may query.
func (e *Engine) readOptions(ctx context.Context, out *Options, st frag, size, skip int, keep func(Option) (bool, error)) error {
	all, err := e.scanOptions(ctx, st)
	if err != nil {
		return err
	}
	for _, o := range all {
		if keep != nil {
			ok, err := keep(o)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
		}
		switch {
		case skip > 0:
			skip--
		case len(out.Data) == size:
			out.HasMore = true
			return nil
		default:
			out.Data = append(out.Data, o)
		}
	}
	return nil
}

// scanOptions reads the key and label of every row of st.
func (e *Engine) scanOptions(ctx context.Context, st frag) ([]Option, error) {
	rows, err := e.db.QueryContext(ctx, st.sql, st.args...)
	if err != nil {
		return nil, fmt.Errorf("tables: options: %w", err)
	}
	defer rows.Close()
	var all []Option
	for rows.Next() {
		var o Option
		var label *string
		if err := rows.Scan(&o.Value, &label); err != nil {
			return nil, fmt.Errorf("tables: scan option: %w", err)
		}
		if label != nil {
			o.Label = *label
		}
		all = append(all, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("tables: options: %w", err)
	}
	return all, nil
}

// choiceLabel renders the label of the options of list field f over the
// base rows: the fields f.OptionLabel names (a tax rate and its company),
// references followed, or the rows' own label.
func (s *source) choiceLabel(f *schema.Field) (string, error) {
	if len(f.OptionLabel) == 0 {
		return s.ownLabel()
	}
	parts := make([]string, 0, len(f.OptionLabel))
	for _, name := range f.OptionLabel {
		lf, ok := s.base.Field(name)
		if !ok {
			return "", fmt.Errorf("tables: option label field %s of %s missing", name, s.base.Name)
		}
		part, err := s.labelPart(s.alias, s.base, lf, 0)
		if err != nil {
			return "", err
		}
		if part != "" {
			parts = append(parts, part)
		}
	}
	if len(parts) == 0 {
		return s.ownLabel()
	}
	return db.JoinText(parts), nil
}

// ownLabel renders the default label of the base rows (their entity's
// label fields, references followed), NULL when it has none.
func (s *source) ownLabel() (string, error) {
	label, err := s.labelOf(s.alias, s.base, 0)
	if label == "" && err == nil {
		label = "CAST(" + col(s.alias, s.base.PK) + " AS TEXT)"
	}
	return label, err
}
