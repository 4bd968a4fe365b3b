package db

import (
	"context"
	"database/sql/driver"
	"fmt"
	"testing"

	"modernc.org/sqlite"
)

// A connection of the pool has no mutex of its own; one opened by the bare
// driver has (so the check reads what it claims to).
func TestSQLiteConnectionsHaveNoMutex(t *testing.T) {
	ctx := context.Background()
	err := withPooledConn(t, func(dc any) error {
		m, err := connectionMutex(dc.(driver.Conn))
		if err == nil && m != 0 {
			t.Errorf("a pooled connection keeps its mutex %#x", m)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}

	bare, err := sqliteDriver().Open("file:" + t.TempDir() + "/x.db")
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	if m, err := connectionMutex(bare); err != nil || m == 0 {
		t.Fatalf("a bare connection: mutex %#x, err %v; want one", m, err)
	}
	if err := dropConnectionMutex(bare); err != nil {
		t.Fatal(err)
	}
	if m, _ := connectionMutex(bare); m != 0 {
		t.Fatalf("after dropConnectionMutex: mutex %#x", m)
	}
	rows, err := bare.(driver.QueryerContext).QueryContext(ctx, "SELECT 1", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	one := make([]driver.Value, 1)
	if err := rows.Next(one); err != nil || one[0] != int64(1) {
		t.Fatalf("SELECT 1 without a mutex read %v, err %v", one[0], err)
	}
}

// A connection has the larger lookaside: with SQLite's default (40 slots
// of 1,200 bytes, split into 30 large and 93 small) no more than 123 slots
// can be checked out at once.
func TestSQLiteConnectionsHaveLargeLookaside(t *testing.T) {
	ctx := context.Background()
	err := withPooledConn(t, func(dc any) error {
		var held []driver.Stmt
		defer func() {
			for _, s := range held {
				s.Close()
			}
		}()
		for i := range 200 {
			s, err := dc.(driver.ConnPrepareContext).PrepareContext(ctx, fmt.Sprintf("SELECT ? + %d AS n, 'x' || ? AS s", i))
			if err != nil {
				return err
			}
			held = append(held, s)
		}
		used, _, err := dc.(sqlite.DBStatus).Status(sqlite.DBStatusLookasideUsed, false)
		if err == nil && used <= 123 {
			t.Errorf("%d lookaside slots in use with 200 statements prepared; the default allows 123", used)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// withPooledConn runs fn on a driver connection of a fresh SQLite pool.
func withPooledConn(t *testing.T, fn func(dc any) error) error {
	t.Helper()
	ctx := context.Background()
	d, err := Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	c, err := d.Pool().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.Raw(fn)
}
