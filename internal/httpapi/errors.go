package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/i18n"
)

// validationItem is one FastAPI-style field error.
type validationItem struct {
	Loc  []any  `json:"loc"`
	Msg  string `json:"msg"`
	Type string `json:"type"`
}

var statusOf = map[apperr.Kind]int{
	apperr.KindInternal:         http.StatusInternalServerError,
	apperr.KindBadRequest:       http.StatusBadRequest,
	apperr.KindUnauthorized:     http.StatusUnauthorized,
	apperr.KindForbidden:        http.StatusForbidden,
	apperr.KindNotFound:         http.StatusNotFound,
	apperr.KindConflict:         http.StatusConflict,
	apperr.KindMethodNotAllowed: http.StatusMethodNotAllowed,
	apperr.KindTooLarge:         http.StatusRequestEntityTooLarge,
	apperr.KindUnsupported:      http.StatusUnsupportedMediaType,
	apperr.KindValidation:       http.StatusUnprocessableEntity,
	apperr.KindTooMany:          http.StatusTooManyRequests,
	apperr.KindUnavailable:      http.StatusServiceUnavailable,
}

// WriteError answers err as {"detail": ...} in the request's language. An
// unclassified error is logged with its cause and answered as a generic 500;
// its text never reaches the user.
func (s *Server) WriteError(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		// The client went away; nobody reads the answer.
		return
	}
	e, ok := apperr.As(err)
	if !ok {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			e = apperr.New(apperr.KindTooLarge, "server.error.body_too_large").With(map[string]string{"limit": humanBytes(mbe.Limit)})
		} else {
			e = &apperr.Error{Kind: apperr.KindInternal, Key: "server.error.internal", Cause: err}
		}
	}
	status := statusOf[e.Kind]
	lang := i18n.LangFrom(r.Context())
	if status >= 500 {
		s.log.ErrorContext(r.Context(), "request failed", "error", err, "status", status)
		noteFailure(r.Context(), err.Error())
	}
	if e.Kind == apperr.KindUnauthorized || e.Kind == apperr.KindForbidden {
		// Every refused authorization is on the request's log line with
		// its reason: the answer's key and the cause (never a secret:
		// causes name sessions, users and rules, not tokens).
		AddLogAttr(r.Context(), slog.String("refused", refusalReason(e)))
	} else if status < 500 && e.Cause != nil {
		s.log.DebugContext(r.Context(), "request refused", "error", err, "status", status)
	}
	body := map[string]any{}
	if e.Kind == apperr.KindValidation {
		items := make([]validationItem, 0, len(e.Fields))
		for _, f := range e.Fields {
			items = append(items, validationItem{Loc: locOf(f), Msg: s.fieldMessage(lang, f), Type: f.Type})
		}
		body["detail"] = items
	} else {
		body["detail"] = s.text(lang, e)
	}
	if e.Code != "" {
		body["code"] = e.Code
	}
	if e.Kind == apperr.KindUnauthorized {
		w.Header().Set("WWW-Authenticate", "Bearer")
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(int64((e.RetryAfter+time.Second-1)/time.Second), 10))
	}
	WriteJSON(w, status, body)
}

// locOf is where a field error points, always starting with the part of
// the request it is in ("body", "query" or "path", as FastAPI's errors
// do): a nested location a module gave without one is in the body.
func locOf(f apperr.FieldError) []any {
	if len(f.Loc) == 0 {
		return []any{"body", f.Field}
	}
	switch f.Loc[0] {
	case "body", "query", "path":
		return f.Loc
	}
	return append([]any{"body"}, f.Loc...)
}

func (s *Server) text(lang string, e *apperr.Error) string {
	if e.Key == "" {
		return e.Message
	}
	if e.Message != "" && !s.catalog.Has(lang, e.Key) && !s.catalog.Has(i18n.Default, e.Key) {
		return e.Message
	}
	return s.catalog.T(lang, e.Key, e.Args)
}

// fieldMessage renders a field error; {field} is filled with the field's
// translated label when the caller did not give one.
func (s *Server) fieldMessage(lang string, f apperr.FieldError) string {
	if f.Message != "" {
		return f.Message
	}
	args := map[string]string{}
	for k, v := range f.Args {
		args[k] = v
	}
	if _, ok := args["field"]; !ok {
		args["field"] = s.fieldLabel(lang, f.Field)
	}
	if a, ok := args["attribute"]; ok {
		args["attribute"] = s.fieldLabel(lang, a)
	}
	return s.catalog.T(lang, f.Key, args)
}

// fieldLabel names a field as the screens do: the server's own name for
// it ("field.<name>"), else the field's label in the shipped field labels,
// else the name itself (a text that is not a field name stays as it is),
// so no message says "city_name is required".
func (s *Server) fieldLabel(lang, field string) string {
	if s.catalog.Has(lang, "field."+field) || s.catalog.Has(i18n.Default, "field."+field) {
		return s.catalog.T(lang, "field."+field, nil)
	}
	if s.labels.Has(lang, field) {
		return s.labels.T(lang, field, nil)
	}
	return field
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return strconv.FormatInt(n>>20, 10) + " MB"
	case n >= 1<<10:
		return strconv.FormatInt(n>>10, 10) + " KB"
	}
	return strconv.FormatInt(n, 10) + " B"
}

// Logger returns the server's logger.
func (s *Server) Logger() *slog.Logger { return s.log }

// StatusOf is the HTTP status an error returned by a handler is answered
// with (500 for an unclassified error), for modules and tests that call
// services directly.
func StatusOf(err error) int {
	if err == nil {
		return http.StatusOK
	}
	if e, ok := apperr.As(err); ok {
		return statusOf[e.Kind]
	}
	return http.StatusInternalServerError
}

// refusalReason is the log text of a refused authorization.
func refusalReason(e *apperr.Error) string {
	if e.Cause == nil {
		return e.Key
	}
	return e.Key + ": " + e.Cause.Error()
}
