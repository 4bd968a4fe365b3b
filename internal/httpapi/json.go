package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"portfolio/internal/apperr"
)

// WriteJSON answers v as JSON with the given status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if v == nil {
		return
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // the client may have gone; nothing left to tell it
}

// DecodeJSON reads a JSON object body into dst. It refuses other content
// types, trailing data and, when strict, unknown fields, with a precise 4xx.
func DecodeJSON(r *http.Request, dst any, strict bool) error {
	if !isContentType(r, "application/json") {
		return apperr.New(apperr.KindUnsupported, "server.error.unsupported_media_type").With(map[string]string{"expected": "application/json"})
	}
	dec := json.NewDecoder(r.Body)
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return apperr.BadRequest("server.error.malformed_json").With(map[string]string{"reason": "unexpected data after the JSON value"})
	}
	return nil
}

func jsonError(err error) error {
	var mbe *http.MaxBytesError
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &mbe):
		return err
	case errors.Is(err, io.EOF):
		return apperr.BadRequest("server.error.malformed_json").With(map[string]string{"reason": "the body is empty"})
	case errors.As(err, &syn):
		return apperr.BadRequest("server.error.malformed_json").With(map[string]string{"reason": syn.Error()})
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			field = "body"
		}
		return apperr.Validation(apperr.FieldError{Field: field, Key: "validation.type", Type: "type_error",
			Message: field + ": expected " + typ.Type.String() + ", got " + typ.Value})
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return apperr.BadRequest("server.error.unknown_field").With(map[string]string{"field": name})
	}
	return apperr.BadRequest("server.error.malformed_json").With(map[string]string{"reason": err.Error()})
}

// DecodeForm reads a form body (urlencoded or JSON object of strings), the
// way OAuth2 password-grant endpoints accept both.
func DecodeForm(r *http.Request) (url.Values, error) {
	switch {
	case isContentType(r, "application/x-www-form-urlencoded"):
		if err := r.ParseForm(); err != nil {
			return nil, formError(err)
		}
		return r.PostForm, nil
	case isContentType(r, "multipart/form-data"):
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			return nil, formError(err)
		}
		return r.PostForm, nil
	case isContentType(r, "application/json"):
		var m map[string]any
		if err := DecodeJSON(r, &m, false); err != nil {
			return nil, err
		}
		v := url.Values{}
		for k, val := range m {
			switch x := val.(type) {
			case string:
				v.Set(k, x)
			case nil:
			default:
				b, _ := json.Marshal(x)
				v.Set(k, string(b))
			}
		}
		return v, nil
	}
	return nil, apperr.New(apperr.KindUnsupported, "server.error.unsupported_media_type").With(map[string]string{"expected": "application/x-www-form-urlencoded or application/json"})
}

// formError keeps a body over the limit a 413 and makes any other parse
// failure a precise 400.
func formError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return err
	}
	return apperr.BadRequest("server.error.malformed_form").With(map[string]string{"reason": err.Error()})
}

func isContentType(r *http.Request, want string) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == want
}
