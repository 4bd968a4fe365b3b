// Command mailcatcher is a tiny SMTP server for browser tests: it accepts
// every message on -smtp (no TLS, any or no authentication), keeps it in
// memory and shows what arrived as JSON on -http.
//
//	GET /messages              every message, oldest first
//	GET /messages?to=a@b.test  the messages with that recipient (case-insensitive)
//	DELETE /messages           forgets every message
//	GET /healthz               200 once both listeners are up
//
// A message is {"from", "to", "subject", "text", "html", "received_at"}:
// the text/plain and text/html parts decoded (quoted-printable, base64).
// Playwright starts it next to the server (web/playwright.config.ts), and
// `portfolio serve --smtp-host 127.0.0.1 --smtp-port <port> --smtp-tls none`
// delivers to it.
//
//	go run ./tools/mailcatcher -smtp 127.0.0.1:2525 -http 127.0.0.1:8025
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/http"
	"net/mail"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/emersion/go-smtp"
)

// Message is one received mail as GET /messages answers it.
type Message struct {
	From       string    `json:"from"`
	To         []string  `json:"to"`
	Subject    string    `json:"subject"`
	Text       string    `json:"text"`
	HTML       string    `json:"html"`
	ReceivedAt time.Time `json:"received_at"`
}

// store keeps the received messages.
type store struct {
	mu   sync.Mutex
	msgs []Message
}

func (s *store) add(m Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgs = append(s.msgs, m)
}

// list answers the messages sent to `to` (every message when empty).
func (s *store) list(to string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []Message{}
	for _, m := range s.msgs {
		if to == "" || hasRecipient(m, to) {
			out = append(out, m)
		}
	}
	return out
}

func (s *store) clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgs = nil
}

func hasRecipient(m Message, to string) bool {
	for _, r := range m.To {
		if strings.EqualFold(strings.TrimSpace(r), strings.TrimSpace(to)) {
			return true
		}
	}
	return false
}

// backend implements smtp.Backend over a store.
type backend struct{ store *store }

func (b *backend) NewSession(*smtp.Conn) (smtp.Session, error) { return &session{store: b.store}, nil }

type session struct {
	store *store
	from  string
	to    []string
}

func (s *session) AuthPlain(string, string) error { return nil }
func (s *session) Reset()                         { s.from, s.to = "", nil }
func (s *session) Logout() error                  { return nil }

func (s *session) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}

func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m := parse(raw)
	m.From, m.To, m.ReceivedAt = s.from, append([]string(nil), s.to...), time.Now().UTC()
	s.store.add(m)
	return nil
}

// parse reads the subject and the text and HTML bodies of a raw message.
func parse(raw []byte) Message {
	var m Message
	msg, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		m.Text = string(raw)
		return m
	}
	dec := new(mime.WordDecoder)
	if subject, err := dec.DecodeHeader(msg.Header.Get("Subject")); err == nil {
		m.Subject = subject
	}
	walk(msg.Header.Get("Content-Type"), msg.Header.Get("Content-Transfer-Encoding"), msg.Body, &m)
	return m
}

// walk collects the first text/plain and text/html parts, descending into
// multipart bodies.
func walk(contentType, encoding string, body io.Reader, m *Message) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt = "text/plain"
	}
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				return
			}
			// multipart.Part already decodes quoted-printable.
			walk(p.Header.Get("Content-Type"), p.Header.Get("Content-Transfer-Encoding"), p, m)
		}
	}
	b, err := io.ReadAll(decode(encoding, body))
	if err != nil {
		return
	}
	switch {
	case mt == "text/plain" && m.Text == "":
		m.Text = string(b)
	case mt == "text/html" && m.HTML == "":
		m.HTML = string(b)
	}
}

func decode(encoding string, r io.Reader) io.Reader {
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "quoted-printable":
		return quotedprintable.NewReader(r)
	case "base64":
		return base64.NewDecoder(base64.StdEncoding, r)
	}
	return r
}

// handler serves the messages as JSON.
func handler(s *store) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
	})
	mux.HandleFunc("GET /messages", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(s.list(r.URL.Query().Get("to")))
	})
	mux.HandleFunc("DELETE /messages", func(w http.ResponseWriter, _ *http.Request) {
		s.clear()
		w.WriteHeader(http.StatusNoContent)
	})
	return mux
}

func run() error {
	smtpAddr := flag.String("smtp", "127.0.0.1:2525", "SMTP listen address")
	httpAddr := flag.String("http", "127.0.0.1:8025", "HTTP listen address of GET /messages")
	flag.Parse()

	s := &store{}
	srv := smtp.NewServer(&backend{store: s})
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.ReadTimeout = 10 * time.Second
	srv.WriteTimeout = 10 * time.Second
	ln, err := net.Listen("tcp", *smtpAddr)
	if err != nil {
		return fmt.Errorf("smtp listen: %w", err)
	}
	hs := &http.Server{Addr: *httpAddr, Handler: handler(s), ReadHeaderTimeout: 5 * time.Second}

	errs := make(chan error, 2)
	go func() { errs <- srv.Serve(ln) }()
	go func() { errs <- hs.ListenAndServe() }()
	log.Printf("mailcatcher: SMTP on %s, messages on http://%s/messages", *smtpAddr, *httpAddr)

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	select {
	case <-stop:
	case err := <-errs:
		if !errors.Is(err, http.ErrServerClosed) && !errors.Is(err, smtp.ErrServerClosed) {
			return err
		}
	}
	_ = srv.Close()
	return hs.Close()
}

func main() {
	if err := run(); err != nil {
		log.Fatal(err)
	}
}
