package db_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// A list reads PostgreSQL's rows through pgx (QueryRows, decision 0053):
// every value comes as the bytes database/sql gives for it, whatever its
// type and its format on the wire.
func TestQueryRowsReadsAsDatabaseSQL(t *testing.T) {
	d := testkit.NewPostgres(t) // on SQLite QueryRows is QueryContext
	ctx := context.Background()
	const query = `SELECT 42::bigint, 7::int, -3::smallint, 'Süd ''x'' ?'::text, 12.50::numeric, NULL::text, ''::text,
		TIMESTAMPTZ '2026-11-25 15:04:42.123456+01', TIMESTAMPTZ '2026-11-25 15:04:42+00' + g * INTERVAL '1 day',
		TIMESTAMPTZ '1901-01-01 00:00:00+00', TIMESTAMP '1999-12-31 23:59:59', DATE '2026-11-25' + g, DATE '1969-07-20',
		'infinity'::timestamptz, '-infinity'::date, g = 1, '\x00ff41'::bytea, '{"a": 1}'::jsonb, ARRAY[1, g],
		1.5::float8, ?::text, (SELECT COALESCE(SUM(x), 0) FROM (VALUES (1::bigint), (g)) v(x))
		FROM generate_series(1, 3) g ORDER BY g`
	dateTimes := map[int]bool{7: true, 8: true, 9: true, 10: true}

	want := readAll(t, func() (db.Rows, error) { return d.QueryContext(ctx, query, "argument") })
	got := readAll(t, func() (db.Rows, error) { return d.QueryRows(ctx, query, "argument") })
	if len(got) != 3 || len(want) != 3 {
		t.Fatalf("rows: got %d, database/sql %d", len(got), len(want))
	}
	for r := range want {
		for i := range want[r] {
			g, w := got[r][i], want[r][i]
			if dateTimes[i] && g != nil && w != nil {
				if !sameInstant(*g, *w) {
					t.Errorf("row %d column %d: %q, database/sql %q", r, i, *g, *w)
				}
				continue
			}
			if (g == nil) != (w == nil) || (g != nil && *g != *w) {
				t.Errorf("row %d column %d: %v, database/sql %v", r, i, show(g), show(w))
			}
		}
	}
}

// readAll scans every row of the query into raw bytes, and its last
// column also into an int64, which must agree.
func readAll(t *testing.T, query func() (db.Rows, error)) [][]*string {
	t.Helper()
	rows, err := query()
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out [][]*string
	for rows.Next() {
		raw := make([]sql.RawBytes, 22)
		dest := make([]any, len(raw))
		for i := range raw {
			dest[i] = &raw[i]
		}
		var sum int64
		dest[len(dest)-1] = &sum
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		row := make([]*string, len(raw))
		for i, b := range raw[:len(raw)-1] {
			if b != nil {
				s := string(b)
				row[i] = &s
			}
		}
		s := time.Duration(sum).String()
		row[len(row)-1] = &s
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// sameInstant: database/sql writes a date-time in the process's time
// zone, pgx rows in UTC.
func sameInstant(a, b string) bool {
	ta, errA := time.Parse(time.RFC3339Nano, a)
	tb, errB := time.Parse(time.RFC3339Nano, b)
	return errA == nil && errB == nil && ta.Equal(tb)
}

func show(s *string) string {
	if s == nil {
		return "NULL"
	}
	return *s
}
