package tables

import (
	"strings"
	"testing"

	"portfolio/internal/schema"
)

const sortKeyMigrationFile = "0027_sort_keys.sql"

// TestSortKeyMigrationIsCurrent: migration 0027 holds what
// SortKeyMigration renders (UPDATE_MIGRATION=1 writes it), for every sort
// index migration 0013 creates.
func TestSortKeyMigrationIsCurrent(t *testing.T) {
	want := SortKeyMigration(schema.Default())
	checkGeneratedMigration(t, sortKeyMigrationFile, want, "TestSortKeyMigrationIsCurrent")
	sorts := strings.Count(SearchMigration(schema.Default()), "_sort\" ON ")
	if keyed := strings.Count(want, "CREATE INDEX "); keyed != sorts || sorts == 0 {
		t.Errorf("%d sort indexes in migration 0013, %d made (field, key)", sorts, keyed)
	}
	if !strings.Contains(want, `CREATE INDEX "pos_pos_first_year_sort" ON "pos" ("pos_first_year", "pos_id");`) {
		t.Error("no (pos_first_year, pos_id) index")
	}
}
