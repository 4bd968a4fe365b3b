package backup_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"portfolio/internal/backup"
	"portfolio/internal/config"
	"portfolio/internal/db"
	"portfolio/internal/platform/storage"
	"portfolio/internal/platform/storage/s3test"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

const admin = "admin@demo.test"

// pdf is a small but real PDF file.
var pdf = []byte("%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
	"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")

// TestBackupDuringWritesRestores: a backup taken while companies are
// created through the API restores into an empty directory as one
// consistent moment: every company it holds has its history row, none is
// half there, it holds at least what was acknowledged before the backup
// began, the uploaded documents come back byte for byte, and a restore
// never writes over an installation.
func TestBackupDuringWritesRestores(t *testing.T) {
	d := testkit.NewSQLite(t)
	ta := apptest.NewApp(t, d)
	token := ta.Token(admin)
	docID := upload(t, ta, token)

	var acknowledged atomic.Int64
	create := func(i int) {
		res := ta.Do("POST", "/api/", token, map[string]any{"action": "create", "entity": "company",
			"data": map[string]any{"company_name": fmt.Sprintf("Backup Test %d", i), "company_shortname": fmt.Sprintf("BT%d", i), "customergroup_id": 1}})
		if res.Status == http.StatusCreated || res.Status == http.StatusOK {
			acknowledged.Add(1)
		} else {
			t.Errorf("create %d: %d %s", i, res.Status, res.Body)
		}
	}
	for i := range 20 {
		create(i)
	}
	before := acknowledged.Load()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 1000; ; i++ {
			select {
			case <-stop:
				return
			default:
				create(i)
			}
		}
	})
	// Start the backup once the writer is under way: it copies while
	// companies keep arriving.
	for acknowledged.Load() < before+10 {
		runtime.Gosched()
	}
	floor := acknowledged.Load()
	var archive bytes.Buffer
	m, err := backup.Write(context.Background(), d, ta.Config.DataDir, ta.Documents.Files(), &archive)
	close(stop)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if m.Documents < 1 || len(m.MissingDocuments) != 0 || m.Migration == 0 {
		t.Fatalf("manifest: %+v", m)
	}

	target := t.TempDir()
	dbPath := filepath.Join(target, "portfolio.db")
	if _, err := backup.Restore(context.Background(), bytes.NewReader(archive.Bytes()), target, dbPath, nil); err != nil {
		t.Fatal(err)
	}
	restored, err := db.Open(context.Background(), "file:"+dbPath, "")
	if err != nil {
		t.Fatal(err)
	}
	defer restored.Close()
	companies := count(t, restored, `SELECT COUNT(*) FROM company WHERE company_name LIKE 'Backup Test %'`)
	t.Logf("test companies: %d acknowledged before the backup began, %d in it, %d in all", floor, companies, acknowledged.Load())
	if companies < floor || companies > acknowledged.Load() {
		t.Fatalf("the backup holds %d test companies; %d were acknowledged before it began, %d in all", companies, floor, acknowledged.Load())
	}
	if orphans := count(t, restored, `SELECT COUNT(*) FROM company c WHERE c.company_name LIKE 'Backup Test %' AND NOT EXISTS
		(SELECT 1 FROM trackrecord r WHERE r.trackrecord_category = 'company' AND r.trackrecord_row_id = c.company_id)`); orphans != 0 {
		t.Fatalf("%d restored companies have no history row", orphans)
	}
	if extra := count(t, restored, `SELECT COUNT(*) FROM trackrecord r WHERE r.trackrecord_category = 'company' AND NOT EXISTS
		(SELECT 1 FROM company c WHERE c.company_id = r.trackrecord_row_id)`); extra != 0 {
		t.Fatalf("%d history rows of companies the backup does not hold", extra)
	}
	var file string
	if err := restored.QueryRowContext(context.Background(), `SELECT document_file FROM document WHERE document_id = ?`, docID).Scan(&file); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(target, "documents", file[:2], file))
	if err != nil || !bytes.Equal(got, pdf) {
		t.Fatalf("restored document: %v (%d bytes)", err, len(got))
	}
	if _, err := os.Stat(filepath.Join(target, "jwt-secret")); ta.Config.JWTSecret == "" && err != nil {
		t.Fatalf("the signing secret was not restored: %v", err)
	}

	// Never over an installation.
	if _, err := backup.Restore(context.Background(), bytes.NewReader(archive.Bytes()), target, dbPath, nil); err == nil ||
		!strings.Contains(err.Error(), "empty data directory") {
		t.Fatalf("restore over a restored installation: %v", err)
	}
}

// TestRestoreRefusesBadArchives: a name leaving the directory, a file that
// is no part of a backup, a damaged database and a non-archive are refused
// and leave nothing behind.
func TestRestoreRefusesBadArchives(t *testing.T) {
	manifest := `{"format":1,"dialect":"sqlite","database_sha256":"00"}`
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"path out of the directory", map[string]string{"../evil": "x", "manifest.json": manifest}, "not a plain relative path"},
		{"absolute path", map[string]string{"/etc/passwd": "x"}, "not a plain relative path"},
		{"stranger", map[string]string{"notes.txt": "x"}, "not part of a Portfolio backup"},
		{"temporary upload", map[string]string{"documents/tmp/upload-1": "x"}, "not part of a Portfolio backup"},
		{"no manifest", map[string]string{"documents/ab/ab.pdf": "x"}, "no manifest"},
		{"damaged database", map[string]string{"manifest.json": manifest, "portfolio.db": "not a database"}, "does not match"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			target := t.TempDir()
			_, err := backup.Restore(context.Background(), bytes.NewReader(archiveOf(t, c.files)), target, filepath.Join(target, "portfolio.db"), nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			left := 0
			filepath.WalkDir(target, func(_ string, e os.DirEntry, err error) error {
				if err == nil && !e.IsDir() {
					left++
				}
				return nil
			})
			if left != 0 {
				t.Fatalf("a refused restore left %d files", left)
			}
		})
	}
	if _, err := backup.Restore(context.Background(), strings.NewReader("plain text"), t.TempDir(), "", nil); err == nil {
		t.Fatal("a non-archive was restored")
	}
}

func archiveOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	gz.Close()
	return b.Bytes()
}

// upload stores one PDF at the first point of sale and answers its id.
func upload(t *testing.T, ta *apptest.TestApp, token string) int64 {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	w.WriteField("pos_id", "1")
	w.WriteField("documenttype_id", "1")
	part, _ := w.CreateFormFile("files", "Mietvertrag.pdf")
	part.Write(pdf)
	w.Close()
	res := ta.Do("POST", "/documents/uploadfiles", token, b.String(), "Content-Type", w.FormDataContentType())
	if res.Status != http.StatusCreated {
		t.Fatalf("upload: %d %s", res.Status, res.Body)
	}
	var a struct {
		Data []struct {
			ID int64 `json:"document_id"`
		} `json:"data"`
	}
	res.JSON(t, &a)
	return a.Data[0].ID
}

func count(t *testing.T, d *db.DB, q string) int64 {
	t.Helper()
	var n int64
	if err := d.QueryRowContext(context.Background(), q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// TestBackupOfABucket: with the documents in an S3 bucket, the backup
// copies the objects into the archive (same layout as the data
// directory's), on SQLite and PostgreSQL; a restore puts them into an
// empty prefix of a bucket byte for byte, or into a data directory, and
// refuses a prefix that already holds documents.
func TestBackupOfABucket(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		srv := s3test.Start(t)
		ta := apptest.NewApp(t, d, func(c *config.Config) {
			c.StorageURL = srv.Config.URL
			c.S3 = config.S3{Endpoint: srv.Config.Endpoint, Region: srv.Config.Region, AccessKey: srv.Config.AccessKey,
				SecretKey: srv.Config.SecretKey, PathStyle: true}
		})
		docID := upload(t, ta, ta.Token(admin))
		var key string
		if err := d.QueryRowContext(ctx, `SELECT document_file FROM document WHERE document_id = ?`, docID).Scan(&key); err != nil {
			t.Fatal(err)
		}
		var archive bytes.Buffer
		m, err := backup.Write(ctx, d, ta.Config.DataDir, ta.Documents.Files(), &archive)
		if err != nil {
			t.Fatal(err)
		}
		if m.Documents != 1 || m.DocumentBytes != int64(len(pdf)) || m.DocumentStorage != "s3://portfolio/docs/" || len(m.MissingDocuments) != 0 {
			t.Fatalf("manifest: %+v", m)
		}

		cfg := srv.Config
		cfg.URL = "s3://portfolio/restored"
		bucket, err := storage.NewS3(cfg)
		if err != nil {
			t.Fatal(err)
		}
		target := t.TempDir()
		dbPath := ""
		if d.Dialect() == db.SQLite {
			dbPath = filepath.Join(target, "portfolio.db")
		}
		if _, err := backup.Restore(ctx, bytes.NewReader(archive.Bytes()), target, dbPath, bucket); err != nil {
			t.Fatal(err)
		}
		obj, err := bucket.Open(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(obj)
		obj.Close()
		if err != nil || !bytes.Equal(got, pdf) {
			t.Fatalf("restored object: %v (%d bytes)", err, len(got))
		}
		if _, err := os.Stat(filepath.Join(target, "documents")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a restore into a bucket wrote documents into the data directory: %v", err)
		}
		if _, err := backup.Restore(ctx, bytes.NewReader(archive.Bytes()), t.TempDir(), "", bucket); err == nil ||
			!strings.Contains(err.Error(), "holds documents") {
			t.Fatalf("restore into a prefix with documents: %v", err)
		}
		// The same archive into a data directory (moving off the bucket).
		local := t.TempDir()
		if dbPath != "" {
			dbPath = filepath.Join(local, "portfolio.db")
		}
		if _, err := backup.Restore(ctx, bytes.NewReader(archive.Bytes()), local, dbPath, nil); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(filepath.Join(local, "documents", key[:2], key)); err != nil || !bytes.Equal(got, pdf) {
			t.Fatalf("restored into the data directory: %v (%d bytes)", err, len(got))
		}
	})
}
