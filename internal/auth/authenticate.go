package auth

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
)

// errTokenInvalid is the answer to every refused access token.
func errTokenInvalid(cause error) error {
	return apperr.Unauthorized("server.auth.token_invalid").Wrap(cause)
}

// Authenticate implements httpapi.Authenticator. It reads the access token
// from "Authorization: Bearer <jwt>" only, verifies it,
// and then checks in the database that the session is alive and the user
// not locked, so logout, lockout and password changes take effect on the
// next request. The caller is stored in the context (PrincipalFrom).
func (s *Service) Authenticate(r *http.Request) (context.Context, error) {
	ctx := r.Context()
	raw := bearerToken(r)
	if raw == "" {
		return nil, apperr.Unauthorized("server.auth.not_authenticated")
	}
	userID, sessionID, err := s.parseAccessToken(raw)
	if err != nil {
		return nil, errTokenInvalid(err)
	}
	st, err := loadSession(ctx, s.db, sessionID)
	if isNoRows(err) {
		return nil, errTokenInvalid(fmt.Errorf("session %s does not exist", sessionID))
	}
	if err != nil {
		return nil, fmt.Errorf("auth: read session: %w", err)
	}
	now := s.now()
	if st.p.UserID != userID || !st.usable(now, s.idleTimeout) {
		return nil, errTokenInvalid(fmt.Errorf("session %s of user %d is no longer usable", sessionID, userID))
	}
	p := &st.p
	if err := s.loadMemberships(ctx, s.db, p); err != nil {
		return nil, err
	}
	s.touch(ctx, p, st.lastUsed, now)
	httpapi.AddLogAttr(ctx, slog.Int64("user_id", p.UserID))
	httpapi.AddLogAttr(ctx, slog.Int64("rights_generation", p.RightsGeneration))
	return WithPrincipal(ctx, p), nil
}

// bearerToken finds the access token of r: in the Authorization header,
// never in the URL. A token in a query (?authorization=) ends up in proxy
// logs, browser histories and Referer headers, so it authenticates
// nothing (issue 16); the document link routes read their own short-lived
// link tokens from the query instead (decision 0018).
func bearerToken(r *http.Request) string {
	return stripBearer(r.Header.Get("Authorization"))
}

func stripBearer(v string) string {
	v = strings.TrimSpace(v)
	if scheme, rest, ok := strings.Cut(v, " "); ok {
		if !strings.EqualFold(scheme, "Bearer") {
			return ""
		}
		return strings.TrimSpace(rest)
	}
	return v
}

// touch records the use of a session and the user's activity, at most once
// a minute per session: writes are expensive on SQLite. One transaction, so
// that on SQLite it queues with the other writers (decision 0040) rather
// than polling for the lock while they commit. A failure is logged and does
// not fail the request.
func (s *Service) touch(ctx context.Context, p *Principal, lastUsed, now time.Time) {
	if now.Sub(lastUsed) < touchInterval {
		return
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE auth_session SET last_used_at = ? WHERE session_id = ?`, now, p.SessionID); err != nil {
			return fmt.Errorf("record session use: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE users SET user_last_activity_time = ? WHERE user_id = ?`, now, p.UserID); err != nil {
			return fmt.Errorf("record user activity: %w", err)
		}
		return nil
	})
	if err != nil {
		s.log.WarnContext(ctx, "auth: touch session", "error", err, "session_id", p.SessionID, "user_id", p.UserID)
	}
}
