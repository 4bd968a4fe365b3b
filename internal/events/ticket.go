package events

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"portfolio/internal/apperr"
)

// TicketTTL is how long a stream ticket may be redeemed.
const TicketTTL = 60 * time.Second

// issueTicket stores a new stream ticket of user and returns it: 32
// random bytes, of which only the SHA-256 is kept. Expired tickets are
// swept on the way.
func (h *Hub) issueTicket(ctx context.Context, user int64, session string, now time.Time) (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("events: ticket: %w", err)
	}
	ticket := base64.RawURLEncoding.EncodeToString(raw)
	if _, err := h.db.ExecContext(ctx, `DELETE FROM event_ticket WHERE expires_at < ?`, now.UTC()); err != nil {
		return "", fmt.Errorf("events: sweep tickets: %w", err)
	}
	if _, err := h.db.ExecContext(ctx, `INSERT INTO event_ticket (ticket_hash, user_id, session_id, expires_at) VALUES (?, ?, ?, ?)`,
		hash(ticket), user, session, now.UTC().Add(TicketTTL)); err != nil {
		return "", fmt.Errorf("events: store ticket: %w", err)
	}
	return ticket, nil
}

// redeemTicket uses a ticket once and returns its user and the session
// that asked for it; an unknown, used or expired ticket, or one of no
// session, answers 401 (whether the session still lives, the caller asks).
func (h *Hub) redeemTicket(ctx context.Context, ticket string, now time.Time) (int64, string, error) {
	var user int64
	var session sql.NullString
	err := h.db.QueryRowContext(ctx, `DELETE FROM event_ticket WHERE ticket_hash = ? AND expires_at >= ? RETURNING user_id, session_id`,
		hash(ticket), now.UTC()).Scan(&user, &session)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && session.String == "") {
		return 0, "", apperr.Unauthorized("server.events.ticket_invalid")
	}
	if err != nil {
		return 0, "", fmt.Errorf("events: redeem ticket: %w", err)
	}
	return user, session.String, nil
}

func hash(ticket string) string {
	sum := sha256.Sum256([]byte(ticket))
	return hex.EncodeToString(sum[:])
}
