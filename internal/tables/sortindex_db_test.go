package tables_test

import (
	"context"
	"slices"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/testkit"
)

// TestEverySortHasAKeyedIndex: on a migrated database every sortable
// stored field of the big entities leads an index that gives the page's
// order (field, key) without a sort: (field, key, ...), or (field) alone on
// SQLite, whose indexes end in the rowid. Long text is sorted by its first
// characters (decision 0051): its index leads with that expression, then
// the key on PostgreSQL.
func TestEverySortHasAKeyedIndex(t *testing.T) {
	reg := schema.Default()
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		tables, err := d.DescribeAll(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"pos", "contract", "invoice", "invoiceposition", "ticket", "contractaction"} {
			e, _ := reg.Entity(n)
			tbl := tables[e.Table]
			for i := range e.Fields {
				f := &e.Fields[i]
				if f.Name == e.PK || !f.Stored() || f.Internal || f.WriteOnly || f.Through != "" {
					continue
				}
				long := f.Type == schema.TypeString && len(f.Options) == 0 && (f.MaxLen == 0 || f.MaxLen > 255)
				if long {
					want := []string{db.ExpressionColumn}
					if d.Dialect() == db.Postgres {
						want = append(want, e.PK)
					}
					if !slices.ContainsFunc(tbl.Indexes, func(ix db.Index) bool {
						return ix.Name == e.Table+"_"+f.Name+"_sort" && slices.Equal(ix.Columns, want)
					}) {
						t.Errorf("%s.%s: no index on its first characters %v", e.Table, f.Name, want)
					}
					continue
				}
				ok := false
				for _, ix := range tbl.Indexes {
					if len(ix.Columns) >= 2 && slices.Equal(ix.Columns[:2], []string{f.Name, e.PK}) ||
						d.Dialect() == db.SQLite && slices.Equal(ix.Columns, []string{f.Name}) {
						ok = true
					}
				}
				if !ok {
					t.Errorf("%s.%s: no index (%s, %s)", e.Table, f.Name, f.Name, e.PK)
				}
			}
		}
	})
}
