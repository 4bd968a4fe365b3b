package auth

import (
	"context"
	"database/sql"
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
	var lang sql.NullString
	var external, director, locked int
	var company, cg, companyCG, pg sql.NullInt64
	err := s.db.QueryRowContext(ctx, `SELECT u.user_id, u.user_email, u.user_language, u.usertype_id, ut.usertype_external,
			u.user_is_director, u.user_locked, u.company_id, u.customergroup_id, c.customergroup_id, u.partnergroup_id,
			(SELECT generation FROM rights_generation WHERE rights_generation_id = 1)
		FROM users u
		JOIN usertype ut ON ut.usertype_id = u.usertype_id
		LEFT JOIN company c ON c.company_id = u.company_id
		WHERE u.user_id = ?`, id).Scan(
		&p.UserID, &p.Email, &lang, &p.UsertypeID, &external, &director, &locked,
		&company, &cg, &companyCG, &pg, &p.RightsGeneration)
	if isNoRows(err) || err == nil && locked == 1 {
		return nil, apperr.NotFound("server.error.not_found")
	}
	if err != nil {
		return nil, fmt.Errorf("auth: read user %d: %w", id, err)
	}
	p.Language = lang.String
	p.External, p.IsDirector = external == 1, director == 1
	p.CompanyID, p.PartnergroupID, p.CustomergroupID = company.Int64, pg.Int64, cg.Int64
	if !cg.Valid {
		p.CustomergroupID = companyCG.Int64
	}
	if err := s.loadMemberships(ctx, s.db, &p); err != nil {
		return nil, err
	}
	return &p, nil
}
