package tables

import (
	"context"

	"portfolio/internal/access"
	"portfolio/internal/db"
)

// NewRow names a row a module has just created in its transaction with
// CreateIn and that another write of the same transaction refers to (the
// address of a new location).
type NewRow struct {
	Entity string
	ID     int64
}

// CreateReferringIn is CreateIn for a record whose reference fields name
// ref, a row the module has just created in tx: ref counts as visible to
// the caller, since it becomes visible to an external caller only through
// this very record (an address is in a tenant only through its location,
// company details or contact person). Every other reference, the rights
// and the rules are checked as always; the module checks VisibleTo on the
// new record afterwards, as after CreateIn.
func (e *Engine) CreateReferringIn(ctx context.Context, tx *db.Tx, entity string, data map[string]any, ref NewRow) (int64, error) {
	c, err := e.callerOf(ctx)
	if err != nil {
		return 0, err
	}
	ent, err := e.entity(entity)
	if err != nil {
		return 0, err
	}
	if err := c.require(access.ActionCreate, ent); err != nil {
		return 0, err
	}
	labels, err := e.messageLabels(ctx, ent)
	if err != nil {
		return 0, err
	}
	c.created = &createdRow{entity: ref.Entity, id: ref.ID}
	ch := newChange(ent, nil, labels)
	ch.scopeLater = true
	return e.save(ctx, tx, c, ch, data, 0)
}

// UpdateReferringIn is UpdateIn for an update whose reference fields name
// ref, a row the module has just created in tx (see CreateReferringIn).
// The record updated must be in the caller's tenant before and after.
func (e *Engine) UpdateReferringIn(ctx context.Context, tx *db.Tx, cmd UpdateCommand, ref NewRow) error {
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
	stored, version, err := e.loadStored(ctx, tx, c, ent, cmd.ID)
	if err != nil {
		return err
	}
	if version != cmd.RowVersion {
		return errStale()
	}
	c.created = &createdRow{entity: ref.Entity, id: ref.ID}
	ch := newChange(ent, stored, labels)
	ch.version = version
	_, err = e.save(ctx, tx, c, ch, cmd.Data, cmd.ID)
	return err
}
