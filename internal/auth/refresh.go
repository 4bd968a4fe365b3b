package auth

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
)

// refreshInput is the body of POST /auth/refresh/token.
type refreshInput struct {
	BrowserHash  string `json:"user_browser_hash"`
	RefreshToken string `json:"user_refresh_token"`
}

// refreshAnswer is the answer of POST /auth/refresh/token.
type refreshAnswer struct {
	UserToken        string `json:"user_token"`
	UserRefreshToken string `json:"user_refresh_token"`
	ExpiresIn        int64  `json:"expires_in"`
}

func errRefreshInvalid(cause string) error {
	return apperr.Unauthorized("server.auth.refresh_invalid").Wrap(fmt.Errorf("auth: refresh refused: %s", cause))
}

func (s *Service) handleRefresh(w http.ResponseWriter, r *http.Request) error {
	var in refreshInput
	if err := httpapi.DecodeJSON(r, &in, true); err != nil {
		return err
	}
	var c checker
	c.required("user_browser_hash", in.BrowserHash)
	c.required("user_refresh_token", in.RefreshToken)
	c.maxLen("user_browser_hash", in.BrowserHash, maxBrowserHashLen)
	if err := c.err(); err != nil {
		return err
	}
	ans, err := s.rotate(r.Context(), strings.TrimSpace(in.BrowserHash), strings.TrimSpace(in.RefreshToken))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, ans)
	return nil
}

// refreshState is a presented refresh token with its session.
type refreshState struct {
	sessionID   string
	userID      int64
	rotatedAt   sql.NullTime
	browserHash string
	lastUsed    time.Time
	expires     time.Time
	revoked     bool
	locked      bool
}

func loadRefresh(ctx context.Context, q db.Querier, tokenHash string) (*refreshState, error) {
	var st refreshState
	var revoked sql.NullTime
	var locked int
	err := q.QueryRowContext(ctx, `SELECT t.session_id, t.rotated_at, s.user_id, s.browser_hash, s.last_used_at, s.expires_at, s.revoked_at, u.user_locked
		FROM refresh_token t JOIN auth_session s ON s.session_id = t.session_id JOIN users u ON u.user_id = s.user_id
		WHERE t.token_hash = ?`, tokenHash).Scan(&st.sessionID, &st.rotatedAt, &st.userID, &st.browserHash, &st.lastUsed, &st.expires, &revoked, &locked)
	if err != nil {
		return nil, err
	}
	st.revoked, st.locked = revoked.Valid, locked == 1
	return &st, nil
}

// rotate exchanges a refresh token for a new access token and a new refresh
// token. Every refusal is the same 401; some also end the session (the
// token family) and must be committed although the answer is an error, so
// the transaction hands the refusal out through refused.
func (s *Service) rotate(ctx context.Context, browserHash, token string) (*refreshAnswer, error) {
	now := s.now()
	var refused error
	var ans *refreshAnswer
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		st, err := loadRefresh(ctx, tx, HashToken(token))
		if isNoRows(err) {
			refused = errRefreshInvalid("unknown token")
			return nil
		}
		if err != nil {
			return fmt.Errorf("auth: read refresh token: %w", err)
		}
		ref := s.checkRefresh(st, browserHash, now)
		switch {
		case ref == nil:
			ans, err = s.issueRefresh(ctx, tx, st, token, now)
		case ref.withinGrace:
			ans, err = s.answerAgain(ctx, tx, st, token, now)
		default:
			refused = errRefreshInvalid(ref.reason)
			return s.endStolenSession(ctx, tx, st, ref, now)
		}
		if err == nil && ans == nil {
			refused = errRefreshInvalid("token rotated again since")
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if refused != nil {
		return nil, refused
	}
	return ans, nil
}

// refusal says why a refresh token is refused and whether its session ends.
// A token rotated within the grace window is not refused outright: its
// rotation's answer is given again (answerAgain).
type refusal struct {
	reason      string
	revoke      bool
	withinGrace bool
}

// checkRefresh decides whether a found token may be used. The session ends
// when the token looks stolen (reused after the grace window, presented by
// another browser) or the session ran out.
func (s *Service) checkRefresh(st *refreshState, browserHash string, now time.Time) *refusal {
	switch {
	case st.revoked:
		return &refusal{reason: "session revoked"}
	case st.browserHash != browserHash:
		return &refusal{reason: revokeBrowserMismatch, revoke: true}
	case st.rotatedAt.Valid && now.Sub(st.rotatedAt.Time) <= RefreshGrace:
		return &refusal{reason: "token rotated moments ago", withinGrace: true}
	case st.rotatedAt.Valid:
		return &refusal{reason: revokeRefreshReuse, revoke: true}
	case st.locked:
		return &refusal{reason: "user locked"}
	case !now.Before(st.expires) || now.Sub(st.lastUsed) > s.idleTimeout:
		return &refusal{reason: revokeExpired, revoke: true}
	}
	return nil
}

func (s *Service) endStolenSession(ctx context.Context, tx db.Querier, st *refreshState, ref *refusal, now time.Time) error {
	if !ref.revoke {
		return nil
	}
	if err := revokeSession(ctx, tx, st.sessionID, ref.reason, now); err != nil {
		return err
	}
	s.log.WarnContext(ctx, "auth: session ended on refresh", "session_id", st.sessionID, "user_id", st.userID, "reason", ref.reason)
	return nil
}

// issueRefresh rotates the token: the old one is marked, its successor
// stored, the session's last use recorded and a new access token signed.
// When a concurrent request rotated the token first, it answers that
// rotation's successor like a reuse within the grace window.
func (s *Service) issueRefresh(ctx context.Context, tx db.Querier, st *refreshState, token string, now time.Time) (*refreshAnswer, error) {
	res, err := tx.ExecContext(ctx, `UPDATE refresh_token SET rotated_at = ? WHERE token_hash = ? AND rotated_at IS NULL`, now, HashToken(token))
	if err != nil {
		return nil, fmt.Errorf("auth: rotate refresh token: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return nil, fmt.Errorf("auth: rotate refresh token: %w", err)
	} else if n != 1 {
		return s.answerAgain(ctx, tx, st, token, now)
	}
	next := s.successorToken(token)
	if _, err := tx.ExecContext(ctx, `INSERT INTO refresh_token (token_hash, session_id, created_at) VALUES (?, ?, ?)`,
		HashToken(next), st.sessionID, now); err != nil {
		return nil, fmt.Errorf("auth: store refresh token: %w", err)
	}
	return s.answer(ctx, tx, st, next, now)
}

// answerAgain answers a token rotated moments ago with the same successor
// its rotation answered, as long as that successor is unused: a client
// whose answer was lost (a reload during the refresh, a second tab) goes
// on with the pair the first answer carried instead of being logged out.
// Once the successor was rotated too, it answers nil (refused, session
// kept); after the grace window a reuse ends the session (checkRefresh).
func (s *Service) answerAgain(ctx context.Context, tx db.Querier, st *refreshState, token string, now time.Time) (*refreshAnswer, error) {
	next := s.successorToken(token)
	var rotated sql.NullTime
	err := tx.QueryRowContext(ctx, `SELECT rotated_at FROM refresh_token WHERE token_hash = ? AND session_id = ?`,
		HashToken(next), st.sessionID).Scan(&rotated)
	if isNoRows(err) || (err == nil && rotated.Valid) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("auth: read the successor refresh token: %w", err)
	}
	return s.answer(ctx, tx, st, next, now)
}

// answer records the session's use and signs a new access token to go
// with the refresh token next.
func (s *Service) answer(ctx context.Context, tx db.Querier, st *refreshState, next string, now time.Time) (*refreshAnswer, error) {
	if _, err := tx.ExecContext(ctx, `UPDATE auth_session SET last_used_at = ? WHERE session_id = ?`, now, st.sessionID); err != nil {
		return nil, fmt.Errorf("auth: record session use: %w", err)
	}
	access, err := s.issueAccessToken(st.userID, st.sessionID, now)
	if err != nil {
		return nil, err
	}
	return &refreshAnswer{UserToken: access, UserRefreshToken: next, ExpiresIn: int64(s.accessTTL.Seconds())}, nil
}

// successorToken is the refresh token that replaces token on rotation:
// an HMAC of it under the server's secret, as unguessable as a random
// token to whoever lacks the old token and the secret, and the same
// every time, so a rotation's answer can be given again (answerAgain)
// while only hashes of tokens are stored.
func (s *Service) successorToken(token string) string {
	mac := hmac.New(sha256.New, s.secret)
	mac.Write([]byte("refresh-successor\x00"))
	mac.Write([]byte(token))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// logoutInput is the optional body of POST /logout.
type logoutInput struct {
	RefreshToken string `json:"user_refresh_token"`
}

// handleLogout ends the caller's session. A refresh token in the body ends
// its session too when it belongs to the same user (a client that lost
// track of which session its access token came from).
func (s *Service) handleLogout(w http.ResponseWriter, r *http.Request) error {
	p, ok := PrincipalFrom(r.Context())
	if !ok {
		return apperr.Unauthorized("server.auth.not_authenticated")
	}
	var in logoutInput
	if r.ContentLength != 0 {
		if err := httpapi.DecodeJSON(r, &in, true); err != nil {
			return err
		}
	}
	ctx := r.Context()
	now := s.now()
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := revokeSession(ctx, tx, p.SessionID, revokeLogout, now); err != nil {
			return err
		}
		if in.RefreshToken == "" {
			return nil
		}
		_, err := tx.ExecContext(ctx, `UPDATE auth_session SET revoked_at = ?, revoke_reason = ?
			WHERE revoked_at IS NULL AND user_id = ? AND session_id = (SELECT session_id FROM refresh_token WHERE token_hash = ?)`,
			now, revokeLogout, p.UserID, HashToken(strings.TrimSpace(in.RefreshToken)))
		if err != nil {
			return fmt.Errorf("auth: end session of refresh token: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
