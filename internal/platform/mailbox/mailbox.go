// Package mailbox fetches incoming mail from an IMAP mailbox (go-imap v2
// client): the newest messages, each as its raw RFC 5322 bytes with its
// UID. What a message means to the product is decided by the caller; the
// package imports nothing of the app.
package mailbox

import (
	"context"
	"fmt"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Config names the mailbox: Addr is host:port, TLS is "tls" (implicit),
// "starttls" or "none" (tests, a local relay).
type Config struct {
	Addr     string
	Username string
	Password string
	Mailbox  string
	TLS      string
}

// Message is one fetched message.
type Message struct {
	UID uint32
	Raw []byte
}

// Fetch logs in, selects the mailbox read-only and answers its newest
// messages (at most max, oldest first), skipping any larger than maxBytes.
func Fetch(ctx context.Context, cfg Config, max int, maxBytes int64) ([]Message, error) {
	var (
		c   *imapclient.Client
		err error
	)
	opts := &imapclient.Options{}
	switch cfg.TLS {
	case "tls":
		c, err = imapclient.DialTLS(cfg.Addr, opts)
	case "none":
		c, err = imapclient.DialInsecure(cfg.Addr, opts)
	default:
		c, err = imapclient.DialStartTLS(cfg.Addr, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("mailbox: connect %s: %w", cfg.Addr, err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	if err := c.Login(cfg.Username, cfg.Password).Wait(); err != nil {
		return nil, fmt.Errorf("mailbox: login: %w", err)
	}
	name := cfg.Mailbox
	if name == "" {
		name = "INBOX"
	}
	sel, err := c.Select(name, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, fmt.Errorf("mailbox: select %s: %w", name, err)
	}
	if sel.NumMessages == 0 {
		return nil, c.Logout().Wait()
	}
	first := uint32(1)
	if max > 0 && sel.NumMessages > uint32(max) {
		first = sel.NumMessages - uint32(max) + 1
	}
	var set imap.SeqSet
	set.AddRange(first, sel.NumMessages)
	section := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(set, &imap.FetchOptions{UID: true, RFC822Size: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return nil, fmt.Errorf("mailbox: fetch: %w", err)
	}
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		if maxBytes > 0 && m.RFC822Size > maxBytes {
			continue
		}
		raw := m.FindBodySection(section)
		if raw == nil {
			continue
		}
		out = append(out, Message{UID: uint32(m.UID), Raw: raw})
	}
	logout := make(chan error, 1)
	go func() { logout <- c.Logout().Wait() }()
	select {
	case <-logout:
	case <-time.After(5 * time.Second):
	}
	return out, nil
}
