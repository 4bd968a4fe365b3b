package tables

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"portfolio/internal/schema"
)

const sortKeyMigrationFile = "0027_sort_keys.sql"

// TestSortKeyMigrationIsCurrent: migration 0027 holds what
// SortKeyMigration renders (UPDATE_MIGRATION=1 writes it), for every sort
// index migration 0013 creates.
func TestSortKeyMigrationIsCurrent(t *testing.T) {
	_, here, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(here), "..", "db", "migrations", sortKeyMigrationFile)
	want := SortKeyMigration(schema.Default())
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
		t.Fatalf("%s is not what SortKeyMigration renders; regenerate it with UPDATE_MIGRATION=1 go test ./internal/tables -run TestSortKeyMigrationIsCurrent", sortKeyMigrationFile)
	}
	sorts := strings.Count(SearchMigration(schema.Default()), "_sort\" ON ")
	if keyed := strings.Count(want, "CREATE INDEX "); keyed != sorts || sorts == 0 {
		t.Errorf("%d sort indexes in migration 0013, %d made (field, key)", sorts, keyed)
	}
	if !strings.Contains(want, `CREATE INDEX "pos_pos_first_year_sort" ON "pos" ("pos_first_year", "pos_id");`) {
		t.Error("no (pos_first_year, pos_id) index")
	}
}
