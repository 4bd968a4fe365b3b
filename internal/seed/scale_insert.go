package seed

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"portfolio/internal/db"
)

// scaleBatch is the most rows one INSERT statement carries. The widest
// table (ticket, 18 columns) then binds 9,216 parameters, well below
// SQLite's 32,766 and PostgreSQL's 65,535.
const scaleBatch = 512

// inserter collects rows of one table and writes them with multi-row
// INSERT statements. Statements are prepared once per size on the pool;
// sizes are powers of two up to scaleBatch, so any number of rows is
// written with few executions and at most ten prepared statements.
type inserter struct {
	pool    *sql.DB
	dialect db.Dialect
	table   string
	columns []string
	args    []any
	stmts   map[int]*sql.Stmt
}

func newInserter(d *db.DB, table string, columns ...string) *inserter {
	return &inserter{pool: d.Pool(), dialect: d.Dialect(), table: table, columns: columns, stmts: map[int]*sql.Stmt{}}
}

// add buffers one row; values are in column order.
func (in *inserter) add(values ...any) {
	if len(values) != len(in.columns) {
		panic(fmt.Sprintf("seed: %s row has %d values for %d columns", in.table, len(values), len(in.columns)))
	}
	in.args = append(in.args, values...)
}

// pending is the number of buffered rows.
func (in *inserter) pending() int { return len(in.args) / len(in.columns) }

// flush writes the buffered rows inside tx and empties the buffer.
func (in *inserter) flush(ctx context.Context, tx *sql.Tx) error {
	width := len(in.columns)
	for rest := in.args; len(rest) > 0; {
		rows := len(rest) / width
		size := scaleBatch
		for size > rows {
			size /= 2
		}
		stmt, err := in.stmt(ctx, size)
		if err != nil {
			return err
		}
		if _, err := tx.StmtContext(ctx, stmt).ExecContext(ctx, rest[:size*width]...); err != nil {
			return fmt.Errorf("seed: insert %d rows into %s: %w", size, in.table, err)
		}
		rest = rest[size*width:]
	}
	clear(in.args)
	in.args = in.args[:0]
	return nil
}

// stmt returns the prepared statement inserting size rows.
func (in *inserter) stmt(ctx context.Context, size int) (*sql.Stmt, error) {
	if s, ok := in.stmts[size]; ok {
		return s, nil
	}
	var b strings.Builder
	b.WriteString("INSERT INTO ")
	b.WriteString(db.QuoteIdent(in.table))
	b.WriteString(" (")
	for i, c := range in.columns {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(db.QuoteIdent(c))
	}
	b.WriteString(") VALUES ")
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(in.columns)), ", ") + ")"
	for i := range size {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row)
	}
	s, err := in.pool.PrepareContext(ctx, db.Rebind(in.dialect, b.String()))
	if err != nil {
		return nil, fmt.Errorf("seed: prepare insert into %s: %w", in.table, err)
	}
	in.stmts[size] = s
	return s, nil
}

// close releases the prepared statements.
func (in *inserter) close() {
	for _, s := range in.stmts {
		_ = s.Close()
	}
	in.stmts = map[int]*sql.Stmt{}
}

// inTx runs fn in a transaction of the pool (the inserters need *sql.Tx for
// their prepared statements, which db.Tx does not expose), on SQLite with
// the seed's page cache, and does the work fn's writes deferred to the
// commit (the keyword index) before it commits.
func inTx(ctx context.Context, d *db.DB, fn func(tx *sql.Tx) error) error {
	tx, err := d.Pool().BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("seed: begin: %w", err)
	}
	if d.Dialect() == db.SQLite {
		if _, err := tx.ExecContext(ctx, "PRAGMA cache_size = -"+strconv.Itoa(seedCacheKiB)); err != nil {
			_ = tx.Rollback()
			return fmt.Errorf("seed: page cache: %w", err)
		}
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := d.RunDeferred(ctx, tx); err != nil {
		_ = tx.Rollback()
		return fmt.Errorf("seed: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("seed: commit: %w", err)
	}
	return nil
}

// seedCacheKiB is the SQLite page cache of a connection that generates
// data: with the server's 32 MB the inserts into some twenty indexes of a
// file of several gigabytes read each index page again from the operating
// system (seed --scale 1000000 read 700 GB in half an hour and slowed from
// 25,000 to 4,000 rows per second). PostgreSQL's buffers are the server's.
const seedCacheKiB = 1 << 20
