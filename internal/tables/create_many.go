package tables

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
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
// Referring count as visible, as in CreateIn), the rows are inserted one
// statement each (prepared once by the database layer), the tenant of the
// new rows is checked in chunks of keys after the inserts (403
// server.tables.out_of_scope when one left it, unless LinkedLater), and
// the history rows are written in multi-row statements. The first row
// that fails its checks ends the call with that row's error; the module's
// transaction then writes nothing. It answers the new keys in the order of
// rows.
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
	ins := &bulkInsert{tx: tx, ent: ent, stmts: map[string]*sql.Stmt{}}
	defer ins.close()
	ids := make([]int64, 0, len(rows))
	history := make([]historyRow, 0, len(rows))
	for _, data := range rows {
		ch := newChange(ent, nil, labels)
		ch.module, ch.scopeLater = o.values, o.linkedLater
		if err := e.check(ctx, tx, &c, ch, data, 0); err != nil {
			return nil, err
		}
		cols := ch.columns()
		if h, ok := e.hooks[ent.Name]; ok {
			if err := h.BeforeWrite(ctx, &WriteContext{Entity: ent.Name, Creating: true, Values: cols, Record: ch.rec, Tx: tx}); err != nil {
				return nil, err
			}
		}
		id, err := ins.insert(ctx, cols)
		if err != nil {
			return nil, err
		}
		through := ch.throughChanges()
		for _, name := range sortedKeys(through) {
			f, _ := ent.Field(name)
			if err := e.replaceThrough(ctx, tx, ent, f, id, through[name]); err != nil {
				return nil, err
			}
		}
		b, err := json.Marshal(ch.diff())
		if err != nil {
			return nil, fmt.Errorf("tables: encode history of %s %d: %w", ent.Name, id, err)
		}
		ids = append(ids, id)
		history = append(history, historyRow{id: id, changes: string(b)})
		e.committedWrite(tx, ent.Name, id, historyCreate)
	}
	if c.scope.limits(ent) && !o.linkedLater {
		for start := 0; start < len(ids); start += createScopeChunk {
			chunk := ids[start:min(start+createScopeChunk, len(ids))]
			got, err := e.storedMany(ctx, tx, &c, ent, chunk, nil)
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

// bulkInsert inserts rows of one entity as Engine.insert does, each
// statement text (one per set of columns) prepared once per call.
type bulkInsert struct {
	tx    *db.Tx
	ent   *schema.Entity
	stmts map[string]*sql.Stmt
}

func (b *bulkInsert) insert(ctx context.Context, cols validate.Record) (int64, error) {
	names := sortedKeys(cols)
	key := strings.Join(names, ",")
	st, ok := b.stmts[key]
	if !ok {
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = ident(n)
		}
		text := "INSERT INTO " + ident(b.ent.Table) + " (" + strings.Join(quoted, ", ") + ") VALUES (" + placeholders(len(names)) + ")"
		if len(names) == 0 {
			text = "INSERT INTO " + ident(b.ent.Table) + " DEFAULT VALUES"
		}
		var err error
		if st, err = b.tx.PrepareContext(ctx, text+" RETURNING "+ident(b.ent.PK)); err != nil {
			return 0, fmt.Errorf("tables: prepare insert into %s: %w", b.ent.Name, err)
		}
		b.stmts[key] = st
	}
	args := make([]any, len(names))
	for i, n := range names {
		args[i] = cols[n]
	}
	var id int64
	if err := st.QueryRowContext(ctx, args...).Scan(&id); err != nil {
		return 0, writeError(b.ent, err)
	}
	return id, nil
}

func (b *bulkInsert) close() {
	for _, st := range b.stmts {
		st.Close()
	}
}
