// Package testkit gives tests a real, freshly migrated database on every
// supported dialect, and (in app.go) a running test server.
package testkit

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"portfolio/internal/db"
)

// PostgresURLEnv names the variable holding an admin URL of a PostgreSQL
// server for tests (for example postgres://postgres@127.0.0.1:5432/postgres).
// Tests create and drop their own databases there.
const PostgresURLEnv = "PORTFOLIO_TEST_POSTGRES_URL"

// RequirePostgresEnv, when "1", turns a missing PostgreSQL into a failure
// instead of a skip (CI sets it).
const RequirePostgresEnv = "PORTFOLIO_TEST_REQUIRE_POSTGRES"

// ForEachDB runs fn as a subtest on a fresh, migrated SQLite database and,
// when PostgreSQL is configured, on a fresh PostgreSQL database.
func ForEachDB(t *testing.T, fn func(t *testing.T, d *db.DB)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, NewSQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, NewPostgres(t)) })
}

// ForEachDBBench runs a benchmark on SQLite and on PostgreSQL (skipped
// without one), each with a fresh migrated database.
func ForEachDBBench(b *testing.B, fn func(b *testing.B, d *db.DB)) {
	b.Helper()
	b.Run("sqlite", func(b *testing.B) { fn(b, NewSQLite(b)) })
	b.Run("postgres", func(b *testing.B) { fn(b, NewPostgres(b)) })
}

// NewSQLite opens a migrated SQLite database in a temporary directory: a
// byte copy of a database migrated once per test process, so every test
// still gets a database of its own without paying for the migrations.
func NewSQLite(t testing.TB) *db.DB {
	t.Helper()
	sqliteTemplateOnce.Do(func() {
		sqliteTemplate, sqliteTemplateErr = sqliteImage(context.Background(), nil, migrate)
	})
	if sqliteTemplateErr != nil {
		t.Fatalf("sqlite template: %v", sqliteTemplateErr)
	}
	d, path := openSQLiteCopy(t, sqliteTemplate)
	fresh.Store(d, freshDB{path: path})
	t.Cleanup(func() { fresh.Delete(d) })
	return d
}

var (
	sqliteTemplateOnce sync.Once
	sqliteTemplate     []byte
	sqliteTemplateErr  error
)

func migrate(ctx context.Context, d *db.DB, _ string) error {
	_, err := d.Migrate(ctx)
	return err
}

// openSQLiteCopy writes image as the database file of a new temporary
// directory and opens it.
func openSQLiteCopy(t testing.TB, image []byte) (*db.DB, string) {
	t.Helper()
	dir := t.TempDir()
	path := db.SQLitePath("", dir)
	if err := os.WriteFile(path, image, 0o600); err != nil {
		t.Fatalf("copy sqlite template: %v", err)
	}
	d, err := db.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatalf("open sqlite: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d, path
}

// sqliteImage runs build on a SQLite database in a directory of its own
// (starting from image when it is not nil) and returns the database file's
// bytes with everything written checkpointed into it. build gets an empty
// data directory of its own too, which must stay empty: files written there
// would be missing from the copies.
func sqliteImage(ctx context.Context, image []byte, build func(ctx context.Context, d *db.DB, dataDir string) error) ([]byte, error) {
	dir, err := os.MkdirTemp("", "portfolio-testdb-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := db.SQLitePath("", filepath.Join(dir, "db"))
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, err
	}
	if image != nil {
		if err := os.WriteFile(path, image, 0o600); err != nil {
			return nil, err
		}
	}
	d, err := db.Open(ctx, "", filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	dataDir := filepath.Join(dir, "data")
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		d.Close()
		return nil, err
	}
	if err := build(ctx, d, dataDir); err != nil {
		d.Close()
		return nil, err
	}
	var busy, logFrames, checkpointed int
	if err := d.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logFrames, &checkpointed); err != nil {
		d.Close()
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	if err := d.Close(); err != nil {
		return nil, err
	}
	if busy != 0 {
		return nil, fmt.Errorf("checkpoint: the database was busy")
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		return nil, fmt.Errorf("the write-ahead log still holds %d bytes after the checkpoint", fi.Size())
	}
	if err := noFiles(dataDir); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

var (
	pgTemplateOnce sync.Once
	pgTemplateName string
	pgTemplateErr  error
	pgCounter      atomic.Int64
	// PostgreSQL refuses to clone a template that another CREATE DATABASE is
	// reading, so clones are made one at a time.
	pgCloneMu sync.Mutex
)

// NewPostgres creates a fresh PostgreSQL database cloned from a migrated
// template (made once per test process) and drops it when the test ends.
// Without PORTFOLIO_TEST_POSTGRES_URL the test is skipped, loudly.
func NewPostgres(t testing.TB) *db.DB {
	t.Helper()
	admin := os.Getenv(PostgresURLEnv)
	if admin == "" {
		if os.Getenv(RequirePostgresEnv) == "1" {
			t.Fatalf("%s is not set but %s=1: PostgreSQL tests must run", PostgresURLEnv, RequirePostgresEnv)
		}
		t.Skipf("SKIPPED ON POSTGRESQL: set %s to run this test on PostgreSQL too", PostgresURLEnv)
	}
	ctx := context.Background()
	pgTemplateOnce.Do(func() { pgTemplateName, pgTemplateErr = makeTemplate(ctx, admin) })
	if pgTemplateErr != nil {
		t.Fatalf("postgres template: %v", pgTemplateErr)
	}
	name := fmt.Sprintf("%s_t%d", pgTemplateName, pgCounter.Add(1))
	adminDB, err := db.Open(ctx, admin, "")
	if err != nil {
		t.Fatalf("open postgres admin: %v", err)
	}
	defer adminDB.Close()
	pgCloneMu.Lock()
	_, err = adminDB.ExecContext(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, pgTemplateName))
	pgCloneMu.Unlock()
	if err != nil {
		t.Fatalf("create test database: %v", err)
	}
	d, err := db.Open(ctx, withDatabase(admin, name), "")
	if err != nil {
		t.Fatalf("open test database: %v", err)
	}
	fresh.Store(d, freshDB{pgName: name, admin: admin})
	t.Cleanup(func() {
		fresh.Delete(d)
		d.Close()
		cleanup, err := db.Open(context.Background(), admin, "")
		if err != nil {
			t.Logf("drop test database %s: %v", name, err)
			return
		}
		defer cleanup.Close()
		if _, err := cleanup.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("drop test database %s: %v", name, err)
		}
	})
	return d
}

// PostgresConfigured reports whether PostgreSQL tests will run.
func PostgresConfigured() bool { return os.Getenv(PostgresURLEnv) != "" }

func makeTemplate(ctx context.Context, admin string) (string, error) {
	name := fmt.Sprintf("portfolio_test_%d", os.Getpid())
	adminDB, err := db.Open(ctx, admin, "")
	if err != nil {
		return "", err
	}
	defer adminDB.Close()
	if _, err := adminDB.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		return "", err
	}
	if _, err := adminDB.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	tmpl, err := db.Open(ctx, withDatabase(admin, name), "")
	if err != nil {
		return "", err
	}
	defer tmpl.Close()
	if _, err := tmpl.Migrate(ctx); err != nil {
		return "", fmt.Errorf("migrate template: %w", err)
	}
	return name, nil
}

func withDatabase(rawURL, name string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return rawURL
	}
	u.Path = "/" + name
	return u.String()
}

// TempDir is a helper for tests needing a data directory path that exists.
func TempDir(t testing.TB, name string) string {
	dir := filepath.Join(t.TempDir(), strings.ReplaceAll(name, "/", "_"))
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	return dir
}
