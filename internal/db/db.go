// Package db opens the database (embedded SQLite by default, PostgreSQL in
// production), hides the few dialect differences behind one small API, runs
// transactions and applies the embedded, versioned migrations.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"modernc.org/sqlite"
)

// Dialect names the SQL flavour of a connection.
type Dialect string

// The supported dialects.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// DB is a connection pool with its dialect. Queries are written with "?"
// placeholders; DB rebinds them for PostgreSQL.
type DB struct {
	pool    *sql.DB
	dialect Dialect
	stmts   *stmtCache // SQLite only; nil on PostgreSQL
	pgURL   string     // PostgreSQL only: the URL the pool was opened with
	// pgx is the PostgreSQL connection pool under pool, which list pages
	// read through directly (QueryRows); nil on SQLite.
	pgx *pgxpool.Pool
	// writer queues SQLite's transactions and commits consecutive ones
	// together (group commit, decision 0040); nil on PostgreSQL.
	writer *writer
}

// Querier is what both DB and Tx offer, so stores can run inside or outside a
// transaction without caring which.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryRows(ctx context.Context, query string, args ...any) (Rows, error)
	Dialect() Dialect
}

// Open connects to url. An empty url or one starting with "sqlite:" or
// "file:" selects SQLite (default file portfolio.db in dataDir); "postgres://"
// or "postgresql://" selects PostgreSQL.
func Open(ctx context.Context, rawURL, dataDir string) (*DB, error) {
	var d *DB
	var err error
	switch {
	case strings.HasPrefix(rawURL, "postgres://"), strings.HasPrefix(rawURL, "postgresql://"):
		d, err = openPostgres(rawURL)
	default:
		d, err = openSQLite(rawURL, dataDir)
	}
	if err != nil {
		return nil, err
	}
	if err := d.pool.PingContext(ctx); err != nil {
		return nil, errors.Join(fmt.Errorf("db: ping %s: %w", d.dialect, err), d.Close())
	}
	return d, nil
}

// Why our PostgreSQL connections plan generically (decision 0041): with
// the default plan_cache_mode PostgreSQL plans a prepared statement for
// its parameter values on each of its first executions and keeps doing so
// whenever its generic plan looks dearer than those, so a page whose
// keyword or pattern is a parameter was planned on every request (a rare
// keyword page: 525 req/s; 1,120 planned once). The values that should
// steer a plan — the tenant, the page window, numeric filters — are
// literals in the statement text (InlineInts), so one plan per text is
// what we want, as SQLite's stability guarantee gives (sqlite_plans.go).
// The job queue's own pool (OpenPgxPool) keeps PostgreSQL's default.
const postgresPlanCacheMode = "force_generic_plan"

func openPostgres(rawURL string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		return nil, fmt.Errorf("db: parse postgres url: %w", err)
	}
	params := cfg.ConnConfig.RuntimeParams
	if _, set := params["plan_cache_mode"]; !set {
		params["plan_cache_mode"] = postgresPlanCacheMode
	}
	if _, set := params["enable_memoize"]; !set {
		params["enable_memoize"] = "off"
	}
	if !strings.Contains(rawURL, "pool_max_conns") {
		cfg.MaxConns = 32
	}
	cfg.MaxConnIdleTime = 5 * time.Minute
	// The pool connects lazily: Open's ping makes the first connection.
	pgxPool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		return nil, fmt.Errorf("db: open postgres pool: %w", err)
	}
	// database/sql borrows its connections from the pgx pool for each
	// statement or transaction, so list pages reading through pgx
	// (QueryRows) and everything else share one bound on connections.
	return &DB{pool: stdlib.OpenDBFromPool(pgxPool), pgx: pgxPool, dialect: Postgres, pgURL: rawURL}, nil
}

// OpenPgxPool opens a native pgx pool of at most maxConns connections on
// the same PostgreSQL database, for the libraries that speak pgx rather than
// database/sql (the job queue). It connects lazily; the caller closes it.
// On SQLite there is nothing to open and it fails.
func (d *DB) OpenPgxPool(ctx context.Context, maxConns int32) (*pgxpool.Pool, error) {
	if d.dialect != Postgres {
		return nil, fmt.Errorf("db: a pgx pool needs PostgreSQL, not %s", d.dialect)
	}
	cfg, err := pgxpool.ParseConfig(d.pgURL)
	if err != nil {
		return nil, fmt.Errorf("db: parse postgres url: %w", err)
	}
	cfg.MaxConns = maxConns
	cfg.MaxConnIdleTime = 5 * time.Minute
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("db: open pgx pool: %w", err)
	}
	return pool, nil
}

// SQLitePath returns the file a SQLite URL points at, or the default file in
// dataDir.
func SQLitePath(rawURL, dataDir string) string {
	p := strings.TrimPrefix(strings.TrimPrefix(rawURL, "sqlite://"), "sqlite:")
	p = strings.TrimPrefix(p, "file:")
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	if p == "" {
		p = filepath.Join(dataDir, "portfolio.db")
	}
	return p
}

func openSQLite(rawURL, dataDir string) (*DB, error) {
	if lookasideErr != nil {
		return nil, lookasideErr
	}
	path := SQLitePath(rawURL, dataDir)
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, fmt.Errorf("db: create data directory: %w", err)
		}
	}
	q := url.Values{}
	// temp_store(MEMORY) keeps statement journals in memory: a group
	// commit's members each undo their own writes through a savepoint,
	// whose journal otherwise spilled to a temporary file above 64 KiB and
	// made the single writer wait for those file writes (docs/performance.md,
	// "Generic creates, session 16"). Large sorts still spill to files:
	// SQLite's sorter writes its own temporary files whatever temp_store says.
	for _, p := range []string{"foreign_keys(1)", "journal_mode(WAL)", "busy_timeout(10000)", "synchronous(NORMAL)", "cache_size(-32000)", "temp_store(MEMORY)"} {
		q.Add("_pragma", p)
	}
	// Write transactions take the lock when they begin, so two writers never
	// deadlock upgrading a read lock; reads run outside transactions.
	q.Set("_txlock", "immediate")
	q.Set("_time_format", "sqlite")
	pool := sql.OpenDB(sqliteConnector{dsn: "file:" + path + "?" + q.Encode()})
	pool.SetMaxOpenConns(8)
	pool.SetMaxIdleConns(8)
	pool.SetConnMaxIdleTime(0)
	stmts := newStmtCache(pool)
	return &DB{pool: pool, dialect: SQLite, stmts: stmts, writer: newWriter(stmts)}, nil
}

// CachedStatements is the number of statements SQLite keeps prepared
// (0 on PostgreSQL, where pgx caches per connection): a statement text
// that carries a per-row value fills the cache and shows here.
func (d *DB) CachedStatements() int {
	if d.stmts == nil {
		return 0
	}
	return d.stmts.size()
}

// Dialect reports the SQL flavour.
func (d *DB) Dialect() Dialect { return d.dialect }

// Pool exposes the underlying pool for the rare caller that needs it (health
// checks, benchmarks).
func (d *DB) Pool() *sql.DB { return d.pool }

// ResetConnections closes every connection of the pool once nobody uses
// it, so the next statements connect afresh: for tests that replace the
// database under an open pool (testkit.Seeded).
func (d *DB) ResetConnections() {
	if d.pgx != nil {
		d.pgx.Reset()
		return
	}
	n := d.pool.Stats().MaxOpenConnections
	d.pool.SetMaxIdleConns(0)
	d.pool.SetMaxIdleConns(n)
}

// Close closes the pool.
func (d *DB) Close() error {
	if d.stmts != nil {
		d.stmts.close()
	}
	err := d.pool.Close()
	if d.pgx != nil {
		d.pgx.Close()
	}
	return err
}

// Ping checks that the database answers.
func (d *DB) Ping(ctx context.Context) error { return d.pool.PingContext(ctx) }

// ExecContext runs a statement written with "?" placeholders. On SQLite a
// data change (INSERT, UPDATE, DELETE, REPLACE) runs as a transaction of
// its own through the writer (InTx): outside it the statement would wait
// for the writer in SQLite's busy handler, and its commit would skip the
// work deferred to the commit (deferred.go).
func (d *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if d.writer != nil && changesData(query) {
		var res sql.Result
		err := d.InTx(ctx, func(tx *Tx) error {
			var err error
			res, err = tx.ExecContext(ctx, query, args...)
			return err
		})
		return res, err
	}
	return d.pool.ExecContext(ctx, Rebind(d.dialect, query), args...)
}

// changesData reports whether query starts with INSERT, UPDATE, DELETE or
// REPLACE.
func changesData(query string) bool {
	q := strings.TrimLeft(query, " \t\r\n")
	for _, kw := range []string{"INSERT", "UPDATE", "DELETE", "REPLACE"} {
		if len(q) > len(kw) && strings.EqualFold(q[:len(kw)], kw) {
			switch q[len(kw)] {
			case ' ', '\t', '\r', '\n':
				return true
			}
		}
	}
	return false
}

// QueryContext runs a query written with "?" placeholders.
func (d *DB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	query, args = bindLimits(d.dialect, query, args)
	if d.stmts != nil {
		if s, release, ok, err := d.stmts.stmt(ctx, query); ok {
			if err != nil {
				return nil, err
			}
			defer release()
			return s.QueryContext(ctx, args...)
		}
	}
	return d.pool.QueryContext(ctx, Rebind(d.dialect, query), args...)
}

// QueryRowContext runs a single-row query written with "?" placeholders.
func (d *DB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	query, args = bindLimits(d.dialect, query, args)
	if d.stmts != nil {
		// A failed prepare is reported by the row's Scan, as the pool does.
		if s, release, ok, err := d.stmts.stmt(ctx, query); ok && err == nil {
			defer release()
			return s.QueryRowContext(ctx, args...)
		}
	}
	return d.pool.QueryRowContext(ctx, Rebind(d.dialect, query), args...)
}

// Tx is a transaction with the same query API as DB.
type Tx struct {
	tx      *sql.Tx
	dialect Dialect
	// stmts are the pool's prepared statements (SQLite; nil on
	// PostgreSQL), used through the transaction's connection (stmt).
	stmts *stmtCache
	// committed run, in order, once the transaction has committed.
	committed []func()
	// shared marks a member of a group commit: its statements ignore the
	// cancellation of the caller's context, because SQLite answers an
	// interrupted write by rolling back the whole transaction, which the
	// other members share. A member runs for milliseconds.
	shared bool
}

// stmtCtx is the context a statement of the transaction runs with.
func (t *Tx) stmtCtx(ctx context.Context) context.Context {
	if t.shared {
		return context.WithoutCancel(ctx)
	}
	return ctx
}

// AfterCommit runs fn once the transaction has committed (never when it
// rolls back): what must only be told about written data, such as live
// events, waits for the COMMIT.
func (t *Tx) AfterCommit(fn func()) { t.committed = append(t.committed, fn) }

// Dialect reports the SQL flavour.
func (t *Tx) Dialect() Dialect { return t.dialect }

// stmt is the cached prepared statement of query bound to the
// transaction, or nil (not cached, or the prepare failed: the plain call
// reports it). database/sql keeps one prepared statement per pooled
// connection for it, so a write path that runs the same statements on
// every request (a generic create: reference checks, insert, history
// row) parses and plans each once per connection, not once per request
// (issue 19: the parser was a quarter of the create's CPU on SQLite).
func (t *Tx) stmt(ctx context.Context, query string) (*sql.Stmt, func()) {
	if t.stmts == nil {
		return nil, nil
	}
	s, release := t.stmts.forTx(query)
	if s == nil {
		return nil, nil
	}
	return t.tx.StmtContext(ctx, s), release
}

// ExecContext runs a statement inside the transaction.
func (t *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx = t.stmtCtx(ctx)
	if s, release := t.stmt(ctx, query); s != nil {
		defer release()
		return s.ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, Rebind(t.dialect, query), args...)
}

// PrepareContext prepares a statement for many executions inside the
// transaction (a bulk write: SQLite parses and plans each statement
// anew otherwise). The caller closes it before the transaction ends.
func (t *Tx) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	ctx = t.stmtCtx(ctx)
	s, err := t.tx.PrepareContext(ctx, Rebind(t.dialect, query))
	if err != nil {
		return nil, fmt.Errorf("db: prepare: %w", err)
	}
	return s, nil
}

// QueryContext runs a query inside the transaction.
func (t *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	ctx = t.stmtCtx(ctx)
	query, args = bindLimits(t.dialect, query, args)
	if s, release := t.stmt(ctx, query); s != nil {
		defer release()
		return s.QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, Rebind(t.dialect, query), args...)
}

// QueryRowContext runs a single-row query inside the transaction.
func (t *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	ctx = t.stmtCtx(ctx)
	query, args = bindLimits(t.dialect, query, args)
	if s, release := t.stmt(ctx, query); s != nil {
		defer release()
		return s.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, Rebind(t.dialect, query), args...)
}

// InTx runs fn in a transaction: committed when fn returns nil, rolled back
// otherwise (and on panic, which is re-raised), so no partial write survives
// a failed request.
//
// On SQLite, consecutive transactions of concurrent callers share one
// database transaction, each in its own savepoint (group commit, see
// writer): a caller's failure undoes its savepoint only, and InTx returns
// nil only once the shared transaction has committed.
func (d *DB) InTx(ctx context.Context, fn func(tx *Tx) error) (err error) {
	if d.writer != nil {
		return d.writer.run(ctx, d.pool, fn)
	}
	sqlTx, err := d.pool.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("db: begin: %w", err)
	}
	tx := &Tx{tx: sqlTx, dialect: d.dialect, stmts: d.stmts}
	defer func() {
		if p := recover(); p != nil {
			_ = sqlTx.Rollback()
			panic(p)
		}
	}()
	if err := fn(tx); err != nil {
		if rbErr := sqlTx.Rollback(); rbErr != nil && !errors.Is(rbErr, sql.ErrTxDone) {
			return errors.Join(err, fmt.Errorf("db: rollback: %w", rbErr))
		}
		return err
	}
	if err := sqlTx.Commit(); err != nil {
		return fmt.Errorf("db: commit: %w", err)
	}
	for _, fn := range tx.committed {
		fn()
	}
	return nil
}

// Rebind turns "?" placeholders into "$1", "$2", ... for PostgreSQL. Question
// marks inside single-quoted literals or double-quoted identifiers are kept.
func Rebind(d Dialect, query string) string {
	if d != Postgres || strings.IndexByte(query, '?') < 0 {
		return query
	}
	out, _ := replacePlaceholders(query, func(b *strings.Builder, n int) bool {
		b.WriteByte('$')
		b.WriteString(itoa(n + 1))
		return true
	})
	return out
}

// replacePlaceholders copies query, writing each "?" outside single-quoted
// literals and double-quoted identifiers through write (n counts them from
// 0); it stops replacing once write answers false (the rest is copied as
// is) and answers how many placeholders it saw.
func replacePlaceholders(query string, write func(b *strings.Builder, n int) bool) (string, int) {
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	replacing := true
	for {
		// Copied in runs up to the next placeholder or quote: a page's
		// statement is kilobytes long.
		i := strings.IndexAny(query, `?'"`)
		if i < 0 {
			b.WriteString(query)
			return b.String(), n
		}
		b.WriteString(query[:i])
		c := query[i]
		query = query[i+1:]
		switch {
		case c == '?' && replacing:
			replacing = write(&b, n)
			n++
		case c == '?':
			b.WriteByte(c)
		default: // a quoted literal or identifier, copied to its end
			end := strings.IndexByte(query, c)
			if end < 0 {
				end = len(query) - 1
			}
			b.WriteByte(c)
			b.WriteString(query[:end+1])
			query = query[end+1:]
		}
	}
}

// bindLimits (SQLite) writes the integer bound to each "LIMIT ?" into the
// statement. SQLite connections plan with the stability guarantee
// (sqlite_plans.go): the planner no longer reads bound values, and a page
// of 51 rows that it cannot tell from "all rows" is planned as a sort of
// the whole list instead of a walk of the sort index that stops after the
// page. Page sizes are few, so the statements stay few; OFFSET (which
// does not change the plan) stays a parameter. Other dialects and
// statements without "LIMIT ?" are returned unchanged.
func bindLimits(d Dialect, query string, args []any) (string, []any) {
	if d != SQLite || len(args) == 0 || !strings.Contains(query, "LIMIT ?") {
		return query, args
	}
	rest := make([]any, 0, len(args))
	out, n := replacePlaceholders(query, func(b *strings.Builder, n int) bool {
		if n >= len(args) {
			return false
		}
		lit := intLiteral(args[n])
		if lit != "" && strings.HasSuffix(b.String(), "LIMIT ") {
			b.WriteString(lit)
		} else {
			rest = append(rest, args[n])
			b.WriteByte('?')
		}
		return true
	})
	if n != len(args) {
		return query, args // placeholders and arguments disagree: leave it to the driver to say so
	}
	return out, rest
}

// intLiteral is the SQL literal of an integer argument, "" for others.
func intLiteral(v any) string {
	switch v := v.(type) {
	case int:
		return strconv.FormatInt(int64(v), 10)
	case int64:
		return strconv.FormatInt(v, 10)
	case int32:
		return strconv.FormatInt(int64(v), 10)
	}
	return ""
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return fmt.Sprint(n)
}

// IsUniqueViolation reports whether err is a unique or primary-key failure.
func IsUniqueViolation(err error) bool {
	return sqlState(err) == "23505" || sqliteCode(err) == sqliteConstraintUnique || sqliteCode(err) == sqliteConstraintPrimaryKey
}

// IsForeignKeyViolation reports whether err is a foreign-key failure.
func IsForeignKeyViolation(err error) bool {
	return sqlState(err) == "23503" || sqliteCode(err) == sqliteConstraintForeignKey
}

const (
	sqliteConstraintForeignKey = 787
	sqliteConstraintPrimaryKey = 1555
	sqliteConstraintUnique     = 2067
)

func sqlState(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}

func sqliteCode(err error) int {
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		return sqErr.Code()
	}
	return 0
}

// Optimize refreshes the query planner's statistics. SQLite has no
// background statistics: without them it cannot tell a selective tenant
// condition from an unselective one, and a page of a large tenant's list
// sorts the whole tenant instead of walking the sort index. PostgreSQL
// analyzes by itself; full is for after bulk loads (the scale seed): there
// it vacuums too, which empties the pending lists of the trigram (GIN)
// indexes that a bulk load fills (a keyword search reads the whole pending
// list until autovacuum gets to it) and sets the visibility map that lets
// counts read indexes only.
func (d *DB) Optimize(ctx context.Context, full bool) error {
	var stmt string
	switch {
	case d.dialect == SQLite && full:
		stmt = "ANALYZE"
	case d.dialect == SQLite:
		stmt = "PRAGMA optimize=0x10002"
	case full:
		stmt = "VACUUM (ANALYZE)"
	default:
		return nil
	}
	if _, err := d.pool.ExecContext(ctx, stmt); err != nil {
		return fmt.Errorf("db: %s: %w", stmt, err)
	}
	if d.dialect == SQLite {
		return d.dropTextIndexSamples(ctx)
	}
	return nil
}

// dropTextIndexSamples removes ANALYZE's STAT4 samples of the FTS5 term
// indexes (the <table>_idx shadow table of every FTS5 table) and reloads
// the statistics. FTS5 looks terms up through a statement of its own,
// "... WHERE segid=? AND term<=?"; with samples for that table SQLite
// marks the statement to be planned again for every value bound to it,
// so every keyword query re-parsed it once per segment: two thirds of the
// time of a text index lookup. Without samples the plan (the primary key)
// is the same and is kept. The table statistics (sqlite_stat1) stay, so
// PRAGMA optimize does not analyze the tables again.
func (d *DB) dropTextIndexSamples(ctx context.Context) error {
	const stmt = `DELETE FROM sqlite_stat4 WHERE tbl IN (SELECT name || '_idx' FROM (` + fts5Tables + `))`
	var has int
	if err := d.pool.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE name = 'sqlite_stat4'`).Scan(&has); err != nil {
		return fmt.Errorf("db: look for sqlite_stat4: %w", err)
	}
	if has == 0 {
		return nil
	}
	if _, err := d.pool.ExecContext(ctx, stmt); err != nil {
		return fmt.Errorf("db: drop the text indexes' samples: %w", err)
	}
	if _, err := d.pool.ExecContext(ctx, "ANALYZE sqlite_schema"); err != nil {
		return fmt.Errorf("db: reload the statistics: %w", err)
	}
	return nil
}

// InlineInts writes the integer arguments of a statement into its text as
// literals and returns the statement with the arguments that
// remain. pgx prepares every statement once per connection; PostgreSQL
// then plans a statement with parameters anew on every execution whenever
// its generic plan looks worse than the plans for the actual values (as
// for a page: LIMIT, OFFSET and the tenant decide the plan), but a
// statement without parameters is planned once, for its very values, and
// that plan is reused. So a page whose only arguments are numbers (tenant,
// page window, numeric filters) is planned once per connection and value
// set instead of per request. Text arguments (keywords, patterns) stay
// parameters: user text must not multiply the prepared statements.
// SQLite plans with the stability guarantee (sqlite_plans.go), so a value
// that steers its plan — the tenant whose share of the table decides
// between walking the sort index and sorting its rows, the page size — must
// be a literal there too.
func InlineInts(query string, args []any) (string, []any) {
	if len(args) == 0 {
		return query, args
	}
	rest := make([]any, 0, len(args))
	out, n := replacePlaceholders(query, func(b *strings.Builder, n int) bool {
		lit := intLiteral(args[n])
		if lit == "" {
			rest = append(rest, args[n])
			b.WriteByte('?')
		} else {
			b.WriteString("(" + lit + ")")
		}
		return n+1 < len(args)
	})
	if n != len(args) {
		return query, args // placeholders and arguments disagree: leave it to the driver to say so
	}
	return out, rest
}
