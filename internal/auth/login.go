package auth

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
)

// Length limits of login fields: longer values are refused before any
// database work.
const (
	maxEmailLen       = 254
	maxLoginPassword  = 1024
	maxBrowserHashLen = 512
)

// loginInput is the parsed body of POST /token.
type loginInput struct {
	Username    string
	Password    string
	BrowserHash string
}

// parseLogin reads POST /token as form fields or JSON: username, password
// and user_browser_hash, all required.
func parseLogin(r *http.Request) (loginInput, error) {
	v, err := httpapi.DecodeForm(r)
	if err != nil {
		return loginInput{}, err
	}
	in := loginInput{
		Username:    strings.TrimSpace(v.Get("username")),
		Password:    v.Get("password"),
		BrowserHash: strings.TrimSpace(v.Get("user_browser_hash")),
	}
	var c checker
	c.required("username", in.Username)
	c.required("password", in.Password)
	c.required("user_browser_hash", in.BrowserHash)
	c.maxLen("username", in.Username, maxEmailLen)
	c.maxLen("password", in.Password, maxLoginPassword)
	c.maxLen("user_browser_hash", in.BrowserHash, maxBrowserHashLen)
	return in, c.err()
}

// tokenAnswer is the answer of POST /token.
type tokenAnswer struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
	TokenType    string `json:"token_type"`
	ExpiresIn    int64  `json:"expires_in"`
}

func (s *Service) handleLogin(w http.ResponseWriter, r *http.Request) error {
	in, err := parseLogin(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	acc, err := s.checkCredentials(ctx, in.Username, in.Password)
	if err != nil {
		return err
	}
	httpapi.AddLogAttr(ctx, slog.Int64("user_id", acc.id))
	switch {
	case acc.resetRequired:
		return apperr.Forbidden("server.auth.password_change_required").WithCode("password_change_required")
	case !acc.verified:
		return apperr.Forbidden("server.auth.not_verified").WithCode("not_verified")
	}
	access, refresh, err := s.startSession(ctx, acc.id, in.BrowserHash)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, tokenAnswer{
		AccessToken: access, RefreshToken: refresh, TokenType: "bearer", ExpiresIn: int64(s.accessTTL.Seconds()),
	})
	return nil
}

// errInvalidCredentials is the single answer to an unknown user, a user
// without a password, a wrong password and a locked account whose password
// was not proven: none of them tells whether the address exists.
func errInvalidCredentials() error { return apperr.BadRequest("server.auth.invalid_credentials") }

// errLocked answers a locked account's right password: who proved it may
// know that an administrator locked the account.
func errLocked() error {
	return apperr.Forbidden("server.auth.account_locked").WithCode("account_locked")
}

// checkCredentials verifies email and password the same way for login and
// the change of a required password. Attempts are throttled first
// (throttle.go). Every other path verifies one argon2id hash (a dummy one
// for unknown users and users without a password), so the answer time does
// not tell whether an address exists either. A failure counts in the
// throttle's buckets and, for an existing account, in its wrong password
// counter (shown to administrators); it never locks the account, so nobody
// can lock another user out by guessing.
func (s *Service) checkCredentials(ctx context.Context, email, password string) (*account, error) {
	keys := throttleKeys(email, httpapi.ClientAddr(ctx))
	if err := s.checkThrottle(ctx, keys); err != nil {
		return nil, err
	}
	acc, err := findAccountByEmail(ctx, s.db, email)
	if err != nil {
		return nil, err
	}
	hash := s.dummyHash
	if acc != nil && acc.hash != "" {
		hash = acc.hash
	}
	ok := VerifyPassword(hash, password)
	switch {
	case acc == nil || acc.hash == "" || !ok:
		return nil, s.refuse(ctx, acc, keys)
	case acc.locked:
		return nil, errLocked()
	}
	if err := clearThrottle(ctx, s.db, email); err != nil {
		return nil, err
	}
	return acc, nil
}

// refuse counts a failed attempt and gives its answer: invalid
// credentials, or the wait when this failure started one.
func (s *Service) refuse(ctx context.Context, acc *account, keys []throttleKey) error {
	if acc != nil {
		if _, err := s.db.ExecContext(ctx, `UPDATE users SET user_wrong_password_counter = user_wrong_password_counter + 1
			WHERE user_id = ?`, acc.id); err != nil {
			return fmt.Errorf("auth: count wrong password of user %d: %w", acc.id, err)
		}
	}
	wait, err := s.recordFailure(ctx, keys)
	switch {
	case err != nil:
		return err
	case wait > 0:
		s.log.WarnContext(ctx, "auth: logins throttled after failed attempts", "wait", wait)
		return errTooManyAttempts(wait)
	}
	return errInvalidCredentials()
}

// startSession records the login and opens a session; it returns the access
// and refresh tokens.
func (s *Service) startSession(ctx context.Context, userID int64, browserHash string) (string, string, error) {
	now := s.now()
	var sessionID, refresh string
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE users SET user_wrong_password_counter = 0, user_last_login_time = ? WHERE user_id = ?`,
			now, userID); err != nil {
			return fmt.Errorf("auth: record login of user %d: %w", userID, err)
		}
		var err error
		sessionID, refresh, err = s.createSession(ctx, tx, userID, browserHash, now)
		return err
	})
	if err != nil {
		return "", "", err
	}
	access, err := s.issueAccessToken(userID, sessionID, now)
	if err != nil {
		return "", "", err
	}
	return access, refresh, nil
}

// changePasswordInput is the body of POST /auth/change-password.
type changePasswordInput struct {
	Username    string `json:"username"`
	OldPassword string `json:"old_password"`
	NewPassword string `json:"new_password"`
}

// handleChangePassword lets a user who must change the password at login
// (or any user who knows it) set a new one without a session: the
// credentials are checked exactly like a login, wrong ones count towards
// the lockout.
func (s *Service) handleChangePassword(w http.ResponseWriter, r *http.Request) error {
	var in changePasswordInput
	if err := httpapi.DecodeJSON(r, &in, true); err != nil {
		return err
	}
	in.Username = strings.TrimSpace(in.Username)
	var c checker
	c.required("username", in.Username)
	c.maxLen("username", in.Username, maxEmailLen)
	c.required("old_password", in.OldPassword)
	c.maxLen("old_password", in.OldPassword, maxLoginPassword)
	checkNewPassword(&c, in.OldPassword, in.NewPassword)
	if err := c.err(); err != nil {
		return err
	}
	ctx := r.Context()
	acc, err := s.checkCredentials(ctx, in.Username, in.OldPassword)
	if err != nil {
		return err
	}
	httpapi.AddLogAttr(ctx, slog.Int64("user_id", acc.id))
	if err := s.replacePassword(ctx, acc.id, in.NewPassword, "", revokePasswordChanged); err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, detail(s.catalog, r, "server.auth.password_changed"))
	return nil
}

// checkNewPassword checks a new password against the policy and the old one.
func checkNewPassword(c *checker, oldPassword, newPassword string) {
	if !c.required("new_password", newPassword) {
		return
	}
	c.password("new_password", newPassword)
	if newPassword == oldPassword {
		c.custom("new_password", "server.auth.password_reused", "password_reused")
	}
}

// replacePassword hashes and stores pw, ending the user's sessions but keep.
func (s *Service) replacePassword(ctx context.Context, userID int64, pw, keep, reason string) error {
	hash, err := HashPassword(pw)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		return s.setPassword(ctx, tx, userID, hash, keep, reason, s.now())
	})
}
