package tables

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"portfolio/internal/access"
	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// A Batch checks and creates many records of one entity for the caller of
// the context it was made with (an import): every row exactly as a
// generic create (create right, refusals, rules, hooks, references within
// the caller's tenant, unique values, the tenant check of the new row,
// history), but the caller, its rights and the message labels are read
// once, and a referenced row found visible once is not looked up again.
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
	ch := newChange(b.ent, nil, b.labels)
	if err := b.e.check(ctx, tx, b.c, ch, data, 0); err != nil {
		return err
	}
	return b.checkBatchUnique(ch, row)
}

// Create validates and stores data as a new record inside tx, exactly as
// CreateIn, and answers its key.
func (b *Batch) Create(ctx context.Context, tx *db.Tx, data map[string]any) (int64, error) {
	return b.e.save(ctx, tx, b.c, newChange(b.ent, nil, b.labels), data, 0)
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
	parts := make([]string, 0, len(ent.Label))
	for _, name := range ent.Label {
		lf, ok := ent.Field(name)
		if !ok {
			return nil, fmt.Errorf("tables: label field %s of %s missing", name, ent.Name)
		}
		part, err := s.labelPart(s.alias, ent, lf, 0)
		if err != nil {
			return nil, err
		}
		if part != "" {
			parts = append(parts, part)
		}
	}
	if len(parts) > 0 {
		exprs = append(exprs, db.JoinText(parts))
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
