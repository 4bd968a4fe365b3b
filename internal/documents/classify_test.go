package documents_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/platform/mailbox"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestClassifyIncomingMail: the incoming-mail screen's calls. The list
// shows a tenant's received mails to process; a mail reads with its
// attachments; confirming it with a ticket stores the choice, links the
// attachments to the ticket and its point of sale and adds the mail to
// the ticket's timeline; archiving only marks it processed. Another
// tenant's mail or ticket, a stale row_version, a second decision and a
// missing record are refused and write nothing.
func TestClassifyIncomingMail(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		adminTok := ta.Login(admin).AccessToken
		exec(t, d, `INSERT INTO documenttype (documenttype_name, documenttype_short) VALUES ('E-Mail', 'EM')`)
		posA := queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 1`)
		posB := queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 2`)
		ticketAt := func(pos int64) int64 {
			res := ta.Do("POST", "/tickets", adminTok, map[string]any{"ticket_name": "Post", "pos_id": pos, "priority_id": 1,
				"board_id": seed.DemoBoardFM, "columnx_id": 1})
			if res.Status != http.StatusCreated {
				t.Fatalf("ticket: %d %s", res.Status, res.Body)
			}
			return queryInt(t, d, `SELECT MAX(ticket_id) FROM ticket`)
		}
		ticketA, ticketB := ticketAt(posA), ticketAt(posB)
		// lead@ (group 1) and lead.b@ (group 2) may process mails (table group 4).
		exec(t, d, `INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
			SELECT user_id, 4, 1, 1, 1, 0 FROM users WHERE user_email IN (?, ?)`, lead, leadB)

		pdfBytes := realPDF("Rechnung")
		raw := func(id, subject string) []byte {
			return mailWithPDF(id, subject, "Guten Tag", "Rechnung.pdf", pdfBytes)
		}
		// The offer names ticket A's number; the other mail names nothing.
		if _, err := ta.DocumentService().ImportMail(t.Context(), []mailbox.Message{
			{UID: 1, Raw: raw("offer", fmt.Sprintf("Angebot Ticket #%d", ticketA))},
			{UID: 2, Raw: raw("spam", "Newsletter")},
		}); err != nil {
			t.Fatal(err)
		}
		offer := queryInt(t, d, `SELECT email_id FROM email WHERE email_message_id = '<offer@dach.example>'`)
		spam := queryInt(t, d, `SELECT email_id FROM email WHERE email_message_id = '<spam@dach.example>'`)
		doc := queryInt(t, d, `SELECT document_id FROM email_document WHERE email_id = ?`, offer)
		version := func(id int64) int64 { return queryInt(t, d, `SELECT row_version FROM email WHERE email_id = ?`, id) }
		path := func(id int64, action string) string { return fmt.Sprintf("/emails/%d/%s", id, action) }
		confirm := func(id int64, kv ...any) map[string]any {
			m := map[string]any{"row_version": version(id)}
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		}

		ta.Run(t, []apptest.Scenario{
			{Name: "the mails to process", Method: "GET", Path: "/emails/incoming", As: admin, Status: 200,
				Contains: []string{"Angebot Ticket", `"Newsletter"`}},
			{Name: "a group sees the mail suggested for its ticket", Method: "GET", Path: "/emails/incoming", As: lead, Status: 200,
				Contains: []string{"Angebot Ticket"}, Absent: []string{"Newsletter"}},
			{Name: "another group sees none of them", Method: "GET", Path: "/emails/incoming", As: leadB, Status: 200,
				Absent: []string{"Angebot Ticket", "Newsletter"}},
			{Name: "a bad processed filter", Method: "GET", Path: "/emails/incoming?processed=x", As: admin, Status: 422},
			{Name: "not logged in", Method: "GET", Path: "/emails/incoming", Status: 401},
			{Name: "a session token in the URL authenticates nothing", Method: "GET", Path: "/emails/incoming?authorization=" + adminTok, Status: 401},
			{Name: "nor on the links call", Method: "GET", Path: fmt.Sprintf("/documents/links/%d?authorization=Bearer%%20%s", doc, adminTok), Status: 401},
			{Name: "a mail with its attachments", Method: "GET", Path: fmt.Sprintf("/emails/%d", offer), As: admin, Status: 200,
				Contains: []string{`"attachments":[{"document_id":` + fmt.Sprint(doc), `"document_name":"Rechnung"`, "Guten Tag"}},
			{Name: "another group's mail", Method: "GET", Path: fmt.Sprintf("/emails/%d", offer), As: leadB, Status: 404},
			{Name: "confirm another group's mail", Method: "POST", Path: path(offer, "confirm"), As: leadB,
				Body: confirm(offer, "ticket_id", ticketB), Status: 404},
			{Name: "attach to another group's ticket", Method: "POST", Path: path(offer, "confirm"), As: lead,
				Body: confirm(offer, "ticket_id", ticketB), Status: 404},
			{Name: "a stale row_version", Method: "POST", Path: path(offer, "confirm"), As: admin,
				Body: map[string]any{"row_version": version(offer) + 5, "ticket_id": ticketA}, Status: 409},
			{Name: "no record", Method: "POST", Path: path(spam, "confirm"), As: admin, Body: confirm(spam), Status: 422,
				Contains: []string{`"pos_id"`}},
			{Name: "no row_version", Method: "POST", Path: path(spam, "archive"), As: admin, Body: map[string]any{}, Status: 422},
			{Name: "a sent mail is not classified", Method: "POST", Path: path(999999, "archive"), As: admin,
				Body: map[string]any{"row_version": 1}, Status: 404},
		})
		if n := queryInt(t, d, `SELECT COUNT(*) FROM email WHERE email_processed = 1`); n != 0 {
			t.Fatalf("refused decisions marked %d mails processed", n)
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM ticket_document`); n != 0 {
			t.Fatalf("refused decisions linked %d documents", n)
		}

		// The suggested ticket is confirmed.
		res := ta.Do("POST", path(offer, "confirm"), adminTok, confirm(offer, "ticket_id", ticketA))
		if res.Status != http.StatusOK {
			t.Fatalf("confirm: %d %s", res.Status, res.Body)
		}
		var answer map[string]any
		if err := json.Unmarshal(res.Body, &answer); err != nil || fmt.Sprint(answer["email_processed"]) != "1" && answer["email_processed"] != true {
			t.Errorf("confirm answer %s", res.Body)
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM email WHERE email_id = ? AND email_processed = 1 AND ticket_id = ? AND pos_id = ?`, offer, ticketA, posA); n != 1 {
			t.Error("the decision is not stored")
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM ticket_document WHERE ticket_id = ? AND document_id = ?`, ticketA, doc); n != 1 {
			t.Error("the attachment is not in the ticket's documents")
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM pos_document WHERE pos_id = ? AND document_id = ?`, posA, doc); n != 1 {
			t.Error("the attachment is not in the point of sale's documents")
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'ticket' AND trackrecord_row_id = ?
			AND trackrecord_type = 'email' AND trackrecord_comment LIKE '%Angebot%'`, ticketA); n != 1 {
			t.Error("the ticket's timeline lacks the mail")
		}

		res = ta.Do("POST", path(spam, "archive"), adminTok, confirm(spam))
		if res.Status != http.StatusOK {
			t.Fatalf("archive: %d %s", res.Status, res.Body)
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM email WHERE email_id = ? AND email_processed = 1 AND ticket_id IS NULL AND pos_id IS NULL`, spam); n != 1 {
			t.Error("the archived mail is not processed without a record")
		}
		ta.Run(t, []apptest.Scenario{
			{Name: "decided once", Method: "POST", Path: path(offer, "archive"), As: admin, Body: confirm(offer), Status: 422,
				Contains: []string{"processed already"}},
			{Name: "nothing left to process", Method: "GET", Path: "/emails/incoming", As: admin, Status: 200,
				Absent: []string{"Angebot Ticket", "Newsletter"}},
			{Name: "the processed mails", Method: "GET", Path: "/emails/incoming?processed=1", As: admin, Status: 200,
				Contains: []string{"Angebot Ticket", "Newsletter"}},
		})
	})
}
