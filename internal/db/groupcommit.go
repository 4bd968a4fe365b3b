package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"portfolio/internal/turn"
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
	// stmts are the pool's prepared statements; atCommit does the work
	// the members deferred to the commit (deferred.go).
	stmts    *stmtCache
	atCommit atCommit
	// busy, members and groups are the writer's statistics (WriterStats).
	busy            atomic.Int64 // nanoseconds the token was held
	members, groups atomic.Int64
}

// WriterStats are what SQLite's writer did since the database was opened:
// its busy time bounds the write rate (one writer), and members per group
// say how much grouping saves.
type WriterStats struct {
	// Busy is the time a transaction held the writer: running its
	// function, and the commit.
	Busy time.Duration
	// Members are the transactions run (InTx calls), Groups the shared
	// transactions they formed (committed or rolled back).
	Members, Groups int64
}

// WriterStats answers the writer's statistics; zero on PostgreSQL, which
// has no single writer.
func (d *DB) WriterStats() WriterStats {
	if d.writer == nil {
		return WriterStats{}
	}
	w := d.writer
	return WriterStats{Busy: time.Duration(w.busy.Load()), Members: w.members.Load(), Groups: w.groups.Load()}
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

func newWriter(stmts *stmtCache) *writer {
	return &writer{token: make(chan struct{}, 1), stmts: stmts}
}

// run runs fn as a member of a group transaction; see writer.
func (w *writer) run(ctx context.Context, pool *sql.DB, fn func(tx *Tx) error) error {
	idle := &idleTurn{ctx: ctx}
	defer idle.retake()
	if err := w.acquire(ctx, idle); err != nil {
		return err
	}
	start := time.Now()
	g, err := w.join(ctx, pool)
	if err != nil {
		<-w.token
		return fmt.Errorf("db: begin: %w", err)
	}
	tx := &Tx{tx: g.tx, dialect: SQLite, stmts: w.stmts, shared: true}
	own, lost, panicked := member(ctx, g, tx, fn)
	w.handOn(g, lost)
	w.busy.Add(int64(time.Since(start)))
	w.members.Add(1)
	if panicked != nil {
		panic(panicked)
	}
	if lost != nil {
		return errors.Join(own, lost)
	}
	if own != nil {
		return own // as it is: callers compare it
	}
	select {
	case <-g.done:
	default:
		idle.release()
		<-g.done
	}
	if g.err != nil {
		return g.err
	}
	for _, fn := range tx.committed {
		fn()
	}
	return nil
}

// idleTurn gives back the request's turn of the cores (package turn) while
// a member waits for the writer or for its group's commit, so the requests
// lined up behind it reach the writer too and join its group; the member
// holding the writer runs without one (it is what everybody waits for) and
// takes a turn again when it is done.
type idleTurn struct {
	ctx   context.Context
	again func() // set once the turn was given back
}

func (t *idleTurn) release() {
	if t.again == nil {
		t.again = turn.Release(t.ctx)
	}
}

func (t *idleTurn) retake() {
	if t.again != nil {
		t.again()
	}
}

// acquire waits for the token (counted in waiting meanwhile), at most
// writerWait, without a turn of the cores.
func (w *writer) acquire(ctx context.Context, idle *idleTurn) error {
	w.mu.Lock()
	w.waiting++
	w.mu.Unlock()
	select {
	case w.token <- struct{}{}:
		w.arrived()
		return nil
	default:
	}
	idle.release()
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
		g.finish(w, nil)
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
	g.finish(w, lost)
	w.groups.Add(1)
	<-w.token
}

// finish commits the group, after the work its members deferred to the
// commit (deferred.go), or rolls it back when lost is set (a member's failure
// took the transaction with it) or that work fails, and wakes its members.
func (g *group) finish(w *writer, lost error) {
	if lost == nil {
		lost = w.atCommit.run(context.Background(), &Tx{tx: g.tx, dialect: SQLite, stmts: w.stmts, shared: true})
	}
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
