package tables_test

import (
	"fmt"
	"testing"

	"portfolio/internal/testkit"
)

// Creating and reading rows one by one keeps the number of prepared
// statements flat: the integers written into a page statement's text
// (db.InlineInts) are the ones that steer its plan, never a row's key,
// which would make one statement per row (and on SQLite evict the hot ones).
// A statement a transaction misses is prepared in the background
// (stmtCache.forTx), so the first creates' statements may still arrive
// while the counted ones run: a few, where a statement per row would be
// forty.
func TestRowReadsShareTheirStatement(t *testing.T) {
	// SQLite's statement cache is ours; pgx keeps PostgreSQL's per connection.
	d := testkit.NewSQLite(t)
	e := newEnv(t, d)
	create := func(n int) {
		row := e.create("pos", obj{"company_id": 1, "contactperson_id": 1001, "pos_name": fmt.Sprintf("Statement %d", n),
			"pos_branchnumber": fmt.Sprintf("S-%d", n), "pos_first_year": 2020, "pos_opening_date": "2020-01-01"})
		e.mustOK(admin, obj{"action": "read", "entity": "pos", "id": id(row, "pos_id")})
	}
	for n := 0; n < 10; n++ {
		create(n)
	}
	before := d.CachedStatements()
	for n := 10; n < 50; n++ {
		create(n)
	}
	if grown := d.CachedStatements() - before; grown > 10 {
		t.Errorf("40 creates and reads prepared %d more statements; want a few at most", grown)
	}
}
