package auth

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
)

// maxNameLen bounds first and last names.
const maxNameLen = 100

// principal returns the caller of a private route.
func principal(r *http.Request) (*Principal, error) {
	p, ok := PrincipalFrom(r.Context())
	if !ok {
		return nil, apperr.Unauthorized("server.auth.not_authenticated")
	}
	return p, nil
}

func (s *Service) handleGetUser(w http.ResponseWriter, r *http.Request) error {
	p, err := principal(r)
	if err != nil {
		return err
	}
	rec, err := s.UserRecord(r.Context(), s.db, p)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, rec)
	return nil
}

// profileInput is the body of PUT /user/: the fields users may change
// themselves. A missing optional field is cleared (PUT replaces).
type profileInput struct {
	FirstName *string `json:"user_firstname"`
	LastName  *string `json:"user_lastname"`
	FixPhone  *string `json:"user_fix_phonenumber"`
	FaxPhone  *string `json:"user_fax_phonenumber"`
	Mobile    *string `json:"user_mobile"`
	Language  *string `json:"user_language"`
}

// clean trims every field; blank optional fields become nil.
func (in *profileInput) clean() {
	for _, f := range []**string{&in.FirstName, &in.LastName, &in.FixPhone, &in.FaxPhone, &in.Mobile, &in.Language} {
		if *f == nil {
			continue
		}
		v := strings.TrimSpace(**f)
		*f = &v
	}
	for _, f := range []**string{&in.FixPhone, &in.FaxPhone, &in.Mobile, &in.Language} {
		if *f != nil && **f == "" {
			*f = nil
		}
	}
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func (in *profileInput) validate() error {
	var c checker
	for _, f := range []struct {
		name  string
		value string
	}{{"user_firstname", deref(in.FirstName)}, {"user_lastname", deref(in.LastName)}} {
		if c.required(f.name, f.value) {
			c.maxLen(f.name, f.value, maxNameLen)
		}
	}
	c.phone("user_fix_phonenumber", deref(in.FixPhone))
	c.phone("user_fax_phonenumber", deref(in.FaxPhone))
	c.phone("user_mobile", deref(in.Mobile))
	c.language("user_language", deref(in.Language))
	return c.err()
}

func (s *Service) handlePutUser(w http.ResponseWriter, r *http.Request) error {
	p, err := principal(r)
	if err != nil {
		return err
	}
	var in profileInput
	if err := httpapi.DecodeJSON(r, &in, true); err != nil {
		return err
	}
	in.clean()
	if err := in.validate(); err != nil {
		return err
	}
	ctx := r.Context()
	var rec *UserRecord
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := updateProfile(ctx, tx, p.UserID, &in); err != nil {
			return err
		}
		var err error
		rec, err = s.UserRecord(ctx, tx, p)
		return err
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, rec)
	return nil
}

func updateProfile(ctx context.Context, q db.Querier, userID int64, in *profileInput) error {
	_, err := q.ExecContext(ctx, `UPDATE users SET user_firstname = ?, user_lastname = ?, user_abbreviation = ?,
		user_fix_phonenumber = ?, user_fax_phonenumber = ?, user_mobile = ?, user_language = ?, row_version = row_version + 1
		WHERE user_id = ?`, *in.FirstName, *in.LastName, abbreviation(*in.FirstName, *in.LastName),
		in.FixPhone, in.FaxPhone, in.Mobile, in.Language, userID)
	if err != nil {
		return fmt.Errorf("auth: update profile of user %d: %w", userID, err)
	}
	return nil
}

// abbreviation is the first letter of the first and of the last name,
// upper case.
func abbreviation(first, last string) string {
	initial := func(s string) string {
		for _, r := range strings.TrimSpace(s) {
			return strings.ToUpper(string(r))
		}
		return ""
	}
	return initial(first) + initial(last)
}

// passwordInput is the body of PUT /user/password.
type passwordInput struct {
	OldPassword string `json:"old_password"`
	NewPassword string `json:"new_password"`
}

// handlePutPassword changes the caller's password. A wrong current password
// counts towards the lockout like a wrong login (a stolen token must not
// allow guessing the password); the user's other sessions end.
func (s *Service) handlePutPassword(w http.ResponseWriter, r *http.Request) error {
	p, err := principal(r)
	if err != nil {
		return err
	}
	var in passwordInput
	if err := httpapi.DecodeJSON(r, &in, true); err != nil {
		return err
	}
	var c checker
	c.required("old_password", in.OldPassword)
	c.maxLen("old_password", in.OldPassword, maxLoginPassword)
	checkNewPassword(&c, in.OldPassword, in.NewPassword)
	if err := c.err(); err != nil {
		return err
	}
	ctx := r.Context()
	if err := s.checkOwnPassword(ctx, p.UserID, in.OldPassword); err != nil {
		return err
	}
	if err := s.replacePassword(ctx, p.UserID, in.NewPassword, p.SessionID, revokePasswordChanged); err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, detail(s.catalog, r, "server.auth.password_changed"))
	return nil
}

// checkOwnPassword verifies the current password of a logged-in user, in
// the login's throttle buckets: a session does not make guessing cheaper.
func (s *Service) checkOwnPassword(ctx context.Context, userID int64, pw string) error {
	acc, err := findAccountByID(ctx, s.db, userID)
	if err != nil {
		return err
	}
	if acc == nil {
		return apperr.Unauthorized("server.auth.token_invalid")
	}
	keys := throttleKeys(acc.email, httpapi.ClientAddr(ctx))
	if err := s.checkThrottle(ctx, keys); err != nil {
		return err
	}
	if acc.hash != "" && VerifyPassword(acc.hash, pw) {
		return nil
	}
	err = s.refuse(ctx, acc, keys)
	if e, ok := apperr.As(err); ok && e.Key == "server.auth.invalid_credentials" {
		return errOldPasswordWrong()
	}
	return err // a wait, or a failure
}

func errOldPasswordWrong() error {
	return apperr.Validation(apperr.FieldError{Field: "old_password", Key: "server.auth.old_password_wrong", Type: "value_error"})
}

// detail is a {"detail": text} answer in the request's language.
func detail(c *i18n.Catalog, r *http.Request, key string) map[string]string {
	return map[string]string{"detail": c.T(i18n.LangFrom(r.Context()), key, nil)}
}
