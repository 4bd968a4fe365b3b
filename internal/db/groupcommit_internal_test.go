package db

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"testing"
	"time"
)

// A transaction left open for a waiting caller is committed by that
// caller when it gives up and nobody else waits or runs: it never stays
// open with its members waiting for a commit.
func TestWriterLastWaiterGivingUpCommitsTheOpenGroup(t *testing.T) {
	ctx := context.Background()
	d, err := Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.ExecContext(ctx, "CREATE TABLE group_probe (v TEXT PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	w := d.writer
	if err := w.acquire(ctx, &idleTurn{ctx: ctx}); err != nil {
		t.Fatal(err)
	}
	g, err := w.join(ctx, d.pool)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.tx.ExecContext(ctx, "INSERT INTO group_probe (v) VALUES ('kept')"); err != nil {
		t.Fatal(err)
	}
	w.mu.Lock()
	w.waiting = 1 // a caller queued: the member leaves the group open
	w.mu.Unlock()
	w.handOn(g, nil)
	select {
	case <-g.done:
		t.Fatal("group committed although a caller waited")
	default:
	}
	w.giveUp() // the waiting caller leaves
	select {
	case <-g.done:
	default:
		t.Fatal("group left open after its last waiter left")
	}
	if g.err != nil {
		t.Fatal(g.err)
	}
	var n int
	if err := d.QueryRowContext(ctx, "SELECT COUNT(*) FROM group_probe").Scan(&n); err != nil || n != 1 {
		t.Fatalf("rows: %d, %v", n, err)
	}
	if len(w.token) != 0 || w.open != nil {
		t.Fatalf("writer not free: token %d, open %v", len(w.token), w.open)
	}
}

// Callers queued behind a running transaction share transactions (the
// savepoint paths of TestInTxConcurrentCallersKeepTheirOwnOutcome are
// taken), and a failing member does not break its group.
func TestWriterGroupsQueuedCallers(t *testing.T) {
	ctx := context.Background()
	d, err := Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.ExecContext(ctx, "CREATE TABLE group_probe (v INTEGER PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	const n = 10
	var mu sync.Mutex
	txs := map[*sql.Tx]int{}
	release := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := d.InTx(ctx, func(tx *Tx) error {
				if i == 0 {
					<-release
				}
				mu.Lock()
				txs[tx.tx]++
				mu.Unlock()
				if _, err := tx.ExecContext(ctx, "INSERT INTO group_probe (v) VALUES (?)", i); err != nil {
					return err
				}
				if i == 4 {
					return errors.New("on purpose")
				}
				return nil
			})
			if (err != nil) != (i == 4) {
				t.Errorf("caller %d: %v", i, err)
			}
		}()
		if i == 0 {
			time.Sleep(20 * time.Millisecond)
		}
	}
	for { // every other caller queued
		d.writer.mu.Lock()
		queued := d.writer.waiting
		d.writer.mu.Unlock()
		if queued == n-1 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	if len(txs) >= n-1 {
		t.Fatalf("%d transactions for %d callers: no group formed", len(txs), n)
	}
	var count int
	if err := d.QueryRowContext(ctx, "SELECT COUNT(*) FROM group_probe").Scan(&count); err != nil || count != n-1 {
		t.Fatalf("rows: %d, %v", count, err)
	}
}
