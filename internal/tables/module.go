package tables

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"portfolio/internal/access"
	"strconv"
	"strings"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/i18n"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// The module API: what a domain module (internal/<module>) uses to read
// and write tenant data, so that its reads and writes look exactly like the
// generic ones. Every operation acts as the caller of ctx: the same rights
// (403), the same tenant scope (a row outside it answers 404 like a missing
// one), the same validation (422 per field), references, history rows and
// row_version checks (409 stale). Writes take the module's transaction, so
// a module's several writes commit together or not at all:
//
//	Require                          the caller's right on an entity
//	GetIn, ReadIn, ListIn, VisibleTo  scoped reads (a record, its JSON, a page)
//	CreateIn, UpdateIn, DeleteIn      scoped writes with validation and history
//	CreateManyIn                     CreateIn for many rows (bulk: the generator)
//	                                 (WithValues, Referring: what only the module knows)
//	LinkIn, LinkNewIn, ChangeLinkIn, UnlinkIn   relation links
//	Scoped                           a FROM item for the statements the
//	                                 engine cannot express: the caller's rows
//	CustomList, WriteCustomList      GET lists in the specification's shape
//
// Hooks (hooks.go) are how a module adds its rules to every write.
//
// Snapshot, Changes and RecordHistory are for the users module, which
// stores users and teams with statements of its own; new modules use the
// scoped operations above.

// History types of trackrecord.trackrecord_type, for modules.
const (
	HistoryCreate = historyCreate
	HistoryUpdate = historyUpdate
	HistoryDelete = historyDelete
	HistoryLink   = historyLink
	HistoryUnlink = historyUnlink
)

// ErrStale is the answer to a stale row_version, as the generic writes give
// it: 409 server.tables.stale with code "stale".
func ErrStale() error { return errStale() }

// moduleCaller is the caller of ctx without a tenant scope: the module has
// already decided that the record is the caller's to change.
func (e *Engine) moduleCaller(ctx context.Context) (*caller, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return nil, apperr.Unauthorized("server.auth.not_authenticated")
	}
	return &caller{p: p, scope: Scope{}, lang: i18n.LangFrom(ctx)}, nil
}

func (e *Engine) entity(name string) (*schema.Entity, error) {
	ent, ok := e.reg.Entity(name)
	if !ok {
		return nil, errUnknownEntity(name)
	}
	return ent, nil
}

// Snapshot reads record id of entity as the generic writes compare it: the
// readable stored fields and the multi-selects stored through relations,
// and its row_version. It is not scoped (see moduleCaller); a missing row
// answers 404.
func (e *Engine) Snapshot(ctx context.Context, q db.Querier, entity string, id int64) (validate.Record, int64, error) {
	ent, err := e.entity(entity)
	if err != nil {
		return nil, 0, err
	}
	c, err := e.moduleCaller(ctx)
	if err != nil {
		return nil, 0, err
	}
	return e.recordOf(ctx, q, c, ent, id)
}

// recordOf is loadStored without the row_version among the values.
func (e *Engine) recordOf(ctx context.Context, q db.Querier, c *caller, ent *schema.Entity, id int64) (validate.Record, int64, error) {
	rec, version, err := e.loadStored(ctx, q, c, ent, id)
	if rec != nil {
		delete(rec, schema.RowVersionColumn)
	}
	return rec, version, err
}

// Changes are the history changes {"field": [old, new]} between two
// snapshots of a record of entity (old nil: created, now empty: deleted),
// with the generic writes' rules: only changed fields, write-only values
// as "***", internal fields and the key left out.
func (e *Engine) Changes(entity string, old, now validate.Record) (map[string][2]any, error) {
	ent, err := e.entity(entity)
	if err != nil {
		return nil, err
	}
	ch := newChange(ent, old, nil)
	ch.rec = validate.Record{}
	for k, v := range now {
		ch.rec[k] = v
	}
	return ch.diff(), nil
}

// RecordHistory appends one trackrecord row for a module's write of record
// id of entity, in the write's transaction q: the acting user of ctx, the
// time, typ (HistoryCreate, ...) and changes as Changes computes them (for
// links: {"<relation>": [old, new]}).
func (e *Engine) RecordHistory(ctx context.Context, q db.Querier, typ, entity string, id int64, changes map[string][2]any) error {
	ent, err := e.entity(entity)
	if err != nil {
		return err
	}
	c, err := e.moduleCaller(ctx)
	if err != nil {
		return err
	}
	if changes == nil {
		changes = map[string][2]any{}
	}
	return e.record(ctx, q, c, typ, ent, id, changes)
}

// VisibleTo reports whether row id of entity exists within the tenant scope
// and the row rules of p (internal users: every row no rule limits), decided exactly as every generic
// statement decides it. Modules use it to keep what they store about a
// user inside that user's own tenant.
func (e *Engine) VisibleTo(ctx context.Context, q db.Querier, p *auth.Principal, entity string, id int64) (bool, error) {
	ent, err := e.entity(entity)
	if err != nil {
		return false, err
	}
	return e.visible(ctx, q, &caller{p: p, scope: e.scopeOf(p)}, ent, id)
}

// LinkIn is Link inside the caller's transaction tx, so a module can add
// its own checks to the same transaction: rights on the tab, the owner
// visible, the link's values validated and its references visible, the
// row, and the owner's history.
func (e *Engine) LinkIn(ctx context.Context, tx *db.Tx, cmd LinkCommand) (json.RawMessage, error) {
	c, err := e.callerOf(ctx)
	if err != nil {
		return nil, err
	}
	return e.linkIn(ctx, tx, c, cmd)
}

// LinkNewIn is LinkIn for a row the module has just created in tx with
// CreateIn (entity newEntity, key newID) and links to its owner: the new
// row is taken as visible, since it becomes visible to an external caller
// only through this very link; the owner, the rights and the rules are
// checked as always. The module checks VisibleTo afterwards.
func (e *Engine) LinkNewIn(ctx context.Context, tx *db.Tx, cmd LinkCommand, newEntity string, newID int64) (json.RawMessage, error) {
	c, err := e.callerOf(ctx)
	if err != nil {
		return nil, err
	}
	c.created = []createdRow{{entity: newEntity, id: newID}}
	return e.linkIn(ctx, tx, c, cmd)
}

func (e *Engine) linkIn(ctx context.Context, tx *db.Tx, c *caller, cmd LinkCommand) (json.RawMessage, error) {
	t, own, other, err := e.linkTarget(ctx, tx, c, &cmd)
	if err != nil {
		return nil, err
	}
	labels, err := e.messageLabels(ctx, t.owner)
	if err != nil {
		return nil, err
	}
	rec, sent, err := e.linkRecord(ctx, tx, c, t, own, other, cmd, labels)
	if err != nil {
		return nil, err
	}
	if err := e.checkLinkHook(ctx, tx, t, cmd.OwnerID, other.Column, rec, sent); err != nil {
		return nil, err
	}
	out, err := e.insertLink(ctx, tx, t.link, rec)
	if err != nil {
		return nil, err
	}
	return out, e.record(ctx, tx, c, historyLink, t.owner, cmd.OwnerID,
		map[string][2]any{t.rel.Name: {nil, historyValue(rec[other.Column])}})
}

// UnlinkIn is Unlink inside the caller's transaction tx: the link stops
// counting today (valid_to = yesterday; one not started yet is removed;
// a link without validity is deleted), with the owner's history.
func (e *Engine) UnlinkIn(ctx context.Context, tx *db.Tx, cmd LinkCommand) error {
	c, err := e.callerOf(ctx)
	if err != nil {
		return err
	}
	t, own, other, err := e.linkTarget(ctx, tx, c, &cmd)
	if err != nil {
		return err
	}
	which, err := linkSelector(t.link, other, cmd.Data)
	if err != nil {
		return err
	}
	n, err := e.endLinks(ctx, tx, t.link, ident(own.Column)+" = ? AND "+which.sql, append([]any{cmd.OwnerID}, which.args...))
	if err != nil {
		return err
	}
	if n == 0 {
		return apperr.NotFound("server.tables.not_linked")
	}
	return e.record(ctx, tx, c, historyUnlink, t.owner, cmd.OwnerID, map[string][2]any{t.rel.Name: {historyValue(which.args[0]), nil}})
}

// ChangeLinkIn changes the attributes of an existing link inside tx. Data
// names the link by its own key where it has one (contract_area_id), else
// by the other end's key; the other end itself cannot change (422).
// Attributes not sent keep their stored values, null clears one; the
// result is validated like a new link (valid_to not before valid_from,
// references visible, the relation's link hook). The answer is the link
// row; a change writes the owner's history as update {"<relation>": [old
// row, new row]}, no change writes nothing. An unknown link answers 404
// server.tables.not_linked.
func (e *Engine) ChangeLinkIn(ctx context.Context, tx *db.Tx, cmd LinkCommand) (json.RawMessage, error) {
	c, err := e.callerOf(ctx)
	if err != nil {
		return nil, err
	}
	t, own, other, err := e.linkTarget(ctx, tx, c, &cmd)
	if err != nil {
		return nil, err
	}
	sel, err := linkSelector(t.link, other, cmd.Data)
	if err != nil {
		return nil, err
	}
	stored, otherID, err := e.linkAttrs(ctx, tx, t.link, own, other, cmd.OwnerID, sel)
	if err != nil {
		return nil, err
	}
	if raw, ok := cmd.Data[other.Column]; ok {
		if sent, err := idValue(raw); err != nil || sent != otherID {
			return nil, apperr.Validation(apperr.FieldError{Field: other.Column, Key: "validation.not_writable", Type: "not_writable",
				Args: map[string]string{"field": other.Column}})
		}
	}
	merged := map[string]any{other.Column: otherID}
	for k, v := range stored {
		merged[k] = historyValue(v)
	}
	for k, v := range cmd.Data {
		if k != t.link.ID {
			merged[k] = v
		}
	}
	labels, err := e.messageLabels(ctx, t.owner)
	if err != nil {
		return nil, err
	}
	rec, sent, err := e.linkRecord(ctx, tx, c, t, own, other, LinkCommand{Relation: cmd.Relation, OwnerID: cmd.OwnerID, Data: merged}, labels)
	if err != nil {
		return nil, err
	}
	if err := e.checkLinkHook(ctx, tx, t, cmd.OwnerID, other.Column, rec, sent); err != nil {
		return nil, err
	}
	before, after := map[string]any{other.Column: otherID}, map[string]any{other.Column: otherID}
	if t.link.ID != "" {
		after[t.link.ID] = sel.args[0]
	}
	var sets []string
	var args []any
	changed := false
	for i := range t.link.Attrs {
		name := t.link.Attrs[i].Name
		before[name], after[name] = historyValue(stored[name]), historyValue(rec[name])
		if !validate.Equal(stored[name], rec[name]) {
			changed = true
		}
		var v any
		if !validate.Empty(rec[name]) {
			v = rec[name]
		}
		sets = append(sets, ident(name)+" = ?")
		args = append(args, v)
	}
	after[own.Column] = cmd.OwnerID
	out, err := json.Marshal(after)
	if err != nil {
		return nil, fmt.Errorf("tables: encode link: %w", err)
	}
	if !changed {
		return out, nil
	}
	_, err = tx.ExecContext(ctx, "UPDATE "+ident(t.link.Table)+" SET "+strings.Join(sets, ", ")+" WHERE "+
		ident(own.Column)+" = ? AND "+sel.sql, append(append(args, cmd.OwnerID), sel.args...)...)
	if err != nil {
		return nil, linkError(t.link, err)
	}
	delete(after, own.Column)
	return out, e.record(ctx, tx, c, historyUpdate, t.owner, cmd.OwnerID, map[string][2]any{t.rel.Name: {before, after}})
}

// Require answers 401 or 403 unless the caller of ctx may do action on
// rows of entity, by the same rules as the generic API.
func (e *Engine) Require(ctx context.Context, action, entity string) error {
	c, err := e.callerOf(ctx)
	if err != nil {
		return err
	}
	ent, err := e.entity(entity)
	if err != nil {
		return err
	}
	return c.require(action, ent)
}

// RequireLink answers 403 unless the caller may add links of the
// many-to-many relation api (pos_location_rel), exactly as LinkIn decides
// it (the tab's update right); a module checks it before it promises
// links it will write later (an import's validation).
func (e *Engine) RequireLink(ctx context.Context, api string) error {
	c, err := e.callerOf(ctx)
	if err != nil {
		return err
	}
	t, err := e.resolveTarget(api)
	if err != nil {
		return err
	}
	if t.rel == nil || t.link == nil {
		return apperr.Validation(apperr.FieldError{Field: "entity", Key: "server.tables.not_linkable", Type: "value_error",
			Args: map[string]string{"field": "entity"}})
	}
	return c.requireTab(access.ActionUpdate, t)
}

// CreateIn validates and stores a new record of entity inside tx exactly as
// a generic create does (create right, refusals, rules, references,
// history); opts add what only the module knows (WithValues, Referring).
// The new row must be in the caller's tenant, checked after the write as
// the generic create checks it (403 otherwise), unless the module says
// with LinkedLater that the row joins the tenant only through what it
// writes next.
func (e *Engine) CreateIn(ctx context.Context, tx *db.Tx, entity string, data map[string]any, opts ...WriteOption) (int64, error) {
	c, ent, err := e.moduleTarget(ctx, access.ActionCreate, entity)
	if err != nil {
		return 0, err
	}
	labels, err := e.messageLabels(ctx, ent)
	if err != nil {
		return 0, err
	}
	ch := newChange(ent, nil, labels)
	applyWriteOptions(c, ch, opts)
	return e.save(ctx, tx, c, ch, data, 0)
}

// WriteOption adds to a module's write (CreateIn, UpdateIn) what only the
// module knows.
type WriteOption func(*writeOptions)

type writeOptions struct {
	values      validate.Record
	created     []createdRow
	linkedLater bool
}

// LinkedLater leaves out CreateIn's tenant check for a row that joins the
// caller's tenant only through what the module writes next in the same
// transaction: a document through the link to its owner, a new address
// through the location that refers to it (Referring). The module then
// answers for the row: it checks its owner, or the referring record is
// checked in its place.
func LinkedLater() WriteOption {
	return func(o *writeOptions) { o.linkedLater = true }
}

// WithValues stores values in fields the API may not write (a document's
// file, size and MIME type), after the request's values are checked.
func WithValues(values validate.Record) WriteOption {
	return func(o *writeOptions) { o.values = values }
}

// NewRow names a row a module has just created in its transaction.
type NewRow struct {
	Entity string
	ID     int64
}

// Referring lets the write's reference fields name rows, which the module
// has just created in the same transaction (a new location's new address,
// a new contact person's address and contact details): they count as
// visible to the caller, since they become visible to an external caller
// only through this very record. Every other reference is checked as
// always. Zero rows change nothing.
func Referring(rows ...NewRow) WriteOption {
	return func(o *writeOptions) {
		for _, row := range rows {
			if row.ID > 0 {
				o.created = append(o.created, createdRow{entity: row.Entity, id: row.ID})
			}
		}
	}
}

func applyWriteOptions(c *caller, ch *change, opts []WriteOption) {
	var o writeOptions
	for _, opt := range opts {
		opt(&o)
	}
	ch.module = o.values
	ch.scopeLater = o.linkedLater
	if o.created != nil {
		c.created = o.created
	}
}

// ChangeLink changes the attributes of an existing link (ChangeLinkIn in
// a transaction of its own): the generic action update-link.
func (e *Engine) ChangeLink(ctx context.Context, cmd LinkCommand) (*WriteAnswer, error) {
	var out json.RawMessage
	err := e.db.InTx(ctx, func(tx *db.Tx) error {
		var err error
		out, err = e.ChangeLinkIn(ctx, tx, cmd)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &WriteAnswer{Data: out}, nil
}

// linkAttrs reads the link of owner selected by sel (the link's own key,
// or the other end's key for a link without one): its attributes and the
// other end's key; 404 when there is none.
func (e *Engine) linkAttrs(ctx context.Context, q db.Querier, l *schema.Link, own, other schema.LinkEnd, ownerID int64, sel frag) (validate.Record, int64, error) {
	cols := []string{ident(other.Column)}
	for i := range l.Attrs {
		cols = append(cols, ident(l.Attrs[i].Name))
	}
	raw := make([]sql.RawBytes, len(cols))
	dst := make([]any, len(cols))
	for i := range raw {
		dst[i] = &raw[i]
	}
	rows, err := q.QueryContext(ctx, "SELECT "+strings.Join(cols, ", ")+" FROM "+ident(l.Table)+" WHERE "+
		ident(own.Column)+" = ? AND "+sel.sql, append([]any{ownerID}, sel.args...)...)
	if err != nil {
		return nil, 0, fmt.Errorf("tables: read link %s: %w", l.Table, err)
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return nil, 0, fmt.Errorf("tables: read link %s: %w", l.Table, err)
		}
		return nil, 0, apperr.NotFound("server.tables.not_linked")
	}
	if err := rows.Scan(dst...); err != nil {
		return nil, 0, fmt.Errorf("tables: read link %s: %w", l.Table, err)
	}
	otherID, err := strconv.ParseInt(string(raw[0]), 10, 64)
	if err != nil {
		return nil, 0, fmt.Errorf("tables: read link %s: other key %q: %w", l.Table, raw[0], err)
	}
	rec := validate.Record{}
	for i := range l.Attrs {
		rec[l.Attrs[i].Name] = plainValue(l.Attrs[i].Type, raw[i+1])
	}
	return rec, otherID, rows.Err()
}

// GetIn reads record id of entity as the generic writes see it: canonical
// values of its readable stored fields and multi-selects, and its
// row_version. The caller needs the read right; a row outside the caller's
// tenant answers 404.
func (e *Engine) GetIn(ctx context.Context, q db.Querier, entity string, id int64) (validate.Record, int64, error) {
	c, ent, err := e.moduleTarget(ctx, access.ActionRead, entity)
	if err != nil {
		return nil, 0, err
	}
	return e.recordOf(ctx, q, c, ent, id)
}

// ReadIn answers record id of entity as the generic read renders it
// (labels, computed fields, row_version, multi-selects), for a module's
// answer; read right and tenant as GetIn.
func (e *Engine) ReadIn(ctx context.Context, q db.Querier, entity string, id int64) (json.RawMessage, error) {
	c, ent, err := e.moduleTarget(ctx, access.ActionRead, entity)
	if err != nil {
		return nil, err
	}
	return e.readRow(ctx, q, c, ent, id)
}

// ListIn is List reading through q (a module's transaction sees its own
// writes). The served attribute definitions are left out.
func (e *Engine) ListIn(ctx context.Context, q db.Querier, lq ListQuery) (*Cursor, error) {
	c, err := e.callerOf(ctx)
	if err != nil {
		return nil, err
	}
	t, err := e.resolveTarget(lq.Entity)
	if err != nil {
		return nil, err
	}
	if err := e.authorizeList(c, t); err != nil {
		return nil, err
	}
	p, err := e.plan(ctx, c, t, lq)
	if err != nil {
		return nil, err
	}
	return e.open(ctx, q, c, p, lq.Count)
}

// UpdateIn validates and stores cmd inside tx exactly as a generic update
// does (update right, tenant before and after, refusals, rules, references,
// the row_version the caller read, history); opts as for CreateIn. Nothing
// changes: nothing is written.
func (e *Engine) UpdateIn(ctx context.Context, tx *db.Tx, cmd UpdateCommand, opts ...WriteOption) error {
	c, ent, err := e.moduleTarget(ctx, access.ActionUpdate, cmd.Entity)
	if err != nil {
		return err
	}
	if cmd.RowVersion <= 0 {
		return errVersionMissing()
	}
	labels, err := e.messageLabels(ctx, ent)
	if err != nil {
		return err
	}
	return e.updateRow(ctx, tx, c, ent, labels, cmd, opts)
}

// DeleteIn removes record id of entity inside tx exactly as a generic
// delete does (remove right, tenant, row_version, 409 naming referrers,
// history). rowVersion 0 skips the version check, for a module deleting a
// row its own request named only by key.
func (e *Engine) DeleteIn(ctx context.Context, tx *db.Tx, entity string, id, rowVersion int64) error {
	c, ent, err := e.moduleTarget(ctx, access.ActionRemove, entity)
	if err != nil {
		return err
	}
	return e.deleteOne(ctx, tx, c, ent, id, rowVersion, c.lang)
}

// MustSeeIn answers 404 unless row id of entity exists within the
// caller's tenant (no right is checked: the module has checked the one its
// operation needs).
func (e *Engine) MustSeeIn(ctx context.Context, q db.Querier, entity string, id int64) error {
	c, err := e.callerOf(ctx)
	if err != nil {
		return err
	}
	ent, err := e.entity(entity)
	if err != nil {
		return err
	}
	return e.mustSee(ctx, q, c, ent, id)
}

// ScopedSource is a FROM item over the rows of one entity that the caller
// sees: "(SELECT * FROM <table> WHERE <tenant scope>) alias", or the bare
// table for callers without a tenant scope. A module's own statement puts
// SQL where it would name the table and passes Args before its own
// arguments.
type ScopedSource struct {
	SQL  string
	Args []any
}

// Scoped returns the caller's rows of entity as a FROM item aliased alias
// (a plain identifier of the module's choosing). It adds the tenant scope
// only: the module checks the caller's right (Require) itself.
func (e *Engine) Scoped(ctx context.Context, entity, alias string) (ScopedSource, error) {
	c, err := e.callerOf(ctx)
	if err != nil {
		return ScopedSource{}, err
	}
	ent, err := e.entity(entity)
	if err != nil {
		return ScopedSource{}, err
	}
	if !validAlias(alias) {
		return ScopedSource{}, fmt.Errorf("tables: scoped %s: alias %q is not a plain identifier", entity, alias)
	}
	if !c.scope.limits(ent) {
		return ScopedSource{SQL: ident(ent.Table) + " " + alias}, nil
	}
	s := newSource(e.env(), c.scope, ent)
	where, err := s.where()
	if err != nil {
		return ScopedSource{}, err
	}
	return ScopedSource{SQL: "(SELECT * FROM " + s.from() + " WHERE " + where.sql + ") " + alias, Args: where.args}, nil
}

// validAlias reports whether a is a lower-case identifier.
func validAlias(a string) bool {
	if a == "" || len(a) > 30 {
		return false
	}
	for i, r := range a {
		if !(r >= 'a' && r <= 'z' || r == '_' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// moduleTarget resolves entity and the caller's right to do action on it.
func (e *Engine) moduleTarget(ctx context.Context, action, entity string) (*caller, *schema.Entity, error) {
	c, err := e.callerOf(ctx)
	if err != nil {
		return nil, nil, err
	}
	ent, err := e.entity(entity)
	if err != nil {
		return nil, nil, err
	}
	if err := c.require(action, ent); err != nil {
		return nil, nil, err
	}
	return c, ent, nil
}

// DeriveIn stores values a module derives into read-only fields of record
// id of entity (a deadline's notice date, computed from its contract)
// inside tx: only values that differ from the stored ones are written,
// with the next row_version and a history row; it reports whether
// anything changed. The record must lie within the caller's tenant (404
// otherwise); no right beyond that is needed, since the caller changed
// what the values derive from. A background job acts AsSystem: no tenant
// scope, and its history names no user.
func (e *Engine) DeriveIn(ctx context.Context, tx *db.Tx, entity string, id int64, values validate.Record) (bool, error) {
	ent, err := e.entity(entity)
	if err != nil {
		return false, err
	}
	c, err := e.callerOf(ctx)
	if err != nil {
		return false, err
	}
	names := sortedKeys(values)
	for _, n := range names {
		f, ok := ent.Field(n)
		if !ok || !f.Stored() || f.Writable() {
			return false, fmt.Errorf("tables: derive %s.%s: not a read-only column", entity, n)
		}
	}
	stored, version, err := e.storedColumns(ctx, tx, c, ent, id, names)
	if err != nil {
		return false, err
	}
	cols, changes := validate.Record{}, map[string][2]any{}
	for _, n := range names {
		if !validate.Equal(stored[n], values[n]) {
			cols[n] = values[n]
			changes[n] = [2]any{historyValue(stored[n]), historyValue(values[n])}
		}
	}
	if len(cols) == 0 {
		return false, nil
	}
	if err := e.update(ctx, tx, ent, id, version, cols); err != nil {
		return false, err
	}
	return true, e.record(ctx, tx, c, historyUpdate, ent, id, changes)
}

// storedColumns reads columns names and the row_version of record id of
// ent within the caller's scope (404 outside it), as canonical values.
func (e *Engine) storedColumns(ctx context.Context, q db.Querier, c *caller, ent *schema.Entity, id int64, names []string) (validate.Record, int64, error) {
	got, err := e.storedMany(ctx, q, c, ent, []int64{id}, names)
	if err != nil {
		return nil, 0, err
	}
	r, ok := got[id]
	if !ok {
		return nil, 0, errNotFound()
	}
	return r.rec, r.version, nil
}
