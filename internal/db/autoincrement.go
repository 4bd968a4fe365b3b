package db

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"strings"
)

// plainKey finds a SQLite key column declared without AUTOINCREMENT.
// SQLite gives such a table's next row the largest key plus one, so the
// key of a deleted newest row comes back: an old link or bookmark to a
// deleted document would open the next upload. With AUTOINCREMENT a key
// is never handed out twice ({{PK}} says so for new tables).
var plainKey = regexp.MustCompile(`(?i)\bINTEGER PRIMARY KEY\b(\s+AUTOINCREMENT)?`)

// keyTables are our tables whose key still lacks AUTOINCREMENT (made
// before migrations said so); the job queue's own tables are River's.
func keyTables(ctx context.Context, conn *sql.Conn) ([]string, error) {
	// pragma_table_list tells ordinary tables from the search index's
	// shadow tables, which belong to SQLite's full-text module.
	rows, err := conn.QueryContext(ctx, `SELECT m.name, m.sql FROM sqlite_master m
		JOIN pragma_table_list l ON l.name = m.name AND l.schema = 'main' AND l.type = 'table'
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\_%' ESCAPE '\' AND m.name NOT LIKE 'river\_%' ESCAPE '\'
		AND m.sql IS NOT NULL ORDER BY m.name`)
	if err != nil {
		return nil, fmt.Errorf("db: list tables: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name, text string
		if err := rows.Scan(&name, &text); err != nil {
			return nil, fmt.Errorf("db: list tables: %w", err)
		}
		if m := plainKey.FindStringSubmatch(text); m != nil && m[1] == "" && !strings.Contains(strings.ToUpper(text), "VIRTUAL TABLE") {
			out = append(out, name)
		}
	}
	return out, rows.Err()
}

// ensureAutoincrement gives every table of ours whose key lacks
// AUTOINCREMENT one, keeping its rows, keys, indexes and triggers, by
// SQLite's documented way to change a table (create the new table, copy,
// drop, rename, recreate indexes and triggers) with foreign keys off, in
// one transaction that checks the foreign keys before it commits. A
// database made by today's migrations has nothing to change.
func (d *DB) ensureAutoincrement(ctx context.Context) error {
	conn, err := d.pool.Conn(ctx)
	if err != nil {
		return fmt.Errorf("db: autoincrement: %w", err)
	}
	defer conn.Close()
	tables, err := keyTables(ctx, conn)
	if err != nil || len(tables) == 0 {
		return err
	}
	// Outside a transaction only: foreign keys off, so dropping a parent
	// table neither cascades nor fails; the rename leaves other tables'
	// references as they are.
	for _, p := range []string{"PRAGMA foreign_keys = OFF", "PRAGMA legacy_alter_table = ON"} {
		if _, err := conn.ExecContext(ctx, p); err != nil {
			return fmt.Errorf("db: autoincrement: %s: %w", p, err)
		}
	}
	defer func() {
		ctx := context.WithoutCancel(ctx)
		conn.ExecContext(ctx, "PRAGMA legacy_alter_table = OFF") //nolint:errcheck // the connection is closed next
		conn.ExecContext(ctx, "PRAGMA foreign_keys = ON")        //nolint:errcheck // the connection is closed next
	}()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("db: autoincrement: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // after Commit a no-op
	for _, t := range tables {
		if err := rebuildWithAutoincrement(ctx, tx, t); err != nil {
			return err
		}
	}
	var bad int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_foreign_key_check`).Scan(&bad); err != nil {
		return fmt.Errorf("db: autoincrement: foreign key check: %w", err)
	}
	if bad > 0 {
		return fmt.Errorf("db: autoincrement: %d rows break a foreign key after the rebuild; nothing changed", bad)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("db: autoincrement: %w", err)
	}
	return nil
}

// rebuildWithAutoincrement rebuilds table t with AUTOINCREMENT on its key.
func rebuildWithAutoincrement(ctx context.Context, tx *sql.Tx, t string) error {
	var create string
	if err := tx.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, t).Scan(&create); err != nil {
		return fmt.Errorf("db: autoincrement %s: %w", t, err)
	}
	attached, err := attachedSQL(ctx, tx, t)
	if err != nil {
		return err
	}
	tmp := t + "__autoincrement"
	head := regexp.MustCompile(`(?is)^\s*CREATE\s+TABLE\s+(IF\s+NOT\s+EXISTS\s+)?("?` + regexp.QuoteMeta(t) + `"?)`)
	if !head.MatchString(create) {
		return fmt.Errorf("db: autoincrement %s: unexpected definition %q", t, create)
	}
	done := false
	newSQL := plainKey.ReplaceAllStringFunc(head.ReplaceAllString(create, `CREATE TABLE "`+tmp+`"`), func(m string) string {
		if done {
			return m
		}
		done = true
		return "INTEGER PRIMARY KEY AUTOINCREMENT"
	})
	for _, stmt := range []string{
		newSQL,
		`INSERT INTO "` + tmp + `" SELECT * FROM "` + t + `"`,
		`DROP TABLE "` + t + `"`,
		`ALTER TABLE "` + tmp + `" RENAME TO "` + t + `"`,
	} {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("db: autoincrement %s: %w\n%s", t, err, stmt)
		}
	}
	for _, stmt := range attached {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("db: autoincrement %s: recreate: %w\n%s", t, err, stmt)
		}
	}
	return rememberUsedKeys(ctx, tx, t)
}

// rememberUsedKeys starts t's key sequence after the largest key it ever
// had: its rows' and, since a deleted row leaves its history behind, the
// largest key its track record names (the history's category is the
// entity, which is the table's name but for the users table).
func rememberUsedKeys(ctx context.Context, tx *sql.Tx, t string) error {
	var hasHistory int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'trackrecord'`).Scan(&hasHistory); err != nil {
		return fmt.Errorf("db: autoincrement %s: %w", t, err)
	}
	category := t
	if t == "users" {
		category = "user"
	}
	used := `SELECT COALESCE(MAX(rowid), 0) FROM "` + t + `"`
	if hasHistory == 1 {
		used = `SELECT MAX((` + used + `), (SELECT COALESCE(MAX(trackrecord_row_id), 0) FROM trackrecord WHERE trackrecord_category = ?))`
	}
	args := []any{}
	if hasHistory == 1 {
		args = append(args, category)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM sqlite_sequence WHERE name = ?`, t); err != nil {
		return fmt.Errorf("db: autoincrement %s: key sequence: %w", t, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO sqlite_sequence (name, seq) VALUES (?, (`+used+`))`, append([]any{t}, args...)...); err != nil {
		return fmt.Errorf("db: autoincrement %s: key sequence: %w", t, err)
	}
	return nil
}

// attachedSQL answers the statements that made t's own indexes and
// triggers (dropped with the table), indexes first.
func attachedSQL(ctx context.Context, tx *sql.Tx, t string) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger')
		AND sql IS NOT NULL ORDER BY CASE type WHEN 'index' THEN 0 ELSE 1 END, name`, t)
	if err != nil {
		return nil, fmt.Errorf("db: autoincrement %s: %w", t, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, fmt.Errorf("db: autoincrement %s: %w", t, err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
