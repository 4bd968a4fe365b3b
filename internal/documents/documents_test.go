package documents_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/go-pdf/fpdf"

	"portfolio/internal/db"
	"portfolio/internal/documents"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

const (
	admin = "admin@demo.test"
	lead  = "lead@demo.test"   // external, customer group 1
	leadB = "lead.b@demo.test" // external, customer group 2
)

// pdf is a small but real PDF file.
var pdf = realPDF("Mietvertrag Seite eins")

// realPDF makes a one-page PDF with text on it.
func realPDF(text string) []byte {
	p := fpdf.New("P", "mm", "A4", "")
	p.AddPage()
	p.SetFont("Helvetica", "", 12)
	p.Cell(40, 10, text)
	var b bytes.Buffer
	if err := p.Output(&b); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// linksOf asks for document id's link URLs as the holder of token.
func linksOf(t *testing.T, ta *apptest.TestApp, token string, id int64) (documents.Links, apptest.Response) {
	t.Helper()
	res := ta.Do("GET", fmt.Sprintf("/documents/links/%d", id), token, nil)
	var l documents.Links
	if res.Status == http.StatusOK {
		res.JSON(t, &l)
	}
	return l, res
}

// download fetches document id through a fresh link as the holder of token.
func download(t *testing.T, ta *apptest.TestApp, token string, id int64) apptest.Response {
	t.Helper()
	l, res := linksOf(t, ta, token, id)
	if res.Status != http.StatusOK {
		return res
	}
	return ta.Do("GET", l.Download, "", nil)
}

// form builds a multipart body: the fields first, then each file in
// "files", as the browser sends them.
func form(t *testing.T, fields map[string]string, files ...[]byte) (string, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	for i, f := range files {
		part, err := w.CreateFormFile("files", fmt.Sprintf("Mietvertrag %d.pdf", i+1))
		if err != nil {
			t.Fatal(err)
		}
		part.Write(f)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String(), w.FormDataContentType()
}

func exec(t *testing.T, d *db.DB, q string, args ...any) {
	t.Helper()
	if _, err := d.ExecContext(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func queryText(t *testing.T, d *db.DB, q string, args ...any) string {
	t.Helper()
	var s string
	if err := d.QueryRowContext(context.Background(), q, args...).Scan(&s); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s
}

func queryInt(t *testing.T, d *db.DB, q string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := d.QueryRowContext(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// TestUploadAndDownload: a PDF is stored with its document row, linked to
// its owner, read back byte for byte; anything else is refused and leaves
// neither a row nor a file; external users upload only for records they
// see and download only their own group's documents; with the
// files in the data directory and in an S3 bucket.
func TestUploadAndDownload(t *testing.T) {
	forEachStorage(t, func(t *testing.T, store apptest.AppOption) {
		testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
			ta := apptest.NewApp(t, d, store)
			tokens := map[string]string{}
			token := func(email string) string {
				if tokens[email] == "" {
					tokens[email] = ta.Login(email).AccessToken
				}
				return tokens[email]
			}
			// A document type, and for lead@ the right to upload documents and
			// to add them to a point of sale's documents tab.
			exec(t, d, `INSERT INTO documenttype (documenttype_name, documenttype_short) VALUES ('Mietvertrag', 'MV')`)
			docType := fmt.Sprint(queryInt(t, d, `SELECT MAX(documenttype_id) FROM documenttype`))
			exec(t, d, `INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
			SELECT user_id, 4, 1, 1, 1, 0 FROM users WHERE user_email = ?`, lead)
			exec(t, d, `INSERT INTO access (access_kind, access_subject, access_action, role_code, access_teams, access_options)
			VALUES ('table', 'pos_document_rel', 'update', 'lead', '', '')`)
			posA := fmt.Sprint(queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 1`))
			posB := fmt.Sprint(queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 2`))
			upload := func(as string, fields map[string]string, files ...[]byte) apptest.Response {
				t.Helper()
				body, contentType := form(t, fields, files...)
				return ta.Do("POST", "/documents/uploadfiles", token(as), body, "Content-Type", contentType)
			}
			created := func(res apptest.Response) int64 {
				t.Helper()
				if res.Status != http.StatusCreated {
					t.Fatalf("upload: %d %s", res.Status, res.Body)
				}
				var a struct {
					Data []struct {
						ID int64 `json:"document_id"`
					} `json:"data"`
				}
				res.JSON(t, &a)
				if len(a.Data) != 1 || a.Data[0].ID == 0 {
					t.Fatalf("upload answered %s", res.Body)
				}
				return a.Data[0].ID
			}
			refused := func(name string, res apptest.Response, status int, want string) {
				t.Helper()
				if res.Status != status || !strings.Contains(string(res.Body), want) {
					t.Errorf("%s: %d %s, want %d with %q", name, res.Status, res.Body, status, want)
				}
			}

			// An administrator uploads a contract for a point of sale.
			id := created(upload(admin, map[string]string{"documenttype_id": docType, "pos_id": posA}, pdf))
			res := download(t, ta, token(admin), id)
			if res.Status != http.StatusOK || !bytes.Equal(res.Body, pdf) || res.Header.Get("Content-Type") != "application/pdf" ||
				!strings.Contains(res.Header.Get("Content-Disposition"), `filename="Mietvertrag 1.pdf"`) {
				t.Fatalf("download: %d %v %q", res.Status, res.Header, res.Body)
			}
			if n := queryInt(t, d, `SELECT COUNT(*) FROM pos_document WHERE document_id = ? AND pos_id = ?`, id, posA); n != 1 {
				t.Errorf("the document is linked %d times to its point of sale", n)
			}
			if size := queryInt(t, d, `SELECT document_size FROM document WHERE document_id = ?`, id); size != int64(len(pdf)) {
				t.Errorf("document_size = %d, want %d", size, len(pdf))
			}
			if n := queryInt(t, d, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'document' AND trackrecord_row_id = ?`, id); n == 0 {
				t.Error("the upload wrote no history")
			}
			rows, files := queryInt(t, d, `SELECT COUNT(*) FROM document`), storedFiles(t, ta)

			// What is refused leaves nothing behind.
			refused("not a PDF", upload(admin, map[string]string{"documenttype_id": docType}, []byte("GIF89a not a pdf")), 422, "Only PDF files")
			refused("two files", upload(admin, map[string]string{"documenttype_id": docType}, pdf, pdf), 422, "exactly one PDF")
			refused("no file", upload(admin, map[string]string{"documenttype_id": docType}), 422, "exactly one PDF")
			refused("two owners", upload(admin, map[string]string{"documenttype_id": docType, "pos_id": posA, "contract_id": "1"}, pdf), 422, "one record")
			refused("not logged in", ta.Do("POST", "/documents/uploadfiles", "", "x", "Content-Type", "multipart/form-data; boundary=x"), 401, "")
			if r, f := queryInt(t, d, `SELECT COUNT(*) FROM document`), storedFiles(t, ta); r != rows || f != files {
				t.Errorf("refused uploads left %d rows and %d files, had %d and %d", r, f, rows, files)
			}

			// External users: only for a record they see, and only their own.
			leadDoc := created(upload(lead, map[string]string{"documenttype_id": docType, "pos_id": posA, "document_name": "Übergabeprotokoll"}, pdf))
			refused("external without owner", upload(lead, map[string]string{"documenttype_id": docType}, pdf), 422, "belongs to")
			refused("external, foreign owner", upload(lead, map[string]string{"documenttype_id": docType, "pos_id": posB}, pdf), 404, "")
			refused("no right to upload", upload(leadB, map[string]string{"documenttype_id": docType, "pos_id": posB}, pdf), 403, "")
			if got := download(t, ta, token(lead), leadDoc); got.Status != 200 ||
				!strings.Contains(got.Header.Get("Content-Disposition"), "filename*=utf-8''%C3%9Cbergabeprotokoll.pdf") {
				t.Errorf("lead@ downloads their document: %d %v", got.Status, got.Header)
			}
			missing := download(t, ta, token(leadB), 999999)
			foreign := download(t, ta, token(leadB), leadDoc)
			if foreign.Status != http.StatusNotFound || !bytes.Equal(foreign.Body, missing.Body) {
				t.Errorf("another group's document: %d %s; a missing one: %d %s", foreign.Status, foreign.Body, missing.Status, missing.Body)
			}
			if r, f := queryInt(t, d, `SELECT COUNT(*) FROM document`), storedFiles(t, ta); r != rows+1 || f != files+1 {
				t.Errorf("after one good external upload: %d rows and %d files, want %d and %d", r, f, rows+1, files+1)
			}
		})
	})
}

// TestSweepRemovesOnlyUnnamedOldFiles: the daily sweep removes files no
// document names once they are old, and leaves named and young ones.
func TestSweepRemovesOnlyUnnamedOldFiles(t *testing.T) {
	ctx := context.Background()
	store, err := documents.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	named, _, _, err := store.Put(ctx, bytes.NewReader(pdf), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	orphan, _, _, err := store.Put(ctx, bytes.NewReader(pdf), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	inUse := func(key string) (bool, error) { return key == named, nil }
	if n, err := store.Sweep(ctx, inUse, time.Hour, time.Now()); err != nil || n != 0 {
		t.Fatalf("young files: removed %d, %v", n, err)
	}
	if n, err := store.Sweep(ctx, inUse, time.Hour, time.Now().Add(2*time.Hour)); err != nil || n != 1 {
		t.Fatalf("old files: removed %d, %v; want the orphan only", n, err)
	}
	if f, err := store.Open(ctx, named); err != nil {
		t.Fatalf("the named file is gone: %v", err)
	} else {
		f.Close()
	}
	if _, err := store.Open(ctx, orphan); err == nil {
		t.Fatal("the orphan is still there")
	}
}
