package tables

import (
	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// SortKeyMigration renders migration 0027 from the definitions
// (decision 0022): on PostgreSQL the sort indexes of the big entities
// (SearchMigration, "<table>_<field>_sort") become (field, key). A page is
// ordered by the column and then the key (listPlan.orderBy); an index of
// the column alone leaves PostgreSQL to sort every row of the first
// value's group before the first row is returned (2,520 points of sale of
// one opening year for a page of 50). SQLite needs nothing: its indexes
// end in the rowid, which is the key. TestSortKeyMigrationIsCurrent keeps
// the file equal to it.
func SortKeyMigration(reg *schema.Registry) string {
	b, w := generatedMigration("SortKeyMigration", "PostgreSQL: the sort indexes of the big entities end in the key (decision 0022).")
	w("-- only: postgres")
	q := db.QuoteIdent
	for _, e := range bigEntitiesOf(reg) {
		for _, f := range notLater(e, sortIndexFields(e)) {
			name := q(e.Table + "_" + f + "_sort")
			w("DROP INDEX %s;", name)
			w("CREATE INDEX %s ON %s (%s, %s);", name, q(e.Table), q(f), q(e.PK))
		}
	}
	w("-- only: end")
	return b.String()
}
