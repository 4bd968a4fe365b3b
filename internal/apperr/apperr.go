// Package apperr defines the errors domain code returns so that one place
// (httpapi) can map them to HTTP answers. Messages are translation keys or
// already-localized texts; raw causes are logged, never shown.
package apperr

import (
	"errors"
	"fmt"
	"time"
)

// Kind classifies an error for the HTTP mapping.
type Kind int

// The kinds of error a handler can return.
const (
	KindInternal         Kind = iota // 500, cause logged, generic text shown
	KindBadRequest                   // 400
	KindUnauthorized                 // 401: "refresh your token"
	KindForbidden                    // 403
	KindNotFound                     // 404 (also for rows outside the tenant)
	KindMethodNotAllowed             // 405
	KindConflict                     // 409
	KindTooLarge                     // 413
	KindUnsupported                  // 415
	KindValidation                   // 422 with field details
	KindTooMany                      // 429
	KindUnavailable                  // 503
)

// Error is a classified, user-presentable error.
type Error struct {
	Kind Kind
	// Key is a translation key (for example "server.auth.invalid_credentials")
	// looked up in the request's language; Message is used when Key is empty
	// or has no translation.
	Key     string
	Message string
	// Args fill {name} placeholders of the translated text.
	Args map[string]string
	// Code is an optional machine-readable code sent next to the detail.
	Code string
	// Fields are the field errors of a validation failure.
	Fields []FieldError
	// Cause is logged, never shown.
	Cause error
	// RetryAfter, when set, is sent as the Retry-After header (429, 503).
	RetryAfter time.Duration
}

// FieldError is one failed rule on one field, shaped like FastAPI's
// validation errors: loc is ["body", field].
type FieldError struct {
	Field string
	// Loc, when set, is the whole location of the field: ["query",
	// "pos_id"], or a nested one (["recurringpayments", 0, "taxrate_id"],
	// answered under "body"); else ["body", Field].
	Loc []any
	// Key is the rule's translation key; Args its placeholders.
	Key  string
	Args map[string]string
	// Message is a ready text (for example a per-field regex message).
	Message string
	// Type is the rule name (required, max, date_after, ...).
	Type string
}

func (e *Error) Error() string {
	msg := e.Message
	if msg == "" {
		msg = e.Key
	}
	if e.Cause != nil {
		return fmt.Sprintf("%s: %v", msg, e.Cause)
	}
	return msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Cause }

// As finds an *Error in err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// IsKind reports whether err is (or wraps) a classified error of kind.
func IsKind(err error, kind Kind) bool {
	e, ok := As(err)
	return ok && e.Kind == kind
}

// New builds an error of the given kind with a translation key.
func New(kind Kind, key string) *Error { return &Error{Kind: kind, Key: key} }

// BadRequest is a 400 with a translation key.
func BadRequest(key string) *Error { return New(KindBadRequest, key) }

// Unauthorized is a 401.
func Unauthorized(key string) *Error { return New(KindUnauthorized, key) }

// Forbidden is a 403.
func Forbidden(key string) *Error { return New(KindForbidden, key) }

// NotFound is a 404.
func NotFound(key string) *Error { return New(KindNotFound, key) }

// Conflict is a 409.
func Conflict(key string) *Error { return New(KindConflict, key) }

// Validation is a 422 carrying field errors.
func Validation(fields ...FieldError) *Error {
	return &Error{Kind: KindValidation, Key: "server.validation.failed", Fields: fields}
}

// With sets placeholder arguments and returns e.
func (e *Error) With(args map[string]string) *Error { e.Args = args; return e }

// WithCode sets the machine-readable code and returns e.
func (e *Error) WithCode(code string) *Error { e.Code = code; return e }

// Wrap records the cause and returns e.
func (e *Error) Wrap(cause error) *Error { e.Cause = cause; return e }

// After says when the caller may try again (Retry-After, whole seconds,
// at least one).
func (e *Error) After(d time.Duration) *Error { e.RetryAfter = d; return e }
