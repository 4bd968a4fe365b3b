package tables

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"portfolio/internal/schema"
)

const sortIndexMigrationFile = "0040_sort_indexes.sql"

// TestSortIndexMigrationIsCurrent: migration 0040 holds what
// SortIndexMigration renders (UPDATE_MIGRATION=1 writes it), and with 0013
// every sortable stored field of the big entities leads an index.
func TestSortIndexMigrationIsCurrent(t *testing.T) {
	_, here, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(here), "..", "db", "migrations", sortIndexMigrationFile)
	reg := schema.Default()
	want := SortIndexMigration(reg)
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
		t.Fatalf("%s is not what SortIndexMigration renders; regenerate it with UPDATE_MIGRATION=1 go test ./internal/tables -run TestSortIndexMigrationIsCurrent", sortIndexMigrationFile)
	}
	for _, line := range []string{
		`CREATE INDEX "contractaction_contractaction_acting_by_sort" ON "contractaction" ("contractaction_acting_by");`,
		`CREATE INDEX "contractaction_contractaction_notice_period_unit_sort" ON "contractaction" ("contractaction_notice_period_unit", "contractaction_id");`,
		`CREATE INDEX "contract_contracttype_id_sort" ON "contract" ("contracttype_id", "contract_id");`,
		`CREATE INDEX "contract_contract_begin_date_sort" ON "contract" ("contract_begin_date", "contract_id");`,
	} {
		if !strings.Contains(want, line) {
			t.Errorf("missing %s", line)
		}
	}
	if strings.Contains(want, `"contractaction_notice_date", "contractaction_id"`) {
		t.Error("contractaction_notice_date is keyed by migration 0016 already")
	}
}

const keywordWalkMigrationFile = "0044_keyword_walk_indexes.sql"

// TestKeywordWalkMigrationIsCurrent: migration 0044 holds what
// KeywordWalkMigration renders (UPDATE_MIGRATION=1 writes it).
func TestKeywordWalkMigrationIsCurrent(t *testing.T) {
	_, here, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(here), "..", "db", "migrations", keywordWalkMigrationFile)
	want := KeywordWalkMigration(schema.Default())
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
		t.Fatalf("%s is not what KeywordWalkMigration renders; regenerate it with UPDATE_MIGRATION=1 go test ./internal/tables -run TestKeywordWalkMigrationIsCurrent", keywordWalkMigrationFile)
	}
	line := `CREATE INDEX "pos_label_walk" ON "pos" ("pos_name", "pos_id", "pos_branchnumber", "pos_name_external", "company_id", "contactperson_id");`
	if !strings.Contains(want, line) {
		t.Errorf("missing %s", line)
	}
}
