package tables

import (
	"context"
	"strings"

	"portfolio/internal/auth"
	"portfolio/internal/validate"
)

// Hook adds what the definitions cannot say to the generic writes of one
// entity: module columns marked Internal and values the engine must
// transform before storing. Hooks run inside the write's transaction,
// after validation, with the values about to be written.
type Hook interface {
	// BeforeWrite may change or add column values in w.Values.
	BeforeWrite(ctx context.Context, w *WriteContext) error
}

// WriteContext is one create or update as a hook sees it.
type WriteContext struct {
	Entity   string
	Creating bool
	// Values are the columns about to be written (only the changed ones on
	// an update).
	Values validate.Record
}

// DefaultHooks are the hooks of Portfolio's entities: users keep a
// normalised e-mail for the login and store passwords hashed.
func DefaultHooks() map[string]Hook { return map[string]Hook{"user": userHook{}} }

// userHook keeps user_email_normalized in step with user_email and hashes
// user_password (argon2id) before it is stored, as internal/auth does.
type userHook struct{}

// BeforeWrite normalises the e-mail and hashes a new password.
func (userHook) BeforeWrite(_ context.Context, w *WriteContext) error {
	if v, ok := w.Values["user_email"]; ok {
		email, _ := v.(string)
		w.Values["user_email"] = strings.TrimSpace(email)
		w.Values["user_email_normalized"] = strings.ToLower(strings.TrimSpace(email))
	}
	if v, ok := w.Values["user_password"]; ok {
		pw, _ := v.(string)
		if pw == "" {
			delete(w.Values, "user_password")
			return nil
		}
		hash, err := auth.HashPassword(pw)
		if err != nil {
			return err
		}
		w.Values["user_password"] = hash
	}
	return nil
}
