package tables

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// Derived is one record's derived values for DeriveManyIn.
type Derived struct {
	ID     int64
	Values validate.Record
}

// deriveReadChunk is how many keys one read of DeriveManyIn names, and
// historyChunk how many history rows one INSERT writes: both far below
// the parameter limits of SQLite and PostgreSQL. deriveWriteChunk is how
// many rows one UPDATE writes: each row evaluates a CASE over every key of
// its statement, so the cost per row grows with the chunk, while fewer
// statements save SQLite's statement journal; 100 measured best
// (docs/performance.md, session 27).
const (
	deriveReadChunk  = 500
	deriveWriteChunk = 100
	historyChunk     = 500
)

// DeriveManyIn is DeriveIn for many records of entity in one transaction,
// for a module's bulk recomputation (the nightly notice dates): the same
// rules, in fewer statements. Each record's values that differ from the
// stored ones are written with the next row_version (checked, 409 when a
// concurrent write moved it) and one history row each, as DeriveIn writes
// them; records within the caller's tenant only (404 otherwise). The
// stored values are read in chunks of keys and the history rows are
// inserted in multi-row statements. Each record appears once in rows. It
// answers how many records changed.
func (e *Engine) DeriveManyIn(ctx context.Context, tx *db.Tx, entity string, rows []Derived) (int, error) {
	ent, err := e.entity(entity)
	if err != nil {
		return 0, err
	}
	c, err := e.callerOf(ctx)
	if err != nil {
		return 0, err
	}
	names, err := derivedNames(ent, rows)
	if err != nil {
		return 0, err
	}
	up := &bulkUpdate{tx: tx, ent: ent, stmts: map[string]*sql.Stmt{}}
	defer up.close()
	changed := 0
	var history []historyRow
	for start := 0; start < len(rows); start += deriveReadChunk {
		chunk := rows[start:min(start+deriveReadChunk, len(rows))]
		ids := make([]int64, len(chunk))
		for i, r := range chunk {
			ids[i] = r.ID
		}
		stored, err := e.storedMany(ctx, tx, c.writer(), ent, ids, names)
		if err != nil {
			return changed, err
		}
		// Rows are written in groups by the columns that change: a column
		// left out of the statement costs nothing, one written back
		// unchanged costs a CASE over every key of the chunk per row.
		moved := map[string][]pendingRow{}
		var order []string
		for _, r := range chunk {
			s, ok := stored[r.ID]
			if !ok {
				return changed, errNotFound()
			}
			row := pendingRow{id: r.ID, version: s.version, values: validate.Record{}}
			changes := map[string][2]any{}
			var set []string
			for _, n := range names {
				v, ok := r.Values[n]
				if !ok || validate.Equal(s.rec[n], v) {
					continue
				}
				row.values[n] = v
				set = append(set, n)
				changes[n] = [2]any{historyValue(s.rec[n]), historyValue(v)}
			}
			if len(changes) == 0 {
				continue
			}
			b, err := json.Marshal(changes)
			if err != nil {
				return changed, fmt.Errorf("tables: encode history of %s %d: %w", ent.Name, r.ID, err)
			}
			key := strings.Join(set, ",")
			if _, ok := moved[key]; !ok {
				order = append(order, key)
			}
			moved[key] = append(moved[key], row)
			history = append(history, historyRow{id: r.ID, changes: string(b)})
		}
		for _, key := range order {
			rows := moved[key]
			for w := 0; w < len(rows); w += deriveWriteChunk {
				if err := up.updateMany(ctx, strings.Split(key, ","), rows[w:min(w+deriveWriteChunk, len(rows))]); err != nil {
					return changed, err
				}
			}
			changed += len(moved[key])
		}
	}
	return changed, e.recordMany(ctx, tx, c, historyUpdate, ent, history)
}

// derivedNames checks that every value of rows names a read-only stored
// column of ent and answers the names, sorted.
func derivedNames(ent *schema.Entity, rows []Derived) ([]string, error) {
	seen := map[string]bool{}
	for _, r := range rows {
		for n := range r.Values {
			if seen[n] {
				continue
			}
			f, ok := ent.Field(n)
			if !ok || !f.Stored() || f.Writable() {
				return nil, fmt.Errorf("tables: derive %s.%s: not a read-only column", ent.Name, n)
			}
			seen[n] = true
		}
	}
	return sortedKeys(seen), nil
}

// storedRow is one record's stored columns and row_version.
type storedRow struct {
	rec     validate.Record
	version int64
}

// storedMany reads columns names and the row_version of the records with
// keys ids within the caller's scope; records outside it are missing from
// the answer.
func (e *Engine) storedMany(ctx context.Context, q db.Querier, c *caller, ent *schema.Entity, ids []int64, names []string) (map[int64]storedRow, error) {
	s := newSource(e.env(), c.scope, ent)
	where, err := s.where()
	if err != nil {
		return nil, err
	}
	keys := make([]any, len(ids))
	for i, id := range ids {
		keys[i] = id
	}
	cols := []string{col(s.alias, ent.PK), col(s.alias, schema.RowVersionColumn)}
	for _, n := range names {
		cols = append(cols, col(s.alias, n))
	}
	from := s.from()
	var w frag
	if s.env.dialect == db.SQLite && len(keys) > 1 {
		// SQLite plans "pk IN (…500 keys…)" as a scan of the whole table
		// when its statistics (ANALYZE, taken daily) still describe the
		// table as small: a table that grew since then is read once per
		// chunk (the generator over 300,000 new positions). The keys as
		// the outer loop of a CROSS JOIN (SQLite keeps that order) are a
		// key lookup each, whatever the statistics say.
		values := strings.TrimSuffix(strings.Repeat("(?), ", len(keys)), ", ")
		from = "(VALUES " + values + ") stored_keys CROSS JOIN " + from
		w = and(frag{sql: col(s.alias, ent.PK) + " = stored_keys.column1"}, where)
		w.args = append(keys, w.args...)
	} else {
		w = and(frag{sql: col(s.alias, ent.PK) + " IN (" + placeholders(len(keys)) + ")", args: keys}, where)
	}
	raw := make([]sql.RawBytes, len(cols))
	dst := make([]any, len(cols))
	for i := range raw {
		dst[i] = &raw[i]
	}
	res, err := q.QueryContext(ctx, "SELECT "+strings.Join(cols, ", ")+" FROM "+from+" WHERE "+w.sql, w.args...)
	if err != nil {
		return nil, fmt.Errorf("tables: read %s: %w", ent.Name, err)
	}
	defer res.Close()
	out := make(map[int64]storedRow, len(ids))
	for res.Next() {
		if err := res.Scan(dst...); err != nil {
			return nil, fmt.Errorf("tables: read %s: %w", ent.Name, err)
		}
		id, err := strconv.ParseInt(string(raw[0]), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("tables: read %s: key %q: %w", ent.Name, raw[0], err)
		}
		version, err := strconv.ParseInt(string(raw[1]), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("tables: read %s %d: row_version %q: %w", ent.Name, id, raw[1], err)
		}
		rec := validate.Record{}
		for i, n := range names {
			f, _ := ent.Field(n)
			rec[n] = plainValue(f.Type, raw[i+2])
		}
		out[id] = storedRow{rec: rec, version: version}
	}
	if err := res.Err(); err != nil {
		return nil, fmt.Errorf("tables: read %s: %w", ent.Name, err)
	}
	return out, nil
}

// bulkUpdate writes rows of one entity as Engine.update does (the next
// row_version, checked: 409 when it moved), many rows per statement, each
// statement text prepared once per transaction.
type bulkUpdate struct {
	tx    *db.Tx
	ent   *schema.Entity
	stmts map[string]*sql.Stmt
}

// pendingRow is one record to update: its key, the row_version read, and
// the values of the columns that change.
type pendingRow struct {
	id, version int64
	values      validate.Record
}

// updateMany writes rows in one statement: each column is set by a CASE
// over the key, the row_version of each row is checked the same way, and
// the statement must change exactly len(rows) rows (409 otherwise). One
// statement instead of one per row matters on SQLite, which journals every
// page a statement touches once per statement. The "ELSE column" branches
// give the CASE its column's type on PostgreSQL; no row takes them.
func (u *bulkUpdate) updateMany(ctx context.Context, names []string, rows []pendingRow) error {
	if len(rows) == 0 {
		return nil
	}
	whens := strings.Repeat(" WHEN ? THEN ?", len(rows))
	pk, version := ident(u.ent.PK), ident(schema.RowVersionColumn)
	sets := make([]string, 0, len(names)+1)
	args := make([]any, 0, (len(names)+3)*len(rows))
	for _, n := range names {
		sets = append(sets, ident(n)+" = CASE "+pk+whens+" ELSE "+ident(n)+" END")
		for _, r := range rows {
			args = append(args, r.id, r.values[n])
		}
	}
	sets = append(sets, version+" = "+version+" + 1")
	for _, r := range rows {
		args = append(args, r.id, r.version)
	}
	for _, r := range rows {
		args = append(args, r.id)
	}
	query := "UPDATE " + ident(u.ent.Table) + " SET " + strings.Join(sets, ", ") +
		" WHERE " + version + " = CASE " + pk + whens + " ELSE " + version + " END AND " + pk + " IN (" + placeholders(len(rows)) + ")"
	st, ok := u.stmts[query]
	if !ok {
		var err error
		if st, err = u.tx.PrepareContext(ctx, query); err != nil {
			return fmt.Errorf("tables: update %s: %w", u.ent.Name, err)
		}
		u.stmts[query] = st
	}
	res, err := st.ExecContext(ctx, args...)
	if err != nil {
		return writeError(u.ent, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("tables: update %s: %w", u.ent.Name, err)
	}
	if n != int64(len(rows)) {
		return errStale() // a row's version moved since it was read
	}
	return nil
}

func (u *bulkUpdate) close() {
	for _, st := range u.stmts {
		st.Close()
	}
}

// historyRow is one record's encoded history changes.
type historyRow struct {
	id      int64
	changes string
}

// recordMany appends one trackrecord row per entry of rows (record, as
// record writes it), historyChunk rows per statement.
func (e *Engine) recordMany(ctx context.Context, tx *db.Tx, c *caller, typ string, ent *schema.Entity, rows []historyRow) error {
	at := e.now().UTC().Truncate(time.Second)
	user := c.userID()
	var full *sql.Stmt // the statement of a whole chunk, prepared once
	defer func() {
		if full != nil {
			full.Close()
		}
	}()
	for start := 0; start < len(rows); start += historyChunk {
		chunk := rows[start:min(start+historyChunk, len(rows))]
		values := make([]string, len(chunk))
		args := make([]any, 0, 6*len(chunk))
		for i, r := range chunk {
			values[i] = "(?, ?, ?, ?, ?, ?)"
			args = append(args, at, typ, ent.Name, r.id, r.changes, user)
		}
		query := `INSERT INTO trackrecord (trackrecord_timestamp, trackrecord_type, trackrecord_category,
		trackrecord_row_id, trackrecord_changes, user_id) VALUES ` + strings.Join(values, ", ")
		var err error
		switch {
		case len(chunk) < historyChunk:
			_, err = tx.ExecContext(ctx, query, args...)
		case full == nil:
			if full, err = tx.PrepareContext(ctx, query); err == nil {
				_, err = full.ExecContext(ctx, args...)
			}
		default:
			_, err = full.ExecContext(ctx, args...)
		}
		if err != nil {
			return fmt.Errorf("tables: write history of %s: %w", ent.Name, err)
		}
	}
	return nil
}
