package auth

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/mailer"
)

// Purposes of mailed links, with the path of the browser page that opens
// them.
const (
	purposeReset  = "reset"
	purposeVerify = "verify"

	resetPath  = "/auth/reset-password/"
	verifyPath = "/auth/verification/"

	// resetMailInterval is the least time between two reset mails to one
	// user, so POST /auth/forgot-password cannot flood a mailbox.
	resetMailInterval = time.Minute
	maxLinkTokenLen   = 128
)

func errLinkInvalid() error { return apperr.BadRequest("server.auth.link_invalid") }

// createLink stores a single-use link token (hashed) and returns the token.
func createLink(ctx context.Context, q db.Querier, userID int64, purpose string, now time.Time, ttl time.Duration) (string, error) {
	token := RandomToken()
	_, err := q.ExecContext(ctx, `INSERT INTO auth_link (token_hash, user_id, purpose, created_at, expires_at) VALUES (?, ?, ?, ?, ?)`,
		HashToken(token), userID, purpose, now, now.Add(ttl))
	if err != nil {
		return "", fmt.Errorf("auth: store %s link: %w", purpose, err)
	}
	return token, nil
}

// useLink marks a link used and returns its user; an unknown, expired or
// used link is errLinkInvalid.
func useLink(ctx context.Context, q db.Querier, token, purpose string, now time.Time) (int64, error) {
	h := HashToken(token)
	var userID int64
	var expires time.Time
	var used sql.NullTime
	err := q.QueryRowContext(ctx, `SELECT user_id, expires_at, used_at FROM auth_link WHERE token_hash = ? AND purpose = ?`, h, purpose).
		Scan(&userID, &expires, &used)
	if isNoRows(err) {
		return 0, errLinkInvalid()
	}
	if err != nil {
		return 0, fmt.Errorf("auth: read %s link: %w", purpose, err)
	}
	if used.Valid || !now.Before(expires) {
		return 0, errLinkInvalid()
	}
	res, err := q.ExecContext(ctx, `UPDATE auth_link SET used_at = ? WHERE token_hash = ? AND used_at IS NULL`, now, h)
	if err != nil {
		return 0, fmt.Errorf("auth: use %s link: %w", purpose, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return 0, errLinkInvalid()
	}
	return userID, nil
}

// linkMail composes a reset or verification mail in the user's language
// (else the request's).
func (s *Service) linkMail(lang string, acc *account, purpose, token string, ttl time.Duration) mailer.Message {
	if i18n.Supported(acc.language) {
		lang = acc.language
	}
	path := resetPath
	if purpose == purposeVerify {
		path = verifyPath
	}
	args := map[string]string{
		"link":  s.publicURL + path + token,
		"hours": strconv.FormatFloat(ttl.Hours(), 'f', -1, 64),
		"name":  strings.TrimSpace(acc.firstName + " " + acc.lastName),
	}
	text := s.catalog.T(lang, "mail.greeting", args) + "\n\n" +
		s.catalog.T(lang, "mail."+purpose+".body", args) + "\n\n" +
		s.catalog.T(lang, "mail.signature", nil) + "\n"
	return mailer.Message{To: []string{acc.email}, Subject: s.catalog.T(lang, "mail."+purpose+".subject", nil), Text: text}
}

// sendLink creates a link and queues its mail through q.
func (s *Service) sendLink(ctx context.Context, q db.Querier, lang string, acc *account, purpose string, ttl time.Duration) error {
	token, err := createLink(ctx, q, acc.id, purpose, s.now(), ttl)
	if err != nil {
		return err
	}
	if _, err := s.outbox.Enqueue(ctx, q, s.linkMail(lang, acc, purpose, token, ttl)); err != nil {
		return fmt.Errorf("auth: queue %s mail for user %d: %w", purpose, acc.id, err)
	}
	return nil
}

// forgotInput is the body of POST /auth/forgot-password.
type forgotInput struct {
	Email string `json:"email"`
}

// handleForgot mails a reset link when the address belongs to a user, and
// answers the same either way.
func (s *Service) handleForgot(w http.ResponseWriter, r *http.Request) error {
	var in forgotInput
	if err := httpapi.DecodeJSON(r, &in, true); err != nil {
		return err
	}
	in.Email = strings.TrimSpace(in.Email)
	var c checker
	if c.required("email", in.Email) {
		c.maxLen("email", in.Email, maxEmailLen)
		c.email("email", in.Email)
	}
	if err := c.err(); err != nil {
		return err
	}
	ctx := r.Context()
	sent := false
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var err error
		sent, err = s.mailResetLink(ctx, tx, i18n.LangFrom(ctx), in.Email)
		return err
	})
	if err != nil {
		return err
	}
	if sent {
		s.outbox.Kick()
	}
	httpapi.WriteJSON(w, http.StatusOK, detail(s.catalog, r, "server.auth.forgot_sent"))
	return nil
}

// mailResetLink queues a reset mail for the user with this address, unless
// there is none or one was sent within resetMailInterval.
func (s *Service) mailResetLink(ctx context.Context, q db.Querier, lang, email string) (bool, error) {
	acc, err := findAccountByEmail(ctx, q, email)
	if err != nil || acc == nil {
		return false, err
	}
	var last time.Time
	err = q.QueryRowContext(ctx, `SELECT created_at FROM auth_link WHERE user_id = ? AND purpose = ? ORDER BY created_at DESC LIMIT 1`,
		acc.id, purposeReset).Scan(&last)
	if err != nil && !isNoRows(err) {
		return false, fmt.Errorf("auth: read last reset link: %w", err)
	}
	if err == nil && s.now().Sub(last) < resetMailInterval {
		s.log.InfoContext(ctx, "auth: reset mail not repeated so soon", "user_id", acc.id)
		return false, nil
	}
	return true, s.sendLink(ctx, q, lang, acc, purposeReset, s.resetTTL)
}

// resetInput is the body of POST /auth/reset-password.
type resetInput struct {
	Token    string `json:"token"`
	Password string `json:"password"`
}

// handleReset sets a new password through a reset link: the lock, the wrong
// password counter and the reset requirement are cleared, every session
// ends, every other reset link of the user dies, and the address counts as
// verified (the link proved it).
func (s *Service) handleReset(w http.ResponseWriter, r *http.Request) error {
	var in resetInput
	if err := httpapi.DecodeJSON(r, &in, true); err != nil {
		return err
	}
	in.Token = strings.TrimSpace(in.Token)
	var c checker
	if c.required("token", in.Token) {
		c.maxLen("token", in.Token, maxLinkTokenLen)
	}
	if c.required("password", in.Password) {
		c.password("password", in.Password)
	}
	if err := c.err(); err != nil {
		return err
	}
	hash, err := HashPassword(in.Password)
	if err != nil {
		return err
	}
	ctx := r.Context()
	if err := s.db.InTx(ctx, func(tx *db.Tx) error { return s.reset(ctx, tx, in.Token, hash) }); err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, detail(s.catalog, r, "server.auth.reset_done"))
	return nil
}

func (s *Service) reset(ctx context.Context, tx db.Querier, token, hash string) error {
	now := s.now()
	userID, err := useLink(ctx, tx, token, purposeReset, now)
	if err != nil {
		return err
	}
	if err := s.setPassword(ctx, tx, userID, hash, "", revokePasswordReset, now); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `UPDATE auth_link SET used_at = ? WHERE user_id = ? AND purpose = ? AND used_at IS NULL`,
		now, userID, purposeReset); err != nil {
		return fmt.Errorf("auth: end other reset links: %w", err)
	}
	return markVerified(ctx, tx, userID, now)
}

func markVerified(ctx context.Context, q db.Querier, userID int64, now time.Time) error {
	if _, err := q.ExecContext(ctx, `UPDATE users SET user_verified_at = COALESCE(user_verified_at, ?) WHERE user_id = ?`, now, userID); err != nil {
		return fmt.Errorf("auth: mark user %d verified: %w", userID, err)
	}
	return nil
}

// verifyInput is the body of POST /auth/verify.
type verifyInput struct {
	Token    string `json:"token"`
	Password string `json:"password"`
}

// handleVerify confirms an address through a verification link. A user
// without a password must choose one here; a user with one may.
func (s *Service) handleVerify(w http.ResponseWriter, r *http.Request) error {
	var in verifyInput
	if err := httpapi.DecodeJSON(r, &in, true); err != nil {
		return err
	}
	in.Token = strings.TrimSpace(in.Token)
	var c checker
	if c.required("token", in.Token) {
		c.maxLen("token", in.Token, maxLinkTokenLen)
	}
	c.password("password", in.Password)
	if err := c.err(); err != nil {
		return err
	}
	hash := ""
	if in.Password != "" {
		var err error
		if hash, err = HashPassword(in.Password); err != nil {
			return err
		}
	}
	ctx := r.Context()
	if err := s.db.InTx(ctx, func(tx *db.Tx) error { return s.verify(ctx, tx, in.Token, hash) }); err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, detail(s.catalog, r, "server.auth.verify_done"))
	return nil
}

func (s *Service) verify(ctx context.Context, tx db.Querier, token, hash string) error {
	now := s.now()
	userID, err := useLink(ctx, tx, token, purposeVerify, now)
	if err != nil {
		return err
	}
	acc, err := findAccountByID(ctx, tx, userID)
	if err != nil {
		return err
	}
	if acc == nil {
		return errLinkInvalid()
	}
	if hash == "" && acc.hash == "" {
		return apperr.Validation(apperr.FieldError{Field: "password", Key: "validation.required", Type: "missing"})
	}
	if hash != "" {
		if err := s.setPassword(ctx, tx, userID, hash, "", revokePasswordReset, now); err != nil {
			return err
		}
	}
	return markVerified(ctx, tx, userID, now)
}
