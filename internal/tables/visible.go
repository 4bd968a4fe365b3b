package tables

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// errNotFound is the answer for a row that does not exist or lies outside
// the caller's tenant: the two are indistinguishable.
func errNotFound() error { return apperr.NotFound("server.error.not_found") }

// visible reports whether row id of ent exists within the caller's scope.
func (e *Engine) visible(ctx context.Context, q db.Querier, c *caller, ent *schema.Entity, id int64) (bool, error) {
	s := newSource(e.env(), c.scope, ent)
	where, err := s.where()
	if err != nil {
		return false, err
	}
	w := and(frag{sql: col(s.alias, ent.PK) + " = ?", args: []any{id}}, where)
	var one int
	err = q.QueryRowContext(ctx, "SELECT 1 FROM "+s.from()+" WHERE "+w.sql, w.args...).Scan(&one)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("tables: look up %s %d: %w", ent.Name, id, err)
	}
	return true, nil
}

// mustSee answers 404 unless row id of ent is visible to the caller.
func (e *Engine) mustSee(ctx context.Context, q db.Querier, c *caller, ent *schema.Entity, id int64) error {
	ok, err := e.visible(ctx, q, c, ent, id)
	if err != nil {
		return err
	}
	if !ok {
		return errNotFound()
	}
	return nil
}

// idValue reads a record id from a decoded JSON value.
func idValue(raw any) (int64, error) {
	v, err := validate.Coerce(schema.TypeID, raw)
	if err != nil {
		return 0, err
	}
	if v == nil {
		return 0, errors.New("tables: no id")
	}
	return v.(int64), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
