package tables

import (
	"os"
	"strings"
	"testing"

	"portfolio/internal/schema"
)

// TestSearchMigrationIsCurrent: the migration holds what SearchMigration
// renders from the definitions (UPDATE_MIGRATION=1 writes it).
func TestSearchMigrationIsCurrent(t *testing.T) {
	want := searchMigrationHeader + SearchMigration(schema.Default())
	checkGeneratedMigration(t, searchMigrationFile, want, "TestSearchMigrationIsCurrent")
	if !strings.Contains(want, "CREATE VIRTUAL TABLE \"pos_search\"") {
		t.Fatal("no search index for pos")
	}
	for file, tables := range LaterSearchParts {
		path := migrationPath(file)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		head, _, found := strings.Cut(string(got), SearchMigrationPartMarker+"\n")
		want := head + SearchMigrationPartMarker + "\n" + SearchMigrationPart(schema.Default(), file, tables)
		if os.Getenv("UPDATE_MIGRATION") == "1" {
			if !found {
				want = string(got) + "\n" + SearchMigrationPartMarker + "\n" + SearchMigrationPart(schema.Default(), file, tables)
			}
			if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if !found || string(got) != want {
			t.Errorf("%s does not end with what SearchMigrationPart renders for %v; regenerate it with UPDATE_MIGRATION=1 go test ./internal/tables -run TestSearchMigrationIsCurrent", file, tables)
		}
	}
}

const searchMigrationHeader = `-- Keyword search indexes, data generations for cached counts, sort indexes
-- of the big entities (issue 19, decision 0009).
`

// TestSearchColumnMigrationIsCurrent: migration 0045 holds what
// SearchColumnMigration renders (UPDATE_MIGRATION=1 writes it), with a
// search column for points of sale and a label column for companies.
func TestSearchColumnMigrationIsCurrent(t *testing.T) {
	want := SearchColumnMigration(schema.Default())
	for _, part := range []string{`ALTER TABLE "pos" ADD COLUMN "pf_search"`, `ALTER TABLE "company" ADD COLUMN "pf_label"`} {
		if !strings.Contains(want, part) {
			t.Fatalf("SearchColumnMigration lacks %s", part)
		}
	}
	checkGeneratedMigration(t, searchColumnMigrationFile, want, "TestSearchColumnMigrationIsCurrent")
}

// TestFlushFromKeysMigrationIsCurrent: migration 0049 holds what
// FlushFromKeysMigration renders (UPDATE_MIGRATION=1 writes it): every
// flush trigger again, reading its rows through the noted keys.
func TestFlushFromKeysMigrationIsCurrent(t *testing.T) {
	want := FlushFromKeysMigration(schema.Default())
	checkGeneratedMigration(t, flushFromKeysMigrationFile, want, "TestFlushFromKeysMigrationIsCurrent")
	if !strings.Contains(want, `FROM pf_search_pending p CROSS JOIN "pos" r ON r."pos_id" = p.row_id WHERE p.table_name = 'pos'`) {
		t.Errorf("the flush trigger of pos does not read through the noted keys:\n%s", want)
	}
}

// TestDeferredSearchMigrationIsCurrent: migration 0048 holds what
// DeferredSearchMigration renders (UPDATE_MIGRATION=1 writes it), for every
// keyword index, including those of the later migrations.
func TestDeferredSearchMigrationIsCurrent(t *testing.T) {
	want := DeferredSearchMigration(schema.Default())
	checkGeneratedMigration(t, deferredSearchMigrationFile, want, "TestDeferredSearchMigrationIsCurrent")
	for _, table := range []string{"pos", "priceindex"} {
		if !strings.Contains(want, `CREATE TRIGGER "`+table+`_search_insert" AFTER INSERT ON "`+table+`" BEGIN INSERT INTO pf_search_pending`) {
			t.Errorf("no trigger noting the keys of %s", table)
		}
	}
}
