package tables

import (
	"strings"
	"testing"

	"portfolio/internal/schema"
)

const sortIndexMigrationFile = "0040_sort_indexes.sql"

// TestSortIndexMigrationIsCurrent: migration 0040 holds what
// SortIndexMigration renders (UPDATE_MIGRATION=1 writes it), and with 0013
// every sortable stored field of the big entities leads an index.
func TestSortIndexMigrationIsCurrent(t *testing.T) {
	want := SortIndexMigration(schema.Default())
	checkGeneratedMigration(t, sortIndexMigrationFile, want, "TestSortIndexMigrationIsCurrent")
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

// TestKeywordWalkMigrationIsCurrent: migration 0044 holds what
// KeywordWalkMigration renders (UPDATE_MIGRATION=1 writes it).
func TestKeywordWalkMigrationIsCurrent(t *testing.T) {
	want := KeywordWalkMigration(schema.Default())
	checkGeneratedMigration(t, keywordWalkMigrationFile, want, "TestKeywordWalkMigrationIsCurrent")
	line := `CREATE INDEX "pos_label_walk" ON "pos" ("pos_name", "pos_id", "pos_branchnumber", "pos_name_external", "company_id", "contactperson_id");`
	if !strings.Contains(want, line) {
		t.Errorf("missing %s", line)
	}
}
