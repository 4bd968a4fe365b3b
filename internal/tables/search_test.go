package tables_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
)

// searchNames are names with what keyword search must fold: accents in
// both normalization forms, ß and ẞ, case, digits, punctuation.
var searchNames = []string{
	"Süd", "Su\u0308dstadt Filiale", "SÜDHANG 12", "Straße des 17. Juni", "STRASSE 3-5/7", "Großmarkt ẞ",
	"Müller & Söhne GmbH", "mu\u0308ller (alt)", "Ärger über Öl", "Café Crème 0815", "Cafe\u0301 Noir", "a.b-c/d_e%f",
	"İstanbul Çarşı", "ÉCOLE 42", "100% Bio", "O'Brien's \"Pub\"",
}

// TestSearchIndexAgrees: the keyword search answered by the text indexes
// finds exactly the rows (and counts the total) that matching every
// searchable column and label by scanning finds, for a fuzzed set of
// keywords and for callers of both tenants and an administrator.
func TestSearchIndexAgrees(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		ctx := context.Background()
		// Names written by plain SQL: the triggers keep the indexes in step.
		posIDs := queryInts(t, d, `SELECT pos_id FROM pos ORDER BY pos_id`)
		companyIDs := queryInts(t, d, `SELECT company_id FROM company ORDER BY company_id`)
		for i, id := range posIDs {
			name := searchNames[i%len(searchNames)]
			if _, err := d.ExecContext(ctx, `UPDATE pos SET pos_name = ?, pos_name_external = ? WHERE pos_id = ?`,
				name, strings.ToUpper(searchNames[(i+5)%len(searchNames)]), id); err != nil {
				t.Fatal(err)
			}
		}
		for i, id := range companyIDs {
			if _, err := d.ExecContext(ctx, `UPDATE company SET company_name = ? WHERE company_id = ?`, searchNames[(i+3)%len(searchNames)], id); err != nil {
				t.Fatal(err)
			}
		}
		// Two fields of one row that a keyword spans only when joined: the
		// search column of PostgreSQL joins them with its separator.
		if _, err := d.ExecContext(ctx, `UPDATE pos SET pos_name = 'Kante', pos_branchnumber = 'Ost' WHERE pos_id = ?`, posIDs[0]); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(19, uint64(len(posIDs))))
		keywords := []string{"süd", "SUD", "Su\u0308d", "sü", "strasse", "straße", "STRASSE", "ẞ", "ß", "müller", "MU\u0308LLER",
			"0815", "17. j", "3-5/7", "b-c/d", "_e%", "100%", "o'brien", `"pub"`, "café", "cafe\u0301", "İst", "çarşı", "école",
			"gmbh", "xyz", "  ärger  ", "kante\x1fost", "e\x1fos", "kanteost", "kante"}
		for len(keywords) < 80 {
			keywords = append(keywords, mutate(rng, searchNames[rng.IntN(len(searchNames))]))
		}
		entities := []string{"pos", "company", "contract", "location"}
		engine := e.Engine
		found := map[string]int{}
		for _, as := range []string{admin, lead, leadB} {
			for _, entity := range entities {
				for _, kw := range keywords {
					body := func() obj {
						return obj{"entity": entity, "filter_all": kw, "per_page": 1000, "count": true, "columns": []string{}}
					}
					tables.UseSearchIndexes(engine, true)
					tables.ForceWalkSearch(engine, false)
					indexed := e.list(as, body())
					tables.ForceWalkSearch(engine, true)
					walked := e.list(as, body())
					tables.ForceWalkSearch(engine, false)
					tables.UseSearchIndexes(engine, false)
					scanned := e.list(as, body())
					tables.UseSearchIndexes(engine, true)
					found[entity] += len(indexed.Data.Data)
					got, want := sortedKeys(indexed.Data.Data, entity+"_id"), sortedKeys(scanned.Data.Data, entity+"_id")
					if !slices.Equal(got, want) {
						t.Errorf("%s, %s, keyword %q: indexed %v, scanned %v", as, entity, kw, got, want)
					}
					// The page walking the sort index with the per-row test
					// (searchplan.go; on PostgreSQL the OR of the columns, not
					// the key set) finds the same rows in the same order.
					if w, i := keysInOrder(walked.Data.Data, entity+"_id"), keysInOrder(indexed.Data.Data, entity+"_id"); !slices.Equal(w, i) {
						t.Errorf("%s, %s, keyword %q: walked %v, indexed %v", as, entity, kw, w, i)
					}
					if *indexed.Data.Total != *scanned.Data.Total {
						t.Errorf("%s, %s, keyword %q: total %d indexed, %d scanned", as, entity, kw, *indexed.Data.Total, *scanned.Data.Total)
					}
				}
			}
		}
		for _, entity := range entities {
			if found[entity] == 0 {
				t.Errorf("no keyword found any %s: the comparison proves nothing", entity)
			}
		}
		t.Logf("rows found: %v", found)
		// The folding itself: a decomposed keyword finds the composed name
		// and the other way round, in any case.
		for _, kw := range []string{"Su\u0308d", "SÜD", "süd"} {
			rows := e.list(admin, obj{"entity": "pos", "filter_all": kw, "per_page": 1000}).Data.Data
			names := map[string]bool{}
			for _, r := range rows {
				names[norm.NFC.String(fmt.Sprint(r["pos_name"]))] = true
			}
			for _, want := range []string{"Süd", "Südstadt Filiale", "SÜDHANG 12"} {
				if !names[want] {
					t.Errorf("keyword %q does not find %q (found %v)", kw, want, names)
				}
			}
		}
	})
}

// mutate takes a piece of name and changes its case or normalization form.
func mutate(rng *rand.Rand, name string) string {
	r := []rune(name)
	from := rng.IntN(len(r))
	to := min(len(r), from+2+rng.IntN(5))
	piece := string(r[from:to])
	switch rng.IntN(4) {
	case 0:
		piece = strings.ToUpper(piece)
	case 1:
		piece = norm.NFD.String(piece)
	case 2:
		piece = strings.Map(func(c rune) rune {
			if rng.IntN(2) == 0 {
				return unicode.ToUpper(c)
			}
			return c
		}, piece)
	}
	return piece
}

func sortedKeys(rows []map[string]any, key string) []int64 {
	out := make([]int64, 0, len(rows))
	for _, r := range rows {
		out = append(out, id(r, key))
	}
	slices.Sort(out)
	return out
}

func queryInts(t *testing.T, d *db.DB, q string, args ...any) []int64 {
	t.Helper()
	rows, err := d.QueryContext(context.Background(), q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var n int64
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	return out
}

// keysInOrder are the keys of rows in the order of the answer.
func keysInOrder(rows []map[string]any, key string) []int64 {
	out := make([]int64, 0, len(rows))
	for _, r := range rows {
		out = append(out, id(r, key))
	}
	return out
}
