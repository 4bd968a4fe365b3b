package tables

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// migrationPath is the path of migration file in internal/db/migrations.
func migrationPath(file string) string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "db", "migrations", file)
}

// checkGeneratedMigration fails t unless migration file holds want, the
// text a generator renders from the definitions; with UPDATE_MIGRATION=1
// it writes want first. test names the test that regenerates it.
func checkGeneratedMigration(t *testing.T, file, want, test string) {
	t.Helper()
	path := migrationPath(file)
	if os.Getenv("UPDATE_MIGRATION") == "1" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatalf("%s is not what its generator renders from the definitions; regenerate it with UPDATE_MIGRATION=1 go test ./internal/tables -run %s", file, test)
	}
}
