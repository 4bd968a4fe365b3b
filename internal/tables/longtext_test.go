package tables

import (
	"strings"
	"testing"

	"portfolio/internal/schema"
)

const longTextSortIndexMigrationFile = "0050_long_text_sort_indexes.sql"

// TestLongTextSortIndexMigrationIsCurrent: migration 0050 holds what
// LongTextSortIndexMigration renders (UPDATE_MIGRATION=1 writes it): a
// ticket's description and an invoice's are sorted by their first
// characters on both databases.
func TestLongTextSortIndexMigrationIsCurrent(t *testing.T) {
	want := LongTextSortIndexMigration(schema.Default())
	checkGeneratedMigration(t, longTextSortIndexMigrationFile, want, "TestLongTextSortIndexMigrationIsCurrent")
	for _, line := range []string{
		`CREATE INDEX "ticket_ticket_description_sort" ON "ticket" (substr("ticket_description", 1, 200));`,
		`CREATE INDEX "ticket_ticket_description_sort" ON "ticket" ((left("ticket_description", 200)), "ticket_id");`,
		`CREATE INDEX "invoice_invoice_description_sort" ON "invoice" ((left("invoice_description", 200)), "invoice_id");`,
	} {
		if !strings.Contains(want, line) {
			t.Errorf("missing %s in\n%s", line, want)
		}
	}
}
