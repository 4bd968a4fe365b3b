package tables

import (
	"context"

	"portfolio/internal/db"
	"portfolio/internal/validate"
)

// LinkHook checks what the definitions cannot say about the links of one
// relation (a module's rule, such as "a user's customer groups lie within
// the user's own tenant"). It runs inside the link's transaction, after the
// engine's own checks, for every link added or changed through the generic
// API or a module; an error refuses the link and nothing is written.
type LinkHook func(ctx context.Context, q db.Querier, l LinkChange) error

// LinkChange is one link about to be added or changed.
type LinkChange struct {
	// Relation is the relation's API name (user_customergroups_rel).
	Relation string
	OwnerID  int64
	OtherID  int64
	// Values are the link row's attributes as they will be stored
	// (canonical values, the definitions' defaults and show rules applied).
	Values validate.Record
	// Sent are the attributes as the request gave them (for a changed link:
	// merged with the stored ones), before the show rules emptied those that
	// do not apply: a hook that must refuse a value rather than let the
	// definitions drop it reads them here.
	Sent validate.Record
}

// OnLink registers the hook of a relation (by API name). Modules register
// while the program is wired, before it serves: the hooks are read
// without locking afterwards.
func (e *Engine) OnLink(relation string, h LinkHook) {
	if e.linkHooks == nil {
		e.linkHooks = map[string]LinkHook{}
	}
	e.linkHooks[relation] = h
}

// checkLinkHook runs the hook of t's relation, if any, for the link of
// owner to the row rec names in column otherColumn.
func (e *Engine) checkLinkHook(ctx context.Context, q db.Querier, t *target, ownerID int64, otherColumn string, rec, sent validate.Record) error {
	api := t.rel.APIName(t.owner.Name)
	h, ok := e.linkHooks[api]
	if !ok {
		return nil
	}
	otherID, _ := rec[otherColumn].(int64)
	return h(ctx, q, LinkChange{Relation: api, OwnerID: ownerID, OtherID: otherID, Values: rec, Sent: sent})
}
