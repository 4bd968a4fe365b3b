package documents_test

import (
	"fmt"
	"net/http"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/platform/mailbox"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestADocumentStaysInItsOwnersTenant: the provider's staff see every
// customer group, but a document of one group is never given an owner in
// another: linking it to a point of sale, contract or ticket of the other
// group, attaching it to a mail sent from there, or deciding that an
// incoming mail whose attachment is filed with one group belongs to the
// other (a ticket from it, its confirmation) answers 422 not_available at
// the document's field and writes nothing.
func TestADocumentStaysInItsOwnersTenant(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		tok := ta.Login(admin).AccessToken
		exec(t, d, `INSERT INTO documenttype (documenttype_name, documenttype_short) VALUES ('Mietvertrag', 'MV')`)
		docType := queryInt(t, d, `SELECT MAX(documenttype_id) FROM documenttype`)
		posOf := func(group int) int64 {
			return queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = ?`, group)
		}
		posA, posB := posOf(1), posOf(2)
		contractB := queryInt(t, d, `SELECT MIN(k.contract_id) FROM contract k JOIN company c ON c.company_id = k.company_id WHERE c.customergroup_id = 2`)
		res := ta.Do("POST", "/tickets", tok, map[string]any{"ticket_name": "Wasserschaden", "pos_id": posB, "priority_id": 1,
			"board_id": seed.DemoBoardFM, "columnx_id": 1})
		if res.Status != http.StatusCreated {
			t.Fatalf("ticket: %d %s", res.Status, res.Body)
		}
		ticketB := queryInt(t, d, `SELECT MAX(ticket_id) FROM ticket`)
		up := rawUpload(t, ta, tok, "Vertrag.pdf", pdf, map[string]string{"documenttype_id": fmt.Sprint(docType), "pos_id": fmt.Sprint(posA)})
		if up.Status != http.StatusCreated {
			t.Fatalf("upload: %d %s", up.Status, up.Body)
		}
		docA := queryInt(t, d, `SELECT MAX(document_id) FROM document`)
		links := func() int64 {
			return queryInt(t, d, `SELECT (SELECT COUNT(*) FROM pos_document) + (SELECT COUNT(*) FROM contract_document) +
				(SELECT COUNT(*) FROM ticket_document) + (SELECT COUNT(*) FROM email_document) + (SELECT COUNT(*) FROM email)`)
		}
		before := links()
		ta.Run(t, []apptest.Scenario{
			{Name: "to another group's point of sale", Method: "POST", Path: "/documents/pos", As: admin, Status: 422,
				Body: map[string]any{"document_id": docA, "pos_id": posB}, Contains: []string{`"document_id"`, "not_available"}},
			{Name: "to another group's contract (step 7)", Method: "POST", Path: "/contracts/step/7", As: admin, Status: 422,
				Body:     map[string]any{"contract_id": contractB, "documentsobjects": []map[string]any{{"document_id": docA}}},
				Contains: []string{`"document_id"`, "not_available"}},
			{Name: "attached to a mail from another group's ticket", Method: "POST", Path: "/emails/send", As: admin, Status: 422,
				Body: map[string]any{"email_to": []string{"vermieter@example.org"}, "email_subject": "Schaden", "email_body": "<p>Hallo</p>",
					"email_attachements": []int64{docA}, "ticket_id": ticketB},
				Contains: []string{"not_available"}},
		})
		if n := links(); n != before {
			t.Errorf("refused links wrote %d rows", n-before)
		}

		// An incoming mail whose attachment was filed with group 1's point
		// of sale: neither a ticket from it nor its confirmation may put
		// the attachment into group 2.
		raw := mailWithPDF("second-owner", "Nebenkosten", "Anbei die Abrechnung.", "Abrechnung.pdf", realPDF("Abrechnung"))
		if _, err := ta.DocumentService().ImportMail(t.Context(), []mailbox.Message{{UID: 1, Raw: raw}}); err != nil {
			t.Fatal(err)
		}
		mail := queryInt(t, d, `SELECT email_id FROM email WHERE email_message_id = '<second-owner@dach.example>'`)
		att := queryInt(t, d, `SELECT document_id FROM email_document WHERE email_id = ?`, mail)
		if res := ta.Do("POST", "/documents/pos", tok, map[string]any{"document_id": att, "pos_id": posA}); res.Status != http.StatusCreated {
			t.Fatalf("file the attachment with group 1: %d %s", res.Status, res.Body)
		}
		version := queryInt(t, d, `SELECT row_version FROM email WHERE email_id = ?`, mail)
		tickets, before := queryInt(t, d, `SELECT COUNT(*) FROM ticket`), links()
		ta.Run(t, []apptest.Scenario{
			{Name: "a ticket of group 2 from the mail", Method: "POST", Path: fmt.Sprintf("/emails/%d/ticket", mail), As: admin, Status: 422,
				Body:     map[string]any{"row_version": version, "board_id": seed.DemoBoardFM, "columnx_id": 1, "priority_id": 1, "pos_id": posB},
				Contains: []string{`"document_id"`, "not_available"}},
			{Name: "the mail confirmed to group 2's ticket", Method: "POST", Path: fmt.Sprintf("/emails/%d/confirm", mail), As: admin, Status: 422,
				Body:     map[string]any{"row_version": version, "ticket_id": ticketB},
				Contains: []string{`"document_id"`, "not_available"}},
		})
		if n := links(); n != before {
			t.Errorf("refused mail decisions wrote %d rows", n-before)
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM ticket`); n != tickets {
			t.Errorf("refused mail decisions wrote %d tickets", n-tickets)
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM email WHERE email_id = ? AND email_processed = 0 AND pos_id IS NULL AND ticket_id IS NULL`, mail); n != 1 {
			t.Error("a refused decision changed the mail")
		}
		// Within group 1 the same mail makes its ticket.
		res = ta.Do("POST", fmt.Sprintf("/emails/%d/ticket", mail), tok,
			map[string]any{"row_version": version, "board_id": seed.DemoBoardFM, "columnx_id": 1, "priority_id": 1, "pos_id": posA})
		if res.Status != http.StatusCreated {
			t.Fatalf("a ticket of group 1 from the mail: %d %s", res.Status, res.Body)
		}
	})
}
