package tables

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// keyedByHand are the sortable fields of the big entities whose PostgreSQL
// index already ends in the key (migrations 0016 and 0036).
var keyedByHand = []string{"contractaction.contractaction_notice_date", "ticket.ticket_rank"}

// secondColumnByHand are Indexed fields whose hand-made index has a second
// column that is not the key, so no index gives their key order on SQLite
// either (migration 0014: responsible user, then notice date).
var secondColumnByHand = []string{"contractaction.contractaction_responsible_user_id"}

// moreSortIndexFields are the sortable stored fields of e that migration
// 0013 left without a sort index of their own (sortIndexFields): yes/no
// and choice fields and long text (every database), and the fields an
// earlier migration indexes by hand — the Indexed ones and the foreign keys
// — whose one-column indexes leave PostgreSQL to sort each value's group by
// key (PostgreSQL only, see SortIndexMigration).
func moreSortIndexFields(e *schema.Entity) (every, sqliteOnly, postgresOnly []string) {
	for i := range e.Fields {
		f := &e.Fields[i]
		if f.Name == e.PK || !f.Stored() || !readable(f) || f.Through != "" ||
			slices.Contains(sortIndexFields(e), f.Name) {
			continue
		}
		longText := longText(f)
		switch {
		case slices.Contains(keyedByHand, e.Name+"."+f.Name):
		case slices.Contains(secondColumnByHand, e.Name+"."+f.Name):
			every = append(every, f.Name)
		case f.Ref != "" || f.Indexed || len(e.Label) > 0 && e.Label[0] == f.Name:
			postgresOnly = append(postgresOnly, f.Name)
		case longText:
			// PostgreSQL refuses B-tree entries above a third of a page
			// (about 2,700 bytes): long text is indexed on SQLite only.
			sqliteOnly = append(sqliteOnly, f.Name)
		default:
			every = append(every, f.Name)
		}
	}
	return every, sqliteOnly, postgresOnly
}

// longTextSortChars is how many leading characters of long text a list
// sorts by (decision 0051): a B-tree holds them on both databases, where
// PostgreSQL refuses an entry of the whole text above about 2,700 bytes.
const longTextSortChars = 200

// sortsByPrefix reports whether the plan's order is long text of a big
// entity, sorted by its first longTextSortChars characters, then by key.
func (p *listPlan) sortsByPrefix() bool {
	o := p.order
	return o != nil && o.kind == kindField && !o.onLink && o.field != nil && longText(o.field) &&
		slices.Contains(bigEntities, p.t.ent.Name)
}

// sortExpr renders what the plan's rows are ordered by in s: the order
// column, or the leading characters of long text (sortsByPrefix), exactly
// as its index holds them (LongTextSortIndexMigration).
func (p *listPlan) sortExpr(s *source) (frag, error) {
	o, err := p.order.expr(s)
	if err != nil || !p.sortsByPrefix() || s.hidesField(s.base, p.order.field) {
		return o, err
	}
	return frag{sql: prefixExpr(s.env.dialect, o.sql), args: o.args}, nil
}

// prefixExpr renders the first longTextSortChars characters of text expr.
func prefixExpr(d db.Dialect, expr string) string {
	n := strconv.Itoa(longTextSortChars)
	if d == db.Postgres {
		return "left(" + expr + ", " + n + ")"
	}
	return "substr(" + expr + ", 1, " + n + ")"
}

// LongTextSortIndexMigration renders migration 0050 from the definitions
// (decision 0051): long text of the big entities (descriptions, notes) is
// sorted by its first longTextSortChars characters, then by key, through
// an index on them on both databases. On SQLite it replaces the index of
// the whole text (SortIndexMigration); PostgreSQL had none and sorted every
// row (100,000 tickets by description: 10 req/s).
// TestLongTextSortIndexMigrationIsCurrent keeps the file equal to it.
func LongTextSortIndexMigration(reg *schema.Registry) string {
	b, w := generatedMigration("LongTextSortIndexMigration",
		"Long text of the big entities is sorted by its first characters, then by key, through an index on them (decision 0051).")
	q := db.QuoteIdent
	var sqlite, pg []string
	for _, e := range bigEntitiesOf(reg) {
		_, long, _ := moreSortIndexFields(e)
		for _, f := range long {
			name := q(e.Table + "_" + f + "_sort")
			sqlite = append(sqlite, fmt.Sprintf("DROP INDEX %s;", name),
				fmt.Sprintf("CREATE INDEX %s ON %s (%s);", name, q(e.Table), prefixExpr(db.SQLite, q(f))))
			pg = append(pg, fmt.Sprintf("CREATE INDEX %s ON %s ((%s), %s);", name, q(e.Table), prefixExpr(db.Postgres, q(f)), q(e.PK)))
		}
	}
	writePerDialect(w, sqlite, pg)
	return b.String()
}

// longText reports whether f is text too long for a PostgreSQL B-tree
// entry, which is indexed on SQLite only.
func longText(f *schema.Field) bool {
	return f.Type == schema.TypeString && len(f.Options) == 0 && (f.MaxLen == 0 || f.MaxLen > 255)
}

// SortIndexMigration renders migration 0040 from the definitions (issue
// 19, decision 0031): every sortable stored field of the big entities leads
// an index, so a page in any order walks an index and stops after the page.
// Migration 0013 (sortIndexFields) left out yes/no, choice and long-text
// fields; they get "<table>_<field>_sort" here — (field) on SQLite, whose
// indexes end in the rowid (the key), (field, key) on PostgreSQL; long text
// on SQLite only. The fields earlier migrations index by hand (Indexed
// fields and foreign keys) get a (field, key) index on PostgreSQL, where
// their one-column index leaves the order within one value to a sort (a
// contract type shared by 50,000 contracts: all of them sorted for a page
// of 50). The tenant key is not put first: the big entities reach their
// tenant (a customer group) through the company, so (company, field) would
// serve a one-company tenant only (decision 0009). TestSortIndexMigrationIsCurrent
// keeps the file equal to it.
func SortIndexMigration(reg *schema.Registry) string {
	b, w := generatedMigration("SortIndexMigration",
		"Every sortable stored field of the big entities leads an index ending in the key (decision 0031).")
	q := db.QuoteIdent
	var sqlite, pg []string
	for _, e := range bigEntitiesOf(reg) {
		every, sqliteOnly, pgOnly := moreSortIndexFields(e)
		every, sqliteOnly, pgOnly = notLater(e, every), notLater(e, sqliteOnly), notLater(e, pgOnly)
		for _, f := range every {
			sqlite = append(sqlite, fmt.Sprintf("CREATE INDEX %s ON %s (%s);", q(e.Table+"_"+f+"_sort"), q(e.Table), q(f)))
			pg = append(pg, fmt.Sprintf("CREATE INDEX %s ON %s (%s, %s);", q(e.Table+"_"+f+"_sort"), q(e.Table), q(f), q(e.PK)))
		}
		for _, f := range sqliteOnly {
			sqlite = append(sqlite, fmt.Sprintf("CREATE INDEX %s ON %s (%s);", q(e.Table+"_"+f+"_sort"), q(e.Table), q(f)))
		}
		for _, f := range pgOnly {
			pg = append(pg, fmt.Sprintf("CREATE INDEX %s ON %s (%s, %s);", q(e.Table+"_"+f+"_sort"), q(e.Table), q(f), q(e.PK)))
		}
	}
	writePerDialect(w, sqlite, pg)
	return b.String()
}

// labelIndexByHand names the hand-made index of the label field of the big
// entities whose label is one stored text field (migration 0003).
var labelIndexByHand = map[string]string{
	"pos": "pos_name_idx", "contract": "contract_name_idx",
	"invoiceposition": "invoiceposition_name_idx", "ticket": "ticket_name_idx",
}

// keywordWalkColumns are the columns of e's keyword walk index (SQLite):
// the label, the key (the page's tie-breaker, so the index still gives
// the list's order), the searchable text fields of at most 255 characters
// and the stored references — every column a keyword page tests per row
// (walkSearch: its own text, and "<fk> IN (label matches)" for each
// label). nil when e has no such index.
func keywordWalkColumns(e *schema.Entity, x *searchIndex) []string {
	if _, ok := labelIndexByHand[e.Name]; !ok || x == nil || len(e.Label) != 1 {
		return nil
	}
	cols := []string{e.Label[0], e.PK}
	for _, name := range x.fields {
		f, ok := e.Field(name)
		if ok && !slices.Contains(cols, name) && f.MaxLen > 0 && f.MaxLen <= 255 {
			cols = append(cols, name)
		}
	}
	for i := range e.Fields {
		f := &e.Fields[i]
		if f.Ref != "" && f.Stored() && !slices.Contains(cols, f.Name) {
			cols = append(cols, f.Name)
		}
	}
	return cols
}

// KeywordWalkMigration renders migration 0044 from the definitions (issue
// 19, decision 0041): on SQLite a keyword page in the default order walks
// the label index and tests each row until the page is full — about 1,600
// rows for a page of a keyword in 3 % of the rows. With the label index
// holding every column that test reads, SQLite tests the index entry and
// reads the table row only for the rows of the page (a deferred seek)
// instead of for every row walked. The index replaces the label's plain
// one: same leading column, same order (label, key), one index to keep on
// every write. PostgreSQL answers keyword pages from a key set (decision
// 0022) and keeps its indexes. TestKeywordWalkMigrationIsCurrent keeps the
// file equal to it.
func KeywordWalkMigration(reg *schema.Registry) string {
	b, w := generatedMigration("KeywordWalkMigration",
		"The label index of the big entities holds every column a keyword page tests (decision 0041).")
	w("-- only: sqlite")
	q := db.QuoteIdent
	xs := searchIndexesAsOf(reg, keywordWalkMigrationFile)
	for _, e := range bigEntitiesOf(reg) {
		e = entityBefore(e, keywordWalkMigrationFile)
		cols := keywordWalkColumns(e, xs[e.Name])
		if cols == nil {
			continue
		}
		quoted := make([]string, len(cols))
		for i, c := range cols {
			quoted[i] = q(c)
		}
		w("DROP INDEX %s;", q(labelIndexByHand[e.Name]))
		w("CREATE INDEX %s ON %s (%s);", q(e.Table+"_label_walk"), q(e.Table), strings.Join(quoted, ", "))
	}
	w("-- only: end")
	return b.String()
}

// keywordWalkMigrationFile is the migration KeywordWalkMigration renders.
const keywordWalkMigrationFile = "0044_keyword_walk_indexes.sql"

// writePerDialect writes the statements of each database in its own
// "-- only:" block.
func writePerDialect(w func(format string, args ...any), sqlite, pg []string) {
	for _, part := range []struct {
		dialect string
		stmts   []string
	}{{"sqlite", sqlite}, {"postgres", pg}} {
		w("-- only: %s", part.dialect)
		for _, s := range part.stmts {
			w("%s", s)
		}
		w("-- only: end")
	}
}

// generatedMigration starts the text of a migration that generator renders
// from the definitions: the header saying so and how to regenerate it
// (its test is Test<generator>IsCurrent), and about. w writes a line.
func generatedMigration(generator, about string) (b *strings.Builder, w func(format string, args ...any)) {
	b = &strings.Builder{}
	w = func(format string, args ...any) { fmt.Fprintf(b, format+"\n", args...) }
	w("-- Generated by tables.%s from the definitions; do not edit.", generator)
	w("-- Regenerate: UPDATE_MIGRATION=1 go test ./internal/tables -run Test%sIsCurrent", generator)
	w("-- %s", about)
	return b, w
}
