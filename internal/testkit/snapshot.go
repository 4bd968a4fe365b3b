package testkit

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"portfolio/internal/db"
)

// freshDB is where a database made by NewSQLite or NewPostgres lives, kept
// until Seeded replaces its contents (once) or the test ends.
type freshDB struct {
	path          string // SQLite: the database file
	pgName, admin string // PostgreSQL: the database and the server's admin URL
}

// fresh maps each *db.DB handed out by NewSQLite and NewPostgres to its
// freshDB.
var fresh sync.Map

// snapshot is what a seed function built, once per test process and
// dialect: the SQLite database file's bytes, or a PostgreSQL template.
type snapshot struct {
	once   sync.Once
	sqlite []byte
	pgName string
	err    error
}

var (
	snapshotsMu sync.Mutex
	snapshots   = map[string]*snapshot{}
)

// SeedFunc builds a database's contents on a freshly migrated database d;
// dataDir is an empty directory for files, which must stay empty.
type SeedFunc func(ctx context.Context, d *db.DB, dataDir string) error

// Seeded replaces the contents of d with what seed builds on a freshly
// migrated database, and reports whether it did. seed runs once per test
// process, dialect and key, on a database of its own; every call gets its
// own copy of the result (a byte copy of the SQLite file, a PostgreSQL
// database cloned from a template), so nothing is shared between tests.
//
// d must come straight from NewSQLite or NewPostgres, with nothing written
// to it and no connection in use: its contents are thrown away. A SQLite
// database written to before fails the test (ForEachDB runs the same code
// on PostgreSQL, where that is not checked). For any other database, or the
// second call on the same one, Seeded reports false and leaves d alone.
func Seeded(t testing.TB, d *db.DB, key string, seed SeedFunc) bool {
	t.Helper()
	v, ok := fresh.LoadAndDelete(d)
	if !ok {
		return false
	}
	f := v.(freshDB)
	ctx := context.Background()
	snapshotsMu.Lock()
	s := snapshots[string(d.Dialect())+"/"+key]
	if s == nil {
		s = &snapshot{}
		snapshots[string(d.Dialect())+"/"+key] = s
	}
	snapshotsMu.Unlock()
	s.once.Do(func() {
		if f.pgName != "" {
			s.pgName, s.err = pgSnapshot(ctx, f.admin, key, seed)
		} else {
			s.sqlite, s.err = sqliteImage(ctx, sqliteTemplate, seed)
		}
	})
	if s.err != nil {
		t.Fatalf("build the %q snapshot on %s: %v", key, d.Dialect(), s.err)
	}
	// With no idle connection kept, every connection closes once it is
	// back in the pool; the pool opens new ones on the new contents.
	pool := d.Pool()
	maxConns := pool.Stats().MaxOpenConnections
	pool.SetMaxIdleConns(0)
	defer pool.SetMaxIdleConns(maxConns)
	if n := pool.Stats().OpenConnections; n > 0 {
		t.Fatalf("testkit.Seeded: %d connections of the database are in use", n)
	}
	if f.pgName != "" {
		admin, err := db.Open(ctx, f.admin, "")
		if err != nil {
			t.Fatalf("open postgres admin: %v", err)
		}
		defer admin.Close()
		pgCloneMu.Lock()
		defer pgCloneMu.Unlock()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE "+f.pgName+" WITH (FORCE)"); err != nil {
			t.Fatalf("drop test database: %v", err)
		}
		if _, err := admin.ExecContext(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", f.pgName, s.pgName)); err != nil {
			t.Fatalf("create test database from the %q snapshot: %v", key, err)
		}
		// database/sql borrows its connections from a pgx pool, whose
		// idle ones the DROP ended.
		d.ResetConnections()
		return true
	}
	current, err := os.ReadFile(f.path)
	if err != nil {
		t.Fatalf("read sqlite database: %v", err)
	}
	wal, _ := os.Stat(f.path + "-wal")
	if !bytes.Equal(current, sqliteTemplate) || (wal != nil && wal.Size() > 0) {
		t.Fatalf("testkit.Seeded: the database was written to before its contents were replaced: write after, or build on it as it is")
	}
	for _, p := range []string{f.path + "-wal", f.path + "-shm"} {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(f.path, s.sqlite, 0o600); err != nil {
		t.Fatalf("copy the %q snapshot: %v", key, err)
	}
	return true
}

// pgSnapshot clones the migrated template into a database of its own,
// runs seed on it and returns its name, to be cloned in turn.
func pgSnapshot(ctx context.Context, admin, key string, seed SeedFunc) (string, error) {
	name := fmt.Sprintf("%s_%s", pgTemplateName, key)
	adminDB, err := db.Open(ctx, admin, "")
	if err != nil {
		return "", err
	}
	defer adminDB.Close()
	pgCloneMu.Lock()
	_, err = adminDB.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	if err == nil {
		_, err = adminDB.ExecContext(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE %s", name, pgTemplateName))
	}
	pgCloneMu.Unlock()
	if err != nil {
		return "", err
	}
	d, err := db.Open(ctx, withDatabase(admin, name), "")
	if err != nil {
		return "", err
	}
	dataDir, err := os.MkdirTemp("", "portfolio-testdata-")
	if err != nil {
		d.Close()
		return "", err
	}
	defer os.RemoveAll(dataDir)
	err = seed(ctx, d, dataDir)
	d.Close()
	if err != nil {
		return "", err
	}
	if err := noFiles(dataDir); err != nil {
		return "", err
	}
	// A template must have no session: end any the seed left behind.
	if _, err := adminDB.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()`, name); err != nil {
		return "", err
	}
	return name, nil
}

// noFiles fails when building a database wrote a file (empty directories
// are fine: the app makes them again) to its data directory: the copies
// of the database would miss it.
func noFiles(dataDir string) error {
	return filepath.WalkDir(dataDir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !e.IsDir() {
			return fmt.Errorf("building the database wrote %s to its data directory: a copy of the database would miss it", path)
		}
		return nil
	})
}
