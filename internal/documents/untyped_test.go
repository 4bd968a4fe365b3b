package documents_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestUploadFilesAloneTypedLater: both upload paths take the field
// "files" alone (the specification's call); the document is named after
// its file and has no type, which PUT /documents/update or contract step 7
// gives it later. Until then its stamped copy and a signature are refused
// with 422 on documenttype_id, its links say it has no type, and a
// ticket's stamp column passes it by.
func TestUploadFilesAloneTypedLater(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		adminTok := ta.Login(admin).AccessToken
		exec(t, d, `INSERT INTO documenttype (documenttype_name, documenttype_short) VALUES ('Mietvertrag', 'MV')`)
		docType := queryInt(t, d, `SELECT MAX(documenttype_id) FROM documenttype`)
		posA := queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 1`)
		contract := queryInt(t, d, `SELECT MIN(c.contract_id) FROM contract c JOIN company o ON o.company_id = c.company_id WHERE o.customergroup_id = 1`)
		res := ta.Do("POST", "/tickets", adminTok, map[string]any{"ticket_name": "Dach", "pos_id": posA, "priority_id": 1,
			"board_id": seed.DemoBoardFM, "columnx_id": 1})
		if res.Status != http.StatusCreated {
			t.Fatalf("ticket: %d %s", res.Status, res.Body)
		}
		ticket := queryInt(t, d, `SELECT MAX(ticket_id) FROM ticket`)
		created := func(res apptest.Response) int64 {
			t.Helper()
			var a struct {
				Data []struct {
					ID int64 `json:"document_id"`
				} `json:"data"`
			}
			if res.Status != http.StatusCreated {
				t.Fatalf("upload: %d %s", res.Status, res.Body)
			}
			res.JSON(t, &a)
			if len(a.Data) != 1 || a.Data[0].ID == 0 {
				t.Fatalf("upload answered %s", res.Body)
			}
			return a.Data[0].ID
		}

		// Files alone, on both paths.
		body, contentType := form(t, nil, pdf)
		alone := created(ta.Do("POST", "/documents/uploadfiles", adminTok, body, "Content-Type", contentType))
		forTicket := created(rawUpload(t, ta, adminTok, "Dachschaden.pdf", pdf, map[string]string{"ticket_id": fmt.Sprint(ticket)}))
		typed := created(rawUpload(t, ta, adminTok, "Typed.pdf", pdf, map[string]string{"ticket_id": fmt.Sprint(ticket), "documenttype_id": fmt.Sprint(docType)}))
		for id, name := range map[int64]string{alone: "Mietvertrag 1", forTicket: "Dachschaden"} {
			if n := queryInt(t, d, `SELECT COUNT(*) FROM document WHERE document_id = ? AND documenttype_id IS NULL AND document_name = ?`, id, name); n != 1 {
				t.Errorf("document %d: not stored untyped as %q", id, name)
			}
		}

		// Not stamped, not signed while it has no type; its links say so.
		links, res := linksOf(t, ta, adminTok, forTicket)
		if res.Status != http.StatusOK || !strings.Contains(string(res.Body), `"documenttype_id":null`) {
			t.Fatalf("links of an untyped document: %d %s", res.Status, res.Body)
		}
		noType := []string{`"loc":["body","documenttype_id"]`, "no type yet"}
		sum := sha256.Sum256(pdf)
		sign := map[string]any{"ticket_id": ticket, "signature": "data:image/png;base64," + base64.StdEncoding.EncodeToString(signaturePNG(t)),
			"sha256": hex.EncodeToString(sum[:])}
		signPath := fmt.Sprintf("/documents/%d/sign", forTicket)
		ta.Run(t, []apptest.Scenario{
			{Name: "stamped download of an untyped document", Method: "GET", Path: links.DownloadStamp, Status: 422, Contains: noType},
			{Name: "stamped preview of an untyped document", Method: "GET", Path: links.PreviewStamp, Status: 422, Contains: noType},
			{Name: "stamped preview, in German", Method: "GET", Path: links.PreviewStamp, Header: map[string]string{"Accept-Language": "de"}, Status: 422,
				Contains: []string{"Das Dokument hat noch keinen Typ."}},
			{Name: "the original of an untyped document", Method: "GET", Path: links.Preview, Status: 200, Contains: []string{"%PDF"}},
			{Name: "signing an untyped document", Method: "POST", Path: signPath, As: admin, Status: 422, Body: sign, Contains: noType},
			{Name: "a typed document's links name its type", Method: "GET", Path: fmt.Sprintf("/documents/links/%d", typed), As: admin, Status: 200,
				Contains: []string{fmt.Sprintf(`"documenttype_id":%d`, docType)}},
		})

		// A stamp column stamps the typed document and passes the other by.
		version := queryInt(t, d, `SELECT row_version FROM ticket WHERE ticket_id = ?`, ticket)
		res = ta.Do("PUT", "/tickets/update", adminTok, map[string]any{"ticket_id": ticket, "row_version": version, "columnx_id": 4})
		if res.Status != http.StatusOK {
			t.Fatalf("move into the stamp column: %d %s", res.Status, res.Body)
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM document WHERE document_id = ? AND document_stamp_file IS NULL`, forTicket); n != 1 {
			t.Error("the stamp column stamped a document without a type")
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM document WHERE document_id = ? AND document_stamp_file IS NOT NULL`, typed); n != 1 {
			t.Error("the stamp column did not stamp the typed document")
		}

		// Typed later: PUT /documents/update, contract step 7.
		ta.Run(t, []apptest.Scenario{
			{Name: "update gives the type", Method: "PUT", As: admin, Status: 200,
				Path:     fmt.Sprintf("/documents/update?document_id=%d&documenttype_id=%d", forTicket, docType),
				Contains: []string{fmt.Sprintf(`"documenttype_id":%d`, docType)}},
			{Name: "step 7 gives the type", Method: "POST", Path: "/contracts/step/7", As: admin, Status: 200,
				Body: map[string]any{"contract_id": contract, "documentsobjects": []map[string]any{{"document_id": alone, "documenttype_id": docType}}}},
		})
		if n := queryInt(t, d, `SELECT COUNT(*) FROM document WHERE document_id IN (?, ?) AND documenttype_id = ?`, alone, forTicket, docType); n != 2 {
			t.Errorf("%d of 2 documents typed later", n)
		}
		links, _ = linksOf(t, ta, adminTok, forTicket)
		if got := ta.Do("GET", links.PreviewStamp, "", nil); got.Status != http.StatusOK || !strings.HasPrefix(string(got.Body), "%PDF") {
			t.Errorf("stamped preview once typed: %d", got.Status)
		}
		if got := ta.Do("POST", signPath, adminTok, sign); got.Status != http.StatusCreated {
			t.Errorf("signing once typed: %d %s", got.Status, got.Body)
		}
	})
}
