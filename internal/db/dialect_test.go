package db_test

import (
	"context"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// TestTextMatchFoldsEveryLetter: a search matches whatever the case of
// any letter, umlauts included, on both databases; LIKE wildcards in the
// term are plain characters; NULL and numbers behave as text does.
func TestTextMatchFoldsEveryLetter(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		cases := []struct {
			text   any
			term   string
			prefix bool
			want   bool
		}{
			{"ÄRGER über Öl", "ärger", false, true},
			{"ärger über öl", "ÜBER", false, true},
			{"Südmarkt", "SÜD", true, true},
			{"Südmarkt", "markt", true, false},
			{"Südmarkt", "markt", false, true},
			{"100% sicher", "0% s", false, true},
			{"100 sicher", "0% s", false, false},
			{"a_b", "a_b", true, true},
			{"axb", "a_b", false, false},
			{"ÉLAN", "élan", true, true},
			{"ÄRGER", "rger", false, true},
			{"Straße", "STRASSE", false, false},
			{"Müller GmbH", "gmbh", false, true},
			{"Müller GmbH", "MÜLLER", true, true},
			{nil, "x", false, false},
		}
		for _, c := range cases {
			var n int
			match, arg := db.TextMatch(d.Dialect(), "x.v", c.term, c.prefix)
			err := d.QueryRowContext(ctx, "SELECT COUNT(*) FROM (SELECT CAST(? AS TEXT) AS v) x WHERE "+match, c.text, arg).Scan(&n)
			if err != nil {
				t.Fatalf("%q ~ %q: %v", c.text, c.term, err)
			}
			if got := n == 1; got != c.want {
				t.Errorf("%q matches %q (prefix %v) = %v, want %v", c.text, c.term, c.prefix, got, c.want)
			}
		}
	})
}
