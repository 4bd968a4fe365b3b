package documents_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"portfolio/internal/app"
	"portfolio/internal/config"
	"portfolio/internal/db"
	"portfolio/internal/platform/storage"
	"portfolio/internal/platform/storage/s3test"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// s3Storage keeps the app's documents in a bucket of srv.
func s3Storage(srv *s3test.Server) apptest.AppOption {
	return func(c *config.Config) {
		c.StorageURL = srv.Config.URL
		c.S3 = config.S3{Endpoint: srv.Config.Endpoint, Region: srv.Config.Region, AccessKey: srv.Config.AccessKey,
			SecretKey: srv.Config.SecretKey, PathStyle: true, TLS: false}
	}
}

// forEachStorage runs fn with the documents in the data directory and in
// a bucket of a real S3 server (over HTTP, signature V4 checked).
func forEachStorage(t *testing.T, fn func(t *testing.T, store apptest.AppOption)) {
	t.Run("dir", func(t *testing.T) { fn(t, func(*config.Config) {}) })
	t.Run("s3", func(t *testing.T) { fn(t, s3Storage(s3test.Start(t))) })
}

// storedFiles counts the files of ta's store: stored objects and staged
// uploads (a refused upload must leave neither).
func storedFiles(t *testing.T, ta *apptest.TestApp) int {
	t.Helper()
	n := 0
	files := ta.Documents.Files()
	if _, local := files.(*storage.Dir); !local {
		if err := files.List(context.Background(), func(storage.Info) error { n++; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{"documents", app.StagingDir} { // the directory store's files, its tmp/, the staging area
		err := filepath.WalkDir(filepath.Join(ta.Config.DataDir, dir), func(path string, d os.DirEntry, err error) error {
			if errors.Is(err, os.ErrNotExist) {
				return nil
			}
			if err == nil && !d.IsDir() {
				n++
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return n
}

// TestDocumentsInABucket: with PORTFOLIO_STORAGE_URL=s3://…, an uploaded
// document and its copies are objects in the bucket (nothing in the data
// directory but the empty staging area), served through the unchanged
// short-lived links, and a deleted document's objects are swept from the
// bucket.
func TestDocumentsInABucket(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		srv := s3test.Start(t)
		ta := apptest.NewApp(t, d, s3Storage(srv))
		if got := ta.Documents.Files().String(); got != "s3://portfolio/docs/" {
			t.Fatalf("the store is %s", got)
		}
		adminTok := ta.Login(admin).AccessToken
		exec(t, d, `INSERT INTO documenttype (documenttype_name, documenttype_short) VALUES ('Mietvertrag', 'MV')`)
		docType := queryInt(t, d, `SELECT MAX(documenttype_id) FROM documenttype`)
		posA := queryInt(t, d, `SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 1`)
		content := realPDF("Im Eimer")
		res := rawUpload(t, ta, adminTok, "Eimer.pdf", content, map[string]string{"documenttype_id": fmt.Sprint(docType), "pos_id": fmt.Sprint(posA)})
		if res.Status != http.StatusCreated {
			t.Fatalf("upload: %d %s", res.Status, res.Body)
		}
		id := queryInt(t, d, `SELECT MAX(document_id) FROM document`)
		key := queryString(t, d, `SELECT document_file FROM document WHERE document_id = ?`, id)

		// The object is in the bucket, on the server's disk under the
		// prefix; the data directory holds no document.
		if info, err := ta.Documents.Files().Stat(context.Background(), key); err != nil || info.Size != int64(len(content)) {
			t.Fatalf("the object of %s: %+v, %v", key, info, err)
		}
		if _, err := os.Stat(srv.ObjectPath(key)); err != nil {
			t.Errorf("the object is not on the S3 server: %v", err)
		}
		if _, err := os.Stat(filepath.Join(ta.Config.DataDir, "documents")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the data directory has a documents folder: %v", err)
		}
		if n := storedFiles(t, ta); n != 1 {
			t.Errorf("%d stored files, want the one object (staging empty)", n)
		}

		// Served through the same links; a range request is a ranged read.
		links, res := linksOf(t, ta, adminTok, id)
		if res.Status != http.StatusOK {
			t.Fatalf("links: %d %s", res.Status, res.Body)
		}
		if got := ta.Do("GET", links.Download, "", nil); got.Status != 200 || string(got.Body) != string(content) {
			t.Fatalf("download: %d, %d bytes", got.Status, len(got.Body))
		}
		if got := ta.Do("GET", links.Preview, "", nil, "Range", "bytes=0-4"); got.Status != http.StatusPartialContent || string(got.Body) != "%PDF-" {
			t.Errorf("a range of the preview: %d %q", got.Status, got.Body)
		}
		ta.DocumentService().SetClock(func() time.Time { return time.Now().Add(5*time.Minute + time.Second) })
		if got := ta.Do("GET", links.Download, "", nil); got.Status != http.StatusUnauthorized {
			t.Errorf("a link after 5 minutes: %d", got.Status)
		}
		ta.DocumentService().SetClock(time.Now)

		// Deleted: the sweep removes its object from the bucket once it
		// is a day old, and nothing young.
		version := queryInt(t, d, `SELECT row_version FROM document WHERE document_id = ?`, id)
		if res := ta.Do("POST", "/api/", adminTok, map[string]any{"action": "delete", "entity": "document", "id": id, "row_version": version}); res.Status != http.StatusNoContent {
			t.Fatalf("delete: %d %s", res.Status, res.Body)
		}
		if err := ta.DocumentService().Sweep(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := ta.Documents.Files().Stat(context.Background(), key); err != nil {
			t.Fatalf("a young object was swept: %v", err)
		}
		ta.DocumentService().SetClock(func() time.Time { return time.Now().Add(25 * time.Hour) })
		defer ta.DocumentService().SetClock(time.Now)
		if err := ta.DocumentService().Sweep(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := ta.Documents.Files().Stat(context.Background(), key); !errors.Is(err, storage.ErrNotExist) {
			t.Errorf("the deleted document's object is still in the bucket: %v", err)
		}
		if srv.Refused.Load() != 0 || srv.Requests.Load() == 0 {
			t.Errorf("the server refused %d and served %d requests", srv.Refused.Load(), srv.Requests.Load())
		}
	})
}

// TestBucketSettings: the settings reach the client, and a wrong key, a
// missing bucket or a half-given key pair stop the server at start.
func TestBucketSettings(t *testing.T) {
	srv := s3test.Start(t)
	t.Setenv("PORTFOLIO_STORAGE_URL", srv.Config.URL)
	t.Setenv("PORTFOLIO_S3_ENDPOINT", srv.Config.Endpoint)
	t.Setenv("PORTFOLIO_S3_REGION", srv.Config.Region)
	t.Setenv("PORTFOLIO_S3_ACCESS_KEY", srv.Config.AccessKey)
	t.Setenv("PORTFOLIO_S3_SECRET_KEY", srv.Config.SecretKey)
	t.Setenv("PORTFOLIO_S3_PATH_STYLE", "true")
	t.Setenv("PORTFOLIO_S3_TLS", "false")
	cfg := config.Defaults()
	config.Register(flag.NewFlagSet("test", flag.ContinueOnError), &cfg)
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	if cfg.StorageURL != srv.Config.URL || cfg.S3.TLS || !cfg.S3.PathStyle || cfg.S3.SecretKey != srv.Config.SecretKey {
		t.Fatalf("settings read: %+v", cfg)
	}
	bucket, err := app.Bucket(cfg)
	if err != nil || bucket == nil || bucket.String() != "s3://portfolio/docs/" {
		t.Fatalf("the configured bucket: %v, %v", bucket, err)
	}
	for name, change := range map[string]func(c *config.Config){
		"a wrong secret":             func(c *config.Config) { c.S3.SecretKey = "wrong" },
		"a missing bucket":           func(c *config.Config) { c.StorageURL = "s3://elsewhere/docs" },
		"TLS to a plain HTTP server": func(c *config.Config) { c.S3.TLS = true },
	} {
		c := cfg
		change(&c)
		if _, err := app.Bucket(c); err == nil {
			t.Errorf("%s: the bucket was accepted", name)
		}
	}
	for name, change := range map[string]func(c *config.Config){
		"another scheme":  func(c *config.Config) { c.StorageURL = "file:///srv/docs" },
		"half a key pair": func(c *config.Config) { c.S3.SecretKey = "" },
	} {
		c := cfg
		change(&c)
		if err := c.Validate(); err == nil {
			t.Errorf("%s: the configuration was accepted", name)
		}
	}
	if c := config.Defaults(); !c.S3.TLS || c.StorageURL != "" {
		t.Errorf("defaults: %+v", c.S3)
	}
}
