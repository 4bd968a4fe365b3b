package tables

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// The keyword search (filter_all) is answered by text indexes that hold
// the folded text (db.FoldText: NFC, lower case) of the searchable fields
// and labels, kept in step by the database itself (migration 0013, whose
// index part is generated from the definitions by SearchMigration):
//
//   - SQLite: one FTS5 table per entity, "<table>_search", with the
//     trigram tokenizer (any substring of three characters or more),
//     contentless, keyed by the row's key, filled through the pf_fold
//     function of internal/db by triggers; since migration 0048 the
//     triggers note the changed keys and the index is written right
//     before the commit (searchdefer.go).
//   - PostgreSQL: one pg_trgm GIN index per searchable field on
//     lower(normalize(field, NFC)), and one on the label when the label
//     joins several fields (pf_join).
//
// A label column (company_id__label) is searched as "company_id IN (the
// companies whose label matches)", through the referenced entity's index.
// Keywords shorter than db.MinIndexedTerm characters, labels made of other
// than the referenced row's own text fields, and searchable link
// attributes are matched by scanning (db.SearchMatch), with the same
// folding, so an indexed and an unindexed search find the same rows
// (TestSearchIndexAgrees).

// labelColumn is the FTS column holding a label joined from several
// fields (no entity has a field of that name: fields end in their
// entity's name or _id).
const labelColumn = "pf_label"

// searchIndex is the text index of one entity.
type searchIndex struct {
	ent *schema.Entity
	// fields are the searchable text fields, in definition order.
	fields []string
	// label is set when the entity's label is made of its own stored
	// text fields only: then a label column referring to the entity is
	// answered by the index. One field: that field (one of fields);
	// several: the labelColumn.
	label []string
}

// ftsTable names the SQLite FTS5 table of the index.
func (x *searchIndex) ftsTable() string { return x.ent.Table + "_search" }

// labelColumns are the index columns that hold the label.
func (x *searchIndex) labelColumns() []string {
	if len(x.label) == 1 {
		return x.label
	}
	return []string{labelColumn}
}

// ftsColumns are the columns of the FTS5 table.
func (x *searchIndex) ftsColumns() []string {
	cols := slices.Clone(x.fields)
	if len(x.label) > 1 {
		cols = append(cols, labelColumn)
	}
	return cols
}

// ftsQuery is db.FTSQuery over columns of the index, without the column
// filter when columns are all of them: FTS5 then needs no column of a
// position to match (the rare keyword "01414" at 1,000,000 points of
// sale, its trigram "014" in 27,805 of them: 1.25 → 0.96 ms).
func (x *searchIndex) ftsQuery(columns []string, term string) string {
	all := x.ftsColumns()
	if len(columns) == len(all) && !slices.ContainsFunc(all, func(c string) bool { return !slices.Contains(columns, c) }) {
		columns = nil
	}
	return db.FTSQuery(columns, term)
}

// quotedColumns lists the FTS table's columns, quoted, for an INSERT.
func (x *searchIndex) quotedColumns() string {
	cols := x.ftsColumns()
	for i, c := range cols {
		cols[i] = db.QuoteIdent(c)
	}
	return strings.Join(cols, ", ")
}

// ftsValues renders the values of an FTS row (rowid first) from the
// entity's row aliased row: the folded text of each column.
func (x *searchIndex) ftsValues(row string) string {
	q := db.QuoteIdent
	v := []string{row + "." + q(x.ent.PK)}
	for _, f := range x.fields {
		v = append(v, "pf_fold("+row+"."+q(f)+")")
	}
	if len(x.label) > 1 {
		parts := make([]string, len(x.label))
		for i, l := range x.label {
			parts[i] = row + "." + q(l)
		}
		v = append(v, "pf_fold("+db.JoinText(parts)+")")
	}
	return strings.Join(v, ", ")
}

// watchedColumns lists, quoted, the columns whose update changes the
// index: the key, the searchable fields and the label's fields.
func (x *searchIndex) watchedColumns() string {
	watched := []string{x.ent.PK}
	watched = append(watched, x.fields...)
	for _, l := range x.label {
		if !slices.Contains(watched, l) {
			watched = append(watched, l)
		}
	}
	for i := range watched {
		watched[i] = db.QuoteIdent(watched[i])
	}
	return strings.Join(watched, ", ")
}

// searchIndexes finds the indexed entities of reg: those with searchable
// text fields or a label of their own text fields.
func searchIndexes(reg *schema.Registry) map[string]*searchIndex {
	return searchIndexesOf(reg.Entities())
}

// searchIndexesAsOf are the indexes of reg's entities as defined when
// migration file ran (entityBefore): what its generator renders.
func searchIndexesAsOf(reg *schema.Registry, file string) map[string]*searchIndex {
	return searchIndexesOf(entitiesBefore(reg, file))
}

// searchIndexesOf finds the indexed entities among entities.
func searchIndexesOf(entities []*schema.Entity) map[string]*searchIndex {
	out := map[string]*searchIndex{}
	for _, e := range entities {
		x := &searchIndex{ent: e}
		for i := range e.Fields {
			f := &e.Fields[i]
			if f.Searchable && f.Stored() && readable(f) && f.Type == schema.TypeString {
				x.fields = append(x.fields, f.Name)
			}
		}
		if simpleLabel(e) {
			x.label = slices.Clone(e.Label)
			if len(x.label) == 1 && !slices.Contains(x.fields, x.label[0]) {
				x.fields = append(x.fields, x.label[0])
			}
		}
		if len(x.fields) > 0 || len(x.label) > 0 {
			out[e.Name] = x
		}
	}
	return out
}

// simpleLabel reports whether e's label is made of its own stored text
// fields (no references, numbers or dates, whose text differs between the
// databases).
func simpleLabel(e *schema.Entity) bool {
	if len(e.Label) == 0 {
		return false
	}
	for _, name := range e.Label {
		f, ok := e.Field(name)
		if !ok || !f.Stored() || f.Ref != "" || f.Type != schema.TypeString || f.Through != "" {
			return false
		}
	}
	return true
}

// bigEntities are the entities whose lists reach hundreds of thousands of
// rows: every sortable stored field gets an index (SearchMigration), so a
// page in any order walks an index instead of sorting the table.
var bigEntities = []string{"pos", "contract", "invoice", "invoiceposition", "ticket", "contractaction"}

// bigEntitiesOf are the big entities defined in reg, in bigEntities' order.
func bigEntitiesOf(reg *schema.Registry) []*schema.Entity {
	var out []*schema.Entity
	for _, n := range bigEntities {
		if e, ok := reg.Entity(n); ok {
			out = append(out, e)
		}
	}
	return out
}

// SearchMigration renders the part of migration 0013 generated from the
// definitions of reg: the search indexes and their triggers, the data
// generation counters and their triggers (countcache.go), and the sort
// indexes of the big entities. TestSearchMigrationIsCurrent keeps the
// migration file equal to it.
func SearchMigration(reg *schema.Registry) string {
	later := map[string]bool{}
	for _, tables := range LaterSearchParts {
		for _, t := range tables {
			later[t] = true
		}
	}
	return renderSearchMigration(reg, searchMigrationFile, func(table string) bool { return !later[table] }, true, false)
}

// searchMigrationFile is the migration whose generated part is
// SearchMigration.
const searchMigrationFile = "0013_search_counts.sql"

// LaterSearchParts names, per migration after 0013, the tables it
// creates: their search indexes and data generations are not in 0013 (its
// tables do not exist yet when it runs) but in that migration's generated
// tail, SearchMigrationPart of them (TestSearchMigrationIsCurrent).
var LaterSearchParts = map[string][]string{
	"0017_index_clauses.sql": {"indexadjustment", "priceindex", "priceindexvalue"},
}

// SearchMigrationPartMarker starts the generated tail of a later migration.
const SearchMigrationPartMarker = "-- Generated by tables.SearchMigrationPart from the definitions; do not edit below."

// SearchMigrationPart renders the search indexes and data generations of
// tables, which migration file (after 0013) creates, for the end of that
// migration (after SearchMigrationPartMarker). A migration after 0049 gets
// SQLite triggers that note keys for the commit, with the flush trigger of
// migration 0049 (searchdefer.go).
func SearchMigrationPart(reg *schema.Registry, file string, tables []string) string {
	return renderSearchMigration(reg, file, func(table string) bool { return slices.Contains(tables, table) }, false, file > deferredSearchMigrationFile)
}

// renderSearchMigration renders the search indexes, data generations and
// sort indexes of the tables include accepts, as defined when migration
// file ran; first adds what is created once (the extension, functions and
// the data_generation table); atCommit renders the SQLite triggers that
// note keys for the commit instead of writing the index (since migration
// 0048).
func renderSearchMigration(reg *schema.Registry, file string, include func(table string) bool, first, atCommit bool) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	if first {
		w("-- Generated by tables.SearchMigration from the definitions; do not edit.")
		w("-- Regenerate: UPDATE_MIGRATION=1 go test ./internal/tables -run TestSearchMigrationIsCurrent")
		w("")
	}
	idx := searchIndexesAsOf(reg, file)
	names := make([]string, 0, len(idx))
	for n, x := range idx {
		if include(x.ent.Table) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	q := db.QuoteIdent

	w("-- Keyword search indexes (internal/tables/searchindex.go).")
	w("-- only: postgres")
	if first {
		w("CREATE EXTENSION IF NOT EXISTS pg_trgm;")
		w("CREATE FUNCTION pf_join(VARIADIC parts text[]) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT NULLIF(array_to_string(parts, ' '), '') $$;")
	}
	for _, n := range names {
		x := idx[n]
		for _, f := range x.fields {
			w("CREATE INDEX %s ON %s USING gin (%s gin_trgm_ops);", q(x.ent.Table+"_"+f+"_trgm"), q(x.ent.Table), db.FoldExpr(db.Postgres, q(f)))
		}
		if len(x.label) > 1 {
			w("CREATE INDEX %s ON %s USING gin (%s gin_trgm_ops);", q(x.ent.Table+"_label_trgm"), q(x.ent.Table), db.FoldExpr(db.Postgres, pgJoin(x.label, "")))
		}
	}
	w("-- only: sqlite")
	for _, n := range names {
		x := idx[n]
		fts, t, pk := q(x.ftsTable()), q(x.ent.Table), q(x.ent.PK)
		columns := x.quotedColumns()
		ins := "INSERT INTO " + fts + " (rowid, " + columns + ") VALUES (" + x.ftsValues("new") + ");"
		del := "DELETE FROM " + fts + " WHERE rowid = old." + pk + ";"
		w("CREATE VIRTUAL TABLE %s USING fts5(%s, content='', contentless_delete=1, tokenize='trigram case_sensitive 1');", fts, columns)
		w("INSERT INTO %s (rowid, %s) SELECT %s FROM %s new;", fts, columns, x.ftsValues("new"), t)
		if atCommit {
			for _, stmt := range x.atCommitSchema(flushFromKeys) {
				w("%s", stmt)
			}
			continue
		}
		w("CREATE TRIGGER %s AFTER INSERT ON %s BEGIN %s END;", q(x.ent.Table+"_search_insert"), t, ins)
		w("CREATE TRIGGER %s AFTER UPDATE OF %s ON %s BEGIN %s %s END;", q(x.ent.Table+"_search_update"), x.watchedColumns(), t, del, ins)
		w("CREATE TRIGGER %s AFTER DELETE ON %s BEGIN %s END;", q(x.ent.Table+"_search_delete"), t, del)
	}
	w("-- only: end")
	w("")

	w("-- Data generations (internal/tables/countcache.go): one counter per table,")
	w("-- bumped in the writing transaction by every insert, update and delete.")
	if first {
		w("CREATE TABLE data_generation (")
		w("  table_name VARCHAR(64) PRIMARY KEY,")
		w("  generation {{BIGINT}} NOT NULL")
		w(");")
	}
	tables := slices.DeleteFunc(generationTables(reg), func(t string) bool { return !include(t) })
	for _, t := range tables {
		w("INSERT INTO data_generation (table_name, generation) VALUES ('%s', 1);", t)
	}
	w("-- only: postgres")
	if first {
		w("CREATE FUNCTION bump_data_generation() RETURNS trigger AS $$")
		w("BEGIN")
		w("  UPDATE data_generation SET generation = generation + 1 WHERE table_name = TG_TABLE_NAME;")
		w("  RETURN NULL;")
		w("END;")
		w("$$ LANGUAGE plpgsql;")
	}
	for _, t := range tables {
		w("CREATE TRIGGER %s AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION bump_data_generation();", q(t+"_data_generation"), q(t))
	}
	w("-- only: sqlite")
	for _, t := range tables {
		for _, op := range []string{"INSERT", "UPDATE", "DELETE"} {
			w("CREATE TRIGGER %s AFTER %s ON %s BEGIN UPDATE data_generation SET generation = generation + 1 WHERE table_name = '%s'; END;",
				q(t+"_"+strings.ToLower(op)+"_data_generation"), op, q(t), t)
		}
	}
	w("-- only: end")
	w("")

	if !first {
		return b.String()
	}
	w("-- Sort indexes of the big entities: every sortable stored field leads one.")
	for _, e := range bigEntitiesOf(reg) {
		if !include(e.Table) {
			continue
		}
		for _, f := range notLater(e, sortIndexFields(e)) {
			w("CREATE INDEX %s ON %s (%s);", q(e.Table+"_"+f+"_sort"), q(e.Table), q(f))
		}
	}
	return b.String()
}

// pgJoin renders pf_join over the fields (of alias a when not empty).
func pgJoin(fields []string, a string) string {
	parts := make([]string, len(fields))
	for i, f := range fields {
		if a != "" {
			parts[i] = col(a, f)
		} else {
			parts[i] = db.QuoteIdent(f)
		}
	}
	return "pf_join(" + strings.Join(parts, ", ") + ")"
}

// sortIndexFields are the stored, readable, sortable fields of e that no
// index of the earlier migrations leads: not the key, not foreign keys
// (indexed with their tables), not those marked Indexed, not booleans or long text.
func sortIndexFields(e *schema.Entity) []string {
	var out []string
	for i := range e.Fields {
		f := &e.Fields[i]
		if f.Name == e.PK || !f.Stored() || !readable(f) || f.Ref != "" || f.Indexed || f.Through != "" {
			continue
		}
		if f.Type == schema.TypeBool || (f.Type == schema.TypeString && (f.MaxLen == 0 || f.MaxLen > 255)) ||
			(len(e.Label) > 0 && e.Label[0] == f.Name) {
			continue // yes/no and long text are not worth an index; the first label field has one
		}
		out = append(out, f.Name)
	}
	return out
}

// generationTables are the tables a count may read: every entity's and
// every link's table, sorted.
func generationTables(reg *schema.Registry) []string {
	var out []string
	for _, e := range reg.Entities() {
		out = append(out, e.Table)
	}
	for _, l := range reg.Links() {
		out = append(out, l.Table)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// PostgreSQL keeps the folded text in stored columns (migration 0045,
// rendered by SearchColumnMigration, decision 0042): searchColumn holds
// the searchable fields, joined by searchSeparator, and labelColumn the
// label, each folded once on write and served by one trigram index. A
// keyword test is then one LIKE on the row's own column, where folding
// every field at every read cost half of a keyword page (normalize() of
// each company name for the label, lower() of three fields of every row
// a walk tests).
const searchColumn = "pf_search"

// searchSeparator joins the fields in searchColumn. A keyword without it
// cannot match across two fields, so a match in the column is a match in
// one field; a keyword with it is tested field by field as well.
const searchSeparator = "\x1f"

// pgOwnMatch renders, on PostgreSQL, "one of the fields own of the row
// alias a contains keyword": the search column, which the trigram index
// answers, and, when own is not every field of the index (a field hidden
// from the caller) or the keyword holds the separator, the fields one by
// one as well, since the column then says "maybe".
func (x *searchIndex) pgOwnMatch(a string, own []string, keyword string) frag {
	match, arg := db.FoldedLike(col(a, searchColumn), keyword)
	whole := frag{sql: match, args: []any{arg}}
	// Folding never makes the separator (a control character) out of
	// other characters, so the raw keyword tells.
	if len(own) == len(x.fields) && !strings.Contains(keyword, searchSeparator) {
		return whole
	}
	ors := make([]frag, len(own))
	for i, f := range own {
		m, arg := db.SearchLike(col(a, f), keyword)
		ors[i] = frag{sql: m, args: []any{arg}}
	}
	return and(whole, or(ors))
}

// pgLabelMatch renders, on PostgreSQL, "the label of the row alias a
// contains keyword" through labelColumn.
func (x *searchIndex) pgLabelMatch(a, keyword string) frag {
	match, arg := db.FoldedLike(col(a, x.pgLabelColumn()), keyword)
	return frag{sql: match, args: []any{arg}}
}

// pgLabelColumn is the stored column holding the folded label: the
// search column when the label is the one searchable field, which then
// holds the same text.
func (x *searchIndex) pgLabelColumn() string {
	if len(x.label) == 1 && len(x.fields) == 1 && x.fields[0] == x.label[0] {
		return searchColumn
	}
	return labelColumn
}

// SearchColumnMigration renders migration 0045: the stored, folded search
// and label columns of every indexed entity on PostgreSQL with their
// trigram indexes, which replace the indexes on the folded fields of
// migration 0013. SQLite's FTS5 tables hold folded text already.
// TestSearchColumnMigrationIsCurrent keeps the file equal to it.
func SearchColumnMigration(reg *schema.Registry) string {
	b, w := generatedMigration("SearchColumnMigration",
		"Stored folded search and label columns on PostgreSQL (decision 0042).")
	w("-- only: postgres")
	w("CREATE FUNCTION pf_fields(VARIADIC parts text[]) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT array_to_string(parts, E'\\x1f') $$;")
	idx := searchIndexesAsOf(reg, searchColumnMigrationFile)
	names := slices.Sorted(maps.Keys(idx))
	q := db.QuoteIdent
	for _, n := range names {
		x := idx[n]
		search, label := x.pgColumnParts()
		for _, stmt := range search {
			w("%s", stmt)
		}
		for _, f := range x.fields {
			w("DROP INDEX %s;", q(x.ent.Table+"_"+f+"_trgm"))
		}
		for _, stmt := range label {
			w("%s", stmt)
		}
		if len(label) > 0 && len(x.label) > 1 {
			w("DROP INDEX %s;", q(x.ent.Table+"_label_trgm"))
		}
	}
	w("-- only: end")
	return b.String()
}

// searchColumnMigrationFile is the migration SearchColumnMigration renders.
const searchColumnMigrationFile = "0045_search_columns.sql"

// pgColumns are x's stored columns on PostgreSQL (searchColumn,
// labelColumn), those it has.
func (x *searchIndex) pgColumns() []string {
	var out []string
	if len(x.fields) > 0 {
		out = append(out, searchColumn)
	}
	if len(x.label) > 0 && x.pgLabelColumn() == labelColumn {
		out = append(out, labelColumn)
	}
	return out
}

// pgColumnSchema adds x's stored columns on PostgreSQL with their trigram
// indexes.
func (x *searchIndex) pgColumnSchema() []string {
	search, label := x.pgColumnParts()
	return append(search, label...)
}

// pgColumnParts are the statements that add x's search column and its
// index, and its label column and index (none when x has no such column).
func (x *searchIndex) pgColumnParts() (search, label []string) {
	q := db.QuoteIdent
	t := q(x.ent.Table)
	if len(x.fields) > 0 {
		search = []string{
			fmt.Sprintf("ALTER TABLE %s ADD COLUMN %s text GENERATED ALWAYS AS (%s) STORED;", t, q(searchColumn), db.FoldExpr(db.Postgres, pgFields(x.fields))),
			fmt.Sprintf("CREATE INDEX %s ON %s USING gin (%s gin_trgm_ops);", q(x.ent.Table+"_search_trgm"), t, q(searchColumn)),
		}
	}
	if len(x.label) > 0 && x.pgLabelColumn() == labelColumn {
		label = []string{
			fmt.Sprintf("ALTER TABLE %s ADD COLUMN %s text GENERATED ALWAYS AS (%s) STORED;", t, q(labelColumn), db.FoldExpr(db.Postgres, pgLabel(x.label))),
			fmt.Sprintf("CREATE INDEX %s ON %s USING gin (%s gin_trgm_ops);", q(x.ent.Table+"_label_search_trgm"), t, q(labelColumn)),
		}
	}
	return search, label
}

// pgFields renders the text of searchColumn before folding: pf_fields
// over the fields, or the one field.
func pgFields(fields []string) string {
	if len(fields) == 1 {
		return db.QuoteIdent(fields[0])
	}
	parts := make([]string, len(fields))
	for i, f := range fields {
		parts[i] = db.QuoteIdent(f)
	}
	return "pf_fields(" + strings.Join(parts, ", ") + ")"
}

// pgLabel renders the text of labelColumn before folding: the field of a
// one-field label, else the fields joined as labels are (pf_join).
func pgLabel(label []string) string {
	if len(label) == 1 {
		return db.QuoteIdent(label[0])
	}
	return pgJoin(label, "")
}
