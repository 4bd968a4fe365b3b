package contracts_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// pdf is a small but real PDF file.
var pdf = []byte("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
	"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")

// upload stores one PDF as admin with the form fields and answers its id.
func upload(t *testing.T, ta *apptest.TestApp, fields map[string]string) int64 {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for k, v := range fields {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	part, err := w.CreateFormFile("files", "Nachtrag.pdf")
	if err != nil {
		t.Fatal(err)
	}
	part.Write(pdf)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	res := ta.Do("POST", "/documents/uploadfiles", ta.Login(admin).AccessToken, b.String(), "Content-Type", w.FormDataContentType())
	var a struct {
		Data []struct {
			ID int64 `json:"document_id"`
		} `json:"data"`
	}
	res.JSON(t, &a)
	if len(a.Data) != 1 {
		t.Fatalf("upload answered %d %s", res.Status, res.Body)
	}
	return a.Data[0].ID
}

// TestContractStep7: uploaded documents are linked to a contract with
// their role and type, all or nothing; a missing document, or one of
// another tenant, answers 404.
func TestContractStep7(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		contract, _ := contractOf(t, d, 1)
		if _, err := d.ExecContext(ctx, `INSERT INTO documenttype (documenttype_name, documenttype_short) VALUES ('Mietvertrag', 'MV')`); err != nil {
			t.Fatal(err)
		}
		var docType int64
		if err := d.QueryRowContext(ctx, `SELECT MAX(documenttype_id) FROM documenttype`).Scan(&docType); err != nil {
			t.Fatal(err)
		}
		doc := upload(t, ta, map[string]string{"documenttype_id": fmt.Sprint(docType)})
		links := func() (n int) {
			if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM contract_document WHERE contract_id = ?`, contract).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		before := links()
		ta.Run(t, []apptest.Scenario{
			{Name: "a missing document writes nothing", Method: "POST", Path: "/contracts/step/7", As: admin, Status: 404,
				Body: obj{"contract_id": contract, "documentsobjects": []obj{{"document_id": doc}, {"document_id": 99999999}}}},
			{Name: "document_id missing", Method: "POST", Path: "/contracts/step/7", As: admin, Status: 422,
				Body:     obj{"contract_id": contract, "documentsobjects": []obj{{"documenttype_id": docType}}},
				Contains: []string{`"loc":["body","documentsobjects",0,"document_id"]`}},
			{Name: "a missing contract", Method: "POST", Path: "/contracts/step/7", As: admin, Status: 404,
				Body: obj{"contract_id": 99999999, "documentsobjects": []obj{{"document_id": doc}}}},
			// The document has no owner of the lead's tenant: the lead does
			// not see it, as one of another tenant.
			{Name: "a document the lead does not see", Method: "POST", Path: "/contracts/step/7", As: lead, Status: 404,
				Body: obj{"contract_id": contract, "documentsobjects": []obj{{"document_id": doc}}}},
		})
		if n := links(); n != before {
			t.Fatalf("refused links wrote %d rows", n-before)
		}
		ta.Run(t, []apptest.Scenario{{Name: "links the document", Method: "POST", Path: "/contracts/step/7", As: admin, Status: 200,
			Body: obj{"contract_id": contract, "documentsobjects": []obj{{"document_id": doc, "documenttype_id": docType}}}}})
		if n := links(); n != before+1 {
			t.Fatalf("after the link: %d rows, want %d", n, before+1)
		}
	})
}
