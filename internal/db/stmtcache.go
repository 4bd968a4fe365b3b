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
	stmts map[string]*sql.Stmt
	limit int
	// warming are the queries being prepared in the background for
	// transactions (forTx); close cancels and waits for them, so none
	// opens a connection after the pool closed.
	warming  map[string]bool
	warmers  sync.WaitGroup
	warmCtx  context.Context
	stopWarm context.CancelFunc
	closed   bool
}

// Statements longer than maxCachedQuery are not cached: long texts are the
// ones with many list parameters, which rarely repeat.
const (
	maxCachedQuery      = 4096
	maxCachedStatements = 256
)

func newStmtCache(pool *sql.DB) *stmtCache {
	ctx, cancel := context.WithCancel(context.Background())
	return &stmtCache{pool: pool, stmts: map[string]*sql.Stmt{}, limit: maxCachedStatements,
		warming: map[string]bool{}, warmCtx: ctx, stopWarm: cancel}
}

// stmt returns the prepared statement for query, preparing it on first
// use; ok is false when query is not to be cached.
func (c *stmtCache) stmt(ctx context.Context, query string) (s *sql.Stmt, ok bool, err error) {
	if len(query) > maxCachedQuery {
		return nil, false, nil
	}
	c.mu.Lock()
	s = c.stmts[query]
	c.mu.Unlock()
	if s != nil {
		return s, true, nil
	}
	s, err = c.pool.PrepareContext(ctx, query)
	if err != nil {
		return nil, true, fmt.Errorf("db: prepare: %w", err)
	}
	kept, evicted := c.keep(query, s)
	// Closing waits for the connections the statement was prepared on,
	// which transactions may hold while they wait for c.mu (forTx): so
	// never under c.mu.
	if evicted != nil {
		evicted.Close()
	}
	if kept != s {
		s.Close()
	}
	return kept, kept != nil, nil
}

// keep stores s as query's statement and returns the statement to use
// (s, or the one another caller stored first; nil once the cache closed)
// and the statement evicted to make room, if any: the caller closes those
// outside c.mu.
func (c *stmtCache) keep(query string, s *sql.Stmt) (kept, evicted *sql.Stmt) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, nil
	}
	if have := c.stmts[query]; have != nil {
		return have, nil
	}
	if len(c.stmts) >= c.limit {
		evicted = c.evictOne()
	}
	c.stmts[query] = s
	return s, evicted
}

// forTx returns the cached statement of query for a transaction, or nil.
// A transaction holds its connection, and preparing on the pool needs
// another one: with every connection held by a transaction waiting for
// one, nothing would move. So a miss runs unprepared and the statement is
// prepared in the background once a connection is free; only statements
// that read or write rows are cached (not the DDL of migrations).
func (c *stmtCache) forTx(query string) *sql.Stmt {
	if len(query) > maxCachedQuery || !cacheableInTx(query) {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.stmts[query]; s != nil {
		return s
	}
	if !c.closed && !c.warming[query] && len(c.warming) < 16 {
		c.warming[query] = true
		c.warmers.Add(1)
		go func() {
			defer c.warmers.Done()
			_, _, _ = c.stmt(c.warmCtx, query)
			c.mu.Lock()
			delete(c.warming, query)
			c.mu.Unlock()
		}()
	}
	return nil
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
// and returns it for the caller to close; a query still reading from it
// keeps it until its rows are closed.
func (c *stmtCache) evictOne() *sql.Stmt {
	for q, s := range c.stmts {
		delete(c.stmts, q)
		return s
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
	for q, s := range c.stmts {
		delete(c.stmts, q)
		s.Close()
	}
}
