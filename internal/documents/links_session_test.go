package documents_test

import (
	"fmt"
	"net/http"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestLinksEndWithTheirSession: a document link opens its file only while
// the session it was fetched in lives (issue 42): after that session's
// logout the link answers 401, while a link of another session of the
// same user still opens.
func TestLinksEndWithTheirSession(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ending, staying := ta.Login(admin).AccessToken, ta.Login(admin).AccessToken
		exec(t, d, `INSERT INTO documenttype (documenttype_name, documenttype_short) VALUES ('Mietvertrag', 'MV')`)
		docType := queryInt(t, d, `SELECT MAX(documenttype_id) FROM documenttype`)
		pos := queryInt(t, d, `SELECT MIN(pos_id) FROM pos`)
		res := rawUpload(t, ta, ending, "Vertrag.pdf", realPDF("Vertrag"), map[string]string{"documenttype_id": fmt.Sprint(docType), "pos_id": fmt.Sprint(pos)})
		if res.Status != http.StatusCreated {
			t.Fatalf("upload: %d %s", res.Status, res.Body)
		}
		doc := queryInt(t, d, `SELECT MAX(document_id) FROM document`)
		before, _ := linksOf(t, ta, ending, doc)
		other, _ := linksOf(t, ta, staying, doc)
		if got := ta.Do("GET", before.Download, "", nil); got.Status != http.StatusOK {
			t.Fatalf("download while the session lives: %d %s", got.Status, got.Body)
		}
		if r := ta.Do("POST", "/logout", ending, nil); r.Status != http.StatusNoContent {
			t.Fatalf("logout: %d %s", r.Status, r.Body)
		}
		for _, path := range []string{before.Download, before.Preview, before.DownloadStamp} {
			if got := ta.Do("GET", path, "", nil); got.Status != http.StatusUnauthorized {
				t.Errorf("%s after the logout: %d, want 401", path, got.Status)
			}
		}
		if got := ta.Do("GET", other.Download, "", nil); got.Status != http.StatusOK {
			t.Errorf("the other session's link: %d %s", got.Status, got.Body)
		}
	})
}
