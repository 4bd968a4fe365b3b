package db

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// Rows are the rows of a query as a list reads them: each row scanned into
// *sql.RawBytes and *int64 destinations. *sql.Rows is one.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close() error
}

// QueryRows runs a query written with "?" placeholders for a reader that
// scans every column into *sql.RawBytes or *int64, as a list page does. On
// PostgreSQL it reads through pgx directly (decision 0053): database/sql's
// conversion of every value to a Go value and back to bytes was a fifth
// of a ticket page's CPU. The values are the bytes database/sql would
// have given.
func (d *DB) QueryRows(ctx context.Context, query string, args ...any) (Rows, error) {
	if d.pgx == nil {
		return d.QueryContext(ctx, query, args...)
	}
	rows, err := d.pgx.Query(ctx, Rebind(d.dialect, query), append([]any{rawResultFormats}, args...)...)
	if err != nil {
		return nil, err
	}
	return &pgxRows{rows: rows}, nil
}

// QueryRows runs a query inside the transaction, through database/sql.
func (t *Tx) QueryRows(ctx context.Context, query string, args ...any) (Rows, error) {
	return t.QueryContext(ctx, query, args...)
}

// rawResultFormats asks for the values whose text form differs from the
// bytes database/sql hands out in binary, to write those forms
// (pgxRows.value); everything else (numbers, text, numeric, json) comes
// as text, which is what database/sql gives for them.
var rawResultFormats = pgx.QueryResultFormatsByOID{
	pgtype.TimestamptzOID: pgx.BinaryFormatCode,
	pgtype.TimestampOID:   pgx.BinaryFormatCode,
	pgtype.DateOID:        pgx.BinaryFormatCode,
	pgtype.BoolOID:        pgx.BinaryFormatCode,
	pgtype.ByteaOID:       pgx.BinaryFormatCode,
}

// pgxRows reads a pgx result as raw bytes.
type pgxRows struct {
	rows pgx.Rows
	oids []uint32
	// scratch holds a column's converted value until the next row, as
	// database/sql's raw bytes live.
	scratch [][]byte
}

func (r *pgxRows) Next() bool { return r.rows.Next() }

func (r *pgxRows) Err() error { return r.rows.Err() }

func (r *pgxRows) Close() error {
	r.rows.Close()
	return r.rows.Err()
}

// Scan sets each destination to its column's value: raw bytes valid until
// the next row, or an integer.
func (r *pgxRows) Scan(dest ...any) error {
	values := r.rows.RawValues()
	if len(dest) != len(values) {
		return fmt.Errorf("db: scan: %d destinations for %d columns", len(dest), len(values))
	}
	if r.oids == nil {
		fields := r.rows.FieldDescriptions()
		r.oids = make([]uint32, len(fields))
		for i, f := range fields {
			r.oids[i] = f.DataTypeOID
		}
		r.scratch = make([][]byte, len(fields))
	}
	for i, d := range dest {
		v, err := r.value(i, values[i])
		if err != nil {
			return fmt.Errorf("db: scan column %d: %w", i, err)
		}
		switch d := d.(type) {
		case *sql.RawBytes:
			*d = v
		case *int64:
			if v == nil {
				return fmt.Errorf("db: scan column %d: NULL into int64", i)
			}
			n, err := strconv.ParseInt(string(v), 10, 64)
			if err != nil {
				return fmt.Errorf("db: scan column %d: %w", i, err)
			}
			*d = n
		default:
			return fmt.Errorf("db: scan column %d: destination %T (raw bytes or int64 only)", i, d)
		}
	}
	return nil
}

// postgresEpoch is where PostgreSQL's binary dates and times count from.
var postgresEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// value is column i's value v in database/sql's form: date-times in RFC
// 3339 (UTC), dates as midnight UTC, booleans "true"/"false",
// infinities by name; nil for NULL.
func (r *pgxRows) value(i int, v []byte) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	switch r.oids[i] {
	case pgtype.TimestamptzOID, pgtype.TimestampOID:
		if len(v) != 8 {
			return nil, errors.New("bad binary timestamp")
		}
		switch us := int64(binary.BigEndian.Uint64(v)); us {
		case math.MaxInt64:
			return []byte("infinity"), nil
		case math.MinInt64:
			return []byte("-infinity"), nil
		default:
			t := time.Unix(postgresEpoch.Unix()+us/1e6, us%1e6*1e3).UTC()
			r.scratch[i] = t.AppendFormat(r.scratch[i][:0], time.RFC3339Nano)
		}
	case pgtype.DateOID:
		if len(v) != 4 {
			return nil, errors.New("bad binary date")
		}
		switch days := int32(binary.BigEndian.Uint32(v)); days {
		case math.MaxInt32:
			return []byte("infinity"), nil
		case math.MinInt32:
			return []byte("-infinity"), nil
		default:
			r.scratch[i] = postgresEpoch.AddDate(0, 0, int(days)).AppendFormat(r.scratch[i][:0], time.RFC3339Nano)
		}
	case pgtype.BoolOID:
		if len(v) != 1 {
			return nil, errors.New("bad binary boolean")
		}
		r.scratch[i] = strconv.AppendBool(r.scratch[i][:0], v[0] != 0)
	default:
		return v, nil
	}
	return r.scratch[i], nil
}

// Row is the answer of a query of at most one row: Scan reports
// sql.ErrNoRows (errors.Is) when there is none.
type Row interface {
	Scan(dest ...any) error
}

// QueryOne runs a single-row query written with "?" placeholders for a
// reader on every request (the session of an access token). On PostgreSQL
// it reads through pgx directly, as QueryRows does: database/sql's pool and
// value conversions were half of the session read's CPU. Destinations are
// what both scan into alike: *int64, *int, *string, *time.Time, pointers to
// pointers of those for NULL, and sql.Null* types.
func (d *DB) QueryOne(ctx context.Context, query string, args ...any) Row {
	if d.pgx == nil {
		return d.QueryRowContext(ctx, query, args...)
	}
	return d.pgx.QueryRow(ctx, Rebind(d.dialect, query), args...)
}
