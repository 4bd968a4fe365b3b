package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"testing"
)

// Every connection of the SQLite pool plans with the stability guarantee,
// also those opened while others are busy.
func TestSQLiteConnectionsPlanStably(t *testing.T) {
	ctx := context.Background()
	d, err := Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var held []*sql.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for i := 0; i < 3; i++ {
		c, err := d.Pool().Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		err = c.Raw(func(dc any) error {
			on, err := planStability(dc.(driver.Conn), sqliteQueryQPSG)
			if err == nil && !on {
				t.Errorf("connection %d plans for bound values (QPSG off)", i)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// The flag really is read back: a connection opened without stablePlans
// reports it off.
func TestPlanStabilityReadsTheFlag(t *testing.T) {
	c, err := sqliteDriver().Open("file:" + t.TempDir() + "/x.db")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	on, err := planStability(c, sqliteQueryQPSG)
	if err != nil || on {
		t.Fatalf("a fresh connection: on=%v, err=%v; want off", on, err)
	}
	if err := stablePlans(c); err != nil {
		t.Fatal(err)
	}
	if on, err := planStability(c, sqliteQueryQPSG); err != nil || !on {
		t.Fatalf("after stablePlans: on=%v, err=%v; want on", on, err)
	}
}

func TestBindLimits(t *testing.T) {
	cases := []struct {
		dialect Dialect
		in      string
		args    []any
		want    string
		rest    []any
	}{
		{SQLite, "SELECT a FROM t WHERE b = ? ORDER BY a LIMIT ? OFFSET ?", []any{"x", 51, 100}, "SELECT a FROM t WHERE b = ? ORDER BY a LIMIT 51 OFFSET ?", []any{"x", 100}},
		{SQLite, "SELECT * FROM (SELECT a FROM t LIMIT ?) x WHERE c = 'LIMIT ?' LIMIT ?", []any{int64(7), int32(3)}, "SELECT * FROM (SELECT a FROM t LIMIT 7) x WHERE c = 'LIMIT ?' LIMIT 3", []any{}},
		{SQLite, "SELECT a FROM t LIMIT ?", []any{"51"}, "SELECT a FROM t LIMIT ?", []any{"51"}},             // not a number: kept
		{SQLite, "SELECT a FROM t LIMIT ? OFFSET ?", []any{5}, "SELECT a FROM t LIMIT ? OFFSET ?", []any{5}}, // too few arguments: the driver says so
		{Postgres, "SELECT a FROM t LIMIT ?", []any{5}, "SELECT a FROM t LIMIT ?", []any{5}},
	}
	for _, c := range cases {
		got, rest := bindLimits(c.dialect, c.in, c.args)
		if got != c.want || fmt.Sprint(rest) != fmt.Sprint(c.rest) {
			t.Errorf("bindLimits(%v, %q, %v) = %q, %v; want %q, %v", c.dialect, c.in, c.args, got, rest, c.want, c.rest)
		}
	}
}
