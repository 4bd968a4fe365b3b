package tables

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// A Batch checks and creates many records of one entity for the caller of
// the context it was made with (an import): every row exactly as a
// generic create (create right, refusals, rules, hooks, references within
// the caller's tenant, unique values, the tenant check of the new row,
// history), but the caller, its rights and the message labels are read
// once, a referenced row found visible once is not looked up again, and
// the checked rows are stored together: one multi-row INSERT per group of
// rows (and one for their history rows) instead of a statement per row.
// SQLite flushes a full-text index at every statement that writes it, so
// a statement per row would make a large import slow beyond use.
// A Batch belongs to one transaction at a time and is not safe for
// concurrent use.
type Batch struct {
	e      *Engine
	c      *caller
	ent    *schema.Entity
	labels *messageTexts
	// unique holds the values of the entity's unique sets checked so far,
	// so that two rows of the batch cannot claim the same value.
	unique map[string]int
	// pending are the checked rows not stored yet (Add, Flush).
	pending []*change
}

// BatchOption adjusts a Batch.
type BatchOption func(*Batch)

// HistoryNote writes note as the comment of every history row the batch
// writes (the import that created the rows).
func HistoryNote(note string) BatchOption {
	return func(b *Batch) { b.c.note = note }
}

// NewBatch starts a batch of creates of entity for the caller of ctx: 403
// without the create right, 422 for an entity the generic API cannot
// create (CreatableGenerically).
func (e *Engine) NewBatch(ctx context.Context, entity string, opts ...BatchOption) (*Batch, error) {
	c, ent, err := e.writeTarget(ctx, entity, access.ActionCreate,
		func(x *schema.Entity) bool { return !CreatableGenerically(x) }, "server.tables.limit.create")
	if err != nil {
		return nil, err
	}
	labels, err := e.messageLabels(ctx, ent)
	if err != nil {
		return nil, err
	}
	c.seen = map[createdRow]bool{}
	b := &Batch{e: e, c: c, ent: ent, labels: labels, unique: map[string]int{}}
	for _, o := range opts {
		o(b)
	}
	return b, nil
}

// Check validates data as a create of the batch's entity inside tx without
// writing anything: the answer is nil or the 422 (apperr validation) the
// create would answer. Row numbers data as the n-th row of the batch for
// the unique values two rows of the batch share: the later row fails.
func (b *Batch) Check(ctx context.Context, tx *db.Tx, row int, data map[string]any) error {
	_, err := b.checked(ctx, tx, row, data)
	return err
}

func (b *Batch) checked(ctx context.Context, tx *db.Tx, row int, data map[string]any) (*change, error) {
	ch := newChange(b.ent, nil, b.labels)
	if err := b.e.check(ctx, tx, b.c, ch, data, 0); err != nil {
		return nil, err
	}
	return ch, b.checkBatchUnique(ch, row)
}

// Add validates data exactly as Check and, when it passes, keeps the row
// to be stored by the next Flush in the same transaction tx.
func (b *Batch) Add(ctx context.Context, tx *db.Tx, row int, data map[string]any) error {
	ch, err := b.checked(ctx, tx, row, data)
	if err != nil {
		return err
	}
	b.pending = append(b.pending, ch)
	return nil
}

// maxBatchArgs bounds the parameters of one multi-row statement (SQLite
// allows 32766, PostgreSQL 65535).
const maxBatchArgs = 30000

// maxBatchRows bounds the rows of one multi-row statement.
const maxBatchRows = 500

// Flush stores the rows added since the last Flush inside tx and answers
// their keys in the order they were added: each row's write hooks, the
// rows (one INSERT per run of rows filling the same columns), their
// multi-selects, the check that each new row is in the caller's tenant
// (403 otherwise) and their history rows.
func (b *Batch) Flush(ctx context.Context, tx *db.Tx) ([]int64, error) {
	rows := b.pending
	b.pending = nil
	ids := make([]int64, 0, len(rows))
	cols := make([]validate.Record, len(rows))
	hooked := make([]*WriteContext, len(rows))
	for i, ch := range rows {
		cols[i] = ch.columns()
		if h, ok := b.e.hooks[b.ent.Name]; ok {
			hooked[i] = &WriteContext{Entity: b.ent.Name, Creating: true, Values: cols[i], Record: ch.rec, Tx: tx}
			if err := h.BeforeWrite(ctx, hooked[i]); err != nil {
				return nil, err
			}
		}
	}
	for start := 0; start < len(rows); {
		names := sortedKeys(cols[start])
		end := start + 1
		limit := min(maxBatchRows, maxBatchArgs/max(1, len(names)))
		for end < len(rows) && end-start < limit && sameKeys(names, cols[end]) {
			end++
		}
		got, err := b.e.insertMany(ctx, tx, b.ent, names, cols[start:end])
		if err != nil {
			return nil, err
		}
		ids = append(ids, got...)
		start = end
	}
	for i, ch := range rows {
		id := ids[i]
		if w := hooked[i]; w != nil {
			w.ID = id
			if err := w.runLater(ctx); err != nil {
				return nil, err
			}
		}
		through := ch.throughChanges()
		for _, name := range sortedKeys(through) {
			f, _ := b.ent.Field(name)
			if err := b.e.replaceThrough(ctx, tx, b.ent, f, id, through[name]); err != nil {
				return nil, err
			}
		}
		if b.c.scope.limits(b.ent) {
			if ok, err := b.e.visible(ctx, tx, b.c.writer(), b.ent, id); err != nil || !ok {
				if err != nil {
					return nil, err
				}
				return nil, apperr.Forbidden("server.tables.out_of_scope")
			}
		}
		b.e.committedWrite(tx, b.ent.Name, id, historyCreate)
	}
	if err := b.recordMany(ctx, tx, rows, ids); err != nil {
		return nil, err
	}
	return ids, nil
}

func sameKeys(names []string, rec validate.Record) bool {
	if len(rec) != len(names) {
		return false
	}
	for _, n := range names {
		if _, ok := rec[n]; !ok {
			return false
		}
	}
	return true
}

// insertMany inserts rows filling columns names in one statement and
// answers their keys in the rows' order. Both databases hand out the keys
// of one statement's rows in ascending order as the rows are inserted
// (SQLite: the next rowid; PostgreSQL: the identity sequence, taken row by
// row in the order of the VALUES list), so the sorted keys are the rows'.
func (e *Engine) insertMany(ctx context.Context, tx *db.Tx, ent *schema.Entity, names []string, rows []validate.Record) ([]int64, error) {
	if len(names) == 0 {
		ids := make([]int64, 0, len(rows))
		for range rows {
			id, err := e.insert(ctx, tx, ent, validate.Record{})
			if err != nil {
				return nil, err
			}
			ids = append(ids, id)
		}
		return ids, nil
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = ident(n)
	}
	tuple := "(" + placeholders(len(names)) + ")"
	tuples := make([]string, len(rows))
	args := make([]any, 0, len(rows)*len(names))
	for i, r := range rows {
		tuples[i] = tuple
		for _, n := range names {
			args = append(args, r[n])
		}
	}
	res, err := tx.QueryContext(ctx, "INSERT INTO "+ident(ent.Table)+" ("+strings.Join(quoted, ", ")+") VALUES "+
		strings.Join(tuples, ", ")+" RETURNING "+ident(ent.PK), args...)
	if err != nil {
		return nil, writeError(ent, err)
	}
	defer res.Close()
	ids := make([]int64, 0, len(rows))
	for res.Next() {
		var id int64
		if err := res.Scan(&id); err != nil {
			return nil, fmt.Errorf("tables: insert %s: %w", ent.Name, err)
		}
		ids = append(ids, id)
	}
	if err := res.Err(); err != nil {
		return nil, writeError(ent, err)
	}
	if len(ids) != len(rows) {
		return nil, fmt.Errorf("tables: insert %s: %d keys for %d rows", ent.Name, len(ids), len(rows))
	}
	slices.Sort(ids)
	return ids, nil
}

// recordMany writes the history rows of rows created with keys ids, as
// record does for one, a few hundred rows a statement.
func (b *Batch) recordMany(ctx context.Context, tx *db.Tx, rows []*change, ids []int64) error {
	now := b.e.now().UTC().Truncate(time.Second)
	const per = 7
	for start := 0; start < len(rows); start += maxBatchRows {
		end := min(start+maxBatchRows, len(rows))
		tuples := make([]string, 0, end-start)
		args := make([]any, 0, (end-start)*per)
		for i := start; i < end; i++ {
			ch, err := json.Marshal(rows[i].diff())
			if err != nil {
				return fmt.Errorf("tables: encode history of %s %d: %w", b.ent.Name, ids[i], err)
			}
			tuples = append(tuples, "("+placeholders(per)+")")
			args = append(args, now, historyCreate, b.ent.Name, ids[i], string(ch), nullable(b.c.note), b.c.userID())
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO trackrecord (trackrecord_timestamp, trackrecord_type, trackrecord_category,
			trackrecord_row_id, trackrecord_changes, trackrecord_comment, user_id) VALUES `+strings.Join(tuples, ", "), args...)
		if err != nil {
			return fmt.Errorf("tables: write history of %s: %w", b.ent.Name, err)
		}
	}
	return nil
}

// Done tells the engine that the batch's transaction committed, as the
// generic create does after its commit (caches that depend on the entity).
func (b *Batch) Done() { b.e.wrote(b.ent) }

// checkBatchUnique refuses a row whose unique set values an earlier row of
// the batch holds already (the database does not know either row yet).
func (b *Batch) checkBatchUnique(ch *change, row int) error {
	for _, set := range b.ent.Unique {
		parts := make([]string, 0, len(set)+1)
		parts = append(parts, strings.Join(set, ","))
		for _, name := range set {
			v := ch.rec[name]
			if validate.Empty(v) {
				parts = nil
				break
			}
			parts = append(parts, fmt.Sprint(v))
		}
		if parts == nil {
			continue
		}
		key := strings.Join(parts, "\x00")
		if first, ok := b.unique[key]; ok && first != row {
			ch.fail(set[len(set)-1], "validation.unique", "unique", nil)
			continue
		}
		b.unique[key] = row
	}
	return ch.err()
}

// maxLabelArgs bounds the values of one label look-up statement.
const maxLabelArgs = 500

// ResolveLabels finds the rows of entity within the caller's tenant whose
// default label (as the lists and exports show it in the reference's
// column) or one of the text fields also equals one of values, and answers
// their keys per value: none (unknown), one, or several (ambiguous). The
// caller needs the read right on entity.
func (e *Engine) ResolveLabels(ctx context.Context, q db.Querier, entity string, also []string, values []string) (map[string][]int64, error) {
	c, ent, err := e.moduleTarget(ctx, access.ActionRead, entity)
	if err != nil {
		return nil, err
	}
	exprs := []string{}
	s := newSource(e.env(), c.scope, ent)
	label, err := s.labelOf(s.alias, ent, 0)
	if err != nil {
		return nil, err
	}
	if label != "" {
		exprs = append(exprs, label)
	}
	for _, name := range also {
		f, ok := ent.Field(name)
		if !ok || !f.Stored() || f.Type != schema.TypeString || !readable(f) || s.hidesField(ent, f) {
			return nil, fmt.Errorf("tables: %s.%s is no text field to look up", ent.Name, name)
		}
		exprs = append(exprs, col(s.alias, f.Name))
	}
	out := map[string][]int64{}
	for start := 0; start < len(values); start += maxLabelArgs {
		chunk := values[start:min(start+maxLabelArgs, len(values))]
		for _, expr := range exprs {
			if err := e.resolveChunk(ctx, q, s, ent, expr, chunk, out); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func (e *Engine) resolveChunk(ctx context.Context, q db.Querier, s *source, ent *schema.Entity, expr string, values []string, out map[string][]int64) error {
	where, err := s.where()
	if err != nil {
		return err
	}
	args := make([]any, len(values))
	for i, v := range values {
		args[i] = v
	}
	w := and(frag{sql: expr + " IN (" + placeholders(len(values)) + ")", args: args}, where)
	rows, err := q.QueryContext(ctx, "SELECT "+col(s.alias, ent.PK)+", "+expr+" FROM "+s.from()+" WHERE "+w.sql, w.args...)
	if err != nil {
		return fmt.Errorf("tables: look up labels of %s: %w", ent.Name, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var label string
		if err := rows.Scan(&id, &label); err != nil {
			return fmt.Errorf("tables: look up labels of %s: %w", ent.Name, err)
		}
		if !slices.Contains(out[label], id) {
			out[label] = append(out[label], id)
		}
	}
	return rows.Err()
}

// FieldLabels answers the translated labels of entity's fields in lang
// (attribute_i18n: an administrator's edits win over the shipped texts),
// exactly as the served definition and the export's column headings name
// them.
func (e *Engine) FieldLabels(ctx context.Context, entity, lang string) (map[string]string, error) {
	ent, err := e.entity(entity)
	if err != nil {
		return nil, err
	}
	texts, err := e.labels(ctx, lang)
	if err != nil {
		return nil, err
	}
	def, err := e.reg.Serve(ent.Name, lang, texts.fn())
	if err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	return fieldLabels(def), nil
}
