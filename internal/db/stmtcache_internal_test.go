package db

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestStmtCacheEvictsNoStatementInUse: with more hot queries than the
// cache holds, concurrent callers evict each other's statements all the
// time, and none sees its statement closed between taking it and running
// it ("sql: statement is closed", a 500 in list reads), inside or outside
// a transaction. Evicted statements are still closed: the cache never
// holds more than its limit.
func TestStmtCacheEvictsNoStatementInUse(t *testing.T) {
	ctx := context.Background()
	d, err := Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.stmts.limit = 2
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 300 {
				q := fmt.Sprintf("SELECT %d + ?", (g+i)%7)
				var n int
				if err := d.QueryRowContext(ctx, q, 1).Scan(&n); err != nil {
					errs <- fmt.Errorf("%s: %w", q, err)
					return
				}
				rows, err := d.QueryContext(ctx, q, 2)
				if err != nil {
					errs <- fmt.Errorf("%s: %w", q, err)
					return
				}
				rows.Close()
				if i%50 == 0 {
					err := d.InTx(ctx, func(tx *Tx) error { return tx.QueryRowContext(ctx, q, 3).Scan(&n) })
					if err != nil {
						errs <- fmt.Errorf("%s in a transaction: %w", q, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := d.stmts.size(); n > 2 {
		t.Errorf("%d statements cached, limit 2", n)
	}
}

// TestStmtCacheKeepsLongPagesWithinItsBytes: a statement of several
// kilobytes, as a list page of many columns is, is prepared once and
// cached; the texts cached together never exceed the byte limit, and the
// cache counts exactly the texts it holds.
func TestStmtCacheKeepsLongPagesWithinItsBytes(t *testing.T) {
	ctx := context.Background()
	d, err := Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	// A 5 KB statement, as long as a page of tickets by assigned user.
	long := func(i int) string {
		return fmt.Sprintf("SELECT %d + ?", i) + strings.Repeat(" ", 5<<10)
	}
	var n int
	if err := d.QueryRowContext(ctx, long(0), 1).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if d.stmts.size() != 1 {
		t.Fatalf("a 5 KB statement: %d statements cached, want 1", d.stmts.size())
	}
	d.stmts.mu.Lock()
	d.stmts.byteLimit = 12 << 10 // two such statements
	d.stmts.mu.Unlock()
	for i := range 20 {
		if err := d.QueryRowContext(ctx, long(i%5), 1).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != i%5+1 {
			t.Fatalf("%d: %d", i, n)
		}
		d.stmts.mu.Lock()
		total := 0
		for q := range d.stmts.stmts {
			total += len(q)
		}
		bytes, cached := d.stmts.bytes, len(d.stmts.stmts)
		d.stmts.mu.Unlock()
		if bytes != total || bytes > 12<<10 || cached == 0 {
			t.Fatalf("%d: %d statements of %d bytes cached, counted %d, limit %d", i, cached, total, bytes, 12<<10)
		}
	}
}
