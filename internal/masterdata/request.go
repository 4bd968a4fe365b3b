package masterdata

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
	"portfolio/internal/validate"
)

// body is a JSON object request body, numbers kept exact (json.Number),
// as the engine's writes take it. Handlers take out the members that are
// not fields of the record written (keys, row_version, nested objects);
// the engine refuses whatever is left that is not a field (422).
type body map[string]any

// readBody decodes a JSON object body: 415 for another content type, 400
// for malformed JSON, 422 when it is not an object.
func readBody(r *http.Request) (body, error) {
	var raw json.RawMessage
	if err := httpapi.DecodeJSON(r, &raw, false); err != nil {
		return nil, err
	}
	return decodeObject(raw, "body")
}

// decodeObject decodes raw as a JSON object; 422 on field otherwise.
func decodeObject(raw []byte, field string) (body, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, notObject(field)
	}
	return m, nil
}

func notObject(field string) error {
	return apperr.Validation(apperr.FieldError{Field: field, Key: "server.tables.not_an_object", Type: "type_error",
		Args: map[string]string{"field": field}})
}

// take removes member name and answers its value (nil when absent).
func (b body) take(name string) any {
	v := b[name]
	delete(b, name)
	return v
}

// takeID removes member name and answers it as a record key: 0 when
// absent or null (an error when required), 422 when it is no key.
func (b body) takeID(name string, required bool) (int64, error) {
	v := b.take(name)
	if v == nil {
		if required {
			return 0, missing(name)
		}
		return 0, nil
	}
	id, err := validate.Coerce("id", v)
	n, ok := id.(int64)
	if err != nil || !ok || n <= 0 {
		return 0, typeError(name, "id")
	}
	return n, nil
}

// takeObject removes member name and answers it as an object (nil when
// absent or null), 422 when it is something else.
func (b body) takeObject(name string) (body, error) {
	v := b.take(name)
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, notObject(name)
	}
	return m, nil
}

// takeIDs removes member name and answers it as a list of record keys
// (nil when absent), 422 when it is something else.
func (b body) takeIDs(name string) ([]int64, error) {
	v := b.take(name)
	if v == nil {
		return nil, nil
	}
	return idList(v, name)
}

// idList reads a JSON list of record keys.
func idList(v any, field string) ([]int64, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, typeError(field, "list")
	}
	out := make([]int64, 0, len(l))
	for _, x := range l {
		id, err := validate.Coerce("id", x)
		n, ok := id.(int64)
		if err != nil || !ok || n <= 0 {
			return nil, typeError(field, "list")
		}
		out = append(out, n)
	}
	return out, nil
}

// takeBool removes member name and answers it as a flag (true, 1).
func (b body) takeBool(name string) (bool, error) {
	switch v := b.take(name).(type) {
	case nil:
		return false, nil
	case bool:
		return v, nil
	case json.Number:
		return v.String() == "1", nil
	}
	return false, typeError(name, "bool")
}

// rowVersion removes row_version, which an update needs (422 otherwise).
func (b body) rowVersion() (int64, error) {
	return b.takeID("row_version", true)
}

func missing(field string) error {
	return apperr.Validation(apperr.FieldError{Field: field, Key: "validation.required", Type: "missing",
		Args: map[string]string{"field": field}})
}

func typeError(field, want string) error {
	return apperr.Validation(apperr.FieldError{Field: field, Key: "validation.type." + want, Type: "type_error",
		Args: map[string]string{"field": field}})
}

// nested renames the field errors of err, found in the object member
// prefix, to "prefix.field", so the answer says where they are.
func nested(prefix string, err error) error {
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.KindValidation {
		return err
	}
	fields := make([]apperr.FieldError, len(e.Fields))
	for i, f := range e.Fields {
		f.Field = prefix + "." + f.Field
		fields[i] = f
	}
	out := *e
	out.Fields = fields
	return &out
}

// pathID reads the {name} path value as a record key; anything else
// names no record (404).
func pathID(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, apperr.NotFound("server.error.not_found")
	}
	return id, nil
}
