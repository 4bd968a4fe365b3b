package documents_test

import (
	"bytes"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"

	"portfolio/internal/db"
	"portfolio/internal/platform/mailbox"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// imapServer runs go-imap's in-process memory server with one user and
// INBOX on a loopback port and answers its address and the user.
func imapServer(t *testing.T) (string, *imapmemserver.User) {
	t.Helper()
	mem := imapmemserver.New()
	user := imapmemserver.NewUser("inbox@portfolio.test", "secret")
	if err := user.Create("INBOX", nil); err != nil {
		t.Fatal(err)
	}
	mem.AddUser(user)
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			return mem.NewSession(), nil, nil
		},
		InsecureAuth: true,
		Caps:         imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}},
		TLSConfig:    &tls.Config{},
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), user
}

func appendMail(t *testing.T, u *imapmemserver.User, raw string) {
	t.Helper()
	raw = strings.ReplaceAll(raw, "\n", "\r\n")
	if _, err := u.Append("INBOX", bytes.NewReader([]byte(raw)), &imap.AppendOptions{}); err != nil {
		t.Fatal(err)
	}
}

// mailWithPDF is a received mail as the mailbox delivers it (CRLF lines)
// from info@dach.example, with Message-ID <id@dach.example>, a text body
// and one PDF attachment named file.
func mailWithPDF(id, subject, text, file string, pdf []byte) []byte {
	return []byte(strings.ReplaceAll(fmt.Sprintf(`From: info@dach.example
To: inbox@portfolio.test
Subject: %s
Message-ID: <%s@dach.example>
Date: Mon, 23 Nov 2026 10:00:00 +0100
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="b1"

--b1
Content-Type: text/plain; charset=utf-8

%s
--b1
Content-Type: application/pdf; name="%s"
Content-Disposition: attachment; filename="%s"
Content-Transfer-Encoding: base64

%s
--b1--
`, subject, id, text, file, file, b64(pdf)), "\n", "\r\n"))
}

func b64(b []byte) string {
	s := base64.StdEncoding.EncodeToString(b)
	var out strings.Builder
	for len(s) > 76 {
		out.WriteString(s[:76] + "\n")
		s = s[76:]
	}
	out.WriteString(s)
	return out.String()
}

// TestIncomingMail: the fetch job reads the IMAP mailbox (go-imap's
// in-process server), stores each mail once however often it runs, with
// its attachments as documents (a fake PDF kept as a plain file that is
// never previewed), the body sanitized, and the ticket or point of sale
// suggested from the subject or the sender; with the files in the data
// directory and in an S3 bucket.
func TestIncomingMail(t *testing.T) {
	forEachStorage(t, func(t *testing.T, store apptest.AppOption) {
		testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
			ta := apptest.NewApp(t, d, store)
			adminTok := ta.Login(admin).AccessToken
			exec(t, d, `INSERT INTO documenttype (documenttype_name, documenttype_short) VALUES ('E-Mail', 'EM')`)
			posA := queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 1`)
			res := ta.Do("POST", "/tickets", adminTok, map[string]any{"ticket_name": "Dach undicht", "pos_id": posA, "priority_id": 1,
				"board_id": seed.DemoBoardFM, "columnx_id": 1})
			if res.Status != http.StatusCreated {
				t.Fatalf("ticket: %d %s", res.Status, res.Body)
			}
			ticket := queryInt(t, d, `SELECT MAX(ticket_id) FROM ticket`)
			// The point of sale's contact person writes from hausmeister@.
			exec(t, d, `INSERT INTO contactdetails (contactdetails_email) VALUES ('Hausmeister@Example.org')`)
			exec(t, d, `UPDATE contactperson SET contactdetails_id = (SELECT MAX(contactdetails_id) FROM contactdetails)
			WHERE contactperson_id = (SELECT contactperson_id FROM pos WHERE pos_id = ?)`, posA)
			senderPos := queryInt(t, d, `SELECT MIN(pos_id) FROM pos WHERE contactperson_id = (SELECT contactperson_id FROM pos WHERE pos_id = ?)`, posA)

			addr, user := imapServer(t)
			pdfBytes := realPDF("Rechnung Dach")
			appendMail(t, user, fmt.Sprintf(`From: Dachdecker <info@dach.example>
To: inbox@portfolio.test
Cc: chef@dach.example
Subject: =?utf-8?q?Angebot_f=C3=BCr_Ticket_#%d?=
Message-ID: <angebot-1@dach.example>
Date: Mon, 23 Nov 2026 10:00:00 +0100
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="b1"

--b1
Content-Type: text/html; charset=utf-8

<p onmouseover="steal()">Guten Tag</p><script>alert(1)</script><img src="https://tracker.example/open.gif">
--b1
Content-Type: application/pdf; name="Angebot.pdf"
Content-Disposition: attachment; filename="Angebot.pdf"
Content-Transfer-Encoding: base64

%s
--b1
Content-Type: application/pdf; name="../../Rechnung.pdf"
Content-Disposition: attachment; filename="../../Rechnung.pdf"
Content-Transfer-Encoding: base64

%s
--b1--
`, ticket, b64(pdfBytes), b64([]byte("%PDF-1.4 <html><script>alert(1)</script></html>"))))
			appendMail(t, user, `From: hausmeister@example.org
To: inbox@portfolio.test
Subject: Heizung ausgefallen
Date: Mon, 23 Nov 2026 11:00:00 +0100

Die Heizung ist aus.
`)
			svc := ta.DocumentService()
			svc.UseMailbox(mailbox.Config{Addr: addr, Username: "inbox@portfolio.test", Password: "secret", TLS: "none"})
			for run := 1; run <= 2; run++ {
				if err := svc.FetchMail(t.Context()); err != nil {
					t.Fatalf("fetch %d: %v", run, err)
				}
				if n := queryInt(t, d, `SELECT COUNT(*) FROM email WHERE email_direction = 'in'`); n != 2 {
					t.Fatalf("after fetch %d: %d incoming mails, want 2", run, n)
				}
			}
			offer := queryInt(t, d, `SELECT email_id FROM email WHERE email_message_id = '<angebot-1@dach.example>'`)
			if n := queryInt(t, d, `SELECT COUNT(*) FROM email WHERE email_id = ? AND ticket_id = ? AND pos_id = ? AND email_processed = 0
			AND email_from = 'info@dach.example' AND email_cc = 'chef@dach.example' AND email_subject = ?`, offer, ticket, posA,
				fmt.Sprintf("Angebot für Ticket #%d", ticket)); n != 1 {
				t.Error("the offer is not stored with its ticket, point of sale and headers")
			}
			body := queryString(t, d, `SELECT email_body FROM email WHERE email_id = ?`, offer)
			if !strings.Contains(body, "Guten Tag") || strings.Contains(body, "steal") || strings.Contains(body, "script") || strings.Contains(body, "tracker") {
				t.Errorf("stored body %q", body)
			}
			if n := queryInt(t, d, `SELECT COUNT(*) FROM email WHERE email_subject = 'Heizung ausgefallen' AND pos_id = ? AND ticket_id IS NULL
			AND email_body LIKE '%Die Heizung ist aus.%'`, senderPos); n != 1 {
				t.Error("the mail of the contact person is not suggested for their point of sale")
			}
			pdfDoc := queryInt(t, d, `SELECT d.document_id FROM document d JOIN email_document l ON l.document_id = d.document_id
			WHERE l.email_id = ? AND d.document_mime_type = 'application/pdf' AND d.document_name = 'Angebot'`, offer)
			fake := queryInt(t, d, `SELECT d.document_id FROM document d JOIN email_document l ON l.document_id = d.document_id
			WHERE l.email_id = ? AND d.document_mime_type = 'application/octet-stream' AND d.document_name = 'Rechnung.pdf'`, offer)
			links, _ := linksOf(t, ta, adminTok, pdfDoc)
			if got := ta.Do("GET", links.Download, "", nil); !bytes.Equal(got.Body, pdfBytes) {
				t.Errorf("the PDF attachment: %d", got.Status)
			}
			links, _ = linksOf(t, ta, adminTok, fake)
			for _, u := range []string{links.Preview, links.PreviewStamp, links.DownloadStamp} {
				if got := ta.Do("GET", u, "", nil); got.Status != http.StatusNotFound {
					t.Errorf("a fake PDF is shown at %s: %d %s", u, got.Status, got.Header.Get("Content-Type"))
				}
			}
			if got := ta.Do("GET", links.Download, "", nil); got.Status != 200 || got.Header.Get("Content-Type") != "application/octet-stream" ||
				!strings.HasPrefix(got.Header.Get("Content-Disposition"), "attachment") {
				t.Errorf("the fake PDF's download: %d %v", got.Status, got.Header)
			}
			if n := queryInt(t, d, `SELECT COUNT(*) FROM document`); n != 2 {
				t.Errorf("%d documents after two fetches, want 2", n)
			}
		})
	})
}
