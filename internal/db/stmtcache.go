package db

import (
	"context"
	"database/sql"
	"fmt"
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
}

// Statements longer than maxCachedQuery are not cached: long texts are the
// ones with many list parameters, which rarely repeat.
const (
	maxCachedQuery      = 4096
	maxCachedStatements = 128
)

func newStmtCache(pool *sql.DB) *stmtCache {
	return &stmtCache{pool: pool, stmts: map[string]*sql.Stmt{}, limit: maxCachedStatements}
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
	c.mu.Lock()
	defer c.mu.Unlock()
	if have := c.stmts[query]; have != nil {
		s.Close()
		return have, true, nil
	}
	if len(c.stmts) >= c.limit {
		c.evictOne()
	}
	c.stmts[query] = s
	return s, true, nil
}

// evictOne closes an arbitrary cached statement (map order is random); a
// query still reading from it keeps it until its rows are closed.
func (c *stmtCache) evictOne() {
	for q, s := range c.stmts {
		delete(c.stmts, q)
		s.Close()
		return
	}
}

// close closes every cached statement.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, s := range c.stmts {
		delete(c.stmts, q)
		s.Close()
	}
}
