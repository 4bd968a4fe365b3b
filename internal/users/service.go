// Package users serves the user administration (GET/POST/PUT /users, the
// administrator actions lock, unlock, force-password-reset, end-sessions)
// and the team administration (/teams, /teams/users).
//
// Rights are the (action, subject) rules of the access package on the
// subjects "user" and "team"; external callers only ever see users of their
// own customer group or partner group. Every write runs in one transaction.
package users

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/clock"
	"portfolio/internal/platform/mailer"
	"portfolio/internal/tables"
)

// Permission subjects of this package.
const (
	SubjectUser = "user"
	SubjectTeam = "team"
)

// Deps are what a Service is built from.
type Deps struct {
	DB      *db.DB
	Auth    *auth.Service
	Engine  *tables.Engine
	Catalog *i18n.Catalog
	Outbox  *mailer.Outbox
	Log     *slog.Logger
	// Now defaults to time.Now.
	Now func() time.Time
}

// Service administers users and teams.
type Service struct {
	db      *db.DB
	auth    *auth.Service
	engine  *tables.Engine
	catalog *i18n.Catalog
	outbox  *mailer.Outbox
	log     *slog.Logger
	now     func() time.Time
}

// New builds a Service; every dependency is required.
func New(d Deps) (*Service, error) {
	if d.DB == nil || d.Auth == nil || d.Engine == nil || d.Catalog == nil || d.Outbox == nil {
		return nil, errors.New("users: missing dependency")
	}
	if d.Now == nil {
		d.Now = clock.Now
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	s := &Service{db: d.DB, auth: d.Auth, engine: d.Engine, catalog: d.Catalog, outbox: d.Outbox, log: d.Log, now: d.Now}
	for _, r := range userRelations {
		d.Engine.OnLink(r.api, s.relationTenantHook(r))
	}
	registerHooks(d.Engine)
	return s, nil
}

// MustNew is New for program start.
func MustNew(d Deps) *Service {
	s, err := New(d)
	if err != nil {
		panic(err)
	}
	return s
}

// text translates key in the request's language.
func (s *Service) text(ctx context.Context, key string) string {
	return s.catalog.T(i18n.LangFrom(ctx), key, nil)
}

// today is the current date, "2006-01-02", as memberships are dated.
func (s *Service) today() string { return s.now().UTC().Format(time.DateOnly) }

// stamp is the current time as the auth package stores it.
func (s *Service) stamp() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

// authorize answers the caller when it may do action on subject, 401 or
// 403 otherwise. The rules are read fresh, like every other check.
func (s *Service) authorize(ctx context.Context, action, subject string) (*auth.Principal, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return nil, apperr.Unauthorized("server.auth.not_authenticated")
	}
	rules, err := access.RulesFor(ctx, s.db, p.Subject())
	if err != nil {
		return nil, fmt.Errorf("users: rights of user %d: %w", p.UserID, err)
	}
	if !access.Can(rules, action, subject) {
		return nil, apperr.Forbidden("server.auth.forbidden")
	}
	return p, nil
}

func errNotFound() error { return apperr.NotFound("server.error.not_found") }

// fieldErrs collects field errors of one request.
type fieldErrs []apperr.FieldError

func (f *fieldErrs) add(field, key, typ string, args map[string]string) {
	for _, e := range *f {
		if e.Field == field {
			return // one message per field is enough
		}
	}
	*f = append(*f, apperr.FieldError{Field: field, Key: key, Type: typ, Args: args})
}

func (f fieldErrs) err() error {
	if len(f) == 0 {
		return nil
	}
	return apperr.Validation(f...)
}

// exists reports whether query (one id parameter) finds a row.
func exists(ctx context.Context, q db.Querier, query string, args ...any) (bool, error) {
	var n int64
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM (`+query+`) x`, args...).Scan(&n); err != nil {
		return false, fmt.Errorf("users: check existence: %w", err)
	}
	return n > 0, nil
}

// checkIDs reports unknown ids of table into errs.
func checkIDs(ctx context.Context, q db.Querier, errs *fieldErrs, field, table, pk string, ids []int64) error {
	for _, id := range ids {
		ok, err := exists(ctx, q, `SELECT 1 FROM `+table+` WHERE `+pk+` = ?`, id)
		if err != nil {
			return err
		}
		if !ok {
			errs.add(field, "validation.unknown_reference", "unknown_reference", nil)
		}
	}
	return nil
}

func dedupe(ids []int64) []int64 {
	seen := map[int64]bool{}
	out := make([]int64, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// ids reads a one-column id list.
func ids(ctx context.Context, q db.Querier, query string, args ...any) ([]int64, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("users: read ids: %w", err)
	}
	defer rows.Close()
	out := []int64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("users: scan id: %w", err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("users: read ids: %w", err)
	}
	return out, nil
}

// replaceLinks makes the link table rows of owner exactly list (owner
// column ownerCol, other column col).
func replaceLinks(ctx context.Context, q db.Querier, table, ownerCol, col string, owner int64, list []int64) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM `+table+` WHERE `+ownerCol+` = ?`, owner); err != nil {
		return fmt.Errorf("users: clear %s of %d: %w", table, owner, err)
	}
	for _, id := range dedupe(list) {
		if _, err := q.ExecContext(ctx, `INSERT INTO `+table+` (`+ownerCol+`, `+col+`) VALUES (?, ?)`, owner, id); err != nil {
			return fmt.Errorf("users: link %s %d to %d: %w", table, owner, id, err)
		}
	}
	return nil
}
