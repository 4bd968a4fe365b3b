package documents_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestEveryDocumentPathStaysInItsTenant: every documents and mail call
// that names a document of customer group 1, made by lead.b@ (group 2,
// with every right on documents, mails and their tabs), answers byte for
// byte as for a missing document and writes nothing; lead.b@'s link to an
// own document opens no other.
func TestEveryDocumentPathStaysInItsTenant(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		exec(t, d, `INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
			SELECT user_id, 4, 1, 1, 1, 1 FROM users WHERE user_email = ?`, leadB)
		for _, rel := range []string{"pos_document_rel", "ticket_document_rel", "document_email_rel", "contract_document_rel"} {
			exec(t, d, `INSERT INTO access (access_kind, access_subject, access_action, role_code, access_teams, access_options)
				VALUES ('table', ?, 'update', 'lead', '', '')`, rel)
		}
		exec(t, d, `INSERT INTO documenttype (documenttype_name, documenttype_short) VALUES ('Mietvertrag', 'MV')`)
		docType := queryInt(t, d, `SELECT MAX(documenttype_id) FROM documenttype`)
		posA := queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 1`)
		posB := queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 2`)
		adminTok, bTok := ta.Login(admin).AccessToken, ta.Login(leadB).AccessToken
		up := func(pos int64) int64 {
			res := rawUpload(t, ta, adminTok, "Vertrag.pdf", pdf, map[string]string{"documenttype_id": fmt.Sprint(docType), "pos_id": fmt.Sprint(pos)})
			if res.Status != http.StatusCreated {
				t.Fatalf("upload: %d %s", res.Status, res.Body)
			}
			return queryInt(t, d, `SELECT MAX(document_id) FROM document`)
		}
		foreign, own := up(posA), up(posB)
		const missing = int64(999999)
		sig := "iVBORw0KGgo="
		calls := []struct {
			method string
			path   func(id int64) string
			body   func(id int64) any
		}{
			{"GET", func(id int64) string { return fmt.Sprintf("/documents/links/%d", id) }, nil},
			{"PUT", func(id int64) string { return fmt.Sprintf("/documents/update?document_id=%d&document_name=Taken", id) }, nil},
			{"POST", func(int64) string { return "/documents/pos" }, func(id int64) any { return map[string]any{"document_id": id, "pos_id": posB} }},
			{"POST", func(id int64) string { return fmt.Sprintf("/documents/%d/sign", id) }, func(int64) any {
				return map[string]any{"ticket_id": missing, "signature": sig, "sha256": "x"}
			}},
			{"POST", func(int64) string { return "/emails/send" }, func(id int64) any {
				return map[string]any{"email_to": []string{"x@example.org"}, "email_subject": "s", "email_body": "b", "pos_id": posB, "email_attachements": []int64{id}}
			}},
		}
		rows := queryInt(t, d, `SELECT COUNT(*) FROM email`) + queryInt(t, d, `SELECT COUNT(*) FROM pos_document`)
		for _, c := range calls {
			var fb, mb any
			if c.body != nil {
				fb, mb = c.body(foreign), c.body(missing)
			}
			f := ta.Do(c.method, c.path(foreign), bTok, fb)
			m := ta.Do(c.method, c.path(missing), bTok, mb)
			if f.Status != http.StatusNotFound || f.Status != m.Status || !bytes.Equal(f.Body, m.Body) {
				t.Errorf("%s %s: another tenant's document answers %d %s, a missing one %d %s", c.method, c.path(foreign), f.Status, f.Body, m.Status, m.Body)
			}
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM email`) + queryInt(t, d, `SELECT COUNT(*) FROM pos_document`); n != rows {
			t.Errorf("refused calls wrote %d rows", n-rows)
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM document WHERE document_name = 'Taken'`); n != 0 {
			t.Error("a foreign document was renamed")
		}
		// lead.b@'s own link opens only their document.
		l, res := linksOf(t, ta, bTok, own)
		if res.Status != http.StatusOK {
			t.Fatalf("own links: %d %s", res.Status, res.Body)
		}
		token := strings.SplitN(l.Download, "?authorization=", 2)[1]
		for _, p := range []string{"/document/download/%d", "/document/download/stamp/%d", "/documents/preview/%d", "/documents/preview/stamp/%d", "/documents-sign/image/%d"} {
			if r := ta.Do("GET", fmt.Sprintf(p, foreign)+"?authorization="+token, "", nil); r.Status != http.StatusUnauthorized || bytes.Contains(r.Body, []byte("%PDF")) {
				t.Errorf("%s with another document's link: %d", fmt.Sprintf(p, foreign), r.Status)
			}
		}
	})
}
