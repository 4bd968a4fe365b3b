package tables

import (
	"os"
	"strings"
	"testing"

	"portfolio/internal/schema"
)

// TestLaterSortIndexesAreCurrent: each migration in LaterFields ends in
// what LaterSortIndexes renders for it (UPDATE_MIGRATION=1 writes it), and
// the earlier generated migrations leave its fields out.
func TestLaterSortIndexesAreCurrent(t *testing.T) {
	reg := schema.Default()
	for file, fields := range LaterFields {
		got, err := os.ReadFile(migrationPath(file))
		if err != nil {
			t.Fatal(err)
		}
		head, _, found := strings.Cut(string(got), LaterSortIndexMarker+"\n")
		want := head + LaterSortIndexMarker + "\n" + LaterSortIndexes(reg, file)
		if os.Getenv("UPDATE_MIGRATION") == "1" {
			if !found {
				want = string(got) + "\n" + LaterSortIndexMarker + "\n" + LaterSortIndexes(reg, file)
			}
			if err := os.WriteFile(migrationPath(file), []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if !found || string(got) != want {
			t.Errorf("%s does not end with what LaterSortIndexes renders; regenerate it with UPDATE_MIGRATION=1 go test ./internal/tables -run TestLaterSortIndexesAreCurrent", file)
		}
		earlier := SearchMigration(reg) + SortKeyMigration(reg) + SortIndexMigration(reg)
		for _, f := range fields {
			name := strings.ReplaceAll(f, ".", "_") + "_sort"
			if strings.Contains(earlier, name) {
				t.Errorf("%s is in an earlier generated migration", name)
			}
			if !strings.Contains(want, name) {
				t.Errorf("%s has no sort index in %s", name, file)
			}
		}
	}
}
