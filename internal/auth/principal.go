package auth

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/db"
)

// Principal is the authenticated caller of a request, read fresh from the
// database on every request.
type Principal struct {
	UserID    int64
	SessionID string
	Email     string
	// Language is the user's preferred language ("" when none is set).
	Language   string
	UsertypeID int64
	External   bool
	IsDirector bool
	// Roles are the roles valid today, in rank order.
	Roles []access.Role
	// Teams are the teams valid today, in id order.
	Teams []access.Team
	// CompanyID, CustomergroupID and PartnergroupID are 0 when not set; the
	// customer group falls back to the company's.
	CompanyID       int64
	CustomergroupID int64
	PartnergroupID  int64
	// RightsGeneration is the rights generation read with the session
	// (access.Cache): rights computed for it are current for this request.
	RightsGeneration int64
}

// SeesAs reports whether q sees what p sees: the same user with the same
// user type, tenant (company, customer group, partner group) and rights
// generation (a role, team or right changed anywhere moves it). A live
// stream holds its principal from its start and ends when this no longer
// holds (events.Hub), so a role change that removes a right ends it too.
func (p *Principal) SeesAs(q *Principal) bool {
	return p.UserID == q.UserID && p.UsertypeID == q.UsertypeID && p.External == q.External && p.IsDirector == q.IsDirector &&
		p.CompanyID == q.CompanyID && p.CustomergroupID == q.CustomergroupID && p.PartnergroupID == q.PartnergroupID &&
		p.RightsGeneration == q.RightsGeneration
}

// RoleCodes lists the codes of the valid roles in rank order.
func (p *Principal) RoleCodes() []string { return p.Subject().RoleCodes() }

// TeamIDs lists the ids of the valid teams.
func (p *Principal) TeamIDs() []int64 {
	out := make([]int64, 0, len(p.Teams))
	for _, t := range p.Teams {
		out = append(out, t.ID)
	}
	return out
}

// IsAdmin reports whether the first valid role is the administrator role.
func (p *Principal) IsAdmin() bool { return p.Subject().IsAdmin() }

// Subject describes the principal for the access package.
func (p *Principal) Subject() access.Subject {
	return access.Subject{UserID: p.UserID, Roles: p.Roles, Teams: p.Teams, External: p.External}
}

type principalKey struct{}

// WithPrincipal returns ctx carrying p (Authenticate does this; tests and
// background jobs acting for a user may too).
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the caller stored by Authenticate.
func PrincipalFrom(ctx context.Context) (*Principal, bool) {
	p, ok := ctx.Value(principalKey{}).(*Principal)
	return p, ok && p != nil
}

// sessionState is what the per-request check reads about a session and
// its user.
type sessionState struct {
	p        Principal
	lastUsed time.Time
	expires  time.Time
	revoked  bool
	locked   bool
}

// loadSession reads the session and its user in one indexed query; it
// returns sql.ErrNoRows when the session does not exist. It also reads the
// rights generation (access.Cache).
//
// The session id is compared with "(SELECT ?)" rather than "?": SQLite
// re-plans a statement whenever a parameter compared with an indexed
// column that has ANALYZE samples is bound again, which cost this, the
// most frequent statement, two thirds of its time; the key lookup is the
// same either way.
func loadSession(ctx context.Context, q *db.DB, sessionID string) (*sessionState, error) {
	var st sessionState
	var revoked sql.NullTime
	var u principalRow
	err := q.QueryOne(ctx, `SELECT s.user_id, s.last_used_at, s.expires_at, s.revoked_at, `+principalColumns+`
		FROM auth_session s
		JOIN users u ON u.user_id = s.user_id `+principalJoins+`
		WHERE s.session_id = (SELECT ?)`, sessionID).Scan(
		append([]any{&st.p.UserID, &st.lastUsed, &st.expires, &revoked}, u.dest(&st.p)...)...)
	if err != nil {
		return nil, err
	}
	st.p.SessionID = sessionID
	u.fill(&st.p)
	st.locked, st.revoked = u.locked == 1, revoked.Valid
	return &st, nil
}

// principalColumns are the user's columns a principal is made of, read
// from users u joined by principalJoins, in the order of principalRow.dest;
// with the rights generation (access.Cache).
const principalColumns = `u.user_email, u.user_language, u.usertype_id, ut.usertype_external, u.user_is_director, u.user_locked,
			u.company_id, u.customergroup_id, c.customergroup_id, u.partnergroup_id,
			(SELECT generation FROM rights_generation WHERE rights_generation_id = 1)`

// principalJoins join a user's type and company to users u.
const principalJoins = `JOIN usertype ut ON ut.usertype_id = u.usertype_id
		LEFT JOIN company c ON c.company_id = u.company_id`

// principalRow holds the principalColumns that need converting.
type principalRow struct {
	lang                       sql.NullString
	external, director, locked int
	company, cg, companyCG, pg sql.NullInt64
}

// dest are the scan targets of principalColumns, into p and r.
func (r *principalRow) dest(p *Principal) []any {
	return []any{&p.Email, &r.lang, &p.UsertypeID, &r.external, &r.director, &r.locked,
		&r.company, &r.cg, &r.companyCG, &r.pg, &p.RightsGeneration}
}

// fill sets the converted columns on p: a user without a customer group of
// their own belongs to their company's.
func (r *principalRow) fill(p *Principal) {
	p.Language = r.lang.String
	p.External, p.IsDirector = r.external == 1, r.director == 1
	p.CompanyID, p.PartnergroupID, p.CustomergroupID = r.company.Int64, r.pg.Int64, r.cg.Int64
	if !r.cg.Valid {
		p.CustomergroupID = r.companyCG.Int64
	}
}

// usable reports whether the session may still be used at now.
func (st *sessionState) usable(now time.Time, idle time.Duration) bool {
	return !st.revoked && !st.locked && now.Before(st.expires) && now.Sub(st.lastUsed) <= idle
}

// validFilter limits a link table aliased a to rows valid today; it takes
// tomorrow then today as parameters. "valid_from < tomorrow" (rather than
// "<= today") works whether SQLite holds the date as "2024-05-01" or as a
// timestamp text.
func validFilter(a string) string {
	return "(" + a + ".valid_from IS NULL OR " + a + ".valid_from < ?) AND (" + a + ".valid_to IS NULL OR " + a + ".valid_to >= ?)"
}

// memberships are a user's roles (in rank order) and teams valid on a day.
type memberships struct {
	roles []access.Role
	teams []access.Team
}

// loadMemberships sets the roles (in rank order) and teams of p valid
// today, from the cache when it holds them for p's rights generation (the
// generation changes with every write to roles, teams or memberships; the
// day is part of the key, so dated memberships start and end on time).
func (s *Service) loadMemberships(ctx context.Context, q db.Querier, p *Principal) error {
	today, tomorrow := s.today()
	key := strconv.FormatInt(p.UserID, 10) + "|" + today
	m, ok := s.memberships.Get(key, p.RightsGeneration)
	if !ok {
		var err error
		if m, err = readMemberships(ctx, q, p.UserID, today, tomorrow); err != nil {
			return err
		}
		s.memberships.Put(key, p.RightsGeneration, m)
	}
	p.Roles, p.Teams = m.roles, m.teams
	return nil
}

// readMemberships reads the roles and teams of a user valid today in one
// query.
func readMemberships(ctx context.Context, q db.Querier, userID int64, today, tomorrow string) (memberships, error) {
	rows, err := q.QueryContext(ctx, `SELECT 0 AS kind, r.role_id, r.role_code, r.role_name, r.role_menu, ur.user_role_rank AS rnk
		FROM user_role ur JOIN role r ON r.role_id = ur.role_id
		WHERE ur.user_id = ? AND `+validFilter("ur")+`
		UNION ALL
		SELECT 1, t.team_id, t.team_name, t.team_type, '', 0
		FROM user_team ut JOIN team t ON t.team_id = ut.team_id
		WHERE ut.user_id = ? AND `+validFilter("ut")+`
		ORDER BY 1, 6, 2`, userID, tomorrow, today, userID, tomorrow, today)
	if err != nil {
		return memberships{}, fmt.Errorf("auth: read roles and teams of user %d: %w", userID, err)
	}
	defer rows.Close()
	m := memberships{roles: []access.Role{}, teams: []access.Team{}}
	for rows.Next() {
		var kind, rank int
		var id int64
		var a, b, c string
		if err := rows.Scan(&kind, &id, &a, &b, &c, &rank); err != nil {
			return memberships{}, fmt.Errorf("auth: scan roles and teams: %w", err)
		}
		if kind == 0 {
			m.roles = append(m.roles, access.Role{ID: id, Code: a, Name: b, Menu: c})
		} else {
			m.teams = append(m.teams, access.Team{ID: id, Name: a, Type: b})
		}
	}
	if err := rows.Err(); err != nil {
		return memberships{}, fmt.Errorf("auth: read roles and teams: %w", err)
	}
	return m, nil
}

// isNoRows reports a missing row.
func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
