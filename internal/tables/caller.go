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

// caller is who a request acts for: the principal, the rights read fresh
// for this request and the tenant scope.
type caller struct {
	p     *auth.Principal
	rules []access.Rule
	scope Scope
	lang  string
}

// callerOf reads the caller of ctx and its rights.
func (e *Engine) callerOf(ctx context.Context) (*caller, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return nil, apperr.Unauthorized("server.auth.not_authenticated")
	}
	rules, err := access.RulesFor(ctx, e.db, p.Subject())
	if err != nil {
		return nil, fmt.Errorf("tables: rights of user %d: %w", p.UserID, err)
	}
	return &caller{p: p, rules: rules, scope: ScopeOf(p), lang: i18n.LangFrom(ctx)}, nil
}

// can reports whether the caller may do action on the entity's rows. The
// entity's permission subject (the table name of its table group) and its
// table-access subject, where spelt differently, are the same subject.
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

// userID is the acting user's id (for history and derived values).
func (c *caller) userID() int64 { return c.p.UserID }
