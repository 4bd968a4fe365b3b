package db

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
)

// stmtCache keeps prepared statements of the hottest queries for SQLite,
// where parsing and planning a statement costs more than running a typical
// indexed read (the session check of every request spent two thirds of its
// time in the parser). database/sql prepares a cached statement once per
// pooled connection and keeps a closed one alive until its rows are read.
// PostgreSQL needs none: pgx caches prepared statements per connection.
type stmtCache struct {
	pool  *sql.DB
	mu    sync.Mutex
	stmts map[string]*cachedStmt
	limit int
	// bytes is the length of the cached queries' texts together, at most
	// byteLimit (a prepared statement's memory grows with its text).
	bytes, byteLimit int
	// warming are the queries being prepared in the background for
	// transactions (forTx); close cancels and waits for them, so none
	// opens a connection after the pool closed.
	warming  map[string]bool
	warmers  sync.WaitGroup
	warmCtx  context.Context
	stopWarm context.CancelFunc
	closed   bool
}

// cachedStmt is a cached statement and the callers between taking it and
// starting their query: an evicted statement is closed only once none is
// left (closing it under a caller made its query fail with "statement is
// closed"). A query already started keeps it alive until its rows close
// (database/sql).
type cachedStmt struct {
	s       *sql.Stmt
	users   int
	evicted bool
}

// Statements longer than maxCachedQuery are not cached: longer texts are
// the ones with many list parameters, which rarely repeat. A list page
// with many columns is long too, and repeats with every request: a page of
// tickets by assigned user (two parts carrying 33 columns, 5 KB) spent a
// fifth of the server's CPU parsing itself again while the limit was 4 KB.
// The texts cached together are bounded by maxCachedBytes: SQLite's
// prepared statement of that page takes 72 KB (the sqlite3 shell's
// ".stats"), about 14 bytes per byte of text, on each of the pool's eight
// connections, so the cache holds at most about 60 MB however long its
// statements are.
const (
	maxCachedQuery      = 16 << 10
	maxCachedStatements = 256
	maxCachedBytes      = 512 << 10
)

func newStmtCache(pool *sql.DB) *stmtCache {
	ctx, cancel := context.WithCancel(context.Background())
	return &stmtCache{pool: pool, stmts: map[string]*cachedStmt{}, limit: maxCachedStatements,
		byteLimit: maxCachedBytes, warming: map[string]bool{}, warmCtx: ctx, stopWarm: cancel}
}

// stmt returns the prepared statement for query, preparing it on first
// use; ok is false when query is not to be cached. The caller calls
// release once its query has started (or it gave up).
func (c *stmtCache) stmt(ctx context.Context, query string) (s *sql.Stmt, release func(), ok bool, err error) {
	if len(query) > maxCachedQuery {
		return nil, nil, false, nil
	}
	c.mu.Lock()
	e := c.stmts[query]
	if e != nil {
		e.users++
	}
	c.mu.Unlock()
	if e != nil {
		return e.s, c.releaser(e), true, nil
	}
	s, err = c.pool.PrepareContext(ctx, query)
	if err != nil {
		return nil, nil, true, fmt.Errorf("db: prepare: %w", err)
	}
	kept, evicted := c.keep(query, s)
	// Closing waits for the connections the statement was prepared on,
	// which transactions may hold while they wait for c.mu (forTx): so
	// never under c.mu.
	for _, e := range evicted {
		e.Close()
	}
	if kept == nil || kept.s != s {
		s.Close()
	}
	if kept == nil {
		return nil, nil, false, nil
	}
	return kept.s, c.releaser(kept), true, nil
}

// releaser returns the release of one use of e: the last use of an
// evicted statement closes it.
func (c *stmtCache) releaser(e *cachedStmt) func() {
	return func() {
		c.mu.Lock()
		e.users--
		last := e.evicted && e.users == 0
		c.mu.Unlock()
		if last {
			e.s.Close()
		}
	}
}

// keep stores s as query's statement and returns the entry to use (s's,
// or the one another caller stored first; nil once the cache closed), with
// one use taken, and the statements evicted to make room (by count and by
// the texts' length) that nobody uses: the caller closes those outside
// c.mu.
func (c *stmtCache) keep(query string, s *sql.Stmt) (kept *cachedStmt, evicted []*sql.Stmt) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, nil
	}
	if have := c.stmts[query]; have != nil {
		have.users++
		return have, nil
	}
	for len(c.stmts) > 0 && (len(c.stmts) >= c.limit || c.bytes+len(query) > c.byteLimit) {
		if old := c.evictOne(); old != nil {
			evicted = append(evicted, old)
		}
	}
	e := &cachedStmt{s: s, users: 1}
	c.stmts[query] = e
	c.bytes += len(query)
	return e, evicted
}

// forTx returns the cached statement of query for a transaction, or nil,
// and its release (see stmt). A transaction holds its connection, and
// preparing on the pool needs another one: with every connection held by
// a transaction waiting for one, nothing would move. So a miss runs
// unprepared and the statement is prepared in the background once a
// connection is free; only statements that read or write rows are cached
// (not the DDL of migrations).
func (c *stmtCache) forTx(query string) (*sql.Stmt, func()) {
	if len(query) > maxCachedQuery || !cacheableInTx(query) {
		return nil, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.stmts[query]; e != nil {
		e.users++
		return e.s, c.releaser(e)
	}
	if !c.closed && !c.warming[query] && len(c.warming) < 16 {
		c.warming[query] = true
		c.warmers.Add(1)
		go func() {
			defer c.warmers.Done()
			if _, release, _, err := c.stmt(c.warmCtx, query); err == nil && release != nil {
				release()
			}
			c.mu.Lock()
			delete(c.warming, query)
			c.mu.Unlock()
		}()
	}
	return nil, nil
}

// cacheableInTx: the statement starts with SELECT, INSERT, UPDATE, DELETE
// or WITH.
func cacheableInTx(query string) bool {
	q := strings.TrimLeft(query, " \t\r\n(")
	for _, p := range []string{"SELECT", "INSERT", "UPDATE", "DELETE", "WITH"} {
		if len(q) >= len(p) && strings.EqualFold(q[:len(p)], p) {
			return true
		}
	}
	return false
}

// size is the number of cached statements.
func (c *stmtCache) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.stmts)
}

// evictOne removes an arbitrary cached statement (map order is random)
// and returns it for the caller to close when nobody is about to use it;
// otherwise its last user closes it (releaser). A query still reading
// from a closed statement keeps it until its rows are closed.
func (c *stmtCache) evictOne() *sql.Stmt {
	for q, e := range c.stmts {
		delete(c.stmts, q)
		c.bytes -= len(q)
		e.evicted = true
		if e.users == 0 {
			return e.s
		}
		return nil
	}
	return nil
}

// close stops the background preparing, waits for it and closes every
// cached statement.
func (c *stmtCache) close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.stopWarm()
	c.warmers.Wait()
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, e := range c.stmts {
		delete(c.stmts, q)
		e.s.Close()
	}
	c.bytes = 0
}
