package db_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

func TestRebind(t *testing.T) {
	cases := []struct{ in, want string }{
		{"SELECT 1", "SELECT 1"},
		{"a = ? AND b = ?", "a = $1 AND b = $2"},
		{"a = '?' AND b = ?", "a = '?' AND b = $1"},
		{`"we?ird" = ?`, `"we?ird" = $1`},
	}
	for _, c := range cases {
		if got := db.Rebind(db.Postgres, c.in); got != c.want {
			t.Errorf("Rebind(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := db.Rebind(db.SQLite, c.in); got != c.in {
			t.Errorf("sqlite Rebind changed %q", c.in)
		}
	}
}

func TestSplitStatements(t *testing.T) {
	got := db.SplitStatements("CREATE TABLE a (x TEXT DEFAULT ';'); -- c;\nINSERT INTO a VALUES ('x;y');\n")
	if len(got) != 2 || got[1] != "INSERT INTO a VALUES ('x;y')" {
		t.Fatalf("got %q", got)
	}
	trigger := "CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE b SET n = n + 1; UPDATE c SET n = 0; END;\nSELECT 1;"
	if got := db.SplitStatements(trigger); len(got) != 2 || got[1] != "SELECT 1" {
		t.Fatalf("trigger: got %q", got)
	}
	function := "CREATE FUNCTION f() RETURNS trigger AS $$ BEGIN UPDATE b SET n = ';'; RETURN NULL; END; $$ LANGUAGE plpgsql;\nSELECT 2;"
	if got := db.SplitStatements(function); len(got) != 2 || got[1] != "SELECT 2" || !strings.HasSuffix(got[0], "plpgsql") {
		t.Fatalf("function: got %q", got)
	}
}

func TestMigrateIsIdempotentAndTransactional(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		applied, err := d.Migrate(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(applied) != 0 {
			t.Fatalf("second migrate applied %v", applied)
		}
		n, err := d.PendingMigrations(ctx)
		if err != nil || n != 0 {
			t.Fatalf("pending = %d, %v", n, err)
		}
		// A failing transaction leaves nothing behind.
		err = d.InTx(ctx, func(tx *db.Tx) error {
			if _, err := tx.ExecContext(ctx, "INSERT INTO usertype (usertype_name) VALUES (?)", "temp"); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, "INSERT INTO usertype (usertype_name) VALUES (?)", "temp")
			return err
		})
		if !db.IsUniqueViolation(err) {
			t.Fatalf("want unique violation, got %v", err)
		}
		var count int
		if err := d.QueryRowContext(ctx, "SELECT COUNT(*) FROM usertype WHERE usertype_name = ?", "temp").Scan(&count); err != nil {
			t.Fatal(err)
		}
		if count != 0 {
			t.Fatalf("rolled-back row survived")
		}
	})
}

// After a bulk load Optimize(full) refreshes the statistics; on PostgreSQL
// it also vacuums (emptying the trigram indexes' pending lists), which
// must run outside a transaction block. The text index merge that runs
// with it (the scale seed, the nightly jobs) succeeds on both databases.
func TestOptimizeAfterBulkLoad(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if err := d.MergeTextIndexes(ctx); err != nil {
			t.Fatalf("MergeTextIndexes: %v", err)
		}
		for _, full := range []bool{false, true} {
			if err := d.Optimize(ctx, full); err != nil {
				t.Fatalf("Optimize(%v): %v", full, err)
			}
		}
		if d.Dialect() != db.Postgres {
			return
		}
		var vacuumed bool
		if err := d.QueryRowContext(ctx, "SELECT last_vacuum IS NOT NULL FROM pg_stat_user_tables WHERE relname = 'pos'").Scan(&vacuumed); err != nil {
			t.Fatal(err)
		}
		if !vacuumed {
			t.Error("Optimize(full) did not vacuum pos")
		}
	})
}

func TestInlineInts(t *testing.T) {
	q := `SELECT a FROM t WHERE b = ? AND c LIKE ? ESCAPE '\' AND d = '?' AND "e?" > ? ORDER BY a LIMIT ? OFFSET ?`
	sql, args := db.InlineInts(q, []any{int64(7), "%x%", -3, 51, int64(0)})
	want := `SELECT a FROM t WHERE b = (7) AND c LIKE ? ESCAPE '\' AND d = '?' AND "e?" > (-3) ORDER BY a LIMIT (51) OFFSET (0)`
	if sql != want || len(args) != 1 || args[0] != "%x%" {
		t.Errorf("got %s %v", sql, args)
	}
	// Placeholders and arguments that disagree are left to the driver.
	if sql, args := db.InlineInts("SELECT ?", []any{1, 2}); sql != "SELECT ?" || len(args) != 2 {
		t.Errorf("mismatch changed: %s %v", sql, args)
	}
}

// A statement a transaction missed is prepared in the background; closing
// the database waits for that work, so nothing opens a connection (and
// with it SQLite's -wal and -shm files) after Close returned.
func TestCloseWaitsForBackgroundPreparing(t *testing.T) {
	ctx := context.Background()
	for round := 0; round < 5; round++ {
		dir := t.TempDir()
		d, err := db.Open(ctx, "", dir)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 16; i++ {
			err := d.InTx(ctx, func(tx *db.Tx) error {
				_, err := tx.ExecContext(ctx, fmt.Sprintf("SELECT %d", i))
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		before := dirNames(t, dir)
		time.Sleep(50 * time.Millisecond)
		if after := dirNames(t, dir); after != before {
			t.Fatalf("round %d: files changed after Close: %q, then %q", round, before, after)
		}
	}
}

func dirNames(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return strings.Join(names, ",")
}

// Optimize keeps no STAT4 samples of FTS5 term indexes (with them SQLite
// re-plans FTS5's term lookup on every keyword query) and keeps those of
// ordinary indexes.
func TestOptimizeDropsTextIndexSamples(t *testing.T) {
	ctx := context.Background()
	d, err := db.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, stmt := range []string{
		`CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT)`,
		`CREATE INDEX note_body ON note (body)`,
		`CREATE VIRTUAL TABLE note_search USING fts5(body, tokenize = 'trigram')`,
	} {
		if _, err := d.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 3000; i++ {
		body := fmt.Sprintf("note %d about store %d in city %d", i, i%97, i%13)
		if _, err := d.ExecContext(ctx, `INSERT INTO note (id, body) VALUES (?, ?)`, i+1, body); err != nil {
			t.Fatal(err)
		}
		if _, err := d.ExecContext(ctx, `INSERT INTO note_search (rowid, body) VALUES (?, ?)`, i+1, body); err != nil {
			t.Fatal(err)
		}
	}
	samples := func(table string) int {
		var n int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_stat4 WHERE tbl = ?`, table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// Plain ANALYZE samples both: the case Optimize repairs.
	if _, err := d.ExecContext(ctx, "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	if samples("note_search_idx") == 0 || samples("note") == 0 {
		t.Fatalf("ANALYZE took no samples (idx %d, note %d): the test proves nothing", samples("note_search_idx"), samples("note"))
	}
	for _, full := range []bool{true, false} {
		if err := d.Optimize(ctx, full); err != nil {
			t.Fatal(err)
		}
		if n := samples("note_search_idx"); n != 0 {
			t.Errorf("Optimize(%v) kept %d samples of the FTS5 term index", full, n)
		}
		if samples("note") == 0 {
			t.Errorf("Optimize(%v) dropped the samples of an ordinary index", full)
		}
	}
	var hits int
	if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM note_search WHERE note_search MATCH ?`, `"city 7"`).Scan(&hits); err != nil || hits == 0 {
		t.Fatalf("the text index answers nothing after Optimize: %d, %v", hits, err)
	}
}

// Every connection of the PostgreSQL pool plans its statements once
// (plan_cache_mode, decision 0041) and without Memoize nodes (decision
// 0050); the values that steer a plan are literals in the text
// (InlineInts).
func TestPostgresPlansGenerically(t *testing.T) {
	d := testkit.NewPostgres(t) // SQLite's counterpart: TestSQLiteConnectionsPlanStably
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		c, err := d.Pool().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var mode string
		if err := c.QueryRowContext(ctx, "SHOW plan_cache_mode").Scan(&mode); err != nil {
			t.Fatal(err)
		}
		if mode != "force_generic_plan" {
			t.Errorf("connection %d: plan_cache_mode %q", i, mode)
		}
		var memoize string
		if err := c.QueryRowContext(ctx, "SHOW enable_memoize").Scan(&memoize); err != nil {
			t.Fatal(err)
		}
		if memoize != "off" {
			t.Errorf("connection %d: enable_memoize %q", i, memoize)
		}
	}
}

// MergeTextIndexes merges every segment of an FTS5 index into one, in
// steps that each commit (so writers wait for a step, not for the whole
// merge), and the index answers as before.
func TestMergeTextIndexes(t *testing.T) {
	ctx := context.Background()
	d, err := db.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, stmt := range []string{
		`CREATE VIRTUAL TABLE note_search USING fts5(body, tokenize = 'trigram')`,
		// FTS5 would merge a level of 4 segments by itself; here every
		// transaction's segment stays until merged.
		`INSERT INTO note_search (note_search, rank) VALUES ('automerge', 0)`,
	} {
		if _, err := d.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	const notes = 3000
	for i := 0; i < notes; i += 50 {
		err := d.InTx(ctx, func(tx *db.Tx) error {
			for j := i; j < i+50; j++ {
				body := fmt.Sprintf("note %05d about store %d in city %d", j, j%97, j%13)
				if _, err := tx.ExecContext(ctx, `INSERT INTO note_search (rowid, body) VALUES (?, ?)`, j+1, body); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.ExecContext(ctx, `DELETE FROM note_search WHERE rowid <= 100`); err != nil {
		t.Fatal(err)
	}
	segments := func() int {
		var n int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(DISTINCT segid) FROM note_search_idx`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	matches := func(keyword string) []int64 {
		rows, err := d.QueryContext(ctx, `SELECT rowid FROM note_search WHERE note_search MATCH ? ORDER BY rowid`, `"`+keyword+`"`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var ids []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		return ids
	}
	keywords := []string{"store 42 ", "city 7", "note 01500", "02999"}
	before := map[string][]int64{}
	for _, k := range keywords {
		before[k] = matches(k)
	}
	if n := segments(); n < 10 {
		t.Fatalf("%d segments before merging: the test proves nothing", n)
	}
	if err := d.MergeTextIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	if n := segments(); n != 1 {
		t.Errorf("%d segments after merging, want 1", n)
	}
	for _, k := range keywords {
		if got := matches(k); fmt.Sprint(got) != fmt.Sprint(before[k]) {
			t.Errorf("%q matched %v after merging, %v before", k, got, before[k])
		}
	}
	if len(before["note 01500"]) != 1 || len(before["store 42 "]) == 0 || len(before["02999"]) != 1 {
		t.Errorf("keywords matched %v: the comparison proves nothing", before)
	}
	if err := d.MergeTextIndexes(ctx); err != nil {
		t.Fatalf("merging a merged index: %v", err)
	}
	if n := segments(); n != 1 {
		t.Errorf("%d segments after merging again, want 1", n)
	}
}
