package testkit

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// Mail is one message received by the test SMTP server.
type Mail struct {
	From    string
	To      []string
	Subject string
	Text    string // the text/plain part, decoded
	Raw     []byte
}

// SMTPServer is a real SMTP server on a loopback port that keeps every
// message it receives, for tests that assert on mail.
type SMTPServer struct {
	Host string
	Port int

	mu      sync.Mutex
	changed chan struct{}
	mails   []Mail
	srv     *smtp.Server
}

// NewSMTPServer starts a server that stops when the test ends.
func NewSMTPServer(t testing.TB) *SMTPServer {
	t.Helper()
	s := &SMTPServer{changed: make(chan struct{})}
	s.srv = smtp.NewServer(s)
	s.srv.Domain = "localhost"
	s.srv.AllowInsecureAuth = true
	s.srv.ReadTimeout = 10 * time.Second
	s.srv.WriteTimeout = 10 * time.Second
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("smtp listen: %v", err)
	}
	addr := ln.Addr().(*net.TCPAddr)
	s.Host, s.Port = "127.0.0.1", addr.Port
	go func() { _ = s.srv.Serve(ln) }()
	t.Cleanup(func() { s.srv.Close() })
	return s
}

// NewSession implements smtp.Backend.
func (s *SMTPServer) NewSession(*smtp.Conn) (smtp.Session, error) {
	return &smtpSession{server: s}, nil
}

// Mails returns what arrived so far.
func (s *SMTPServer) Mails() []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Mail(nil), s.mails...)
}

// WaitFor returns the first message matching match, waiting up to timeout
// for it to arrive (woken by each delivery, never polling on a timer).
func (s *SMTPServer) WaitFor(t testing.TB, timeout time.Duration, match func(Mail) bool) Mail {
	t.Helper()
	deadline := time.After(timeout)
	for {
		s.mu.Lock()
		for _, m := range s.mails {
			if match(m) {
				s.mu.Unlock()
				return m
			}
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("no matching mail within %s; received %d", timeout, len(s.Mails()))
			return Mail{}
		}
	}
}

func (s *SMTPServer) add(m Mail) {
	s.mu.Lock()
	s.mails = append(s.mails, m)
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

type smtpSession struct {
	server *SMTPServer
	from   string
	to     []string
}

func (ss *smtpSession) AuthPlain(string, string) error { return nil }
func (ss *smtpSession) Reset()                         { ss.from, ss.to = "", nil }
func (ss *smtpSession) Logout() error                  { return nil }

func (ss *smtpSession) Mail(from string, _ *smtp.MailOptions) error {
	ss.from = from
	return nil
}

func (ss *smtpSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	ss.to = append(ss.to, to)
	return nil
}

func (ss *smtpSession) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m := Mail{From: ss.from, To: append([]string(nil), ss.to...), Raw: raw}
	if msg, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil {
		dec := new(mime.WordDecoder)
		if subj, err := dec.DecodeHeader(msg.Header.Get("Subject")); err == nil {
			m.Subject = subj
		}
		m.Text = plainText(msg)
	}
	ss.server.add(m)
	return nil
}

// plainText finds and decodes the text/plain part of a message.
func plainText(msg *mail.Message) string {
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		return ""
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(msg.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				return ""
			}
			if strings.HasPrefix(p.Header.Get("Content-Type"), "text/plain") {
				b, _ := io.ReadAll(p) // multipart.Part decodes quoted-printable
				return string(b)
			}
		}
	}
	b, _ := io.ReadAll(decodeBody(msg.Header.Get("Content-Transfer-Encoding"), msg.Body))
	return string(b)
}
