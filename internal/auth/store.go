package auth

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"portfolio/internal/db"
)

// account is what login needs to know about a user.
type account struct {
	id            int64
	email         string
	firstName     string
	lastName      string
	language      string
	hash          string // "" when no password is set yet
	locked        bool
	resetRequired bool
	verified      bool
}

// normalizeEmail is the form kept in users.user_email_normalized.
func normalizeEmail(email string) string { return strings.ToLower(strings.TrimSpace(email)) }

const accountColumns = `user_id, user_email, user_firstname, user_lastname, user_language, user_password,
	user_locked, user_password_reset_required, user_verified_at`

func scanAccount(row *sql.Row) (*account, error) {
	var a account
	var lang, hash sql.NullString
	var locked, reset int
	var verified sql.NullTime
	if err := row.Scan(&a.id, &a.email, &a.firstName, &a.lastName, &lang, &hash, &locked, &reset, &verified); err != nil {
		return nil, err
	}
	a.language, a.hash = lang.String, hash.String
	a.locked, a.resetRequired, a.verified = locked == 1, reset == 1, verified.Valid
	return &a, nil
}

// findAccountByEmail returns the user with this address (case-insensitive),
// or nil.
func findAccountByEmail(ctx context.Context, q db.Querier, email string) (*account, error) {
	a, err := scanAccount(q.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM users WHERE user_email_normalized = ?`, normalizeEmail(email)))
	if isNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("auth: find user by email: %w", err)
	}
	return a, nil
}

// findAccountByID returns the user with this id, or nil.
func findAccountByID(ctx context.Context, q db.Querier, id int64) (*account, error) {
	a, err := scanAccount(q.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM users WHERE user_id = ?`, id))
	if isNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("auth: find user %d: %w", id, err)
	}
	return a, nil
}

// Reasons recorded when a session ends.
const (
	revokeLogout          = "logout"
	revokeLocked          = "locked"
	revokePasswordChanged = "password_changed"
	revokePasswordReset   = "password_reset"
	revokeRefreshReuse    = "refresh_reuse"
	revokeBrowserMismatch = "browser_mismatch"
	revokeExpired         = "expired"
)

// revokeSessions ends every live session of the user except keep ("" for
// none).
func revokeSessions(ctx context.Context, q db.Querier, userID int64, keep, reason string, now time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE auth_session SET revoked_at = ?, revoke_reason = ?
		WHERE user_id = ? AND revoked_at IS NULL AND session_id <> ?`, now, reason, userID, keep)
	if err != nil {
		return fmt.Errorf("auth: end sessions of user %d: %w", userID, err)
	}
	return nil
}

// EndSessions ends every live session of a user at once (an administrator
// locked the user, forced a password reset or ended the sessions): the
// user's next request answers 401. It runs in q, the caller's transaction.
func (s *Service) EndSessions(ctx context.Context, q db.Querier, userID int64, reason string) error {
	return revokeSessions(ctx, q, userID, "", reason, s.now())
}

// revokeSession ends one session.
func revokeSession(ctx context.Context, q db.Querier, sessionID, reason string, now time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE auth_session SET revoked_at = ?, revoke_reason = ?
		WHERE session_id = ? AND revoked_at IS NULL`, now, reason, sessionID)
	if err != nil {
		return fmt.Errorf("auth: end session %s: %w", sessionID, err)
	}
	return nil
}

// PasswordHook runs in the transaction that changes a user's password: a
// module drops what the old password vouched for (the calendar feed's
// token).
type PasswordHook func(ctx context.Context, q db.Querier, userID int64) error

// OnPasswordChanged adds fn to what a password change (by the user, a
// reset link or an invitation) runs in its transaction.
func (s *Service) OnPasswordChanged(fn PasswordHook) { s.passwordHooks = append(s.passwordHooks, fn) }

// setPassword stores a new password hash, clears the lock, the wrong
// password counter, the login throttle and the reset requirement, ends
// every session of the user but keep and runs the password hooks.
func (s *Service) setPassword(ctx context.Context, q db.Querier, userID int64, hash, keep, reason string, now time.Time) error {
	for _, fn := range s.passwordHooks {
		if err := fn(ctx, q, userID); err != nil {
			return err
		}
	}
	_, err := q.ExecContext(ctx, `UPDATE users SET user_password = ?, user_locked = 0, user_wrong_password_counter = 0,
		user_password_reset_required = 0, row_version = row_version + 1 WHERE user_id = ?`, hash, userID)
	if err != nil {
		return fmt.Errorf("auth: set password of user %d: %w", userID, err)
	}
	var email string
	if err := q.QueryRowContext(ctx, `SELECT user_email FROM users WHERE user_id = ?`, userID).Scan(&email); err != nil {
		return fmt.Errorf("auth: read e-mail of user %d: %w", userID, err)
	}
	if err := clearThrottle(ctx, q, email); err != nil {
		return err
	}
	return revokeSessions(ctx, q, userID, keep, reason, now)
}

// createSession opens a session (a refresh-token family) and returns its id
// and first refresh token.
func (s *Service) createSession(ctx context.Context, q db.Querier, userID int64, browserHash string, now time.Time) (string, string, error) {
	id := newSessionID()
	_, err := q.ExecContext(ctx, `INSERT INTO auth_session (session_id, user_id, browser_hash, created_at, last_used_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?)`, id, userID, browserHash, now, now, now.Add(s.maxLifetime))
	if err != nil {
		return "", "", fmt.Errorf("auth: create session: %w", err)
	}
	refresh, err := insertRefreshToken(ctx, q, id, now)
	if err != nil {
		return "", "", err
	}
	return id, refresh, nil
}

// insertRefreshToken adds a new refresh token to the session.
func insertRefreshToken(ctx context.Context, q db.Querier, sessionID string, now time.Time) (string, error) {
	token := RandomToken()
	if _, err := q.ExecContext(ctx, `INSERT INTO refresh_token (token_hash, session_id, created_at) VALUES (?, ?, ?)`,
		HashToken(token), sessionID, now); err != nil {
		return "", fmt.Errorf("auth: store refresh token: %w", err)
	}
	return token, nil
}

// PurgeExpired deletes sessions that ended (expired, or revoked) more than
// keep ago, with their refresh tokens, and mailed links expired as long.
// The lead may run it daily; nothing depends on it but the table sizes.
func (s *Service) PurgeExpired(ctx context.Context, keep time.Duration) (int64, error) {
	cutoff := s.now().Add(-keep)
	var total int64
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, stmt := range []string{
			`DELETE FROM refresh_token WHERE session_id IN (SELECT session_id FROM auth_session WHERE expires_at < ? OR revoked_at < ?)`,
			`DELETE FROM auth_session WHERE expires_at < ? OR revoked_at < ?`,
			`DELETE FROM auth_link WHERE expires_at < ? OR used_at < ?`,
		} {
			res, err := tx.ExecContext(ctx, stmt, cutoff, cutoff)
			if err != nil {
				return fmt.Errorf("auth: purge: %w", err)
			}
			n, _ := res.RowsAffected()
			total += n
		}
		n, err := purgeThrottle(ctx, tx, s.now())
		total += n
		return err
	})
	return total, err
}

// EndedSessions are those of sessions that may no longer be used
// (logged out, locked, password changed, expired, idle, gone): the rule
// every request is checked with.
func (s *Service) EndedSessions(ctx context.Context, sessions []string) (map[string]bool, error) {
	live, err := s.LivePrincipals(ctx, sessions)
	if err != nil {
		return nil, err
	}
	ended := make(map[string]bool, len(sessions))
	for _, id := range sessions {
		ended[id] = live[id] == nil
	}
	return ended, nil
}

// LivePrincipals reads, in one query, the principal of each of sessions
// that may still be used, as a request of it would be answered now; a
// session missing from the answer ended (see EndedSessions).
func (s *Service) LivePrincipals(ctx context.Context, sessions []string) (map[string]*Principal, error) {
	live := make(map[string]*Principal, len(sessions))
	if len(sessions) == 0 {
		return live, nil
	}
	args := make([]any, len(sessions))
	for i, id := range sessions {
		args[i] = id
	}
	rows, err := s.db.QueryContext(ctx, `SELECT s.session_id, s.user_id, s.last_used_at, s.expires_at, s.revoked_at, `+principalColumns+`
		FROM auth_session s JOIN users u ON u.user_id = s.user_id `+principalJoins+`
		WHERE s.session_id IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(args)), ", ")+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("auth: read sessions: %w", err)
	}
	defer rows.Close()
	now := s.now()
	for rows.Next() {
		var id string
		var st sessionState
		var revoked sql.NullTime
		var u principalRow
		if err := rows.Scan(append([]any{&id, &st.p.UserID, &st.lastUsed, &st.expires, &revoked}, u.dest(&st.p)...)...); err != nil {
			return nil, fmt.Errorf("auth: read sessions: %w", err)
		}
		u.fill(&st.p)
		st.revoked, st.locked = revoked.Valid, u.locked == 1
		if st.usable(now, s.idleTimeout) {
			p := st.p
			p.SessionID = id
			live[id] = &p
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("auth: read sessions: %w", err)
	}
	return live, nil
}
