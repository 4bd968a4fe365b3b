package tables

import (
	"strings"
	"time"
	"unicode"

	"portfolio/internal/apperr"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// change is one create or update being prepared: the record as it will be
// (stored values, the request's values, defaults, derived values) and what
// the request named.
type change struct {
	ent      *schema.Entity
	fields   []*schema.Field // the entity's fields, in order
	creating bool
	stored   validate.Record // nil on create
	version  int64           // row_version read (updates)
	rec      validate.Record
	given    map[string]bool
	labels   *messageTexts
	errs     []apperr.FieldError
	// module holds values a module sets in fields the API may not write
	// (a document's file, size and MIME type); scopeLater leaves the
	// check that the new row is in the caller's tenant to the module,
	// which links it first (CreateIn with LinkedLater).
	module     validate.Record
	scopeLater bool
	// anchors, when set, decide the record's customer group instead of its
	// entity's tenant paths (a link row: its owner; checkTenant).
	anchors []anchor
}

func newChange(ent *schema.Entity, stored validate.Record, labels *messageTexts) *change {
	ch := &change{ent: ent, creating: stored == nil, stored: stored, rec: validate.Record{},
		given: map[string]bool{}, labels: labels}
	for i := range ent.Fields {
		ch.fields = append(ch.fields, &ent.Fields[i])
	}
	for k, v := range stored {
		ch.rec[k] = v
	}
	return ch
}

func (ch *change) label(field string) string {
	if ch.labels != nil {
		if l := ch.labels.fields[field]; l != "" {
			return l
		}
	}
	return field
}

func (ch *change) fail(field, key, typ string, args map[string]string) {
	for _, e := range ch.errs {
		if e.Field == field {
			return // one error per field
		}
	}
	ch.errs = append(ch.errs, apperr.FieldError{Field: field, Key: key, Type: typ, Args: withField(args, ch.label(field))})
}

// err is the 422 answer of the refusals collected so far, or nil.
func (ch *change) err() error { return validate.ErrorOf(ch.errs) }

// apply takes the request's values: every key must be a field the generic
// API serves, every value of the field's type. Whether the field may be
// written is decided by refuse, once the record is complete.
func (ch *change) apply(data map[string]any) {
	served := make([]*schema.Field, 0, len(ch.fields))
	for _, f := range ch.fields {
		if !f.Internal {
			served = append(served, f)
		}
	}
	ch.applyTo(served, data)
}

// coerceField converts a request value for f: multi-selects take lists of
// ids, every other field a value of its type.
func coerceField(f *schema.Field, raw any) (any, *validate.TypeError) {
	if f.Through != "" && f.Multiple {
		l, err := validate.CoerceList(raw)
		if err != nil {
			return nil, err.(*validate.TypeError)
		}
		return l, nil
	}
	v, err := validate.Coerce(f.Type, raw)
	if err != nil {
		te, ok := err.(*validate.TypeError)
		if !ok {
			te = &validate.TypeError{Expected: string(f.Type)}
		}
		return nil, te
	}
	if f.Through != "" {
		// A single select stored through a relation is a one-id list.
		if v == nil {
			return []int64{}, nil
		}
		return []int64{v.(int64)}, nil
	}
	if s, ok := v.(string); ok && len(f.Options) > 0 && s != "" && !isOption(f, s) {
		return nil, &validate.TypeError{Expected: "option"}
	}
	if n, ok := v.(int64); ok && len(f.Options) > 0 && !isOption(f, validate.Text(n)) {
		return nil, &validate.TypeError{Expected: "option"}
	}
	return v, nil
}

func isOption(f *schema.Field, v string) bool {
	for _, o := range f.Options {
		if o.Value.String() == v {
			return true
		}
	}
	return false
}

// defaultOf is the value stored for f when it is left empty: its default
// (booleans 0), else empty.
func defaultOf(f *schema.Field) any {
	if f.Default.IsZero() {
		if f.Through != "" {
			return []int64{}
		}
		return nil
	}
	v, err := validate.Coerce(f.Type, f.Default.String())
	if err != nil {
		return nil // definitions are checked at start; never reached
	}
	return v
}

// fill writes defaults into empty fields ("written whenever the value is
// empty, on create and on update").
func (ch *change) fill() {
	for _, f := range ch.fields {
		if (f.Stored() || f.Through != "") && f.Writable() && validate.Empty(ch.rec[f.Name]) {
			if d := defaultOf(f); !validate.Empty(d) || ch.creating {
				ch.rec[f.Name] = d
			}
		}
	}
}

// refuse checks every named field may be written here; a value that would
// not change what is stored anyway (the stored value, or on create the
// default) is accepted and ignored, anything else is refused with 422: no
// field is ever silently taken or dropped.
func (ch *change) refuse(env *validate.Env) error {
	for _, f := range ch.fields {
		if !ch.given[f.Name] {
			continue
		}
		v := ch.rec[f.Name]
		keep := defaultOf(f)
		if !ch.creating {
			keep = ch.stored[f.Name]
		}
		writable := f.Writable() && !(ch.creating && f.HiddenOnCreate) && !(!ch.creating && (f.HiddenOnUpdate || f.Immutable))
		if !writable {
			if (f.WriteOnly && !validate.Empty(v)) || (!f.WriteOnly && !validate.Equal(v, keep)) {
				ch.fail(f.Name, "validation.not_writable", "not_writable", nil)
			}
			ch.rec[f.Name] = keep
			continue
		}
		shown, err := validate.Visible(f, ch.rec, env)
		if err != nil {
			return err
		}
		if !shown && !validate.Empty(v) && !validate.Equal(v, defaultOf(f)) {
			ch.fail(f.Name, "validation.not_shown", "not_writable", nil)
		}
	}
	return nil
}

// hide stores fields whose ShowWhen does not hold empty (their default):
// "a field that is not shown is neither validated nor written".
func (ch *change) hide(env *validate.Env) error {
	for _, f := range ch.fields {
		if f.ShowWhen == nil || !f.Writable() {
			continue
		}
		ok, err := validate.Holds(*f.ShowWhen, ch.rec, env)
		if err != nil {
			return err
		}
		if !ok {
			ch.rec[f.Name] = defaultOf(f)
		}
	}
	return nil
}

// derive computes the stored derived fields: initials, the time of the
// write, the acting user (on create only when OnCreate; none when the
// system acts).
func (ch *change) derive(now time.Time, userID int64) {
	for _, f := range ch.fields {
		d := f.Derived
		if d == nil || !d.Stored() || (d.OnCreate && !ch.creating) {
			continue
		}
		switch d.Func {
		case schema.DeriveInitials:
			var b strings.Builder
			for _, a := range d.Args {
				s, _ := ch.rec[a].(string)
				for _, r := range strings.TrimSpace(s) {
					b.WriteRune(unicode.ToUpper(r))
					break
				}
			}
			ch.rec[f.Name] = b.String()
		case schema.DeriveNow:
			ch.rec[f.Name] = now.UTC().Truncate(time.Second)
		case schema.DeriveCurrentUser:
			if userID == 0 {
				ch.rec[f.Name] = nil // the system acts (AsSystem)
				continue
			}
			ch.rec[f.Name] = userID
		}
	}
}

// columns returns the stored columns to write: on create every filled
// one, on update the changed ones.
func (ch *change) columns() validate.Record {
	out := validate.Record{}
	for _, f := range ch.fields {
		if !f.Stored() || f.Name == ch.ent.PK || f.Internal {
			continue
		}
		v := ch.rec[f.Name]
		if validate.Empty(v) && f.Default.IsZero() {
			v = nil // an emptied optional value is stored as NULL
		}
		if ch.creating {
			if v != nil {
				out[f.Name] = v
			}
			continue
		}
		if !validate.Equal(v, ch.stored[f.Name]) {
			out[f.Name] = v
		}
	}
	return out
}

// throughChanges returns the multi-selects whose ids change.
func (ch *change) throughChanges() map[string][]int64 {
	out := map[string][]int64{}
	for _, f := range ch.fields {
		if f.Through == "" || !ch.given[f.Name] {
			continue
		}
		v, _ := ch.rec[f.Name].([]int64)
		if ch.creating || !validate.Equal(v, ch.stored[f.Name]) {
			out[f.Name] = v
		}
	}
	return out
}

// diff lists the changed fields as {field: [old, new]} for the history;
// write-only values are hidden, masked ones (IBANs) masked.
func (ch *change) diff() map[string][2]any {
	out := map[string][2]any{}
	for _, f := range ch.fields {
		if f.Internal || f.Name == ch.ent.PK || !(f.Stored() || f.Through != "") {
			continue
		}
		old, v := ch.stored[f.Name], ch.rec[f.Name]
		if validate.Equal(old, v) {
			continue
		}
		if f.WriteOnly {
			old, v = masked(old), masked(v)
		}
		if f.Masked {
			old, v = maskText(old), maskText(v)
		}
		out[f.Name] = [2]any{historyValue(old), historyValue(v)}
	}
	return out
}

func masked(v any) any {
	if validate.Empty(v) {
		return nil
	}
	return "***"
}

// historyValue is the JSON form of a canonical value in the history.
func historyValue(v any) any {
	switch x := v.(type) {
	case time.Time:
		return x.UTC().Format(time.RFC3339)
	case []int64:
		if x == nil {
			return []int64{}
		}
	}
	return v
}
