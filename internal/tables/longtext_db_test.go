package tables_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// TestLongTextSortsByItsFirstCharacters: a list sorted by long text (a
// ticket's description) orders by the text's first 200 characters, then
// by key, on both databases (decision 0051), so that an index holds the
// order: texts sharing those characters keep key order whatever follows,
// NULLs sort where each database puts them. The whole list, pages of 3
// and keyset pages agree, both directions.
func TestLongTextSortsByItsFirstCharacters(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		ctx := context.Background()
		shared := strings.Repeat("Mängel im Treppenhaus, ", 9) // 207 characters, multi-byte included
		for _, st := range []string{
			`UPDATE ticket SET ticket_description = NULL WHERE ticket_id % 5 = 0`,
			`UPDATE ticket SET ticket_description = '` + shared + `z' WHERE ticket_id % 5 = 1`,
			`UPDATE ticket SET ticket_description = '` + shared + `a' WHERE ticket_id % 5 = 2`,
			`UPDATE ticket SET ticket_description = 'Kurz ' || ticket_id WHERE ticket_id % 5 = 3`,
		} {
			if _, err := d.ExecContext(ctx, st); err != nil {
				t.Fatal(err)
			}
		}
		type row struct {
			id   int64
			text *string
		}
		var all []row
		rows, err := d.QueryContext(ctx, `SELECT ticket_id, ticket_description FROM ticket`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var r row
			if err := rows.Scan(&r.id, &r.text); err != nil {
				t.Fatal(err)
			}
			all = append(all, r)
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		prefix := func(s string) string {
			r := []rune(s)
			return string(r[:min(len(r), 200)])
		}
		for _, dir := range []string{"ASC", "DESC"} {
			want := slices.Clone(all)
			nullsFirst := (d.Dialect() == db.SQLite) == (dir == "ASC")
			slices.SortFunc(want, func(a, b row) int {
				c := 0
				switch {
				case a.text == nil && b.text == nil:
				case a.text == nil:
					c = 1
					if nullsFirst {
						c = -1
					}
					return c
				case b.text == nil:
					c = -1
					if nullsFirst {
						c = 1
					}
					return c
				default:
					c = strings.Compare(prefix(*a.text), prefix(*b.text))
				}
				if c == 0 {
					c = int(a.id - b.id)
					if a.id > b.id {
						c = 1
					} else if a.id < b.id {
						c = -1
					}
				}
				if dir == "DESC" {
					c = -c
				}
				return c
			})
			wantIDs := make([]int64, len(want))
			for i, r := range want {
				wantIDs[i] = r.id
			}
			body := obj{"entity": "ticket", "pk": "ticket_id", "order_by": "ticket_description", "order_dir": dir, "count": true}
			if got := offsetIDs(t, e, admin, body); !slices.Equal(got, wantIDs) {
				t.Errorf("%s whole list:\n%v\nwant\n%v", dir, got, wantIDs)
			}
			if got := ids(pagesOf3(t, e, admin, body), "ticket_id"); len(got) != len(wantIDs) || !slices.Equal(int64s(got), wantIDs) {
				t.Errorf("%s pages of 3: %v, want %v", dir, got, wantIDs)
			}
			if got := keysetIDs(t, e, admin, body, 4); !slices.Equal(got, wantIDs) {
				t.Errorf("%s keyset pages:\n%v\nwant\n%v", dir, got, wantIDs)
			}
		}
	})
}

// int64s converts JSON keys to int64.
func int64s(vs []any) []int64 {
	out := make([]int64, len(vs))
	for i, v := range vs {
		if f, ok := v.(float64); ok {
			out[i] = int64(f)
		}
	}
	return out
}
