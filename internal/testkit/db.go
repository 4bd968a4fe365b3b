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

// NewSQLite opens a migrated SQLite database in a temporary directory.
func NewSQLite(t testing.TB) *db.DB {
	t.Helper()
	ctx := context.Background()
	d, err := db.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatalf("open sqlite: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	if _, err := d.Migrate(ctx); err != nil {
		t.Fatalf("migrate sqlite: %v", err)
	}
	return d
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
	t.Cleanup(func() {
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
