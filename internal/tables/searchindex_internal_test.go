package tables

import (
	"slices"
	"strings"
	"testing"

	"portfolio/internal/schema"
)

// TestFTSQueryLimitsColumnsOnlyWhenSome: a keyword over every column of a
// text index asks FTS5 without a column filter (in any order of the
// columns); over some of them (a field the caller may not see) it keeps
// the filter, so the hidden column is never searched.
func TestFTSQueryLimitsColumnsOnlyWhenSome(t *testing.T) {
	x := searchIndexes(schema.Default())["pos"]
	if x == nil {
		t.Fatal("points of sale have no text index")
	}
	all := x.ftsColumns()
	if len(all) < 2 {
		t.Fatalf("the points of sale index has %d columns; the test needs two or more", len(all))
	}
	reversed := slices.Clone(all)
	slices.Reverse(reversed)
	for _, cols := range [][]string{all, reversed} {
		if got := x.ftsQuery(cols, `Süd"1`); got != `"süd""1"` {
			t.Errorf("ftsQuery(%v) = %s, want the phrase alone", cols, got)
		}
	}
	some := all[1:]
	want := `{"` + strings.Join(some, `" "`) + `"} : "süd"`
	if got := x.ftsQuery(some, "Süd"); got != want {
		t.Errorf("ftsQuery(%v) = %s, want %s", some, got, want)
	}
}
