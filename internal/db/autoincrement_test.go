package db

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestKeysAreNeverReused: on a fresh database and on one made before keys
// had AUTOINCREMENT (every table rebuilt by ensureAutoincrement), the key
// of a deleted newest row is never handed out again; the rebuilt database
// keeps its rows, references, indexes and triggers, passes SQLite's
// integrity and foreign key checks, and has the fresh database's schema.
func TestKeysAreNeverReused(t *testing.T) {
	ctx := context.Background()
	fresh := openSQLiteForTest(t)
	if _, err := fresh.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	t.Run("fresh", func(t *testing.T) { checkNoReuse(t, fresh) })

	old := openSQLiteForTest(t)
	migrateWithPlainKeys(t, old)
	conn, err := old.pool.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := keyTables(ctx, conn)
	conn.Close()
	if err != nil || len(plain) < 50 {
		t.Fatalf("the old-style database has %d tables without AUTOINCREMENT (%v)", len(plain), err)
	}
	mustExec(t, old, `INSERT INTO customergroup (customergroup_id, customergroup_name) VALUES (1, 'A'), (2, 'B'), (3, 'C')`)
	mustExec(t, old, `INSERT INTO company (company_id, customergroup_id, company_name, company_shortname) VALUES (7, 2, 'B GmbH', 'BG')`)
	mustExec(t, old, `DELETE FROM customergroup WHERE customergroup_id = 3`)
	// The engine's history of group 3, which outlives the row.
	mustExec(t, old, `INSERT INTO trackrecord (trackrecord_timestamp, trackrecord_type, trackrecord_category, trackrecord_row_id)
		VALUES (CURRENT_TIMESTAMP, 'delete', 'customergroup', 3)`)

	if _, err := old.Migrate(ctx); err != nil { // runs ensureAutoincrement
		t.Fatal(err)
	}
	t.Run("rebuilt", func(t *testing.T) {
		conn, err := old.pool.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		left, err := keyTables(ctx, conn)
		conn.Close()
		if err != nil || len(left) != 0 {
			t.Fatalf("tables still without AUTOINCREMENT: %v %v", left, err)
		}
		if got := scalar(t, old, `SELECT company_name FROM company c JOIN customergroup g ON g.customergroup_id = c.customergroup_id WHERE c.company_id = 7`); got != "B GmbH" {
			t.Fatalf("the company and its reference did not survive: %q", got)
		}
		mustExec(t, old, `INSERT INTO customergroup (customergroup_name) VALUES ('D')`)
		if got := scalar(t, old, `SELECT MAX(customergroup_id) FROM customergroup`); got != "4" {
			t.Fatalf("a key deleted before the rebuild came back: the new customer group got %s", got)
		}
		if got := scalar(t, old, `PRAGMA integrity_check`); got != "ok" {
			t.Fatalf("integrity: %s", got)
		}
		if got := scalar(t, old, `SELECT COUNT(*) FROM pragma_foreign_key_check`); got != "0" {
			t.Fatalf("%s rows break a foreign key", got)
		}
		if a, b := schemaOf(t, fresh), schemaOf(t, old); a != b {
			t.Fatalf("the rebuilt schema differs from a fresh one:\nfresh:   %.400s\nrebuilt: %.400s", a, b)
		}
		// A foreign key still acts: deleting a referenced group is refused.
		if _, err := old.ExecContext(ctx, `DELETE FROM customergroup WHERE customergroup_id = 2`); err == nil {
			t.Fatal("foreign keys are off after the rebuild")
		}
		checkNoReuse(t, old)
	})
}

func openSQLiteForTest(t *testing.T) *DB {
	t.Helper()
	d, err := Open(context.Background(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// migrateWithPlainKeys applies our migrations as they were before keys had
// AUTOINCREMENT, recording them as applied.
func migrateWithPlainKeys(t *testing.T, d *DB) {
	t.Helper()
	ctx := context.Background()
	migs, err := Migrations()
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, d, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP)`)
	for _, m := range migs {
		script := strings.ReplaceAll(ExpandSQL(SQLite, m.SQL), "INTEGER PRIMARY KEY AUTOINCREMENT", "INTEGER PRIMARY KEY")
		for _, stmt := range SplitStatements(script) {
			if _, err := d.ExecContext(ctx, stmt); err != nil {
				t.Fatalf("%04d: %v\n%s", m.Version, err, stmt)
			}
		}
		mustExec(t, d, fmt.Sprintf(`INSERT INTO schema_migrations (version, name) VALUES (%d, '%s')`, m.Version, m.Name))
	}
}

// checkNoReuse deletes the newest document type and inserts another: it
// must get a new key.
func checkNoReuse(t *testing.T, d *DB) {
	t.Helper()
	mustExec(t, d, `INSERT INTO documenttype (documenttype_name, documenttype_short) VALUES ('X', 'X')`)
	first := scalar(t, d, `SELECT MAX(documenttype_id) FROM documenttype`)
	mustExec(t, d, `DELETE FROM documenttype WHERE documenttype_id = `+first)
	mustExec(t, d, `INSERT INTO documenttype (documenttype_name, documenttype_short) VALUES ('Y', 'Y')`)
	if again := scalar(t, d, `SELECT MAX(documenttype_id) FROM documenttype`); again == first {
		t.Fatalf("the key %s of a deleted row was handed out again", first)
	}
}

// schemaOf lists the schema's objects (type, name, table) in order.
func schemaOf(t *testing.T, d *DB) string {
	t.Helper()
	rows, err := d.QueryContext(context.Background(), `SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var typ, name, tbl string
		if err := rows.Scan(&typ, &name, &tbl); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s %s\n", typ, name, tbl)
	}
	return b.String()
}

func mustExec(t *testing.T, d *DB, q string) {
	t.Helper()
	if _, err := d.ExecContext(context.Background(), q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func scalar(t *testing.T, d *DB, q string) string {
	t.Helper()
	var v any
	if err := d.QueryRowContext(context.Background(), q).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	return fmt.Sprint(v)
}
