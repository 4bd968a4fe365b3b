package tables

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// On SQLite the keyword index is written at the commit (decision 0047).
// FTS5 writes the rows a transaction gave it as a new index segment at the
// next statement that opens a statement journal, which every insert or
// update with a trigger does: a generic create wrote its own tiny segment
// while holding the single writer, and so did every member of a group
// commit. Since migration 0048 the keyword-index triggers only note the
// changed keys in searchPending and name the table's flush view in
// db's pf_at_commit; right before every commit the writer deletes from
// that view (internal/db/deferred.go), whose INSTEAD OF DELETE trigger
// indexes the noted keys and forgets them, in the same transaction: a
// search after the commit finds what it committed, as before. The
// database keeps this bookkeeping itself, so plain SQL and the scale
// seed's own transactions commit it too.
//
// A key is noted with indexed = 1 when the index may hold an older text
// of the row (an update or a delete): the flush removes that first. A row
// inserted in the same transaction keeps 0 (ON CONFLICT DO NOTHING), and a
// row gone by the commit is not indexed again.

// searchPending names the table of noted keys; atCommit the table of
// views to delete from before the commit (internal/db/deferred.go).
const (
	searchPending = "pf_search_pending"
	atCommit      = "pf_at_commit"
)

// deferredSearchMigrationFile is the migration DeferredSearchMigration
// renders; flushFromKeysMigrationFile the one FlushFromKeysMigration does.
const (
	deferredSearchMigrationFile = "0048_search_at_commit.sql"
	flushFromKeysMigrationFile  = "0049_search_flush_from_keys.sql"
)

// DeferredSearchMigration renders migration 0048 from the definitions of
// reg: the tables of noted keys and of views to run at the commit, and,
// for every keyword index, its flush view and the triggers that note keys
// instead of writing the index.
// TestDeferredSearchMigrationIsCurrent keeps the migration file equal to
// it.
func DeferredSearchMigration(reg *schema.Registry) string {
	b, w := generatedMigration("DeferredSearchMigration", "The keyword index is written at the commit (decision 0047, internal/tables/searchdefer.go).")
	q := db.QuoteIdent
	w("-- only: sqlite")
	w("CREATE TABLE %s (view_name TEXT PRIMARY KEY) WITHOUT ROWID;", atCommit)
	w("CREATE TABLE %s (table_name TEXT NOT NULL, row_id INTEGER NOT NULL, indexed INTEGER NOT NULL, PRIMARY KEY (table_name, row_id)) WITHOUT ROWID;", searchPending)
	for _, x := range sortedSearchIndexes(searchIndexesAsOf(reg, deferredSearchMigrationFile)) {
		if !existsBefore(x.ent.Table, deferredSearchMigrationFile) {
			continue // a later migration creates it with these triggers (SearchMigrationPart)
		}
		for _, op := range []string{"insert", "update", "delete"} {
			w("DROP TRIGGER %s;", q(x.ent.Table+"_search_"+op))
		}
		for _, stmt := range x.atCommitSchema(flushAsFirstWritten) {
			w("%s", stmt)
		}
	}
	w("-- only: end")
	return b.String()
}

// FlushFromKeysMigration renders migration 0049 from the definitions of
// reg: every flush trigger of migration 0048 again, reading the rows to
// index through their noted keys (flushFromKeys).
// TestFlushFromKeysMigrationIsCurrent keeps the migration file equal to it.
func FlushFromKeysMigration(reg *schema.Registry) string {
	b, w := generatedMigration("FlushFromKeysMigration", "Flush triggers read the rows to index through their noted keys (docs/performance.md, \"Lists at scale, session 17\").")
	w("-- only: sqlite")
	for _, x := range sortedSearchIndexes(searchIndexesAsOf(reg, flushFromKeysMigrationFile)) {
		if !existsBefore(x.ent.Table, flushFromKeysMigrationFile) {
			continue // a later migration creates it in this form (SearchMigrationPart)
		}
		w("DROP TRIGGER %s;", db.QuoteIdent(x.flushTrigger()))
		w("%s", x.flushTriggerSchema(flushFromKeys))
	}
	w("-- only: end")
	return b.String()
}

// sortedSearchIndexes lists idx by table name.
func sortedSearchIndexes(idx map[string]*searchIndex) []*searchIndex {
	out := slices.Collect(maps.Values(idx))
	slices.SortFunc(out, func(a, b *searchIndex) int { return strings.Compare(a.ent.Table, b.ent.Table) })
	return out
}

// existsBefore reports whether table is created before migration file:
// by 0013 or by a later migration of LaterSearchParts that sorts before it.
func existsBefore(table, file string) bool {
	for f, tables := range LaterSearchParts {
		if slices.Contains(tables, table) {
			return f < file
		}
	}
	return true
}

// flushView names the view whose deletion indexes x's noted keys.
func (x *searchIndex) flushView() string { return "pf_search_flush_" + x.ent.Table }

// flushForm is how a flush trigger finds the rows to index.
type flushForm int

const (
	// flushAsFirstWritten tests each row of the table against the noted
	// keys, or the keys against the table, as SQLite's statistics of the
	// table suggest: a table that had a few rows when it was last analysed
	// was read whole at every commit (3.5 ms for 70,000 points of sale).
	// Migration 0048 holds it; 0049 replaced it.
	flushAsFirstWritten flushForm = iota
	// flushFromKeys reads the noted keys first and each row by its key
	// (CROSS JOIN fixes that order in SQLite): 0.09 ms at any size.
	flushFromKeys
)

// flushTrigger names the trigger of x's flush view.
func (x *searchIndex) flushTrigger() string { return x.ent.Table + "_search_flush" }

// flushTriggerSchema is the trigger that indexes x's noted keys when its
// flush view is deleted from: it removes the older texts of rows noted
// with indexed = 1, indexes the rows still there, and forgets the keys.
func (x *searchIndex) flushTriggerSchema(form flushForm) string {
	q := db.QuoteIdent
	t, pk, fts := x.ent.Table, q(x.ent.PK), q(x.ftsTable())
	keys := fmt.Sprintf("SELECT row_id FROM %s WHERE table_name = '%s'", searchPending, t)
	rows := fmt.Sprintf("%s r WHERE r.%s IN (%s)", q(t), pk, keys)
	if form == flushFromKeys {
		rows = fmt.Sprintf("%s p CROSS JOIN %s r ON r.%s = p.row_id WHERE p.table_name = '%s'", searchPending, q(t), pk, t)
	}
	return fmt.Sprintf("CREATE TRIGGER %s INSTEAD OF DELETE ON %s BEGIN DELETE FROM %s WHERE rowid IN (%s AND indexed = 1); INSERT INTO %s (rowid, %s) SELECT %s FROM %s; DELETE FROM %s WHERE table_name = '%s'; END;",
		q(x.flushTrigger()), q(x.flushView()), fts, keys, fts, x.quotedColumns(), x.ftsValues("r"), rows, searchPending, t)
}

// atCommitSchema is what writes x's keyword index at the commit on
// SQLite: the flush view with its trigger in form, and the triggers that
// note the keys of changed rows and name the view.
func (x *searchIndex) atCommitSchema(form flushForm) []string {
	q := db.QuoteIdent
	t, pk := x.ent.Table, q(x.ent.PK)
	note := func(row string, indexed int) string {
		return fmt.Sprintf("INSERT INTO %s (table_name, row_id, indexed) VALUES ('%s', %s.%s, %d) ON CONFLICT DO NOTHING;", searchPending, t, row, pk, indexed)
	}
	name := fmt.Sprintf("INSERT INTO %s (view_name) VALUES ('%s') ON CONFLICT DO NOTHING;", atCommit, x.flushView())
	return []string{
		fmt.Sprintf("CREATE VIEW %s AS SELECT 1 AS flush;", q(x.flushView())),
		x.flushTriggerSchema(form),
		fmt.Sprintf("CREATE TRIGGER %s AFTER INSERT ON %s BEGIN %s %s END;", q(t+"_search_insert"), q(t), note("new", 0), name),
		fmt.Sprintf("CREATE TRIGGER %s AFTER UPDATE OF %s ON %s BEGIN %s %s %s END;", q(t+"_search_update"), x.watchedColumns(), q(t), note("old", 1), note("new", 0), name),
		fmt.Sprintf("CREATE TRIGGER %s AFTER DELETE ON %s BEGIN %s %s END;", q(t+"_search_delete"), q(t), note("old", 1), name),
	}
}
