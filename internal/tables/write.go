package tables

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/i18n"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// CreateCommand creates one record from data (field → value as decoded
// with UseNumber).
type CreateCommand struct {
	Entity string
	Data   map[string]any
}

// UpdateCommand changes the named fields of one record; RowVersion must be
// the version the caller read (0: missing).
type UpdateCommand struct {
	Entity     string
	ID         int64
	RowVersion int64
	Data       map[string]any
}

// DeleteCommand deletes records: one with its RowVersion, or several
// (bulk, all or nothing) without.
type DeleteCommand struct {
	Entity     string
	IDs        []int64
	RowVersion int64
	Bulk       bool
}

// MaxBulkDelete caps the ids of one bulk delete.
const MaxBulkDelete = 1000

// WriteAnswer is the record as stored after a create or update.
type WriteAnswer struct {
	Data json.RawMessage `json:"data"`
}

// writeTarget resolves the entity of a write, its limit and the caller's
// right.
func (e *Engine) writeTarget(ctx context.Context, name, action string, limited func(*schema.Entity) bool, limitKey string) (*caller, *schema.Entity, error) {
	c, err := e.callerOf(ctx)
	if err != nil {
		return nil, nil, err
	}
	ent, ok := e.reg.Entity(name)
	if !ok {
		return nil, nil, errUnknownEntity(name)
	}
	if limited(ent) {
		return nil, nil, e.errLimit(c.lang, limitKey, ent)
	}
	if err := c.require(action, ent); err != nil {
		return nil, nil, err
	}
	return c, ent, nil
}

// CreatableGenerically reports whether the generic API can create rows of
// ent: its limits allow it and every column that must always be filled is
// one the API may write (or has a default, or is computed). A document's
// file, size and MIME type come from its upload, so documents are created
// by their module.
func CreatableGenerically(ent *schema.Entity) bool {
	if ent.Limits.NoCreate {
		return false
	}
	for i := range ent.Fields {
		f := &ent.Fields[i]
		if f.Stored() && f.Name != ent.PK && f.Derived == nil && f.Required.Always() && f.Default.IsZero() &&
			f.Type != schema.TypeBool && (!f.Writable() || f.HiddenOnCreate) {
			return false
		}
	}
	return true
}

// Create validates and stores a new record with its history, in one
// transaction, and answers it as read back.
func (e *Engine) Create(ctx context.Context, cmd CreateCommand) (*WriteAnswer, error) {
	c, ent, err := e.writeTarget(ctx, cmd.Entity, access.ActionCreate,
		func(x *schema.Entity) bool { return !CreatableGenerically(x) }, "server.tables.limit.create")
	if err != nil {
		return nil, err
	}
	labels, err := e.messageLabels(ctx, ent)
	if err != nil {
		return nil, err
	}
	var id int64
	err = e.db.InTx(ctx, func(tx *db.Tx) error {
		id, err = e.save(ctx, tx, c, newChange(ent, nil, labels), cmd.Data, 0)
		return err
	})
	if err != nil {
		return nil, err
	}
	e.wrote(ent)
	return e.answerWritten(ctx, c, ent, id)
}

// answerWritten reads the row a write stored, as the caller sees it, after
// the commit: on SQLite a transaction holds the single writer, and reading
// the row with its labels inside it made every other write wait for that
// read too (docs/performance.md). The row is read as committed, so a
// concurrent write that followed shows in the answer with its row_version.
func (e *Engine) answerWritten(ctx context.Context, c *caller, ent *schema.Entity, id int64) (*WriteAnswer, error) {
	out, err := e.readRow(ctx, e.db, c, ent, id)
	if err != nil {
		return nil, fmt.Errorf("tables: read %s %d after writing it: %w", ent.Name, id, err)
	}
	return &WriteAnswer{Data: out}, nil
}

// Update validates the merged record (stored values and changes) and
// stores the changes with the next row_version and their history; a stale
// row_version answers 409.
func (e *Engine) Update(ctx context.Context, cmd UpdateCommand) (*WriteAnswer, error) {
	c, ent, err := e.writeTarget(ctx, cmd.Entity, access.ActionUpdate,
		func(x *schema.Entity) bool { return x.Limits.NoUpdate }, "server.tables.limit.update")
	if err != nil {
		return nil, err
	}
	if cmd.RowVersion <= 0 {
		return nil, errVersionMissing()
	}
	labels, err := e.messageLabels(ctx, ent)
	if err != nil {
		return nil, err
	}
	err = e.db.InTx(ctx, func(tx *db.Tx) error {
		return e.updateRow(ctx, tx, c, ent, labels, cmd, nil)
	})
	if err != nil {
		return nil, err
	}
	e.wrote(ent)
	return e.answerWritten(ctx, c, ent, cmd.ID)
}

// updateRow applies cmd to the stored record, provided it still has the
// row_version the caller read (409 otherwise), with the generic checks and
// the module's options.
func (e *Engine) updateRow(ctx context.Context, tx *db.Tx, c *caller, ent *schema.Entity, labels *messageTexts, cmd UpdateCommand, opts []WriteOption) error {
	stored, version, err := e.loadStored(ctx, tx, c.writer(), ent, cmd.ID)
	if err != nil {
		return err
	}
	if version != cmd.RowVersion {
		return errStale()
	}
	ch := newChange(ent, stored, labels)
	ch.version = version
	applyWriteOptions(c, ch, opts)
	_, err = e.save(ctx, tx, c, ch, cmd.Data, cmd.ID)
	return err
}

func errStale() error { return apperr.Conflict("server.tables.stale").WithCode("stale") }

func errVersionMissing() error {
	return apperr.Validation(apperr.FieldError{Field: "row_version", Key: "validation.required", Type: "missing",
		Args: map[string]string{"field": "row_version"}})
}

// save prepares, checks and writes one change (id 0: create) and returns
// the record's id.
func (e *Engine) save(ctx context.Context, tx *db.Tx, c *caller, ch *change, data map[string]any, id int64) (int64, error) {
	if err := e.check(ctx, tx, c, ch, data, id); err != nil {
		return 0, err
	}
	return e.store(ctx, tx, c, ch, id)
}

// check prepares and checks one change (id 0: create) before it is
// stored: refusals, locked values, module values, hidden fields, derived
// values, the Preparer hook, the rules, references and unique sets.
func (e *Engine) check(ctx context.Context, tx *db.Tx, c *caller, ch *change, data map[string]any, id int64) error {
	env := &validate.Env{Creating: ch.creating, Stored: ch.stored, Today: e.today(),
		Label: ch.label, Text: ch.labels.ruleText, OptionsFilled: e.optionsFilled(ctx, tx, c, ch.ent, ch.fields)}
	ch.apply(data)
	if err := ch.err(); err != nil {
		return err
	}
	ch.fill()
	if err := ch.refuse(env); err != nil {
		return err
	}
	if err := ch.err(); err != nil {
		return err
	}
	if err := e.prefill(c, ch); err != nil {
		return err
	}
	for k, v := range ch.module {
		ch.rec[k] = v
	}
	if err := ch.hide(env); err != nil {
		return err
	}
	ch.derive(e.now(), c.p.UserID)
	if p, ok := e.hooks[ch.ent.Name].(Preparer); ok {
		if err := p.Prepare(ctx, &WriteContext{Entity: ch.ent.Name, Creating: ch.creating, ID: id, Record: ch.rec, Stored: ch.stored, Tx: tx}); err != nil {
			return err
		}
	}
	errs, err := validate.Check(ch.fields, ch.rec, env)
	if err != nil {
		return fmt.Errorf("tables: validate %s: %w", ch.ent.Name, err)
	}
	ch.errs = append(ch.errs, errs...)
	if err := ch.err(); err != nil {
		return err
	}
	if err := e.checkRefs(ctx, tx, c, ch); err != nil {
		return err
	}
	return e.checkUnique(ctx, tx, ch, id)
}

// store writes the checked change: the row, its multi-selects, then makes
// sure the row is still in the caller's tenant, and records the history.
func (e *Engine) store(ctx context.Context, tx *db.Tx, c *caller, ch *change, id int64) (int64, error) {
	cols := ch.columns()
	through := ch.throughChanges()
	if !ch.creating && len(cols) == 0 && len(through) == 0 {
		return id, nil // nothing changes: no new version, no history
	}
	var hooked *WriteContext
	if h, ok := e.hooks[ch.ent.Name]; ok {
		hooked = &WriteContext{Entity: ch.ent.Name, Creating: ch.creating, ID: id, Values: cols, Record: ch.rec, Stored: ch.stored, Tx: tx}
		if err := h.BeforeWrite(ctx, hooked); err != nil {
			return 0, err
		}
	}
	var err error
	if ch.creating {
		id, err = e.insert(ctx, tx, ch.ent, cols)
	} else {
		err = e.update(ctx, tx, ch.ent, id, ch.version, cols)
	}
	if err != nil {
		return 0, err
	}
	if hooked != nil {
		if err := hooked.runLater(ctx); err != nil {
			return 0, err
		}
	}
	for _, name := range sortedKeys(through) {
		f, _ := ch.ent.Field(name)
		if err := e.replaceThrough(ctx, tx, ch.ent, f, id, through[name]); err != nil {
			return 0, err
		}
	}
	if c.scope.limits(ch.ent) && !ch.scopeLater {
		if ok, err := e.visible(ctx, tx, c.writer(), ch.ent, id); err != nil || !ok {
			if err != nil {
				return 0, err
			}
			return 0, apperr.Forbidden("server.tables.out_of_scope")
		}
	}
	typ := historyUpdate
	if ch.creating {
		typ = historyCreate
	}
	e.committedWrite(tx, ch.ent.Name, id, typ)
	return id, e.record(ctx, tx, c, typ, ch.ent, id, ch.diff())
}

func (e *Engine) insert(ctx context.Context, q db.Querier, ent *schema.Entity, cols validate.Record) (int64, error) {
	names := sortedKeys(cols)
	quoted := make([]string, len(names))
	args := make([]any, len(names))
	for i, n := range names {
		quoted[i], args[i] = ident(n), cols[n]
	}
	stmt := "INSERT INTO " + ident(ent.Table) + " (" + strings.Join(quoted, ", ") + ") VALUES (" + placeholders(len(names)) + ")"
	if len(names) == 0 {
		stmt = "INSERT INTO " + ident(ent.Table) + " DEFAULT VALUES"
	}
	var id int64
	err := q.QueryRowContext(ctx, stmt+" RETURNING "+ident(ent.PK), args...).Scan(&id)
	if err != nil {
		return 0, writeError(ent, err)
	}
	return id, nil
}

// update writes the changed columns and the next row_version, provided the
// row still has the version read (409 otherwise).
func (e *Engine) update(ctx context.Context, q db.Querier, ent *schema.Entity, id, version int64, cols validate.Record) error {
	names := sortedKeys(cols)
	sets := make([]string, 0, len(names)+1)
	args := make([]any, 0, len(names)+1)
	for _, n := range names {
		sets = append(sets, ident(n)+" = ?")
		args = append(args, cols[n])
	}
	sets = append(sets, ident(schema.RowVersionColumn)+" = "+ident(schema.RowVersionColumn)+" + 1")
	res, err := q.ExecContext(ctx, "UPDATE "+ident(ent.Table)+" SET "+strings.Join(sets, ", ")+
		" WHERE "+ident(ent.PK)+" = ? AND "+ident(schema.RowVersionColumn)+" = ?", append(args, id, version)...)
	if err != nil {
		return writeError(ent, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		if err != nil {
			return fmt.Errorf("tables: update %s %d: %w", ent.Name, id, err)
		}
		return errStale()
	}
	return nil
}

// writeError classifies a failed statement: constraint failures the checks
// did not foresee (a concurrent write) become 409, anything else is
// internal.
func writeError(ent *schema.Entity, err error) error {
	switch {
	case db.IsUniqueViolation(err):
		return apperr.Conflict("server.tables.duplicate").Wrap(err)
	case db.IsForeignKeyViolation(err):
		return apperr.Conflict("server.tables.still_used").Wrap(err)
	}
	return fmt.Errorf("tables: write %s: %w", ent.Name, err)
}

// replaceThrough makes the link rows of a multi-select hold exactly ids.
func (e *Engine) replaceThrough(ctx context.Context, q db.Querier, ent *schema.Entity, f *schema.Field, id int64, ids []int64) error {
	l, own, other, err := e.throughLink(ent, f)
	if err != nil {
		return err
	}
	del := "DELETE FROM " + ident(l.Table) + " WHERE " + ident(own.Column) + " = ?"
	args := []any{id}
	if len(ids) > 0 {
		del += " AND " + ident(other.Column) + " NOT IN (" + placeholders(len(ids)) + ")"
		for _, x := range ids {
			args = append(args, x)
		}
	}
	if _, err := q.ExecContext(ctx, del, args...); err != nil {
		return fmt.Errorf("tables: update %s.%s: %w", ent.Name, f.Name, err)
	}
	have, err := e.throughIDs(ctx, q, ent, f, id)
	if err != nil {
		return err
	}
	for _, x := range ids {
		if containsID(have, x) {
			continue
		}
		if _, err := q.ExecContext(ctx, "INSERT INTO "+ident(l.Table)+" ("+ident(own.Column)+", "+ident(other.Column)+") VALUES (?, ?)", id, x); err != nil {
			return writeError(ent, err)
		}
	}
	return nil
}

func containsID(ids []int64, x int64) bool {
	for _, y := range ids {
		if y == x {
			return true
		}
	}
	return false
}

// loadStored reads record id of ent as canonical values (with its
// multi-selects) and its row_version; 404 when the caller cannot see it.
func (e *Engine) loadStored(ctx context.Context, q db.Querier, c *caller, ent *schema.Entity, id int64) (validate.Record, int64, error) {
	cur, err := e.openOne(ctx, q, c, ent, id)
	if err != nil {
		return nil, 0, err
	}
	defer cur.Close()
	if !cur.Next() {
		if err := cur.Err(); err != nil {
			return nil, 0, err
		}
		return nil, 0, errNotFound()
	}
	rec := cur.Record()
	if err := cur.Err(); err != nil {
		return nil, 0, err
	}
	cur.Close()
	version, _ := rec[schema.RowVersionColumn].(int64)
	for i := range ent.Fields {
		f := &ent.Fields[i]
		if f.Through == "" {
			continue
		}
		ids, err := e.throughIDs(ctx, q, ent, f, id)
		if err != nil {
			return nil, 0, err
		}
		rec[f.Name] = ids
	}
	return rec, version, nil
}

// Delete removes records after checking that nothing still refers to them
// (409 naming the referrers); cascading children go with them. Everything
// happens in one transaction: a bulk delete removes all rows or none.
func (e *Engine) Delete(ctx context.Context, cmd DeleteCommand) error {
	c, ent, err := e.writeTarget(ctx, cmd.Entity, access.ActionRemove,
		func(x *schema.Entity) bool { return x.Limits.NoDelete }, "server.tables.limit.delete")
	if err != nil {
		return err
	}
	if len(cmd.IDs) == 0 || len(cmd.IDs) > MaxBulkDelete {
		return apperr.Validation(apperr.FieldError{Field: "ids", Key: "server.tables.bad_ids", Type: "value_error",
			Args: map[string]string{"field": "ids", "max": fmt.Sprint(MaxBulkDelete)}})
	}
	if !cmd.Bulk && cmd.RowVersion <= 0 {
		return errVersionMissing()
	}
	lang := i18n.LangFrom(ctx)
	err = e.db.InTx(ctx, func(tx *db.Tx) error {
		for _, id := range cmd.IDs {
			if err := e.deleteOne(ctx, tx, c, ent, id, cmd.RowVersion, lang); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		e.wrote(ent)
	}
	return err
}

func (e *Engine) deleteOne(ctx context.Context, tx *db.Tx, c *caller, ent *schema.Entity, id, version int64, lang string) error {
	stored, have, err := e.loadStored(ctx, tx, c.writer(), ent, id)
	if err != nil {
		return err
	}
	if version > 0 && have != version {
		return errStale()
	}
	refs, err := e.referrers(ctx, tx, ent, frag{sql: "?", args: []any{id}}, 0)
	if err != nil {
		return err
	}
	if len(refs) > 0 {
		return e.errReferenced(lang, ent, refs)
	}
	res, err := tx.ExecContext(ctx, "DELETE FROM "+ident(ent.Table)+" WHERE "+ident(ent.PK)+" = ? AND "+
		ident(schema.RowVersionColumn)+" = ?", id, have)
	if err != nil {
		return writeError(ent, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		if err != nil {
			return fmt.Errorf("tables: delete %s %d: %w", ent.Name, id, err)
		}
		return errStale()
	}
	gone := newChange(ent, stored, nil)
	gone.stored, gone.rec = stored, validate.Record{}
	e.committedWrite(tx, ent.Name, id, historyDelete)
	if err := e.record(ctx, tx, c, historyDelete, ent, id, gone.diff()); err != nil {
		return err
	}
	for _, h := range e.deleteHooks[ent.Name] {
		if err := h(ctx, &DeleteContext{Entity: ent.Name, ID: id, Stored: stored, Tx: tx}); err != nil {
			return err
		}
	}
	return nil
}

// messageTexts are the translated labels of an entity's fields and the
// attribute_i18n texts of the request's language, for messages.
type messageTexts struct {
	fields map[string]string
	texts  labelTexts
}

// messageLabels reads the message texts of ent in the request's language.
// They are rendered once per label cache entry (same lifetime, cleared by a
// label edit) and shared read-only: rendering the entity's definition on
// every write cost a few percent of a create (issue 19).
func (e *Engine) messageLabels(ctx context.Context, ent *schema.Entity) (*messageTexts, error) {
	lang := i18n.LangFrom(ctx)
	entry, err := e.labelEntry(ctx, lang)
	if err != nil {
		return nil, err
	}
	key := "\x00messages " + ent.Name // list.go keeps served definitions by entity name
	if v, ok := entry.served.Load(key); ok {
		return v.(*messageTexts), nil
	}
	def, err := e.reg.Serve(ent.Name, lang, entry.texts.fn())
	if err != nil {
		return nil, fmt.Errorf("tables: %w", err)
	}
	m := &messageTexts{fields: fieldLabels(def), texts: entry.texts}
	entry.served.Store(key, m)
	return m, nil
}

// ruleText translates a rule's declared message (regex failure messages)
// through attribute_i18n key "<field>.regexp"; the definitions' English
// text otherwise.
func (m *messageTexts) ruleText(field, message string) string {
	if m != nil {
		if s := m.texts[field+".regexp"]; s != "" {
			return s
		}
	}
	return message
}
