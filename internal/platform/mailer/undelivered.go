package mailer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"portfolio/internal/db"
)

// Undelivered is a message whose delivery failed at least once and that
// nobody dismissed: still retrying, or given up after maxAttempts.
type Undelivered struct {
	ID        int64     `json:"id"`
	To        string    `json:"to"`
	Subject   string    `json:"subject"`
	CreatedAt time.Time `json:"created_at"`
	Attempts  int       `json:"attempts"`
	GivenUp   bool      `json:"given_up"`
	Error     string    `json:"error"`
}

// ErrNoSuchMail is returned for a message that is not undelivered (sent,
// dismissed or unknown).
var ErrNoSuchMail = errors.New("mailer: no such undelivered message")

// ListUndelivered answers the newest undelivered messages, at most limit.
func ListUndelivered(ctx context.Context, d *db.DB, limit int) ([]Undelivered, error) {
	rows, err := d.QueryContext(ctx, `SELECT mail_id, mail_to, mail_subject, created_at, mail_attempts, mail_error FROM mail_outbox
		WHERE sent_at IS NULL AND mail_error IS NOT NULL AND mail_dismissed_at IS NULL ORDER BY mail_id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("mailer: undelivered: %w", err)
	}
	defer rows.Close()
	out := []Undelivered{}
	for rows.Next() {
		var u Undelivered
		if err := rows.Scan(&u.ID, &u.To, &u.Subject, &u.CreatedAt, &u.Attempts, &u.Error); err != nil {
			return nil, fmt.Errorf("mailer: undelivered: %w", err)
		}
		u.GivenUp = u.Attempts >= maxAttempts
		out = append(out, u)
	}
	return out, rows.Err()
}

// RetryUndelivered makes an undelivered message due now with a fresh
// count of attempts; Kick the outbox after it.
func RetryUndelivered(ctx context.Context, d *db.DB, id int64, now time.Time) error {
	return changeUndelivered(ctx, d, `UPDATE mail_outbox SET mail_attempts = 0, next_attempt_at = ?, claimed_until = NULL
		WHERE mail_id = ? AND sent_at IS NULL AND mail_error IS NOT NULL AND mail_dismissed_at IS NULL`, now.UTC(), id)
}

// DismissUndelivered takes an undelivered message off the error dashboard
// and out of delivery.
func DismissUndelivered(ctx context.Context, d *db.DB, id int64, now time.Time) error {
	return changeUndelivered(ctx, d, `UPDATE mail_outbox SET mail_dismissed_at = ?, mail_attempts = ?
		WHERE mail_id = ? AND sent_at IS NULL AND mail_error IS NOT NULL AND mail_dismissed_at IS NULL`, now.UTC(), maxAttempts, id)
}

func changeUndelivered(ctx context.Context, d *db.DB, stmt string, args ...any) error {
	res, err := d.ExecContext(ctx, stmt, args...)
	if err != nil {
		return fmt.Errorf("mailer: change undelivered: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("mailer: change undelivered: %w", err)
	} else if n != 1 {
		return ErrNoSuchMail
	}
	return nil
}
