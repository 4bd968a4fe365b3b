package mailer

import (
	"bytes"
	"context"
	"fmt"

	gomail "github.com/wneessen/go-mail"
)

// SMTPConfig says how to reach the SMTP server.
type SMTPConfig struct {
	Host     string
	Port     int
	Username string
	Password string
	TLS      string // starttls, tls or none
}

// SMTPSender delivers through an SMTP server with go-mail.
type SMTPSender struct {
	cfg SMTPConfig
}

// NewSMTPSender returns a sender for cfg.
func NewSMTPSender(cfg SMTPConfig) *SMTPSender { return &SMTPSender{cfg: cfg} }

// Send delivers m from from.
func (s *SMTPSender) Send(ctx context.Context, from string, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(from); err != nil {
		return fmt.Errorf("smtp: from %q: %w", from, err)
	}
	if err := msg.To(m.To...); err != nil {
		return fmt.Errorf("smtp: to: %w", err)
	}
	if len(m.Cc) > 0 {
		if err := msg.Cc(m.Cc...); err != nil {
			return fmt.Errorf("smtp: cc: %w", err)
		}
	}
	msg.Subject(m.Subject)
	msg.SetBodyString(gomail.TypeTextPlain, m.Text)
	if m.HTML != "" {
		msg.AddAlternativeString(gomail.TypeTextHTML, m.HTML)
	}
	for _, a := range m.Attachments {
		ct := gomail.ContentType(a.ContentType)
		if ct == "" {
			ct = gomail.TypeAppOctetStream
		}
		msg.AttachReadSeeker(a.Name, bytes.NewReader(a.Data), gomail.WithFileContentType(ct))
	}
	opts := []gomail.Option{gomail.WithPort(s.cfg.Port)}
	switch s.cfg.TLS {
	case "tls":
		opts = append(opts, gomail.WithSSL())
	case "none":
		opts = append(opts, gomail.WithTLSPolicy(gomail.NoTLS))
	default:
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSMandatory))
	}
	if s.cfg.Username != "" {
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover), gomail.WithUsername(s.cfg.Username), gomail.WithPassword(s.cfg.Password))
	}
	client, err := gomail.NewClient(s.cfg.Host, opts...)
	if err != nil {
		return fmt.Errorf("smtp: client for %s: %w", s.cfg.Host, err)
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("smtp: send via %s:%d: %w", s.cfg.Host, s.cfg.Port, err)
	}
	return nil
}
