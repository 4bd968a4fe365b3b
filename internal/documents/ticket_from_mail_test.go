package documents_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/platform/mailbox"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// fm@ is an external member of the FM team (customer group 1): it sees
// the facility-management board only (decision 0027).
const fm = "fm@demo.test"

// TestTicketFromMail: POST /emails/{id}/ticket makes a ticket from an
// incoming mail in one transaction: the ticket through the ticket rules
// (the board a caller must see, the column of the board), named after the
// subject, on the mail's point of sale; the mail linked to it and
// processed, its attachment in the ticket's and the point of sale's
// documents, the mail in the ticket's timeline. Another group's mail is
// not found, a board the caller does not see or a column of another
// board is refused, a stale mail is refused after the ticket's insert
// and every refusal writes nothing.
func TestTicketFromMail(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		fmTok := ta.Login(fm).AccessToken
		exec(t, d, `INSERT INTO documenttype (documenttype_name, documenttype_short) VALUES ('E-Mail', 'EM')`)
		posA := queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 1`)
		posB := queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 2`)
		// fm@ and lead.b@ may process mails and write tickets (table group 4).
		exec(t, d, `INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
			SELECT user_id, 4, 1, 1, 1, 0 FROM users WHERE user_email IN (?, ?)`, fm, leadB)
		// and link documents to tickets and points of sale (the relation rights).
		for _, rel := range []string{"pos_document_rel", "ticket_document_rel"} {
			exec(t, d, `INSERT INTO access (access_kind, access_subject, access_action, role_code, access_teams, access_options)
				VALUES ('table', ?, 'update', 'ext_team_member', '', '')`, rel)
		}

		raw := mailWithPDF("leak", "Wasserschaden im Lager", "Bitte kommen Sie schnell.", "Fotos.pdf", realPDF("Fotos vom Lager"))
		if _, err := ta.DocumentService().ImportMail(t.Context(), []mailbox.Message{{UID: 1, Raw: raw}}); err != nil {
			t.Fatal(err)
		}
		mail := queryInt(t, d, `SELECT email_id FROM email WHERE email_message_id = '<leak@dach.example>'`)
		// The suggestion: customer group 1's point of sale.
		exec(t, d, `UPDATE email SET pos_id = ? WHERE email_id = ?`, posA, mail)
		doc := queryInt(t, d, `SELECT document_id FROM email_document WHERE email_id = ?`, mail)
		path := fmt.Sprintf("/emails/%d/ticket", mail)
		version := queryInt(t, d, `SELECT row_version FROM email WHERE email_id = ?`, mail)
		body := func(kv ...any) map[string]any {
			m := map[string]any{"row_version": version, "board_id": seed.DemoBoardFM, "columnx_id": 1, "priority_id": 1}
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return m
		}
		tickets := queryInt(t, d, `SELECT COUNT(*) FROM ticket`)
		history := queryInt(t, d, `SELECT COUNT(*) FROM trackrecord`)

		ta.Run(t, []apptest.Scenario{
			{Name: "not logged in", Method: "POST", Path: path, Body: body(), Status: 401},
			{Name: "another group's mail", Method: "POST", Path: path, As: leadB, Body: body("pos_id", posB), Status: 404},
			{Name: "a mail that does not exist", Method: "POST", Path: "/emails/999999/ticket", As: fm, Body: body(), Status: 404},
			{Name: "a board fm does not see", Method: "POST", Path: path, As: fm, Status: 422,
				Body: body("board_id", seed.DemoBoardNewBusiness, "columnx_id", 6), Contains: []string{`"loc":["body","board_id"]`, `"unknown_reference"`}},
			{Name: "a column of another board", Method: "POST", Path: path, As: fm, Status: 422,
				Body: body("columnx_id", 6), Contains: []string{`"loc":["body","columnx_id"]`}},
			{Name: "no board", Method: "POST", Path: path, As: fm, Status: 422,
				Body: map[string]any{"row_version": version, "columnx_id": 1, "priority_id": 1}, Contains: []string{`"board_id"`}},
			{Name: "no row_version", Method: "POST", Path: path, As: fm, Status: 422,
				Body: map[string]any{"board_id": seed.DemoBoardFM, "columnx_id": 1, "priority_id": 1}, Contains: []string{`"row_version"`}},
			{Name: "a field a ticket does not have", Method: "POST", Path: path, As: fm, Status: 422, Body: body("ticket_colour", "red")},
			// The ticket is inserted before the mail's row_version is
			// found stale: the transaction takes the ticket back.
			{Name: "a stale mail", Method: "POST", Path: path, As: fm, Status: 409,
				Body: body("row_version", version+3)},
		})
		if n := queryInt(t, d, `SELECT COUNT(*) FROM ticket`); n != tickets {
			t.Errorf("refused calls wrote %d tickets", n-tickets)
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM trackrecord`); n != history {
			t.Errorf("refused calls wrote %d history rows", n-history)
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM email WHERE email_id = ? AND email_processed = 0 AND ticket_id IS NULL`, mail); n != 1 {
			t.Error("a refused call changed the mail")
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM ticket_document WHERE document_id = ?`, doc); n != 0 {
			t.Error("a refused call linked the attachment")
		}

		res := ta.Do("POST", path, fmTok, body())
		if res.Status != http.StatusCreated {
			t.Fatalf("ticket from mail: %d %s", res.Status, res.Body)
		}
		ticket := queryInt(t, d, `SELECT MAX(ticket_id) FROM ticket`)
		if !strings.Contains(string(res.Body), fmt.Sprintf(`"ticket_id":%d`, ticket)) || !strings.Contains(string(res.Body), `"ticket_name":"Wasserschaden im Lager"`) {
			t.Errorf("answer %s", res.Body)
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM ticket WHERE ticket_id = ? AND ticket_name = 'Wasserschaden im Lager' AND pos_id = ? AND board_id = ?`,
			ticket, posA, seed.DemoBoardFM); n != 1 {
			t.Error("the ticket is not named after the subject on the mail's point of sale")
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM email WHERE email_id = ? AND email_processed = 1 AND ticket_id = ? AND pos_id = ?`, mail, ticket, posA); n != 1 {
			t.Error("the mail is not linked to the new ticket and processed")
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM ticket_document WHERE ticket_id = ? AND document_id = ?`, ticket, doc); n != 1 {
			t.Error("the attachment is not among the ticket's documents")
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM pos_document WHERE pos_id = ? AND document_id = ?`, posA, doc); n != 1 {
			t.Error("the attachment is not among the point of sale's documents")
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'ticket' AND trackrecord_row_id = ?
			AND trackrecord_type = 'email' AND trackrecord_comment LIKE '%Wasserschaden%'`, ticket); n != 1 {
			t.Error("the ticket's timeline lacks the mail")
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'ticket' AND trackrecord_row_id = ?
			AND trackrecord_type = 'create'`, ticket); n != 1 {
			t.Error("the ticket's creation is not in its history")
		}
		ta.Run(t, []apptest.Scenario{
			{Name: "a processed mail makes no second ticket", Method: "POST", Path: path, As: fm, Status: 422,
				Body: body("row_version", queryInt(t, d, `SELECT row_version FROM email WHERE email_id = ?`, mail)), Contains: []string{"processed already"}},
		})
		if n := queryInt(t, d, `SELECT COUNT(*) FROM ticket`); n != tickets+1 {
			t.Errorf("%d tickets written, want 1", n-tickets)
		}
	})
}
