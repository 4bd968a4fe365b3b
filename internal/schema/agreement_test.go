package schema_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/testkit"
)

// TestMigrationsAgreeWithDefinitions proves on every database that the
// migrated schema is what the definitions say, and nothing else:
//   - every entity has its table, single-column auto-increment key and
//     row_version; every stored field its column with a compatible type,
//     nullability and default; every reference a real FOREIGN KEY (same
//     target, same delete action) and an index; every Indexed field and
//     default-label name column an index; every Unique set a unique index;
//   - every link table of a relation exists with its key, its two foreign
//     keys, an index per key column and its attribute columns;
//   - conversely every table is an entity, a link or an internal table, every
//     column a field, a link column or row_version, every foreign key a
//     declared reference.
func TestMigrationsAgreeWithDefinitions(t *testing.T) {
	reg := schema.Default()
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		tables, err := d.DescribeAll(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var problems []string
		report := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
		c := checker{reg: reg, dialect: d.Dialect(), report: report}

		explained := map[string]string{}
		for _, name := range schema.InternalTables() {
			explained[name] = "internal"
		}
		if d.Dialect() == db.SQLite {
			// The work deferred to the commit (internal/db/deferred.go) and
			// the keys it indexes (internal/tables/searchdefer.go): part of
			// the keyword index, like the FTS5 tables the listing leaves out.
			explained["pf_at_commit"] = "work deferred to the commit"
			explained["pf_search_pending"] = "keyword index"
		}
		for _, e := range reg.Entities() {
			explained[e.Table] = "entity " + e.Name
			tbl, ok := tables[e.Table]
			if !ok {
				report("entity %s: table %s missing", e.Name, e.Table)
				continue
			}
			c.entity(e, &tbl)
		}
		for _, l := range reg.Links() {
			explained[l.Table] = "link"
			tbl, ok := tables[l.Table]
			if !ok {
				report("link %s: table missing", l.Table)
				continue
			}
			c.link(l, &tbl)
		}
		for name := range tables {
			if _, ok := explained[name]; !ok {
				report("table %s is neither an entity, a link nor an internal table", name)
			}
		}
		for _, name := range schema.InternalTables() {
			if _, ok := tables[name]; !ok {
				report("internal table %s missing", name)
			}
		}
		sort.Strings(problems)
		for _, p := range problems {
			t.Error(p)
		}
		t.Logf("%d entities, %d links, %d tables checked", len(reg.Entities()), len(reg.Links()), len(tables))
	})
}

type checker struct {
	reg     *schema.Registry
	dialect db.Dialect
	report  func(format string, args ...any)
}

// columnTypes are the column types a data type may have per dialect
// ({{BIGINT}} is INTEGER on SQLite).
func (c checker) columnTypes(t schema.DataType) []string {
	switch t {
	case schema.TypeID:
		if c.dialect == db.Postgres {
			return []string{"bigint"}
		}
		return []string{"integer"}
	case schema.TypeInt:
		return []string{"smallint", "integer", "bigint"}
	case schema.TypeBool:
		return []string{"smallint"}
	case schema.TypeDecimal:
		return []string{"numeric"}
	case schema.TypeString:
		return []string{"text"}
	case schema.TypeDate:
		return []string{"date"}
	case schema.TypeDateTime:
		return []string{"timestamp"}
	}
	return nil
}

var deleteActions = map[string][]string{
	"":         {"NO ACTION", "RESTRICT"},
	"cascade":  {"CASCADE"},
	"set null": {"SET NULL"},
}

func (c checker) entity(e *schema.Entity, tbl *db.Table) {
	where := "entity " + e.Name
	if !slices.Equal(tbl.PrimaryKey, []string{e.PK}) {
		c.report("%s: primary key is %v, want [%s]", where, tbl.PrimaryKey, e.PK)
	}
	if col, ok := tbl.Column(e.PK); ok && !col.AutoIncrement {
		c.report("%s: key %s is not filled by the database ({{PK}})", where, e.PK)
	}
	rv, ok := tbl.Column(schema.RowVersionColumn)
	if !ok || rv.Type != "integer" || !rv.NotNull || rv.DefaultLiteral() != "1" {
		c.report("%s: needs row_version INTEGER NOT NULL DEFAULT 1, has %+v", where, rv)
	}
	columns := map[string]bool{schema.RowVersionColumn: true}
	refs := map[string]string{}
	for _, f := range e.Columns() {
		columns[f.Name] = true
		c.column(where, tbl, f, f.Name == e.PK)
		if f.Ref != "" {
			refs[f.Name] = f.Ref
		}
		needsIndex := f.Indexed || f.Ref != ""
		if f.Name == e.Label[0] && f.Type == schema.TypeString {
			needsIndex = true
		}
		if needsIndex && !tbl.LeadingIndex(f.Name) {
			c.report("%s: no index leads with %s", where, f.Name)
		}
	}
	for i := range e.Fields {
		if f := &e.Fields[i]; !f.Stored() {
			if _, ok := tbl.Column(f.Name); ok {
				c.report("%s: %s is computed or stored through a relation but has a column", where, f.Name)
			}
		}
	}
	for _, u := range e.Unique {
		if !tbl.HasUnique(u) {
			c.report("%s: no unique index on %v", where, u)
		}
	}
	c.unexplained(where, tbl, columns, refs)
}

func (c checker) link(l *schema.Link, tbl *db.Table) {
	where := "link " + l.Table
	columns := map[string]bool{}
	refs := map[string]string{}
	if l.ID != "" {
		columns[l.ID] = true
		if !slices.Equal(tbl.PrimaryKey, []string{l.ID}) {
			c.report("%s: primary key is %v, want [%s]", where, tbl.PrimaryKey, l.ID)
		}
		if col, ok := tbl.Column(l.ID); ok && !col.AutoIncrement {
			c.report("%s: key %s is not filled by the database ({{PK}})", where, l.ID)
		}
	} else if !slices.Equal(tbl.PrimaryKey, []string{l.Left.Column, l.Right.Column}) {
		c.report("%s: primary key is %v, want [%s %s]", where, tbl.PrimaryKey, l.Left.Column, l.Right.Column)
	}
	for _, end := range []schema.LinkEnd{l.Left, l.Right} {
		columns[end.Column] = true
		refs[end.Column] = end.Entity
		key := schema.Field{Name: end.Column, Type: schema.TypeID, Ref: end.Entity, OnDelete: end.OnDelete}
		c.column(where, tbl, &key, false)
		if !tbl.LeadingIndex(end.Column) {
			c.report("%s: no index leads with %s", where, end.Column)
		}
	}
	for i := range l.Attrs {
		f := &l.Attrs[i]
		columns[f.Name] = true
		c.column(where, tbl, f, false)
		if f.Ref != "" {
			refs[f.Name] = f.Ref
			if !tbl.LeadingIndex(f.Name) {
				c.report("%s: no index leads with %s", where, f.Name)
			}
		}
	}
	for _, u := range l.Unique {
		if !tbl.HasUnique(u) {
			c.report("%s: no unique index on %v", where, u)
		}
	}
	c.unexplained(where, tbl, columns, refs)
}

// column checks one stored field against its column.
func (c checker) column(where string, tbl *db.Table, f *schema.Field, isKey bool) {
	col, ok := tbl.Column(f.Name)
	if !ok {
		c.report("%s: column %s missing", where, f.Name)
		return
	}
	if want := c.columnTypes(f.Type); !slices.Contains(want, col.Type) {
		c.report("%s: %s is %s, want one of %v for %s", where, f.Name, col.Type, want, f.Type)
	}
	if dflt := col.DefaultLiteral(); !f.Default.IsZero() && dflt != f.Default.String() &&
		!(f.Type == schema.TypeDateTime && strings.HasPrefix(dflt, f.Default.String())) { // PostgreSQL adds the zone
		c.report("%s: %s defaults to %q in the database, %q in the definition", where, f.Name, col.DefaultLiteral(), f.Default.String())
	}
	// Module-managed values (internal, read-only, derived) may be either.
	if !isKey && !f.Internal && !f.ReadOnly && f.Derived == nil {
		alwaysFilled := f.Type == schema.TypeBool || (f.Required.Always() && f.ShowWhen == nil)
		switch {
		case alwaysFilled && !col.NotNull:
			c.report("%s: %s is always filled but its column is nullable", where, f.Name)
		case !alwaysFilled && col.NotNull && f.Default.IsZero():
			c.report("%s: %s may be empty but its column is NOT NULL without a default in the definition", where, f.Name)
		}
	}
	if f.Ref == "" {
		return
	}
	target, ok := c.reg.Entity(f.Ref)
	if !ok {
		c.report("%s: %s references unknown entity %s", where, f.Name, f.Ref)
		return
	}
	fk, ok := tbl.ForeignKeyOn(f.Name)
	switch {
	case !ok:
		c.report("%s: %s has no FOREIGN KEY", where, f.Name)
	case fk.RefTable != target.Table || !slices.Equal(fk.RefColumns, []string{target.PK}):
		c.report("%s: %s references %s%v, want %s(%s)", where, f.Name, fk.RefTable, fk.RefColumns, target.Table, target.PK)
	case !slices.Contains(deleteActions[f.OnDelete], fk.OnDelete):
		c.report("%s: %s deletes %s in the database, %q in the definition", where, f.Name, fk.OnDelete, f.OnDelete)
	}
}

// unexplained reports columns and foreign keys no definition accounts for.
func (c checker) unexplained(where string, tbl *db.Table, columns map[string]bool, refs map[string]string) {
	for _, col := range tbl.Columns {
		// The folded search columns of PostgreSQL belong to the table
		// engine's search index (decision 0042), not to a definition.
		if col.Name == "pf_search" || col.Name == "pf_label" {
			continue
		}
		if !columns[col.Name] {
			c.report("%s: column %s is not defined", where, col.Name)
		}
	}
	for _, fk := range tbl.ForeignKeys {
		if len(fk.Columns) != 1 || refs[fk.Columns[0]] == "" {
			c.report("%s: foreign key %s → %s is not a declared reference", where, strings.Join(fk.Columns, ","), fk.RefTable)
		}
	}
}
