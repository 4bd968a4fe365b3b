package tables

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// createScopeChunk is how many new keys one tenant check of CreateManyIn
// names.
const createScopeChunk = 500

// CreateManyIn is CreateIn for many new records of entity in one
// transaction, for a module's bulk writes (the contradiction generator's
// points): the same create right, refusals, rules, references, tenant
// check, commit events and history rows, in fewer statements. Each
// distinct reference is looked up once for the whole call (rows named by
// Referring count as visible, as in CreateIn); the rows are inserted up to
// createBatch per statement (insertMany) and their history rows in
// multi-row statements; the tenant of the new rows is checked in chunks
// of keys after the inserts (403 server.tables.out_of_scope when one left
// it, unless LinkedLater). The first row that fails its checks ends the
// call with that row's error; the module's transaction then writes
// nothing. It answers the new keys in the order of rows.
func (e *Engine) CreateManyIn(ctx context.Context, tx *db.Tx, entity string, rows []map[string]any, opts ...WriteOption) ([]int64, error) {
	c0, ent, err := e.moduleTarget(ctx, access.ActionCreate, entity)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, nil
	}
	labels, err := e.messageLabels(ctx, ent)
	if err != nil {
		return nil, err
	}
	c := *c0 // the lookups remembered below belong to this call only
	c.seen = map[createdRow]bool{}
	var o writeOptions
	for _, opt := range opts {
		opt(&o)
	}
	if o.created != nil {
		c.created = o.created
	}
	if err := e.seeRefs(ctx, tx, &c, ent, rows); err != nil {
		return nil, err
	}
	ins := &bulkInsert{tx: tx, ent: ent, stmts: map[string]*sql.Stmt{}}
	defer ins.close()
	ids := make([]int64, 0, len(rows))
	history := make([]historyRow, 0, len(rows))
	var batch []pendingCreate
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		keys, err := ins.insertMany(ctx, batch)
		if err != nil {
			return err
		}
		for i, p := range batch {
			id := keys[i]
			if p.hooked != nil {
				p.hooked.ID = id
				if err := p.hooked.runLater(ctx); err != nil {
					return err
				}
			}
			for _, name := range sortedKeys(p.through) {
				f, _ := ent.Field(name)
				if err := e.replaceThrough(ctx, tx, ent, f, id, p.through[name]); err != nil {
					return err
				}
			}
			ids = append(ids, id)
			history = append(history, historyRow{id: id, changes: p.changes})
			e.committedWrite(tx, ent.Name, id, historyCreate)
		}
		batch = batch[:0]
		return nil
	}
	for _, data := range rows {
		ch := newChange(ent, nil, labels)
		ch.module, ch.scopeLater = o.values, o.linkedLater
		if err := e.check(ctx, tx, &c, ch, data, 0); err != nil {
			return nil, err
		}
		cols := ch.columns()
		var hooked *WriteContext
		if h, ok := e.hooks[ent.Name]; ok {
			hooked = &WriteContext{Entity: ent.Name, Creating: true, Values: cols, Record: ch.rec, Tx: tx}
			if err := h.BeforeWrite(ctx, hooked); err != nil {
				return nil, err
			}
		}
		b, err := json.Marshal(ch.diff())
		if err != nil {
			return nil, fmt.Errorf("tables: encode history of %s: %w", ent.Name, err)
		}
		p := pendingCreate{names: sortedKeys(cols), cols: cols, through: ch.throughChanges(), changes: string(b), hooked: hooked}
		if len(batch) > 0 && (len(batch) >= min(createBatch, createParams/max(1, len(p.names))) ||
			strings.Join(batch[0].names, ",") != strings.Join(p.names, ",")) {
			if err := flush(); err != nil {
				return nil, err
			}
		}
		batch = append(batch, p)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if c.scope.limits(ent) && !o.linkedLater {
		for start := 0; start < len(ids); start += createScopeChunk {
			chunk := ids[start:min(start+createScopeChunk, len(ids))]
			got, err := e.storedMany(ctx, tx, c.writer(), ent, chunk, nil)
			if err != nil {
				return nil, err
			}
			if len(got) != len(chunk) {
				return nil, apperr.Forbidden("server.tables.out_of_scope")
			}
		}
	}
	return ids, e.recordMany(ctx, tx, &c, historyCreate, ent, history)
}

// seeRefs looks up, in chunks of keys, which of the rows' references the
// caller can see, and remembers the answers in c.seen for the rows'
// reference checks: one statement per chunk instead of one per distinct
// reference. Values that are not plain keys are left to the checks.
func (e *Engine) seeRefs(ctx context.Context, q db.Querier, c *caller, ent *schema.Entity, rows []map[string]any) error {
	for _, f := range ent.Fields {
		if f.Ref == "" || f.Internal || !f.Stored() {
			continue
		}
		target, ok := e.reg.Entity(f.Ref)
		if !ok {
			continue
		}
		var ids []int64
		seen := map[int64]bool{}
		for _, r := range rows {
			v, err := validate.Coerce(schema.TypeID, r[f.Name])
			id, ok := v.(int64)
			if err != nil || !ok || seen[id] || slices.Contains(c.created, createdRow{entity: target.Name, id: id}) {
				continue
			}
			seen[id] = true
			ids = append(ids, id)
		}
		for start := 0; start < len(ids); start += createScopeChunk {
			chunk := ids[start:min(start+createScopeChunk, len(ids))]
			got, err := e.storedMany(ctx, q, c, target, chunk, nil)
			if err != nil {
				return err
			}
			for _, id := range chunk {
				_, visible := got[id]
				c.seen[createdRow{entity: target.Name, id: id}] = visible
			}
		}
	}
	return nil
}

// pendingCreate is a checked new row waiting for its batch's insert.
type pendingCreate struct {
	names   []string
	cols    validate.Record
	through map[string][]int64
	changes string
	// hooked is the row's write hook context, whose queued functions
	// (WriteContext.Later) run once the row is inserted.
	hooked *WriteContext
}

// createBatch is how many rows one insert statement of CreateManyIn
// writes at most, and createParams how many values: far below the
// parameter limits of SQLite (32,766) and PostgreSQL (65,535).
const (
	createBatch  = 2000
	createParams = 30000
)

// bulkInsert inserts rows of one entity as Engine.insert does, many rows
// per statement, each statement text prepared once per call.
type bulkInsert struct {
	tx    *db.Tx
	ent   *schema.Entity
	stmts map[string]*sql.Stmt
}

// insertMany inserts rows (all with the same columns) in one statement
// and answers their keys in the order of rows. One statement for many
// rows matters on SQLite: the keyword search index (FTS5) flushes its
// pending terms at every statement's savepoint, so row-by-row inserts
// write a new index segment per row and merge them ever more often. Keys
// are assigned in the order of the VALUES list on both databases (SQLite:
// the next rowid per row; PostgreSQL: the column's sequence, evaluated per
// row in order), so the returned keys, sorted, are the rows' keys in
// order; RETURNING itself promises no order.
func (b *bulkInsert) insertMany(ctx context.Context, rows []pendingCreate) ([]int64, error) {
	names := rows[0].names
	key := strconv.Itoa(len(rows)) + ":" + strings.Join(names, ",")
	st, ok := b.stmts[key]
	if !ok {
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = ident(n)
		}
		values := make([]string, len(rows))
		for i := range values {
			values[i] = "(" + placeholders(len(names)) + ")"
		}
		text := "INSERT INTO " + ident(b.ent.Table) + " (" + strings.Join(quoted, ", ") + ") VALUES " + strings.Join(values, ", ")
		if len(names) == 0 {
			return b.insertEach(ctx, len(rows))
		}
		var err error
		if st, err = b.tx.PrepareContext(ctx, text+" RETURNING "+ident(b.ent.PK)); err != nil {
			return nil, fmt.Errorf("tables: prepare insert into %s: %w", b.ent.Name, err)
		}
		b.stmts[key] = st
	}
	args := make([]any, 0, len(rows)*len(names))
	for _, r := range rows {
		for _, n := range names {
			args = append(args, r.cols[n])
		}
	}
	res, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, writeError(b.ent, err)
	}
	defer res.Close()
	keys := make([]int64, 0, len(rows))
	for res.Next() {
		var id int64
		if err := res.Scan(&id); err != nil {
			return nil, writeError(b.ent, err)
		}
		keys = append(keys, id)
	}
	if err := res.Err(); err != nil {
		return nil, writeError(b.ent, err)
	}
	if len(keys) != len(rows) {
		return nil, fmt.Errorf("tables: insert into %s: %d keys for %d rows", b.ent.Name, len(keys), len(rows))
	}
	slices.Sort(keys)
	return keys, nil
}

// insertEach inserts n rows of defaults, one statement each.
func (b *bulkInsert) insertEach(ctx context.Context, n int) ([]int64, error) {
	keys := make([]int64, n)
	for i := range keys {
		if err := b.tx.QueryRowContext(ctx, "INSERT INTO "+ident(b.ent.Table)+" DEFAULT VALUES RETURNING "+ident(b.ent.PK)).Scan(&keys[i]); err != nil {
			return nil, writeError(b.ent, err)
		}
	}
	return keys, nil
}

func (b *bulkInsert) close() {
	for _, st := range b.stmts {
		st.Close()
	}
}
