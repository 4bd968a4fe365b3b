package tables

import (
	"context"
	"encoding/json"
	"fmt"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
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
	ids := make([]int64, 0, len(rows))
	history := make([]historyRow, 0, len(rows))
	later := false
	for _, data := range rows {
		ch := newChange(ent, nil, labels)
		applyWriteOptions(&c, ch, opts)
		later = ch.scopeLater
		if err := e.check(ctx, tx, &c, ch, data, 0); err != nil {
			return nil, err
		}
		cols := ch.columns()
		if h, ok := e.hooks[ent.Name]; ok {
			if err := h.BeforeWrite(ctx, &WriteContext{Entity: ent.Name, Creating: true, Values: cols, Record: ch.rec, Tx: tx}); err != nil {
				return nil, err
			}
		}
		id, err := e.insert(ctx, tx, ent, cols)
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
	if c.scope.limits(ent) && !later {
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
