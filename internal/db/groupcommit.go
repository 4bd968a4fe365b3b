package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"
)

// writer runs SQLite's transactions one at a time and commits consecutive
// ones together (group commit, decision 0040).
//
// SQLite has a single writer. A BEGIN IMMEDIATE that finds it busy sleeps
// in SQLite's busy handler (1, 2, 5, 10 ms, ...) instead of starting when
// the writer commits, so concurrent creates spent most of their time
// asleep; queued on token, the next transaction starts at once. And a
// commit writes every page the transaction changed to the WAL: creates
// that follow each other change the same pages (the last leaf of each
// index, the keyword index, the history table), so committing them
// together writes each page once.
//
// Each caller (member) runs in its own SAVEPOINT of the shared
// transaction: when its function fails, ROLLBACK TO undoes its writes
// only, and it gets its own error at once. A member that succeeded waits
// for the COMMIT and gets its result: nil only when its writes are
// durable, the commit's error otherwise (then nothing of any member is
// written). The member holding the token leaves the transaction open for
// the next one when somebody waits and the group is below maxGroup;
// otherwise it commits.
type writer struct {
	token chan struct{} // held by the member running
	mu    sync.Mutex
	// waiting counts the callers waiting for the token; open is the
	// transaction a member left open for them (nil: none).
	waiting int
	open    *group
}

// group is one shared transaction.
type group struct {
	tx   *sql.Tx
	size int
	// discard is set when the group's first member failed: it ran
	// without a savepoint (a group of one is a plain transaction), so the
	// transaction is rolled back.
	discard bool
	done    chan struct{} // closed once committed or rolled back
	err     error         // the commit's error, set before done closes
}

// maxGroup caps the members of one transaction, so that a steady queue
// still commits (and answers) every few milliseconds.
const maxGroup = 32

// writerWait is how long a caller waits for the writer: SQLite's busy
// timeout (openSQLite), so a transaction that cannot start fails as it did
// before the queue instead of hanging.
const writerWait = 10 * time.Second

// savepoint names each member's savepoint; members never nest.
const savepoint = "pf_member"

func newWriter() *writer { return &writer{token: make(chan struct{}, 1)} }

// run runs fn as a member of a group transaction; see writer.
func (w *writer) run(ctx context.Context, pool *sql.DB, stmts *stmtCache, fn func(tx *Tx) error) error {
	if err := w.acquire(ctx); err != nil {
		return err
	}
	g, err := w.join(ctx, pool)
	if err != nil {
		<-w.token
		return fmt.Errorf("db: begin: %w", err)
	}
	tx := &Tx{tx: g.tx, dialect: SQLite, stmts: stmts, shared: true}
	own, lost, panicked := member(ctx, g, tx, fn)
	w.handOn(g, lost)
	if panicked != nil {
		panic(panicked)
	}
	if lost != nil {
		return errors.Join(own, lost)
	}
	if own != nil {
		return own // as it is: callers compare it
	}
	<-g.done
	if g.err != nil {
		return g.err
	}
	for _, fn := range tx.committed {
		fn()
	}
	return nil
}

// acquire waits for the token (counted in waiting meanwhile), at most
// writerWait.
func (w *writer) acquire(ctx context.Context) error {
	w.mu.Lock()
	w.waiting++
	w.mu.Unlock()
	select {
	case w.token <- struct{}{}:
		w.arrived()
		return nil
	default:
	}
	t := time.NewTimer(writerWait)
	defer t.Stop()
	select {
	case w.token <- struct{}{}:
		w.arrived()
		return nil
	case <-ctx.Done():
		w.giveUp()
		return fmt.Errorf("db: wait for the writer: %w", ctx.Err())
	case <-t.C:
		w.giveUp()
		return fmt.Errorf("db: wait for the writer: busy for %s", writerWait)
	}
}

func (w *writer) arrived() {
	w.mu.Lock()
	w.waiting--
	w.mu.Unlock()
}

// giveUp stops waiting. A transaction left open for the waiters must not
// stay open when the last of them leaves: if nobody holds the token, the
// caller giving up commits it.
func (w *writer) giveUp() {
	w.mu.Lock()
	w.waiting--
	var g *group
	if w.waiting == 0 && w.open != nil {
		select {
		case w.token <- struct{}{}:
			g, w.open = w.open, nil
		default: // a member runs; it sees waiting == 0 when it ends
		}
	}
	w.mu.Unlock()
	if g != nil {
		g.finish(nil)
		<-w.token
	}
}

// join returns the open transaction (the token is held) or begins one.
// The transaction ignores the caller's cancellation: other members will
// share it.
func (w *writer) join(ctx context.Context, pool *sql.DB) (*group, error) {
	w.mu.Lock()
	g := w.open
	w.mu.Unlock()
	if g == nil {
		tx, err := pool.BeginTx(context.WithoutCancel(ctx), nil)
		if err != nil {
			return nil, err
		}
		g = &group{tx: tx, done: make(chan struct{})}
	}
	g.size++
	return g, nil
}

// handOn ends a member's turn (the token is held): it leaves the
// transaction open for a waiting caller, unless the group is full or lost
// says the transaction is gone; otherwise it commits it (a failed member's
// savepoint is undone: the others' writes commit), or rolls it back when
// lost.
func (w *writer) handOn(g *group, lost error) {
	w.mu.Lock()
	if lost == nil && !g.discard && w.waiting > 0 && g.size < maxGroup {
		w.open = g
		<-w.token
		w.mu.Unlock()
		return
	}
	w.open = nil
	w.mu.Unlock()
	if lost == nil && g.discard {
		lost = errors.New("db: transaction rolled back") // nobody else is in it
	}
	g.finish(lost)
	<-w.token
}

// finish commits the group, or rolls it back when lost is set (a member's
// failure took the transaction with it), and wakes its members.
func (g *group) finish(lost error) {
	if lost != nil {
		if err := g.tx.Rollback(); err != nil && !errors.Is(err, sql.ErrTxDone) {
			lost = errors.Join(lost, fmt.Errorf("db: rollback: %w", err))
		}
		g.err = lost
	} else if err := g.tx.Commit(); err != nil {
		g.err = fmt.Errorf("db: commit: %w", err)
	}
	close(g.done)
}

// member runs fn in a savepoint of the group's transaction: released
// when fn returns nil, rolled back to otherwise. own is fn's error (or the
// release's), lost says the shared transaction did not survive (SQLite
// rolls back the whole transaction on some errors: then the savepoint is
// gone too), panicked is a recovered panic of fn, its writes undone. The
// first member runs without a savepoint (a group of one costs what a
// plain transaction does, and SQLite's keyword indexes flush their
// pending rows at every savepoint): when it fails, the group is discarded.
func member(ctx context.Context, g *group, tx *Tx, fn func(tx *Tx) error) (own, lost error, panicked any) {
	bg := context.WithoutCancel(ctx)
	first := g.size == 1
	if !first {
		if _, err := g.tx.ExecContext(bg, "SAVEPOINT "+savepoint); err != nil {
			return nil, fmt.Errorf("db: savepoint: %w", err), nil
		}
	}
	func() {
		defer func() { panicked = recover() }()
		own = fn(tx)
	}()
	switch {
	case first:
		g.discard = own != nil || panicked != nil
		return own, nil, panicked
	case own == nil && panicked == nil:
		if _, err := g.tx.ExecContext(bg, "RELEASE "+savepoint); err != nil {
			return nil, fmt.Errorf("db: release savepoint: %w", err), nil
		}
		return nil, nil, nil
	}
	if _, err := g.tx.ExecContext(bg, "ROLLBACK TO "+savepoint); err != nil {
		return own, fmt.Errorf("db: rollback to savepoint: %w", err), panicked
	}
	if _, err := g.tx.ExecContext(bg, "RELEASE "+savepoint); err != nil {
		return own, fmt.Errorf("db: release savepoint: %w", err), panicked
	}
	return own, nil, panicked
}
