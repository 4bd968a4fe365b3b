package tables

import (
	"context"
	"errors"
	"fmt"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// A reader field (schema.Field.Reader: a deadline's responsible user)
// names a person who must be able to read the record, because the product
// writes to them about it: the daily deadline mail reads as its recipient
// and would otherwise mail nothing, or, before, another tenant's data. A
// user is a reader of a record when their rights let them read the
// record's entity and they see every row the record's tenant anchors name
// (the deadline's contract): the same answer their own requests get. The
// options offer exactly those users and a write naming another answers
// 422 not_available at the field, nothing written.

// Principals builds the principal of a user who is not the caller
// (auth.Service.PrincipalOf); a missing or locked user answers a not-found
// error.
type Principals interface {
	PrincipalOf(ctx context.Context, id int64) (*auth.Principal, error)
}

// readerCheck tells for one record which users may read it: the rows its
// anchors name, looked up once, checked as each candidate.
type readerCheck struct {
	ent  *schema.Entity
	rows []createdRow // the anchors' rows, visible to the caller
}

// readerCheckOf collects the rows the record rec of ent names through its
// tenant anchors.
func (e *Engine) readerCheckOf(ent *schema.Entity, rec validate.Record) *readerCheck {
	rc := &readerCheck{ent: ent}
	for _, f := range ent.TenantAnchors() {
		for _, id := range idsOf(rec[f.Name]) {
			rc.rows = append(rc.rows, createdRow{entity: f.Ref, id: id})
		}
	}
	return rc
}

// mayRead reports whether user id is a reader of the record.
func (e *Engine) mayRead(ctx context.Context, q db.Querier, c *caller, rc *readerCheck, id int64) (bool, error) {
	reader, err := e.readerCaller(ctx, c, id)
	if err != nil || reader == nil {
		return false, err
	}
	if !reader.can(access.ActionRead, rc.ent) {
		return false, nil
	}
	for _, r := range rc.rows {
		target, ok := e.reg.Entity(r.entity)
		if !ok {
			return false, fmt.Errorf("tables: unknown entity %s", r.entity)
		}
		ok, err := e.visible(ctx, q, reader, target, r.id)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// readerCaller is user id as a caller (nil: missing or locked), built
// once per user for the caller of a Batch (an import's rows name the same
// few people).
func (e *Engine) readerCaller(ctx context.Context, c *caller, id int64) (*caller, error) {
	if reader, ok := c.readers[id]; ok {
		return reader, nil
	}
	if e.principals == nil {
		return nil, errors.New("tables: reader fields need the engine's Principals")
	}
	p, err := e.principals.PrincipalOf(ctx, id)
	if apperr.IsKind(err, apperr.KindNotFound) {
		p, err = nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tables: principal of user %d: %w", id, err)
	}
	var reader *caller
	if p != nil {
		rules, err := e.rights.Rules(ctx, e.db, p.Subject(), p.RightsGeneration)
		if err != nil {
			return nil, fmt.Errorf("tables: rights of user %d: %w", id, err)
		}
		reader = &caller{p: p, rules: rules, scope: e.scopeOf(p), lang: c.lang}
	}
	if c.seen != nil {
		if c.readers == nil {
			c.readers = map[int64]*caller{}
		}
		c.readers[id] = reader
	}
	return reader, nil
}

// checkReader refuses a reader field f whose user may not read the record
// (see above): checked when the write sets the user or moves the record
// to other anchors.
func (e *Engine) checkReader(ctx context.Context, q db.Querier, c *caller, ch *change, f *schema.Field) error {
	if !f.Reader {
		return nil
	}
	ids := idsOf(ch.rec[f.Name])
	if len(ids) == 0 {
		return nil
	}
	anchors := e.anchors(ch)
	if !ch.creating && validate.Equal(ch.rec[f.Name], ch.stored[f.Name]) && !anchorChanged(ch, anchors) {
		return nil
	}
	rc := e.readerCheckOf(ch.ent, ch.rec)
	for _, id := range ids {
		ok, err := e.mayRead(ctx, q, c, rc, id)
		if err != nil {
			return err
		}
		if !ok {
			ch.fail(f.Name, "validation.not_available", "not_available", nil)
			return nil
		}
	}
	return nil
}
