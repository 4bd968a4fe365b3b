package db

import (
	"context"
	"fmt"
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
