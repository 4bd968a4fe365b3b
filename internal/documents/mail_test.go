package documents_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/mail"
	"strings"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/documents"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// attachmentsOf walks a raw mail's MIME tree and answers its attachments
// by file name, decoded.
func attachmentsOf(t *testing.T, raw []byte) map[string][]byte {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	var walk func(header map[string][]string, body io.Reader)
	walk = func(header map[string][]string, body io.Reader) {
		get := func(k string) string {
			if v := header[k]; len(v) > 0 {
				return v[0]
			}
			return ""
		}
		mt, params, _ := mime.ParseMediaType(get("Content-Type"))
		if strings.HasPrefix(mt, "multipart/") {
			r := multipart.NewReader(body, params["boundary"])
			for {
				p, err := r.NextRawPart()
				if err != nil {
					return
				}
				walk(p.Header, p)
			}
		}
		if _, dp, err := mime.ParseMediaType(get("Content-Disposition")); err == nil && dp["filename"] != "" {
			b, _ := io.ReadAll(body)
			if strings.EqualFold(get("Content-Transfer-Encoding"), "base64") {
				b, _ = base64.StdEncoding.DecodeString(strings.NewReplacer("\r", "", "\n", "").Replace(string(b)))
			}
			out[dp["filename"]] = b
		}
	}
	walk(m.Header, m.Body)
	return out
}

func TestSanitizeHTML(t *testing.T) {
	in := `<p onclick="x()">Hallo <b>Welt</b><script>alert(1)</script></p><img src="https://tracker.example/p.gif">` +
		`<img src="data:image/png;base64,iVBORw0KGgo="><a href="javascript:alert(1)">x</a><a href="https://example.org">ok</a>` +
		`<style>body{}</style><iframe src="https://x"></iframe><svg onload="x()"></svg>`
	out := documents.SanitizeHTML(in)
	for _, bad := range []string{"script", "onclick", "tracker.example", "javascript", "style", "iframe", "onload", "svg"} {
		if strings.Contains(out, bad) {
			t.Errorf("sanitized body keeps %q: %s", bad, out)
		}
	}
	for _, good := range []string{"<b>Welt</b>", `data:image/png;base64,iVBORw0KGgo=`, `href="https://example.org"`, `rel="nofollow`} {
		if !strings.Contains(out, good) {
			t.Errorf("sanitized body lost %q: %s", good, out)
		}
	}
}

// TestSendMail: a mail from a ticket with a document attached arrives at
// the real SMTP server with the attachment; it is stored as an email row
// of the ticket and its point of sale, sanitized, and listed with the
// point of sale's mails; bad recipients and another tenant's attachment
// write nothing; with the files in the data directory and in an S3
// bucket.
func TestSendMail(t *testing.T) {
	forEachStorage(t, func(t *testing.T, store apptest.AppOption) {
		testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
			ta := apptest.NewApp(t, d, store)
			adminTok := ta.Login(admin).AccessToken
			exec(t, d, `INSERT INTO documenttype (documenttype_name, documenttype_short) VALUES ('Mietvertrag', 'MV')`)
			docType := queryInt(t, d, `SELECT MAX(documenttype_id) FROM documenttype`)
			posA := queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 1`)
			posB := queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 2`)
			res := ta.Do("POST", "/tickets", adminTok, map[string]any{"ticket_name": "Wasserschaden", "pos_id": posA, "priority_id": 1,
				"board_id": seed.DemoBoardFM, "columnx_id": 1})
			if res.Status != http.StatusCreated {
				t.Fatalf("ticket: %d %s", res.Status, res.Body)
			}
			ticket := queryInt(t, d, `SELECT MAX(ticket_id) FROM ticket`)
			content := realPDF("Schadensmeldung")
			up := func(pos int64) int64 {
				res := rawUpload(t, ta, adminTok, "Schadensmeldung.pdf", content, map[string]string{"documenttype_id": fmt.Sprint(docType), "pos_id": fmt.Sprint(pos)})
				if res.Status != http.StatusCreated {
					t.Fatalf("upload: %d %s", res.Status, res.Body)
				}
				return queryInt(t, d, `SELECT MAX(document_id) FROM document`)
			}
			docA, docB := up(posA), up(posB)
			// lead@ and lead.b@ may write documents and mails (table group 4).
			exec(t, d, `INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
			SELECT user_id, 4, 1, 1, 1, 0 FROM users WHERE user_email IN (?, ?)`, lead, leadB)
			mails, outbox := queryInt(t, d, `SELECT COUNT(*) FROM email`), queryInt(t, d, `SELECT COUNT(*) FROM mail_outbox`)
			send := func(as string, body map[string]any) apptest.Scenario {
				return apptest.Scenario{Method: "POST", Path: "/emails/send", As: as, Body: body}
			}
			bad := func(name string, s apptest.Scenario, status int, contains ...string) apptest.Scenario {
				s.Name, s.Status, s.Contains = name, status, contains
				return s
			}
			base := func(kv ...any) map[string]any {
				m := map[string]any{"email_to": []string{"vermieter@example.org"}, "email_cc": []string{}, "email_subject": "Schaden",
					"email_body": "<p>Hallo</p>", "email_attachements": []int64{docA}, "ticket_id": ticket}
				for i := 0; i+1 < len(kv); i += 2 {
					m[kv[i].(string)] = kv[i+1]
				}
				return m
			}
			ta.Run(t, []apptest.Scenario{
				bad("invalid recipient", send(admin, base("email_to", []string{"not an address"})), 422, `"email_to"`, "not an address"),
				bad("a recipient with a name", send(admin, base("email_to", []string{"Eve <eve@example.org>"})), 422, `"email_to"`),
				bad("invalid cc", send(admin, base("email_cc", []string{"x@"})), 422, `"email_cc"`),
				bad("no recipient", send(admin, base("email_to", []string{})), 422, `"email_to"`),
				bad("header injection in the subject", send(admin, base("email_subject", "Hi\r\nBcc: eve@example.org")), 422, `"email_subject"`),
				bad("another tenant's attachment", send(lead, base("email_attachements", []int64{docB}, "ticket_id", nil, "pos_id", posA)), 404),
				bad("a missing attachment", send(admin, base("email_attachements", []int64{999999})), 404),
				bad("another tenant's ticket", send(leadB, base("email_attachements", []int64{})), 404),
				bad("not logged in", send("", base()), 401),
			})
			if m, o := queryInt(t, d, `SELECT COUNT(*) FROM email`), queryInt(t, d, `SELECT COUNT(*) FROM mail_outbox`); m != mails || o != outbox {
				t.Fatalf("refused mails wrote %d emails and %d outbox rows", m-mails, o-outbox)
			}

			res = ta.Do("POST", "/emails/send", adminTok, base("email_cc", []string{"kopie@example.org"},
				"email_body", `<p onclick="steal()">Sehr geehrte Damen und Herren,</p><script>alert(1)</script><img src="https://tracker.example/p.gif">`))
			if res.Status != http.StatusCreated {
				t.Fatalf("send: %d %s", res.Status, res.Body)
			}
			got := ta.SMTP.WaitFor(t, 10*time.Second, func(m testkit.Mail) bool { return m.Subject == "Schaden" })
			if !strings.Contains(strings.Join(got.To, ","), "vermieter@example.org") || !strings.Contains(strings.Join(got.To, ","), "kopie@example.org") {
				t.Errorf("recipients %v", got.To)
			}
			att := attachmentsOf(t, got.Raw)
			if !bytes.Equal(att["Schadensmeldung.pdf"], content) {
				t.Errorf("the attachment did not arrive intact: %d attachments, %d bytes", len(att), len(att["Schadensmeldung.pdf"]))
			}
			for _, bad := range []string{"steal()", "<script", "tracker.example"} {
				if bytes.Contains(got.Raw, []byte(bad)) {
					t.Errorf("the sent mail contains %q", bad)
				}
			}
			if n := queryInt(t, d, `SELECT COUNT(*) FROM email WHERE ticket_id = ? AND pos_id = ? AND email_direction = 'out'
			AND email_body NOT LIKE '%script%' AND email_body NOT LIKE '%onclick%' AND email_body LIKE '%Sehr geehrte%'`, ticket, posA); n != 1 {
				t.Error("the mail is not stored sanitized with its ticket and point of sale")
			}
			if n := queryInt(t, d, `SELECT COUNT(*) FROM email_document l JOIN email e ON e.email_id = l.email_id WHERE e.ticket_id = ? AND l.document_id = ?`, ticket, docA); n != 1 {
				t.Error("the attachment is not linked to the stored mail")
			}
			if n := queryInt(t, d, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'ticket' AND trackrecord_row_id = ? AND trackrecord_type = 'email'`, ticket); n != 1 {
				t.Error("the ticket's timeline lacks the mail")
			}
			ta.Run(t, []apptest.Scenario{
				{Name: "the point of sale's mails", Method: "GET", Path: fmt.Sprintf("/pos/emails?pos_id=%d", posA), As: admin, Status: 200,
					Contains: []string{`"email_subject":"Schaden"`, `"email_direction":"out"`}, Absent: []string{"onclick", "<script"}},
				{Name: "another group's mails", Method: "GET", Path: fmt.Sprintf("/pos/emails?pos_id=%d", posA), As: leadB, Status: 404},
			})
		})
	})
}
