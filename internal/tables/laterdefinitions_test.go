package tables

import (
	"os"
	"slices"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// TestLaterDefinitionIndexesAreCurrent: each migration in
// LaterDefinitionChanges ends in what LaterDefinitionIndexes renders for it
// (UPDATE_MIGRATION=1 writes it), its changes show in that tail, and the
// earlier generated migrations render the definitions as they were.
func TestLaterDefinitionIndexesAreCurrent(t *testing.T) {
	reg := schema.Default()
	for file, change := range LaterDefinitionChanges {
		got, err := os.ReadFile(migrationPath(file))
		if err != nil {
			t.Fatal(err)
		}
		head, _, found := strings.Cut(string(got), LaterDefinitionMarker+"\n")
		tail := LaterDefinitionIndexes(reg, file)
		want := head + LaterDefinitionMarker + "\n" + tail
		if os.Getenv("UPDATE_MIGRATION") == "1" {
			if !found {
				want = string(got) + "\n" + LaterDefinitionMarker + "\n" + tail
			}
			if err := os.WriteFile(migrationPath(file), []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
		} else if !found || string(got) != want {
			t.Errorf("%s does not end with what LaterDefinitionIndexes renders; regenerate it with UPDATE_MIGRATION=1 go test ./internal/tables -run TestLaterDefinitionIndexesAreCurrent", file)
		}
		earlier := SearchMigration(reg) + SearchColumnMigration(reg) + DeferredSearchMigration(reg) + FlushFromKeysMigration(reg)
		for _, name := range change.Searchable {
			_, field, _ := strings.Cut(name, ".")
			quoted := `"` + field + `"`
			if strings.Contains(earlier, quoted) {
				t.Errorf("%s: an earlier generated migration indexes %s already", file, name)
			}
			if !strings.Contains(tail, "fts5(") || !strings.Contains(tail, quoted) {
				t.Errorf("%s: its tail does not index %s:\n%s", file, name, tail)
			}
		}
		for entity := range change.Labels {
			e, _ := reg.Entity(entity)
			if !strings.Contains(tail, `"`+e.Table+`_label_sort"`) {
				t.Errorf("%s: its tail does not rebuild the label sort index of %s:\n%s", file, entity, tail)
			}
			if strings.Contains(LabelSortIndexMigration(reg), indexedLabel(db.SQLite, e, "")) {
				t.Errorf("%s: migration 0047 renders the label of %s as it is now", file, entity)
			}
		}
	}
}

// TestEntityBeforeUndoesLaterChanges: a definition before a migration of
// LaterDefinitionChanges lacks its changes, after it has them, and the
// registry's entity is never altered.
func TestEntityBeforeUndoesLaterChanges(t *testing.T) {
	bank, _ := schema.Default().Entity("bankdata")
	const file = "0065_spec_call_differences.sql"
	searchable := func(e *schema.Entity) bool {
		f, _ := e.Field("bankdata_bank_name")
		return f.Searchable
	}
	if searchable(entityBefore(bank, file)) || !searchable(entityAfter(bank, file)) || !searchable(bank) {
		t.Error("the bank name is searchable from migration 0065 on, and only from there")
	}
	invoice, _ := schema.Default().Entity("invoice")
	if got := entityBefore(invoice, file).Label; !slices.Equal(got, []string{"invoice_number", "invoice_date"}) {
		t.Errorf("the invoice label before migration 0065: %v", got)
	}
	if got := entityAfter(invoice, file).Label; !slices.Equal(got, []string{"invoice_id", "invoice_number", "invoice_date"}) || !slices.Equal(invoice.Label, got) {
		t.Errorf("the invoice label from migration 0065 on: %v (registry %v)", got, invoice.Label)
	}
	if entityBefore(bank, "0066_later.sql") != bank {
		t.Error("a definition after every change is the registry's own")
	}
}
