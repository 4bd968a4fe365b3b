package tables

import (
	"context"
	"fmt"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/i18n"
	"portfolio/internal/schema"
)

// caller is who a request acts for: the principal, its rights as of the
// rights generation the request read with its session, and the tenant
// scope.
type caller struct {
	p     *auth.Principal
	rules []access.Rule
	scope Scope
	lang  string
	// created are rows the caller's module created in this transaction
	// and is linking to their owner (Engine.LinkNewIn) or referring to
	// (Referring): references to them count as visible.
	created []createdRow
	// seen remembers, for the caller of a Batch, the referenced rows
	// already found visible in its transaction.
	seen map[createdRow]bool
	// groups remembers, for the caller of a Batch, the customer groups of
	// the referenced rows (rowGroups).
	groups map[createdRow][]int64
	// readers remembers, for the caller of a Batch, the users a reader
	// field named, as callers (readers.go; nil: missing or locked).
	readers map[int64]*caller
	// note is written as the comment of the history rows (a Batch's
	// import).
	note string
}

// createdRow names a row just created by a module.
type createdRow struct {
	entity string
	id     int64
}

// systemKey marks a context as the system's own (AsSystem).
type systemKey struct{}

// AsSystem returns a context in which the engine acts for the system
// itself, not for a user: every right, no tenant scope, history rows that
// name no user. Background jobs (the nightly recomputation of notice
// dates) use it; requests never do: their context carries the caller's
// principal, which always wins.
func AsSystem(ctx context.Context) context.Context { return context.WithValue(ctx, systemKey{}, true) }

// systemRules are the rights of the system: everything.
var systemRules = []access.Rule{{Action: access.ActionManage, Subject: access.SubjectAll}}

// callerOf reads the caller of ctx and its rights.
func (e *Engine) callerOf(ctx context.Context) (*caller, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		if system, _ := ctx.Value(systemKey{}).(bool); system {
			return &caller{p: &auth.Principal{}, rules: systemRules, lang: i18n.LangFrom(ctx)}, nil
		}
		return nil, apperr.Unauthorized("server.auth.not_authenticated")
	}
	rules, err := e.rights.Rules(ctx, e.db, p.Subject(), p.RightsGeneration)
	if err != nil {
		return nil, fmt.Errorf("tables: rights of user %d: %w", p.UserID, err)
	}
	c := &caller{p: p, rules: rules, scope: e.scopeOf(p), lang: i18n.LangFrom(ctx)}
	c.scope.masked = e.masksFor(c)
	c.note, _ = ctx.Value(noteKey{}).(string)
	return c, nil
}

type noteKey struct{}

// WithHistoryNote makes every module write under ctx (CreateIn, LinkIn,
// DeleteIn, …) write note as the comment of its history rows, as a
// Batch's HistoryNote does: an import names itself on every row it
// writes or removes.
func WithHistoryNote(ctx context.Context, note string) context.Context {
	return context.WithValue(ctx, noteKey{}, note)
}

// can reports whether the caller may do action on the entity's rows. The
// entity's permission subject (the table name of its table group) and its
// table-access subject, where spelt differently, are the same subject.
// writer is the caller as the writer of rows: its scope leaves out the
// rows client users may only read (TenantPath.CustomerRead), so an update,
// delete or link of such a row answers 404 and a write that leaves a row
// only readable is refused, whatever the caller's rights.
func (c *caller) writer() *caller {
	w := *c
	w.scope.writing = true
	return &w
}

func (c *caller) can(action string, e *schema.Entity) bool {
	return access.Can(c.rules, action, e.Subject) ||
		(e.AccessSubject != e.Subject && access.Can(c.rules, action, e.AccessSubject))
}

// require answers 403 unless the caller may do action on e.
func (c *caller) require(action string, e *schema.Entity) error {
	if !c.can(action, e) {
		return apperr.Forbidden("server.auth.forbidden")
	}
	return nil
}

// requireTab authorizes an action on the relation tab t (t.owner and t.rel
// set): ActionList to read its rows, ActionUpdate to link or unlink.
//
// A tab section 6 governs (access.GovernedTab: the listed tabs of points of
// sale, contracts and companies) is a subject of its own, named by its API
// name: reading needs read on the owner and list on the tab; linking and
// unlinking need update on the tab. Neither right on the related entity nor
// update on the owner can stand in for it, so a per-tab row (tax rates are
// the administrator's alone) holds whatever the caller's other rights are.
//
// Any other tab is authorized through the entities: reading needs read on
// the owner and list on the related entity; linking and unlinking need
// update on the owner.
//
// The tenant scope is applied afterwards, as everywhere: an invisible owner
// answers 404 and the rows are scoped by their own entity.
func (c *caller) requireTab(action string, t *target) error {
	api := t.rel.APIName(t.owner.Name)
	governed := access.GovernedTab(api)
	switch {
	case action == access.ActionUpdate && governed:
		return c.requireSubject(access.ActionUpdate, api)
	case action == access.ActionUpdate:
		return c.require(access.ActionUpdate, t.owner)
	}
	if err := c.require(access.ActionRead, t.owner); err != nil {
		return err
	}
	if governed {
		return c.requireSubject(access.ActionList, api)
	}
	return c.require(access.ActionList, t.ent)
}

// requireSubject answers 403 unless the caller may do action on subject.
func (c *caller) requireSubject(action, subject string) error {
	if !access.Can(c.rules, action, subject) {
		return apperr.Forbidden("server.auth.forbidden")
	}
	return nil
}

// userID is the acting user's id (for history and derived values).
// userID is the acting user for history rows; nil (no user) for a
// background job acting without a caller.
func (c *caller) userID() any {
	if c.p == nil || c.p.UserID == 0 {
		return nil
	}
	return c.p.UserID
}
