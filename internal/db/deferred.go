package db

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
)

// Work deferred to the commit (SQLite only; decision 0047).
//
// Why: SQLite's FTS5 tables keep the rows written in a transaction in
// memory and write them out at the next statement that opens a statement
// journal, which every insert or update with a trigger or constraint does.
// A generic create wrote its keyword-index rows as a tiny index segment,
// and every member of a group commit wrote its own, all of it holding the
// single writer. Deferred, a trigger notes what is to be done and names,
// in the table atCommitTable, a view whose INSTEAD OF DELETE trigger does
// it; right before the COMMIT, still in the transaction, DELETE FROM each
// named view does the work of all the transaction's statements at once.
// The database keeps this bookkeeping itself (the migrations create the
// table, the views and the triggers), so every way of writing commits it:
// InTx, a data change by DB.ExecContext, and RunDeferred in a transaction
// of one's own.

// atCommitTable names the views to delete from before the commit.
const atCommitTable = "pf_at_commit"

// atCommit runs the work deferred to the commit.
type atCommit struct {
	// present is set once a migration created atCommitTable (migrations
	// only add it); until then each commit looks it up.
	present atomic.Bool
}

// RunDeferred does the work deferred to the commit in tx, a transaction
// the caller began on the pool itself (InTx does it on its own). A no-op
// on PostgreSQL.
func (d *DB) RunDeferred(ctx context.Context, tx *sql.Tx) error {
	if d.writer == nil {
		return nil
	}
	return d.writer.atCommit.run(ctx, &Tx{tx: tx, dialect: SQLite, stmts: d.stmts})
}

// run deletes from every view named in atCommitTable, then empties it.
func (a *atCommit) run(ctx context.Context, tx *Tx) error {
	if ok, err := a.ready(ctx, tx); err != nil || !ok {
		return err
	}
	rows, err := tx.QueryContext(ctx, "SELECT view_name FROM "+atCommitTable)
	if err != nil {
		return fmt.Errorf("db: work deferred to the commit: %w", err)
	}
	var views []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return fmt.Errorf("db: work deferred to the commit: %w", err)
		}
		views = append(views, v)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("db: work deferred to the commit: %w", err)
	}
	if len(views) == 0 {
		return nil
	}
	for _, v := range views {
		// Prepared once (tx's statement cache): compiling the view's
		// trigger costs more than running it.
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+QuoteIdent(v)); err != nil {
			return fmt.Errorf("db: work deferred to the commit (%s): %w", v, err)
		}
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM "+atCommitTable); err != nil {
		return fmt.Errorf("db: work deferred to the commit: %w", err)
	}
	return nil
}

// ready reports whether atCommitTable exists (as tx sees the schema).
func (a *atCommit) ready(ctx context.Context, tx *Tx) (bool, error) {
	if a.present.Load() {
		return true, nil
	}
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?", atCommitTable).Scan(&n); err != nil {
		return false, fmt.Errorf("db: look up %s: %w", atCommitTable, err)
	}
	if n == 0 {
		return false, nil
	}
	a.present.Store(true)
	return true, nil
}
