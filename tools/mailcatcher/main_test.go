package main

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"net/smtp"
	"strings"
	"testing"

	gosmtp "github.com/emersion/go-smtp"
)

// TestCatchesAndServesMail sends a multipart message over real SMTP and
// reads it back, decoded, from GET /messages?to=.
func TestCatchesAndServesMail(t *testing.T) {
	s := &store{}
	srv := gosmtp.NewServer(&backend{store: s})
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { srv.Close() })

	body := strings.Join([]string{
		"From: Portfolio <no-reply@localhost>",
		"To: clara@demo.test",
		"Subject: =?UTF-8?q?Best=C3=A4tigen?=",
		"MIME-Version: 1.0",
		`Content-Type: multipart/alternative; boundary="b1"`,
		"",
		"--b1",
		"Content-Type: text/plain; charset=UTF-8",
		"Content-Transfer-Encoding: quoted-printable",
		"",
		"Open http://127.0.0.1:8080/auth/verification/abc=",
		"DEF",
		"--b1",
		"Content-Type: text/html; charset=UTF-8",
		"Content-Transfer-Encoding: base64",
		"",
		"PHA+SGVsbG88L3A+",
		"--b1--",
		"",
	}, "\r\n")
	if err := smtp.SendMail(ln.Addr().String(), nil, "no-reply@localhost", []string{"clara@demo.test"}, []byte(body)); err != nil {
		t.Fatalf("send: %v", err)
	}

	h := handler(s)
	get := func(url string) []Message {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, url, nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %s: %d", url, rec.Code)
		}
		var out []Message
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		return out
	}
	got := get("/messages?to=CLARA@demo.test")
	if len(got) != 1 {
		t.Fatalf("messages for clara: %d, want 1", len(got))
	}
	m := got[0]
	if m.Subject != "Bestätigen" || m.From != "no-reply@localhost" || m.To[0] != "clara@demo.test" {
		t.Errorf("headers: %+v", m)
	}
	if !strings.Contains(m.Text, "/auth/verification/abcDEF") {
		t.Errorf("text not decoded: %q", m.Text)
	}
	if m.HTML != "<p>Hello</p>" {
		t.Errorf("html not decoded: %q", m.HTML)
	}
	if n := len(get("/messages?to=someone@else.test")); n != 0 {
		t.Errorf("messages for someone else: %d", n)
	}

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodDelete, "/messages", nil))
	if rec.Code != http.StatusNoContent || len(get("/messages")) != 0 {
		t.Errorf("DELETE /messages: %d, left %d", rec.Code, len(get("/messages")))
	}
}
