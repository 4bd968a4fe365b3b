package db

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
)

// TypeFamily is a column type with the dialect spelling removed, so a
// definition can be compared with either database.
type TypeFamily string

// The column type families.
const (
	FamilyInteger   TypeFamily = "integer"   // SMALLINT, INTEGER, BIGINT
	FamilyNumeric   TypeFamily = "numeric"   // NUMERIC, DECIMAL
	FamilyText      TypeFamily = "text"      // TEXT, VARCHAR
	FamilyDate      TypeFamily = "date"      // DATE
	FamilyTimestamp TypeFamily = "timestamp" // TIMESTAMP, TIMESTAMPTZ
	FamilyBlob      TypeFamily = "blob"      // BLOB, BYTEA
	FamilyOther     TypeFamily = "other"
)

// Column is one column as the database reports it.
type Column struct {
	Name string
	// Type is the normalised type name: smallint, integer, bigint, numeric,
	// text, date, timestamp or blob (SQLite reports INTEGER for {{BIGINT}},
	// so ids are integer there and bigint on PostgreSQL), or the raw lower
	// case type when unknown.
	Type    string
	Family  TypeFamily
	NotNull bool
	// Default is the default expression as reported ("" when none).
	Default string
	// AutoIncrement marks a key the database fills ({{PK}}).
	AutoIncrement bool
}

// DefaultLiteral returns the column default as a plain literal, with
// parentheses, quotes and PostgreSQL casts removed: ('0') → 0,
// 'active'::text → active, 'it”s' → it's. Expressions such as
// CURRENT_TIMESTAMP are returned as written.
func (c Column) DefaultLiteral() string {
	d := unparen(c.Default)
	if strings.HasPrefix(d, "'") {
		var b strings.Builder
		for i := 1; i < len(d); i++ {
			if d[i] == '\'' {
				if i+1 < len(d) && d[i+1] == '\'' {
					b.WriteByte('\'')
					i++
					continue
				}
				return b.String()
			}
			b.WriteByte(d[i])
		}
		return b.String()
	}
	if i := strings.Index(d, "::"); i >= 0 {
		d = unparen(d[:i])
	}
	return d
}

func unparen(s string) string {
	s = strings.TrimSpace(s)
	for len(s) >= 2 && s[0] == '(' && s[len(s)-1] == ')' {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	return s
}

// ForeignKey is one foreign-key constraint.
type ForeignKey struct {
	Columns    []string
	RefTable   string
	RefColumns []string
	// OnDelete is the delete action: NO ACTION, RESTRICT, CASCADE,
	// SET NULL or SET DEFAULT.
	OnDelete string
}

// Index is one index, including those backing primary keys and unique
// constraints.
type Index struct {
	Name string
	// Columns are the indexed columns in order; an expression is
	// ExpressionColumn.
	Columns []string
	Unique  bool
}

// ExpressionColumn stands for an indexed expression among an index's
// Columns (a label sort index, decision 0044).
const ExpressionColumn = "(expression)"

// Table describes one table.
type Table struct {
	Name        string
	Columns     []Column
	PrimaryKey  []string
	ForeignKeys []ForeignKey
	Indexes     []Index
}

// Column finds a column by name.
func (t *Table) Column(name string) (Column, bool) {
	for _, c := range t.Columns {
		if c.Name == name {
			return c, true
		}
	}
	return Column{}, false
}

// ForeignKeyOn finds the single-column foreign key on column.
func (t *Table) ForeignKeyOn(column string) (ForeignKey, bool) {
	for _, fk := range t.ForeignKeys {
		if len(fk.Columns) == 1 && fk.Columns[0] == column {
			return fk, true
		}
	}
	return ForeignKey{}, false
}

// LeadingIndex reports whether some index, the primary key or a unique
// constraint starts with column, so lookups, filters and sorts on it can
// use an index.
func (t *Table) LeadingIndex(column string) bool {
	if len(t.PrimaryKey) > 0 && t.PrimaryKey[0] == column {
		return true
	}
	for _, ix := range t.Indexes {
		if len(ix.Columns) > 0 && ix.Columns[0] == column {
			return true
		}
	}
	return false
}

// HasUnique reports whether the primary key or a unique index covers
// exactly columns (in any order).
func (t *Table) HasUnique(columns []string) bool {
	same := func(a []string) bool {
		if len(a) != len(columns) {
			return false
		}
		x, y := append([]string(nil), a...), append([]string(nil), columns...)
		sort.Strings(x)
		sort.Strings(y)
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	if same(t.PrimaryKey) {
		return true
	}
	for _, ix := range t.Indexes {
		if ix.Unique && same(ix.Columns) {
			return true
		}
	}
	return false
}

// Tables lists the base tables of the database (of the current schema on
// PostgreSQL; without SQLite's virtual tables and their shadow tables),
// sorted.
func (d *DB) Tables(ctx context.Context) ([]string, error) {
	// Virtual tables (the FTS5 search indexes) and their shadow tables are
	// index structures, not tables of the schema.
	q := `SELECT name FROM sqlite_master m WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'
		AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'
		AND NOT EXISTS (SELECT 1 FROM sqlite_master v WHERE v.type = 'table' AND v.sql LIKE 'CREATE VIRTUAL TABLE%'
			AND m.name IN (v.name || '_data', v.name || '_idx', v.name || '_content', v.name || '_docsize', v.name || '_config'))`
	if d.dialect == Postgres {
		q = `SELECT table_name FROM information_schema.tables
			WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
	}
	names, err := queryStrings(ctx, d, q)
	if err != nil {
		return nil, fmt.Errorf("db: list tables: %w", err)
	}
	sort.Strings(names)
	return names, nil
}

// Describe reads the columns, keys and indexes of table.
func (d *DB) Describe(ctx context.Context, table string) (Table, error) {
	var t Table
	var err error
	if d.dialect == Postgres {
		t, err = d.describePostgres(ctx, table)
	} else {
		t, err = d.describeSQLite(ctx, table)
	}
	if err != nil {
		return Table{}, fmt.Errorf("db: describe %s: %w", table, err)
	}
	if len(t.Columns) == 0 {
		return Table{}, fmt.Errorf("db: describe %s: no such table", table)
	}
	return t, nil
}

// DescribeAll describes every table of the database, by name.
func (d *DB) DescribeAll(ctx context.Context) (map[string]Table, error) {
	names, err := d.Tables(ctx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]Table, len(names))
	for _, n := range names {
		t, err := d.Describe(ctx, n)
		if err != nil {
			return nil, err
		}
		out[n] = t
	}
	return out, nil
}

func (d *DB) describeSQLite(ctx context.Context, table string) (Table, error) {
	t := Table{Name: table}
	rows, err := d.QueryContext(ctx, `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid`, table)
	if err != nil {
		return t, err
	}
	pk := map[int]string{}
	err = scanAll(rows, func() error {
		var c Column
		var dflt sql.NullString
		var pos int
		if err := rows.Scan(&c.Name, &c.Type, &c.NotNull, &dflt, &pos); err != nil {
			return err
		}
		c.Default = dflt.String
		c.Type, c.Family = normalizeType(c.Type)
		if pos > 0 {
			pk[pos] = c.Name
			// A single INTEGER PRIMARY KEY is the rowid: never null,
			// filled when omitted.
			c.NotNull = true
		}
		t.Columns = append(t.Columns, c)
		return nil
	})
	if err != nil {
		return t, err
	}
	for i := 1; i <= len(pk); i++ {
		t.PrimaryKey = append(t.PrimaryKey, pk[i])
	}
	if len(t.PrimaryKey) == 1 {
		for i := range t.Columns {
			if t.Columns[i].Name == t.PrimaryKey[0] && t.Columns[i].Type == "integer" {
				t.Columns[i].AutoIncrement = true
			}
		}
	}

	rows, err = d.QueryContext(ctx, `SELECT id, seq, "table", "from", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq`, table)
	if err != nil {
		return t, err
	}
	byID := map[int]*ForeignKey{}
	var order []int
	err = scanAll(rows, func() error {
		var id, seq int
		var ref, from, onDelete string
		var to sql.NullString
		if err := rows.Scan(&id, &seq, &ref, &from, &to, &onDelete); err != nil {
			return err
		}
		fk, ok := byID[id]
		if !ok {
			fk = &ForeignKey{RefTable: ref, OnDelete: strings.ToUpper(onDelete)}
			byID[id] = fk
			order = append(order, id)
		}
		fk.Columns = append(fk.Columns, from)
		fk.RefColumns = append(fk.RefColumns, to.String)
		return nil
	})
	if err != nil {
		return t, err
	}
	for _, id := range order {
		t.ForeignKeys = append(t.ForeignKeys, *byID[id])
	}

	rows, err = d.QueryContext(ctx, `SELECT l.name, l."unique", COALESCE(i.name, '`+ExpressionColumn+`')
		FROM pragma_index_list(?) AS l, pragma_index_info(l.name) AS i
		ORDER BY l.name, i.seqno`, table)
	if err != nil {
		return t, err
	}
	t.Indexes, err = collectIndexes(rows)
	return t, err
}

func (d *DB) describePostgres(ctx context.Context, table string) (Table, error) {
	t := Table{Name: table}
	rows, err := d.QueryContext(ctx, `SELECT column_name, data_type, is_nullable = 'NO', COALESCE(column_default, ''), is_identity = 'YES'
		FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = ?
		ORDER BY ordinal_position`, table)
	if err != nil {
		return t, err
	}
	err = scanAll(rows, func() error {
		var c Column
		if err := rows.Scan(&c.Name, &c.Type, &c.NotNull, &c.Default, &c.AutoIncrement); err != nil {
			return err
		}
		c.Type, c.Family = normalizeType(c.Type)
		t.Columns = append(t.Columns, c)
		return nil
	})
	if err != nil {
		return t, err
	}

	// Foreign keys with their columns in key order; information_schema
	// cannot pair the columns of multi-column keys, pg_constraint can.
	rows, err = d.QueryContext(ctx, `SELECT c.conname, c.confdeltype::text, ft.relname, a.attname, fa.attname
		FROM pg_constraint c
		JOIN pg_class t ON t.oid = c.conrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace
		JOIN pg_class ft ON ft.oid = c.confrelid
		CROSS JOIN LATERAL unnest(c.conkey, c.confkey) WITH ORDINALITY AS k(attnum, fattnum, ord)
		JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
		JOIN pg_attribute fa ON fa.attrelid = c.confrelid AND fa.attnum = k.fattnum
		WHERE c.contype = 'f' AND n.nspname = current_schema() AND t.relname = ?
		ORDER BY c.conname, k.ord`, table)
	if err != nil {
		return t, err
	}
	byName := map[string]*ForeignKey{}
	var order []string
	err = scanAll(rows, func() error {
		var name, action, ref, col, refCol string
		if err := rows.Scan(&name, &action, &ref, &col, &refCol); err != nil {
			return err
		}
		fk, ok := byName[name]
		if !ok {
			fk = &ForeignKey{RefTable: ref, OnDelete: pgDeleteActions[action]}
			byName[name] = fk
			order = append(order, name)
		}
		fk.Columns = append(fk.Columns, col)
		fk.RefColumns = append(fk.RefColumns, refCol)
		return nil
	})
	if err != nil {
		return t, err
	}
	for _, n := range order {
		t.ForeignKeys = append(t.ForeignKeys, *byName[n])
	}

	rows, err = d.QueryContext(ctx, `SELECT ic.relname, ix.indisunique, COALESCE(a.attname, '`+ExpressionColumn+`')
		FROM pg_index ix
		JOIN pg_class ic ON ic.oid = ix.indexrelid
		JOIN pg_class t ON t.oid = ix.indrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace
		CROSS JOIN LATERAL unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
		LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum AND k.attnum > 0
		WHERE n.nspname = current_schema() AND t.relname = ?
		ORDER BY ic.relname, k.ord`, table)
	if err != nil {
		return t, err
	}
	if t.Indexes, err = collectIndexes(rows); err != nil {
		return t, err
	}

	pk, err := queryStrings(ctx, d, `SELECT a.attname
		FROM pg_index ix
		JOIN pg_class t ON t.oid = ix.indrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace
		CROSS JOIN LATERAL unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
		JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
		WHERE ix.indisprimary AND n.nspname = current_schema() AND t.relname = ?
		ORDER BY k.ord`, table)
	t.PrimaryKey = pk
	return t, err
}

var pgDeleteActions = map[string]string{
	"a": "NO ACTION", "r": "RESTRICT", "c": "CASCADE", "n": "SET NULL", "d": "SET DEFAULT",
}

func collectIndexes(rows *sql.Rows) ([]Index, error) {
	var out []Index
	err := scanAll(rows, func() error {
		var name, col string
		var unique bool
		if err := rows.Scan(&name, &unique, &col); err != nil {
			return err
		}
		if n := len(out); n > 0 && out[n-1].Name == name {
			out[n-1].Columns = append(out[n-1].Columns, col)
			return nil
		}
		out = append(out, Index{Name: name, Unique: unique, Columns: []string{col}})
		return nil
	})
	return out, err
}

// normalizeType maps a dialect's type name to a common spelling and family.
func normalizeType(raw string) (string, TypeFamily) {
	t := strings.ToLower(strings.TrimSpace(raw))
	base := t
	if i := strings.IndexByte(base, '('); i >= 0 {
		base = strings.TrimSpace(base[:i])
	}
	switch base {
	case "smallint", "int2":
		return "smallint", FamilyInteger
	case "integer", "int", "int4":
		return "integer", FamilyInteger
	case "bigint", "int8":
		return "bigint", FamilyInteger
	case "numeric", "decimal":
		return "numeric", FamilyNumeric
	case "text", "character varying", "varchar", "character", "char", "clob":
		return "text", FamilyText
	case "date":
		return "date", FamilyDate
	case "timestamp", "timestamptz", "datetime", "timestamp with time zone", "timestamp without time zone":
		return "timestamp", FamilyTimestamp
	case "blob", "bytea":
		return "blob", FamilyBlob
	}
	return t, FamilyOther
}

func queryStrings(ctx context.Context, q Querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	var out []string
	err = scanAll(rows, func() error {
		var s string
		if err := rows.Scan(&s); err != nil {
			return err
		}
		out = append(out, s)
		return nil
	})
	return out, err
}

// scanAll calls scan for every row and closes rows.
func scanAll(rows *sql.Rows, scan func() error) error {
	defer rows.Close()
	for rows.Next() {
		if err := scan(); err != nil {
			return err
		}
	}
	return rows.Err()
}
