package db_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// Concurrent transactions keep their own all-or-nothing outcome, on both
// databases; on SQLite they share group transactions (decision 0040): a
// caller's failure, constraint violation or panic undoes its writes only,
// and a caller's commit callbacks run once its writes are visible to
// others.
func TestInTxConcurrentCallersKeepTheirOwnOutcome(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if _, err := d.ExecContext(ctx, "CREATE TABLE group_probe (v TEXT PRIMARY KEY)"); err != nil {
			t.Fatal(err)
		}
		insert := func(tx *db.Tx, v string) error {
			_, err := tx.ExecContext(ctx, "INSERT INTO group_probe (v) VALUES (?)", v)
			return err
		}
		visible := func(v string) bool {
			var n int
			if err := d.QueryRowContext(ctx, "SELECT COUNT(*) FROM group_probe WHERE v = ?", v).Scan(&n); err != nil {
				t.Error(err)
			}
			return n == 1
		}
		const n = 12 // each kind of caller twice; PostgreSQL opens a connection per caller
		errFailed := errors.New("failed on purpose")
		outcomes := make([]error, n)
		panics := make([]any, n)
		seen := make([]bool, n) // a commit callback saw the row
		called := make([]bool, n)
		var wg sync.WaitGroup
		// The first caller holds the writer until the others queue up, so
		// that on SQLite they form groups.
		release := make(chan struct{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			outcomes[0] = d.InTx(ctx, func(tx *db.Tx) error {
				err := insert(tx, "v0") // first: the violations below collide with it
				<-release
				return err
			})
		}()
		time.Sleep(20 * time.Millisecond)
		for i := 1; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { panics[i] = recover() }()
				v := fmt.Sprintf("v%d", i)
				outcomes[i] = d.InTx(ctx, func(tx *db.Tx) error {
					if i%6 == 5 {
						if err := insert(tx, v); err != nil {
							return err
						}
						return insert(tx, "v0") // a constraint violation after a write
					}
					if err := insert(tx, v); err != nil {
						return err
					}
					tx.AfterCommit(func() { called[i], seen[i] = true, visible(v) })
					switch i % 6 {
					case 1:
						return errFailed
					case 3:
						panic("on purpose")
					}
					return nil
				})
			}()
		}
		time.Sleep(50 * time.Millisecond)
		close(release)
		wg.Wait()
		if outcomes[0] != nil || !visible("v0") {
			t.Fatalf("first caller: %v, visible %v", outcomes[0], visible("v0"))
		}
		for i := 1; i < n; i++ {
			v := fmt.Sprintf("v%d", i)
			switch i % 6 {
			case 1:
				if !errors.Is(outcomes[i], errFailed) || visible(v) || called[i] {
					t.Errorf("%s: failing caller got %v, row visible %v, callback %v", v, outcomes[i], visible(v), called[i])
				}
			case 3:
				if panics[i] != "on purpose" || visible(v) || called[i] {
					t.Errorf("%s: panicking caller: panic %v, row visible %v, callback %v", v, panics[i], visible(v), called[i])
				}
			case 5:
				if !db.IsUniqueViolation(outcomes[i]) || visible(v) || called[i] {
					t.Errorf("%s: violating caller got %v, row visible %v, callback %v", v, outcomes[i], visible(v), called[i])
				}
			default:
				if outcomes[i] != nil || !visible(v) || !called[i] || !seen[i] {
					t.Errorf("%s: caller got %v, row visible %v, callback %v saw its row %v", v, outcomes[i], visible(v), called[i], seen[i])
				}
			}
		}
	})
}

// A caller that gives up waiting for the writer gets the context's error
// and leaves no trace; the others carry on.
func TestInTxCallerGivesUpWhileWaiting(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if _, err := d.ExecContext(ctx, "CREATE TABLE group_probe (v TEXT PRIMARY KEY)"); err != nil {
			t.Fatal(err)
		}
		hold := make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- d.InTx(ctx, func(tx *db.Tx) error {
				if _, err := tx.ExecContext(ctx, "INSERT INTO group_probe (v) VALUES ('held')"); err != nil {
					return err
				}
				<-hold
				return nil
			})
		}()
		time.Sleep(20 * time.Millisecond)
		short, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
		defer cancel()
		err := d.InTx(short, func(tx *db.Tx) error {
			_, err := tx.ExecContext(short, "INSERT INTO group_probe (v) VALUES ('late')")
			return err
		})
		close(hold)
		if err := <-done; err != nil {
			t.Fatalf("holder: %v", err)
		}
		if d.Dialect() == db.SQLite && !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("waiting caller got %v, want the deadline", err)
		}
		var n int
		if err := d.QueryRowContext(ctx, "SELECT COUNT(*) FROM group_probe WHERE v = 'held'").Scan(&n); err != nil || n != 1 {
			t.Fatalf("held row: %d, %v", n, err)
		}
	})
}
