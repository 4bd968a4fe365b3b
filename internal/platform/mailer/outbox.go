// Package mailer sends the product's mail through one path: every message is
// written to the outbox table (inside the caller's transaction, so a failed
// request sends nothing), then delivered by a background worker over SMTP.
// Without an SMTP server the message stays in the outbox and is logged, so a
// demo never fails to "send".
package mailer

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"strings"
	"time"

	"portfolio/internal/db"
)

// Message is one mail to send.
type Message struct {
	To      []string
	Cc      []string
	Subject string
	Text    string
	HTML    string
	// Attachments are sent as files with the message.
	Attachments []Attachment
}

// Attachment is a file sent with a message.
type Attachment struct {
	Name        string `json:"name"`
	ContentType string `json:"content_type"`
	Data        []byte `json:"data"`
}

// Outbox queues messages and wakes the deliverer.
type Outbox struct {
	from string
	wake chan struct{}
	now  func() time.Time
}

// NewOutbox returns an outbox whose messages are sent as from.
func NewOutbox(from string) *Outbox {
	return &Outbox{from: from, wake: make(chan struct{}, 1), now: time.Now}
}

// ErrNoRecipient is returned for a message without a valid recipient.
var ErrNoRecipient = errors.New("mailer: message has no recipient")

// Enqueue stores m in the outbox through q (a transaction or the pool) and
// returns its id. Delivery starts after the caller commits and calls Kick.
func (o *Outbox) Enqueue(ctx context.Context, q db.Querier, m Message) (int64, error) {
	if len(m.To) == 0 {
		return 0, ErrNoRecipient
	}
	for _, a := range append(append([]string{}, m.To...), m.Cc...) {
		if _, err := mail.ParseAddress(a); err != nil {
			return 0, fmt.Errorf("mailer: bad address %q: %w", a, err)
		}
	}
	now := o.now().UTC()
	var attachments any
	if len(m.Attachments) > 0 {
		b, err := json.Marshal(m.Attachments)
		if err != nil {
			return 0, fmt.Errorf("mailer: attachments: %w", err)
		}
		attachments = string(b)
	}
	var id int64
	err := q.QueryRowContext(ctx, `INSERT INTO mail_outbox
		(mail_from, mail_to, mail_cc, mail_subject, mail_text, mail_html, mail_attachments, created_at, next_attempt_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING mail_id`,
		o.from, strings.Join(m.To, ","), strings.Join(m.Cc, ","), m.Subject, m.Text, m.HTML, attachments, now, now).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("mailer: enqueue: %w", err)
	}
	return id, nil
}

// Kick wakes the deliverer; call it after the transaction that enqueued
// messages has committed.
func (o *Outbox) Kick() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Sender delivers one message; the SMTP sender is the real one.
type Sender interface {
	Send(ctx context.Context, from string, m Message) error
}

// Deliverer sends pending outbox messages. Several instances may run on one
// database: a message is claimed before it is sent, so it goes out once.
type Deliverer struct {
	DB     *db.DB
	Outbox *Outbox
	Sender Sender // nil: log and keep messages in the outbox
	Log    *slog.Logger
	// Interval between scans when nobody kicks; retries back off from it.
	Interval time.Duration
}

// maxAttempts bounds retries of a message that keeps failing.
const maxAttempts = 8

// Run delivers until ctx ends.
func (d *Deliverer) Run(ctx context.Context) {
	interval := d.Interval
	if interval <= 0 {
		interval = 30 * time.Second
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if err := d.DeliverPending(ctx); err != nil && ctx.Err() == nil {
			d.Log.Error("mail delivery scan failed", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-d.Outbox.wake:
		}
	}
}

type pending struct {
	id       int64
	from     string
	to, cc   string
	subject  string
	text     string
	html     string
	attempts int
}

// DeliverPending sends every message that is due now.
func (d *Deliverer) DeliverPending(ctx context.Context) error {
	now := d.Outbox.now().UTC()
	rows, err := d.DB.QueryContext(ctx, `SELECT mail_id, mail_from, mail_to, mail_cc, mail_subject, mail_text, mail_html, mail_attempts
		FROM mail_outbox WHERE sent_at IS NULL AND mail_attempts < ? AND next_attempt_at <= ?
		AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY mail_id LIMIT 100`, maxAttempts, now, now)
	if err != nil {
		return fmt.Errorf("mailer: list pending: %w", err)
	}
	var batch []pending
	for rows.Next() {
		var p pending
		if err := rows.Scan(&p.id, &p.from, &p.to, &p.cc, &p.subject, &p.text, &p.html, &p.attempts); err != nil {
			rows.Close()
			return fmt.Errorf("mailer: scan pending: %w", err)
		}
		batch = append(batch, p)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("mailer: list pending: %w", err)
	}
	for _, p := range batch {
		if err := d.deliver(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

func (d *Deliverer) deliver(ctx context.Context, p pending) error {
	now := d.Outbox.now().UTC()
	res, err := d.DB.ExecContext(ctx, `UPDATE mail_outbox SET claimed_until = ?, mail_attempts = mail_attempts + 1
		WHERE mail_id = ? AND sent_at IS NULL AND (claimed_until IS NULL OR claimed_until < ?)`, now.Add(2*time.Minute), p.id, now)
	if err != nil {
		return fmt.Errorf("mailer: claim %d: %w", p.id, err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return nil // another instance took it
	}
	msg := Message{To: splitList(p.to), Cc: splitList(p.cc), Subject: p.subject, Text: p.text, HTML: p.html}
	// Attachments are read only for the claimed message, not with the batch.
	var attachments sql.NullString
	if err := d.DB.QueryRowContext(ctx, `SELECT mail_attachments FROM mail_outbox WHERE mail_id = ?`, p.id).Scan(&attachments); err != nil {
		return fmt.Errorf("mailer: attachments of %d: %w", p.id, err)
	}
	if attachments.Valid && attachments.String != "" {
		if err := json.Unmarshal([]byte(attachments.String), &msg.Attachments); err != nil {
			return fmt.Errorf("mailer: attachments of %d: %w", p.id, err)
		}
	}
	if d.Sender == nil {
		d.Log.Info("mail kept in outbox (no SMTP server configured)", "mail_id", p.id, "to", p.to, "subject", p.subject, "text", p.text)
		_, err := d.DB.ExecContext(ctx, `UPDATE mail_outbox SET next_attempt_at = ?, mail_attempts = ?, claimed_until = NULL, mail_error = ? WHERE mail_id = ?`,
			now.Add(100*365*24*time.Hour), maxAttempts, "not sent: no SMTP server configured", p.id)
		return err
	}
	if sendErr := d.Sender.Send(ctx, p.from, msg); sendErr != nil {
		backoff := time.Duration(1<<min(p.attempts, 10)) * time.Minute
		d.Log.Warn("mail delivery failed", "mail_id", p.id, "attempt", p.attempts+1, "error", sendErr)
		_, err := d.DB.ExecContext(ctx, `UPDATE mail_outbox SET next_attempt_at = ?, claimed_until = NULL, mail_error = ? WHERE mail_id = ?`,
			now.Add(backoff), sendErr.Error(), p.id)
		return err
	}
	_, err = d.DB.ExecContext(ctx, `UPDATE mail_outbox SET sent_at = ?, claimed_until = NULL, mail_error = NULL WHERE mail_id = ?`, d.Outbox.now().UTC(), p.id)
	if err != nil {
		return fmt.Errorf("mailer: mark %d sent: %w", p.id, err)
	}
	d.Log.Info("mail sent", "mail_id", p.id, "to", p.to, "subject", p.subject)
	return nil
}

func splitList(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
