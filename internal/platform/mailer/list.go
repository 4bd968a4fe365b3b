package mailer

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"portfolio/internal/db"
)

// States of an outbox message as the Back Office shows them.
const (
	StatePending   = "pending"   // not tried yet, or due again
	StateRetrying  = "retrying"  // failed, tried again later
	StateGivenUp   = "given_up"  // failed maxAttempts times
	StateSent      = "sent"      // the SMTP server took it
	StateDismissed = "dismissed" // taken out of delivery by an administrator
)

// Queued is one message of the outbox as listed, without its body.
type Queued struct {
	ID            int64      `json:"id"`
	To            string     `json:"to"`
	Cc            string     `json:"cc"`
	Subject       string     `json:"subject"`
	CreatedAt     time.Time  `json:"created_at"`
	SentAt        *time.Time `json:"sent_at"`
	Attempts      int        `json:"attempts"`
	MaxAttempts   int        `json:"max_attempts"`
	NextAttemptAt *time.Time `json:"next_attempt_at"`
	Error         string     `json:"error"`
	State         string     `json:"state"`
}

// ListOutbox answers the newest messages of the outbox, at most limit,
// only those in state when state is not "".
func ListOutbox(ctx context.Context, d *db.DB, state string, limit int) ([]Queued, error) {
	where := ""
	switch state {
	case "":
	case StateSent:
		where = ` WHERE sent_at IS NOT NULL`
	case StateDismissed:
		where = ` WHERE sent_at IS NULL AND mail_dismissed_at IS NOT NULL`
	case StatePending:
		where = ` WHERE sent_at IS NULL AND mail_dismissed_at IS NULL AND mail_error IS NULL`
	case StateRetrying:
		where = fmt.Sprintf(` WHERE sent_at IS NULL AND mail_dismissed_at IS NULL AND mail_error IS NOT NULL AND mail_attempts < %d`, maxAttempts)
	case StateGivenUp:
		where = fmt.Sprintf(` WHERE sent_at IS NULL AND mail_dismissed_at IS NULL AND mail_error IS NOT NULL AND mail_attempts >= %d`, maxAttempts)
	default:
		return nil, fmt.Errorf("mailer: unknown state %q", state)
	}
	rows, err := d.QueryContext(ctx, `SELECT mail_id, mail_to, mail_cc, mail_subject, created_at, sent_at, mail_attempts, next_attempt_at,
		mail_error, mail_dismissed_at FROM mail_outbox`+where+` ORDER BY mail_id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, fmt.Errorf("mailer: outbox: %w", err)
	}
	defer rows.Close()
	out := []Queued{}
	for rows.Next() {
		var m Queued
		var sent, next, dismissed sql.NullTime
		var errText sql.NullString
		if err := rows.Scan(&m.ID, &m.To, &m.Cc, &m.Subject, &m.CreatedAt, &sent, &m.Attempts, &next, &errText, &dismissed); err != nil {
			return nil, fmt.Errorf("mailer: outbox: %w", err)
		}
		m.CreatedAt = m.CreatedAt.UTC()
		m.MaxAttempts, m.Error = maxAttempts, errText.String
		switch {
		case sent.Valid:
			t := sent.Time.UTC()
			m.SentAt, m.State = &t, StateSent
		case dismissed.Valid:
			m.State = StateDismissed
		case !errText.Valid:
			m.State = StatePending
		case m.Attempts >= maxAttempts:
			m.State = StateGivenUp
		default:
			m.State = StateRetrying
		}
		if next.Valid && m.State != StateSent && m.State != StateDismissed && m.State != StateGivenUp {
			t := next.Time.UTC()
			m.NextAttemptAt = &t
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
