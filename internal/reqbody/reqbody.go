// Package reqbody reads the JSON object bodies of the domain modules'
// calls: a body decoded with exact numbers (json.Number, as the engine's
// writes take them), members taken out one by one as keys, lists or
// nested objects, and the 422 field errors that say which member is
// wrong. Handlers take out the members that are not fields of the record
// they write (keys, row_version, nested objects); the engine refuses
// whatever is left that is not a field.
package reqbody

import (
	"bytes"
	"encoding/json"
	"net/http"

	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
	"portfolio/internal/validate"
)

// Body is a decoded JSON object request body.
type Body map[string]any

// Read decodes a JSON object body: 415 for another content type, 400 for
// malformed JSON, 422 when it is not an object.
func Read(r *http.Request) (Body, error) {
	var raw json.RawMessage
	if err := httpapi.DecodeJSON(r, &raw, false); err != nil {
		return nil, err
	}
	return Decode(raw, "body")
}

// Decode decodes raw as a JSON object; 422 on field otherwise.
func Decode(raw []byte, field string) (Body, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, NotObject(field)
	}
	return m, nil
}

// Take removes member name and answers its value (nil when absent).
func (b Body) Take(name string) any {
	v := b[name]
	delete(b, name)
	return v
}

// TakeID removes member name and answers it as a record key: 0 when
// absent or null (422 when required), 422 when it is no key.
func (b Body) TakeID(name string, required bool) (int64, error) {
	v := b.Take(name)
	if v == nil {
		if required {
			return 0, Missing(name)
		}
		return 0, nil
	}
	return ID(v, nil, name)
}

// Key is a record key a call takes out of its body into a variable
// (Required or Optional).
type Key struct {
	name     string
	required bool
	into     *int64
}

// Required is key name, which the body must hold, read into into.
func Required(name string, into *int64) Key { return Key{name: name, required: true, into: into} }

// Optional is key name, 0 when absent or null, read into into.
func Optional(name string, into *int64) Key { return Key{name: name, into: into} }

// TakeKeys takes out each key (TakeID) in order and stops at the first
// error.
func (b Body) TakeKeys(keys ...Key) error {
	for _, k := range keys {
		v, err := b.TakeID(k.name, k.required)
		if err != nil {
			return err
		}
		*k.into = v
	}
	return nil
}

// RowVersion removes row_version, which an update needs (422 otherwise).
func (b Body) RowVersion() (int64, error) {
	return b.TakeID("row_version", true)
}

// TakeObject removes member name and answers it as an object (nil when
// absent or null), 422 when it is something else.
func (b Body) TakeObject(name string) (Body, error) {
	v := b.Take(name)
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, NotObject(name)
	}
	return m, nil
}

// TakeIDs removes member name and answers it as a list of record keys
// (nil when absent), 422 when it is something else.
func (b Body) TakeIDs(name string) ([]int64, error) {
	v := b.Take(name)
	if v == nil {
		return nil, nil
	}
	return IDList(v, name)
}

// IDList reads v, member field, as a JSON list of record keys: 422 on
// field when it is no list, at loc [field, i] for an entry that is no key.
func IDList(v any, field string) ([]int64, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, TypeError(field, "list")
	}
	out := make([]int64, len(l))
	for i, x := range l {
		id, err := ID(x, []any{field, i}, "")
		if err != nil {
			return nil, err
		}
		out[i] = id
	}
	return out, nil
}

// TakeList removes member name and answers it as a list of objects (nil
// when absent): 422 on name when it is no list, at loc [name, i] for an
// entry that is no object.
func (b Body) TakeList(name string) ([]map[string]any, error) {
	v := b.Take(name)
	if v == nil {
		return nil, nil
	}
	l, ok := v.([]any)
	if !ok {
		return nil, TypeError(name, "list")
	}
	out := make([]map[string]any, len(l))
	for i, x := range l {
		m, ok := x.(map[string]any)
		if !ok {
			return nil, FieldError([]any{name, i}, "", "server.tables.not_an_object", "type_error")
		}
		out[i] = m
	}
	return out, nil
}

// TakeBool removes member name and answers it as a flag (true, 1).
func (b Body) TakeBool(name string) (bool, error) {
	switch v := b.Take(name).(type) {
	case nil:
		return false, nil
	case bool:
		return v, nil
	case json.Number:
		return v.String() == "1", nil
	}
	return false, TypeError(name, "bool")
}

// ID reads v as a record key; 422 at loc path/field (["body", field]
// without a path) otherwise.
func ID(v any, path []any, field string) (int64, error) {
	id, err := validate.Coerce("id", v)
	n, ok := id.(int64)
	if err != nil || !ok || n <= 0 {
		return 0, FieldError(path, field, "validation.type.id", "type_error")
	}
	return n, nil
}

// FieldError is a 422 with translation key and rule type on field, at loc
// ["body", field] or, when path is given (inside a list), at loc
// [path..., field].
func FieldError(path []any, field, key, typ string) error {
	fe := apperr.FieldError{Field: field, Key: key, Type: typ, Args: map[string]string{"field": field}}
	if path != nil {
		fe.Loc = append([]any{}, path...)
		if field != "" {
			fe.Loc = append(fe.Loc, field)
		}
	}
	return apperr.Validation(fe)
}

// Missing is the 422 of a required member that is absent.
func Missing(field string) error {
	return FieldError(nil, field, "validation.required", "missing")
}

// TypeError is the 422 of a member that is not of type want (id, list,
// bool: the key validation.type.<want>).
func TypeError(field, want string) error {
	return FieldError(nil, field, "validation.type."+want, "type_error")
}

// NotObject is the 422 of a member that should be a JSON object.
func NotObject(field string) error {
	return FieldError(nil, field, "server.tables.not_an_object", "type_error")
}

// Prefixed renames the field errors of err, found in the object member
// prefix, to "prefix.field" (loc ["body", "prefix.field"]), so the answer
// says where they are; other errors pass unchanged.
func Prefixed(prefix string, err error) error {
	return mapFields(err, func(f *apperr.FieldError) { f.Field = prefix + "." + f.Field })
}

// Under moves the field errors of err under loc path (a row of a list:
// [path..., field]); errors with a loc of their own and other errors pass
// unchanged.
func Under(err error, path ...any) error {
	return mapFields(err, func(f *apperr.FieldError) {
		if f.Loc == nil {
			f.Loc = append(append([]any{}, path...), f.Field)
		}
	})
}

// mapFields answers a copy of validation error err with change applied
// to each of its field errors.
func mapFields(err error, change func(*apperr.FieldError)) error {
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.KindValidation {
		return err
	}
	fields := make([]apperr.FieldError, len(e.Fields))
	for i, f := range e.Fields {
		change(&f)
		fields[i] = f
	}
	out := *e
	out.Fields = fields
	return &out
}
