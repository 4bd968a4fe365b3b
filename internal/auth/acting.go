package auth

import (
	"context"
	"fmt"

	"portfolio/internal/apperr"
)

// PrincipalOf builds the principal of user id without a session, for a
// request that acts within one user's rights but has no logged-in caller
// (the personal calendar feed, reached by a secret link). It carries the
// user's roles, teams and tenant as Authenticate would, and no session id,
// so it cannot be used where a session is needed. A missing or locked user
// answers 404: whatever named them grants nothing any more.
func (s *Service) PrincipalOf(ctx context.Context, id int64) (*Principal, error) {
	var p Principal
	var u principalRow
	err := s.db.QueryRowContext(ctx, `SELECT u.user_id, `+principalColumns+`
		FROM users u `+principalJoins+`
		WHERE u.user_id = ?`, id).Scan(append([]any{&p.UserID}, u.dest(&p)...)...)
	if isNoRows(err) || err == nil && u.locked == 1 {
		return nil, apperr.NotFound("server.error.not_found")
	}
	if err != nil {
		return nil, fmt.Errorf("auth: read user %d: %w", id, err)
	}
	u.fill(&p)
	if err := s.loadMemberships(ctx, s.db, &p); err != nil {
		return nil, err
	}
	return &p, nil
}
