package documents_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// pdftext answers the text of a PDF's first page (poppler's pdftotext).
func pdftext(t *testing.T, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.pdf")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := osexec.Command("pdftotext", "-f", "1", "-l", "1", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v\n%s", err, out)
	}
	if info, err := osexec.Command("pdfinfo", path).CombinedOutput(); err != nil || !strings.Contains(string(info), "Pages:") {
		t.Fatalf("pdfinfo: %v\n%s", err, info)
	}
	return string(out)
}

// rawUpload sends one file part with the file name exactly as given.
func rawUpload(t *testing.T, ta *apptest.TestApp, token, fileName string, content []byte, fields map[string]string) apptest.Response {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="files"; filename="%s"`, fileName))
	h.Set("Content-Type", "application/pdf")
	part, err := w.CreatePart(h)
	if err != nil {
		t.Fatal(err)
	}
	part.Write(content)
	w.Close()
	return ta.Do("POST", "/document/uploadfiles", token, b.String(), "Content-Type", w.FormDataContentType())
}

func signaturePNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 160, 50))
	for x := 10; x < 150; x++ {
		img.Set(x, 25+(x%9)-4, color.Black)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestLinksStampsAndSignatures: uploads refused by content and name, the
// five link URLs behind a link token (scope, expiry, another document, an
// access token refused), stamped copies (on demand and by a ticket's
// stamp column), signing from a ticket, update and the point of sale's
// documents and mails; with the files in the data directory and in an
// S3 bucket.
func TestLinksStampsAndSignatures(t *testing.T) {
	forEachStorage(t, func(t *testing.T, store apptest.AppOption) {
		testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
			ta := apptest.NewApp(t, d, store)
			adminTok, leadTok, leadBTok := ta.Login(admin).AccessToken, ta.Login(lead).AccessToken, ta.Login(leadB).AccessToken
			exec(t, d, `INSERT INTO documenttype (documenttype_name, documenttype_short) VALUES ('Mietvertrag', 'MV')`)
			docType := queryInt(t, d, `SELECT MAX(documenttype_id) FROM documenttype`)
			exec(t, d, `INSERT INTO documenttype (documenttype_name, documenttype_short) VALUES ('Nachtrag', 'NT')`)
			docType2 := queryInt(t, d, `SELECT MAX(documenttype_id) FROM documenttype`)
			posA := queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 1`)
			posB := queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 2`)
			// A ticket on the FM board in its first column.
			res := ta.Do("POST", "/tickets", adminTok, map[string]any{"ticket_name": "Heizung", "pos_id": posA, "priority_id": 1,
				"board_id": seed.DemoBoardFM, "columnx_id": 1})
			if res.Status != http.StatusCreated {
				t.Fatalf("ticket: %d %s", res.Status, res.Body)
			}
			ticket := queryInt(t, d, `SELECT MAX(ticket_id) FROM ticket`)
			rows, files := queryInt(t, d, `SELECT COUNT(*) FROM document`), storedFiles(t, ta)

			// Refused by content or name; nothing written.
			fields := map[string]string{"documenttype_id": fmt.Sprint(docType), "pos_id": fmt.Sprint(posA)}
			for name, c := range map[string]struct {
				file    string
				content []byte
				want    string
			}{
				"empty":              {"a.pdf", nil, "The file is empty"},
				"a PDF header only":  {"a.pdf", []byte("%PDF-1.7\n<script>alert(1)</script>\n%%EOF\n"), "Only PDF files"},
				"an image named pdf": {"a.pdf", signaturePNG(t), "Only PDF files"},
				"a path":             {"../../etc/passwd.pdf", pdf, "without a folder"},
				"a folder":           {`C:\Users\x\a.pdf`, pdf, "without a folder"},
			} {
				res := rawUpload(t, ta, adminTok, c.file, c.content, fields)
				if res.Status != http.StatusUnprocessableEntity || !strings.Contains(string(res.Body), c.want) {
					t.Errorf("%s: %d %s, want 422 %q", name, res.Status, res.Body, c.want)
				}
			}
			if r, f := queryInt(t, d, `SELECT COUNT(*) FROM document`), storedFiles(t, ta); r != rows || f != files {
				t.Errorf("refused uploads left %d rows and %d files, had %d and %d", r, f, rows, files)
			}

			upload := func(fields map[string]string, content []byte) int64 {
				t.Helper()
				res := rawUpload(t, ta, adminTok, "Vertrag.pdf", content, fields)
				if res.Status != http.StatusCreated {
					t.Fatalf("upload: %d %s", res.Status, res.Body)
				}
				return queryInt(t, d, `SELECT MAX(document_id) FROM document`)
			}
			original := realPDF("Mietvertrag Heizung")
			doc := upload(map[string]string{"documenttype_id": fmt.Sprint(docType), "ticket_id": fmt.Sprint(ticket)}, original)
			other := upload(fields, realPDF("Anderes Dokument"))
			sum := sha256.Sum256(original)
			if got := queryString(t, d, `SELECT document_sha256 FROM document WHERE document_id = ?`, doc); got != hex.EncodeToString(sum[:]) {
				t.Errorf("stored SHA-256 %q", got)
			}

			// Links: five URLs, a token only for this document and user.
			links, res := linksOf(t, ta, adminTok, doc)
			if res.Status != http.StatusOK || !strings.HasPrefix(links.PreviewStamp, fmt.Sprintf("/documents/preview/stamp/%d?authorization=", doc)) ||
				!strings.HasPrefix(links.SignImage, fmt.Sprintf("/documents-sign/image/%d?authorization=", doc)) {
				t.Fatalf("links: %d %s", res.Status, res.Body)
			}
			if strings.Contains(links.Download, adminTok) {
				t.Fatal("the link carries the access token")
			}
			got := ta.Do("GET", links.Download, "", nil)
			if got.Status != 200 || !bytes.Equal(got.Body, original) || !strings.HasPrefix(got.Header.Get("Content-Disposition"), "attachment") {
				t.Errorf("download: %d %v", got.Status, got.Header)
			}
			if got := ta.Do("GET", links.Preview, "", nil); got.Status != 200 || !bytes.Equal(got.Body, original) ||
				!strings.HasPrefix(got.Header.Get("Content-Disposition"), "inline") {
				t.Errorf("preview: %d %v", got.Status, got.Header)
			}
			// The stamped copy on demand: date of receipt, the uploader, the
			// ticket; the original unchanged.
			stamped := ta.Do("GET", links.DownloadStamp, "", nil)
			if stamped.Status != 200 || bytes.Equal(stamped.Body, original) {
				t.Fatalf("stamped download: %d", stamped.Status)
			}
			text := pdftext(t, stamped.Body)
			for _, want := range []string{"Received " + time.Now().UTC().Format("02.01.2006"), "Anna Admin", fmt.Sprintf("Ticket %d: Heizung", ticket), "Mietvertrag Heizung"} {
				if !strings.Contains(text, want) {
					t.Errorf("the stamped copy lacks %q:\n%s", want, text)
				}
			}
			if again := ta.Do("GET", links.Download, "", nil); !bytes.Equal(again.Body, original) {
				t.Error("the original changed")
			}
			if got := ta.Do("GET", links.SignImage, "", nil); got.Status != http.StatusNotFound {
				t.Errorf("signature image of an unsigned document: %d", got.Status)
			}

			// What a link refuses, all alike.
			refusedBody := ""
			token := strings.SplitN(links.Download, "?authorization=", 2)[1]
			for name, path := range map[string]string{
				"no token":                 fmt.Sprintf("/document/download/%d", doc),
				"an access token":          fmt.Sprintf("/document/download/%d?authorization=%s", doc, adminTok),
				"a bearer header":          fmt.Sprintf("/documents/preview/%d", doc),
				"another document":         fmt.Sprintf("/document/download/%d?authorization=%s", other, token),
				"a forged token":           fmt.Sprintf("/document/download/%d?authorization=%s", doc, strings.Replace(token, fmt.Sprint(doc)+".", fmt.Sprint(doc)+".9", 1)),
				"stamp of another":         fmt.Sprintf("/documents/preview/stamp/%d?authorization=%s", other, token),
				"signature of another doc": fmt.Sprintf("/documents-sign/image/%d?authorization=%s", other, token),
			} {
				bearer := ""
				if name == "a bearer header" {
					bearer = adminTok
				}
				res := ta.Do("GET", path, bearer, nil)
				if res.Status != http.StatusUnauthorized || bytes.Contains(res.Body, []byte("%PDF")) {
					t.Errorf("%s: %d %s, want 401", name, res.Status, res.Body)
				}
				if refusedBody == "" {
					refusedBody = string(res.Body)
				} else if string(res.Body) != refusedBody {
					t.Errorf("%s answers %s, others %s", name, res.Body, refusedBody)
				}
			}
			// Expired after 5 minutes.
			ta.DocumentService().SetClock(func() time.Time { return time.Now().Add(5*time.Minute + time.Second) })
			if res := ta.Do("GET", links.Download, "", nil); res.Status != http.StatusUnauthorized || string(res.Body) != refusedBody {
				t.Errorf("expired link: %d %s", res.Status, res.Body)
			}
			ta.DocumentService().SetClock(time.Now)
			// Another tenant gets no links; a link of a user who no longer
			// sees the document opens nothing.
			if _, res := linksOf(t, ta, leadBTok, other); res.Status != http.StatusNotFound {
				t.Errorf("lead.b@ asks for links of group 1's document: %d %s", res.Status, res.Body)
			}
			leadLinks, res := linksOf(t, ta, leadTok, other)
			if res.Status != http.StatusOK {
				t.Fatalf("lead@ links: %d %s", res.Status, res.Body)
			}
			exec(t, d, `DELETE FROM pos_document WHERE document_id = ?`, other)
			if res := ta.Do("GET", leadLinks.Download, "", nil); res.Status != http.StatusNotFound {
				t.Errorf("a link after the document left the user's tenant: %d %s", res.Status, res.Body)
			}
			exec(t, d, `INSERT INTO pos_document (pos_id, document_id) VALUES (?, ?)`, posA, other)

			// Signing from the ticket.
			sig := "data:image/png;base64," + base64.StdEncoding.EncodeToString(signaturePNG(t))
			signPath := fmt.Sprintf("/documents/%d/sign", doc)
			before := queryInt(t, d, `SELECT COUNT(*) FROM document`)
			ta.Run(t, []apptest.Scenario{
				{Name: "sign: the document changed", Method: "POST", Path: signPath, As: admin, Status: 409,
					Body: map[string]any{"ticket_id": ticket, "signature": sig, "sha256": strings.Repeat("0", 64)}},
				{Name: "sign: not an image", Method: "POST", Path: signPath, As: admin, Status: 422,
					Body:     map[string]any{"ticket_id": ticket, "signature": base64.StdEncoding.EncodeToString(pdf), "sha256": hex.EncodeToString(sum[:])},
					Contains: []string{`"signature"`, "PNG or JPEG"}},
				{Name: "sign: a document not of the ticket", Method: "POST", Path: fmt.Sprintf("/documents/%d/sign", other), As: admin, Status: 404,
					Body: map[string]any{"ticket_id": ticket, "signature": sig, "sha256": hex.EncodeToString(sum[:])}},
				{Name: "sign: without the right", Method: "POST", Path: signPath, As: leadB, Status: 403,
					Body: map[string]any{"ticket_id": ticket, "signature": sig, "sha256": hex.EncodeToString(sum[:])}},
			})
			if n := queryInt(t, d, `SELECT COUNT(*) FROM document`); n != before {
				t.Fatalf("refused signatures wrote %d documents", n-before)
			}
			res = ta.Do("POST", signPath, adminTok, map[string]any{"ticket_id": ticket, "signature": sig, "sha256": hex.EncodeToString(sum[:])})
			if res.Status != http.StatusCreated {
				t.Fatalf("sign: %d %s", res.Status, res.Body)
			}
			var signed struct {
				ID       int64  `json:"document_id"`
				Original string `json:"original_sha256"`
				Signed   string `json:"signed_sha256"`
			}
			res.JSON(t, &signed)
			if signed.Original != hex.EncodeToString(sum[:]) || signed.Signed == "" || signed.Signed == signed.Original {
				t.Errorf("signed: %s", res.Body)
			}
			if n := queryInt(t, d, `SELECT COUNT(*) FROM ticket_document WHERE ticket_id = ? AND document_id = ?`, ticket, signed.ID); n != 1 {
				t.Error("the signed copy is not the ticket's")
			}
			if n := queryInt(t, d, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'ticket' AND trackrecord_row_id = ?
			AND trackrecord_type = 'sign' AND trackrecord_comment LIKE ? AND trackrecord_comment LIKE ?`,
				ticket, "%"+signed.Original+"%", "%"+signed.Signed+"%"); n != 1 {
				t.Error("the ticket's timeline lacks the signature with both digests")
			}
			signedLinks, _ := linksOf(t, ta, adminTok, signed.ID)
			copyRes := ta.Do("GET", signedLinks.Download, "", nil)
			sumCopy := sha256.Sum256(copyRes.Body)
			if hex.EncodeToString(sumCopy[:]) != signed.Signed {
				t.Error("the signed copy's digest differs from the one recorded")
			}
			if text := pdftext(t, copyRes.Body); !strings.Contains(text, "Signed by Anna Admin") || !strings.Contains(text, "Mietvertrag Heizung") {
				t.Errorf("signed copy:\n%s", text)
			}
			if name := queryText(t, d, `SELECT document_name FROM document WHERE document_id = ?`, signed.ID); !strings.HasSuffix(name, " (signed)") {
				t.Errorf("the signed copy of an English request is named %q", name)
			}
			if img := ta.Do("GET", signedLinks.SignImage, "", nil); img.Status != 200 || img.Header.Get("Content-Type") != "image/png" {
				t.Errorf("signature image: %d %v", img.Status, img.Header)
			}

			// The ticket's stamp column stamps its PDFs (a stored copy).
			version := queryInt(t, d, `SELECT row_version FROM ticket WHERE ticket_id = ?`, ticket)
			res = ta.Do("PUT", "/tickets/update", adminTok, map[string]any{"ticket_id": ticket, "row_version": version, "columnx_id": 4})
			if res.Status != http.StatusOK {
				t.Fatalf("move into the stamp column: %d %s", res.Status, res.Body)
			}
			if n := queryInt(t, d, `SELECT COUNT(*) FROM document d JOIN ticket_document l ON l.document_id = d.document_id
			WHERE l.ticket_id = ? AND d.document_stamp_file IS NOT NULL AND d.document_stamped_at IS NOT NULL`, ticket); n != 2 {
				t.Errorf("%d of the ticket's 2 documents stamped", n)
			}
			if n := queryInt(t, d, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_row_id = ? AND trackrecord_type = 'stamp'
			AND trackrecord_comment LIKE '%(2 documents)%'`, ticket); n != 1 {
				t.Error("the timeline lacks the stamp of 2 documents")
			}
			links, _ = linksOf(t, ta, adminTok, doc)
			if text := pdftext(t, ta.Do("GET", links.PreviewStamp, "", nil).Body); !strings.Contains(text, fmt.Sprintf("Ticket %d: Heizung", ticket)) {
				t.Errorf("stored stamped copy:\n%s", text)
			}
			if got := ta.Do("GET", links.Download, "", nil); !bytes.Equal(got.Body, original) {
				t.Error("stamping changed the original")
			}

			// Update, a point of sale's documents and mails.
			ta.Run(t, []apptest.Scenario{
				{Name: "update: name with extension, type", Method: "PUT", As: admin, Status: 200,
					Path:     fmt.Sprintf("/documents/update?document_id=%d&document_name=Neuer%%20Name.pdf&documenttype_id=%d", other, docType2),
					Contains: []string{`"document_name":"Neuer Name"`, fmt.Sprintf(`"documenttype_id":%d`, docType2)}},
				{Name: "update: no contract", Method: "PUT", As: admin, Status: 422,
					Path: fmt.Sprintf("/documents/update?document_id=%d&documentcontracttype_id=1", other), Contains: []string{"no contract"}},
				{Name: "update: another tenant", Method: "PUT", As: leadB, Status: 404,
					Path: fmt.Sprintf("/documents/update?document_id=%d&document_name=x", other)},
				{Name: "update: missing id", Method: "PUT", As: admin, Status: 422, Path: "/documents/update?document_name=x",
					Contains: []string{"document_id"}},
				{Name: "pos: link", Method: "POST", Path: "/documents/pos", As: admin, Status: 201,
					Body: map[string]any{"document_id": doc, "pos_id": posA, "documenttype_id": docType}, Contains: []string{`"document_name":"Vertrag"`}},
				{Name: "pos: without the right", Method: "POST", Path: "/documents/pos", As: lead, Status: 403,
					Body: map[string]any{"document_id": doc, "pos_id": posB}},
				{Name: "pos: list", Method: "GET", Path: fmt.Sprintf("/documents/pos?pos_id=%d", posA), As: admin, Status: 200,
					Contains: []string{`"Neuer Name"`, `"Vertrag"`}},
				{Name: "pos: list of another tenant", Method: "GET", Path: fmt.Sprintf("/documents/pos?pos_id=%d", posA), As: leadB, Status: 404},
				{Name: "pos: list without pos_id", Method: "GET", Path: "/documents/pos", As: admin, Status: 422},
				{Name: "pos emails", Method: "GET", Path: fmt.Sprintf("/pos/emails?pos_id=%d", posA), As: admin, Status: 200,
					Contains: []string{`"data":[`}},
				{Name: "pos emails of another tenant", Method: "GET", Path: fmt.Sprintf("/pos/emails?pos_id=%d", posA), As: leadB, Status: 404},
			})
		})
	})
}

func queryString(t *testing.T, d *db.DB, q string, args ...any) string {
	t.Helper()
	var s string
	if err := d.QueryRowContext(context.Background(), q, args...).Scan(&s); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s
}
