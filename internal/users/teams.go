package users

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// Team types.
var teamTypes = map[string]bool{"intern": true, "extern_client": true, "extern_partner": true, "friendtzieze": true}

// TeamRow is one team of GET /teams.
type TeamRow struct {
	ID          int64   `json:"team_id"`
	Name        string  `json:"team_name"`
	Type        string  `json:"team_type"`
	ParentID    *int64  `json:"parent_id"`
	ForAll      int     `json:"team_for_all_customer"`
	Description *string `json:"team_description"`
	// RowVersion is sent back on PUT /teams to detect concurrent changes.
	RowVersion int64 `json:"row_version"`
}

// TeamMember is a user of a team with the validity of the membership.
type TeamMember struct {
	UserID    int64   `json:"user_id"`
	FirstName string  `json:"user_firstname"`
	LastName  string  `json:"user_lastname"`
	ValidFrom *string `json:"valid_from"`
	ValidTo   *string `json:"valid_to"`
}

// TeamRole is a role linked to a team.
type TeamRole struct {
	ID   int64  `json:"role_id"`
	Name string `json:"role_name"`
}

// Team is one team as GET /teams/{id} answers it.
type Team struct {
	TeamRow
	CustomergroupIDs  []int64      `json:"customergroup_id"`
	PartnergroupIDs   []int64      `json:"partnergroup_id"`
	CompanyIDs        []int64      `json:"company_id"`
	PartnercompanyIDs []int64      `json:"partnercompany_id"`
	Users             []TeamMember `json:"users"`
	Roles             []TeamRole   `json:"roles"`
}

// TeamListQuery asks for a page of GET /teams.
type TeamListQuery struct {
	Page, PerPage int
	Keyword       string
	// Desc sorts by name descending.
	Desc bool
	// CompanyID limits the list to teams for all customers and teams
	// linked to the company or its customer group.
	CompanyID int64
}

// TeamPage is one page of teams.
type TeamPage struct {
	Data        []TeamRow
	CurrentPage int
	LastPage    int
	Total       int64
}

// DefaultTeamPerPage is the team list's page size (specification).
const DefaultTeamPerPage = 30

// Teams answers a page of teams (list on team).
func (s *Service) Teams(ctx context.Context, q TeamListQuery) (*TeamPage, error) {
	if _, err := s.authorize(ctx, access.ActionList, SubjectTeam); err != nil {
		return nil, err
	}
	if q.PerPage <= 0 {
		q.PerPage = DefaultTeamPerPage
	}
	q.Page = max(q.Page, 1)
	where, args := []string{"1 = 1"}, []any{}
	if k := strings.TrimSpace(q.Keyword); k != "" {
		match, arg := db.TextMatch(s.db.Dialect(), "team_name", k, false)
		where, args = append(where, match), append(args, arg)
	}
	if q.CompanyID > 0 {
		where = append(where, `(team_for_all_customer = 1
			OR team_id IN (SELECT team_id FROM team_company WHERE company_id = ?)
			OR team_id IN (SELECT tc.team_id FROM team_customergroup tc JOIN company c ON c.customergroup_id = tc.customergroup_id WHERE c.company_id = ?))`)
		args = append(args, q.CompanyID, q.CompanyID)
	}
	// Teams are not tenant data today (every caller sees every team); the
	// statement starts from the engine's scoped source all the same, so a
	// tenant rule on teams would reach this list too.
	src, err := s.engine.Scoped(ctx, entityTeam, "team")
	if err != nil {
		return nil, err
	}
	cond := strings.Join(where, " AND ")
	args = append(append([]any{}, src.Args...), args...)
	page := &TeamPage{CurrentPage: q.Page, Data: []TeamRow{}}
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+src.SQL+` WHERE `+cond, args...).Scan(&page.Total); err != nil {
		return nil, fmt.Errorf("users: count teams: %w", err)
	}
	page.LastPage = max(int((page.Total+int64(q.PerPage)-1)/int64(q.PerPage)), 1)
	dir := "ASC"
	if q.Desc {
		dir = "DESC"
	}
	rows, err := s.db.QueryContext(ctx, `SELECT team_id, team_name, team_type, parent_id, team_for_all_customer, team_description,
			row_version
		FROM `+src.SQL+` WHERE `+cond+` ORDER BY team_name `+dir+`, team_id `+dir+` LIMIT ? OFFSET ?`,
		append(args, q.PerPage, (q.Page-1)*q.PerPage)...)
	if err != nil {
		return nil, fmt.Errorf("users: list teams: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t TeamRow
		if err := rows.Scan(&t.ID, &t.Name, &t.Type, &t.ParentID, &t.ForAll, &t.Description, &t.RowVersion); err != nil {
			return nil, fmt.Errorf("users: scan team: %w", err)
		}
		page.Data = append(page.Data, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("users: list teams: %w", err)
	}
	return page, nil
}

// GetTeam answers one team with its groups, companies, users and roles.
func (s *Service) GetTeam(ctx context.Context, id int64) (*Team, error) {
	if _, err := s.authorize(ctx, access.ActionRead, SubjectTeam); err != nil {
		return nil, err
	}
	t := &Team{}
	err := s.db.QueryRowContext(ctx, `SELECT team_id, team_name, team_type, parent_id, team_for_all_customer, team_description,
			row_version
		FROM team WHERE team_id = ?`, id).Scan(&t.ID, &t.Name, &t.Type, &t.ParentID, &t.ForAll, &t.Description, &t.RowVersion)
	if err == sql.ErrNoRows {
		return nil, errNotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("users: read team %d: %w", id, err)
	}
	for _, l := range []struct {
		dst *[]int64
		sql string
	}{
		{&t.CustomergroupIDs, `SELECT customergroup_id FROM team_customergroup WHERE team_id = ? ORDER BY 1`},
		{&t.PartnergroupIDs, `SELECT partnergroup_id FROM team_partnergroup WHERE team_id = ? ORDER BY 1`},
		{&t.CompanyIDs, `SELECT company_id FROM team_company WHERE team_id = ? ORDER BY 1`},
		{&t.PartnercompanyIDs, `SELECT partnercompany_id FROM team_partnercompany WHERE team_id = ? ORDER BY 1`},
	} {
		if *l.dst, err = ids(ctx, s.db, l.sql, id); err != nil {
			return nil, err
		}
	}
	if t.Users, err = s.teamMembers(ctx, id); err != nil {
		return nil, err
	}
	if t.Roles, err = s.teamRoles(ctx, id); err != nil {
		return nil, err
	}
	return t, nil
}

func (s *Service) teamMembers(ctx context.Context, id int64) ([]TeamMember, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT u.user_id, u.user_firstname, u.user_lastname,
			CAST(ut.valid_from AS TEXT), CAST(ut.valid_to AS TEXT)
		FROM user_team ut JOIN users u ON u.user_id = ut.user_id WHERE ut.team_id = ? ORDER BY u.user_id`, id)
	if err != nil {
		return nil, fmt.Errorf("users: members of team %d: %w", id, err)
	}
	defer rows.Close()
	out := []TeamMember{}
	for rows.Next() {
		var m TeamMember
		if err := rows.Scan(&m.UserID, &m.FirstName, &m.LastName, &m.ValidFrom, &m.ValidTo); err != nil {
			return nil, fmt.Errorf("users: scan member: %w", err)
		}
		m.ValidFrom, m.ValidTo = day(m.ValidFrom), day(m.ValidTo)
		out = append(out, m)
	}
	return out, rows.Err()
}

// day keeps the date part of a stored date.
func day(s *string) *string {
	if s == nil || len(*s) < 10 {
		return s
	}
	d := (*s)[:10]
	return &d
}

func (s *Service) teamRoles(ctx context.Context, id int64) ([]TeamRole, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.role_id, r.role_name FROM team_role tr JOIN role r ON r.role_id = tr.role_id
		WHERE tr.team_id = ? ORDER BY r.role_id`, id)
	if err != nil {
		return nil, fmt.Errorf("users: roles of team %d: %w", id, err)
	}
	defer rows.Close()
	out := []TeamRole{}
	for rows.Next() {
		var r TeamRole
		if err := rows.Scan(&r.ID, &r.Name); err != nil {
			return nil, fmt.Errorf("users: scan role: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// TeamInput is the body of POST and PUT /teams (team_id on PUT).
type TeamInput struct {
	ID                *int64  `json:"team_id"`
	Name              string  `json:"team_name"`
	Type              string  `json:"team_type"`
	ParentID          *int64  `json:"parent_id"`
	ForAll            *int    `json:"team_for_all_customer"`
	CustomergroupIDs  []int64 `json:"customergroup_id"`
	PartnergroupIDs   []int64 `json:"partnergroup_id"`
	CompanyIDs        []int64 `json:"company_id"`
	PartnercompanyIDs []int64 `json:"partnercompany_id"`
	RoleIDs           []int64 `json:"role_id"`
	Description       *string `json:"team_description"`
	// RowVersion, when sent on PUT, must be the stored row_version (409
	// server.tables.stale otherwise).
	RowVersion *int64 `json:"row_version"`
}

// checkTeam applies the team rules; forAll is the stored value on update.
func checkTeam(ctx context.Context, q db.Querier, in *TeamInput, forAll int) error {
	var errs fieldErrs
	in.Name = strings.TrimSpace(in.Name)
	if in.Name == "" {
		errs.add("team_name", "validation.required", "missing", nil)
	}
	if !teamTypes[in.Type] {
		errs.add("team_type", "validation.one_of", "enum",
			map[string]string{"values": "intern, extern_client, extern_partner, friendtzieze"})
	}
	if forAll != 0 && forAll != 1 {
		errs.add("team_for_all_customer", "validation.type.bool", "type_error", nil)
	}
	if in.ParentID != nil {
		if in.Type != "extern_client" && in.Type != "friendtzieze" {
			errs.add("parent_id", "validation.not_shown", "not_shown", nil)
		} else {
			ok, err := exists(ctx, q, `SELECT 1 FROM team WHERE team_id = ? AND team_type = 'intern'`, *in.ParentID)
			if err != nil {
				return err
			}
			if !ok {
				errs.add("parent_id", "validation.parent_intern_only", "value_error", nil)
			}
		}
	}
	if forAll == 1 {
		for _, f := range []struct {
			name string
			v    []int64
		}{{"customergroup_id", in.CustomergroupIDs}, {"company_id", in.CompanyIDs}, {"partnercompany_id", in.PartnercompanyIDs}} {
			if len(f.v) > 0 {
				errs.add(f.name, "validation.not_shown", "not_shown", nil)
			}
		}
		if len(in.PartnergroupIDs) > 0 && in.Type != "extern_partner" {
			errs.add("partnergroup_id", "validation.not_shown", "not_shown", nil)
		}
	}
	if in.Type == "extern_client" && forAll == 0 && len(in.CustomergroupIDs) == 0 {
		errs.add("customergroup_id", "validation.required", "missing", nil)
	}
	if in.Type == "extern_partner" && len(in.PartnergroupIDs) == 0 {
		errs.add("partnergroup_id", "validation.required", "missing", nil)
	}
	for _, c := range []struct {
		field, table, pk string
		ids              []int64
	}{
		{"customergroup_id", "customergroup", "customergroup_id", in.CustomergroupIDs},
		{"partnergroup_id", "partnergroup", "partnergroup_id", in.PartnergroupIDs},
		{"company_id", "company", "company_id", in.CompanyIDs},
		{"partnercompany_id", "partnercompany", "partnercompany_id", in.PartnercompanyIDs},
		{"role_id", "role", "role_id", in.RoleIDs},
	} {
		if err := checkIDs(ctx, q, &errs, c.field, c.table, c.pk, c.ids); err != nil {
			return err
		}
	}
	return errs.err()
}

// writeTeamLinks replaces the team's groups, companies and roles.
func writeTeamLinks(ctx context.Context, tx *db.Tx, id int64, in *TeamInput) error {
	for _, l := range []struct {
		table, col string
		ids        []int64
	}{
		{"team_customergroup", "customergroup_id", in.CustomergroupIDs},
		{"team_partnergroup", "partnergroup_id", in.PartnergroupIDs},
		{"team_company", "company_id", in.CompanyIDs},
		{"team_partnercompany", "partnercompany_id", in.PartnercompanyIDs},
		{"team_role", "role_id", in.RoleIDs},
	} {
		if err := replaceLinks(ctx, tx, l.table, "team_id", l.col, id, l.ids); err != nil {
			return err
		}
	}
	return nil
}

// CreateTeam creates a team (create on team) and answers its id.
func (s *Service) CreateTeam(ctx context.Context, in TeamInput) (int64, error) {
	if _, err := s.authorize(ctx, access.ActionCreate, SubjectTeam); err != nil {
		return 0, err
	}
	forAll := 1
	if in.ForAll != nil {
		forAll = *in.ForAll
	}
	var id int64
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := checkTeam(ctx, tx, &in, forAll); err != nil {
			return err
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO team (team_name, team_type, parent_id, team_for_all_customer, team_description)
			VALUES (?, ?, ?, ?, ?) RETURNING team_id`, in.Name, in.Type, in.ParentID, forAll, in.Description).Scan(&id)
		if err != nil {
			return fmt.Errorf("users: insert team: %w", err)
		}
		if err := writeTeamLinks(ctx, tx, id, &in); err != nil {
			return err
		}
		return s.recordTeam(ctx, tx, id, 0, nil, nil)
	})
	if err != nil {
		return 0, fmt.Errorf("users: create team: %w", err)
	}
	return id, nil
}

// UpdateTeam changes the team named by in.ID (update on team);
// team_for_all_customer cannot change.
func (s *Service) UpdateTeam(ctx context.Context, in TeamInput) error {
	if _, err := s.authorize(ctx, access.ActionUpdate, SubjectTeam); err != nil {
		return err
	}
	if in.ID == nil {
		return apperr.Validation(apperr.FieldError{Field: "team_id", Key: "validation.required", Type: "missing"})
	}
	id := *in.ID
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if ok, err := lockRow(ctx, tx, "team", "team_id", id); err != nil || !ok {
			if err != nil {
				return err
			}
			return errNotFound()
		}
		before, version, err := s.snapshot(ctx, tx, entityTeam, id)
		if err != nil {
			return err
		}
		if err := checkVersion(in.RowVersion, version); err != nil {
			return err
		}
		rolesBefore, err := teamRoleIDs(ctx, tx, id)
		if err != nil {
			return err
		}
		var forAll int
		if err := tx.QueryRowContext(ctx, `SELECT team_for_all_customer FROM team WHERE team_id = ?`, id).Scan(&forAll); err != nil {
			return fmt.Errorf("users: read team %d: %w", id, err)
		}
		if in.ForAll != nil && *in.ForAll != forAll {
			return apperr.Validation(apperr.FieldError{Field: "team_for_all_customer", Key: "validation.not_writable", Type: "not_writable"})
		}
		if err := checkTeam(ctx, tx, &in, forAll); err != nil {
			return err
		}
		if in.ParentID != nil && *in.ParentID == id {
			return apperr.Validation(apperr.FieldError{Field: "parent_id", Key: "validation.parent_intern_only", Type: "value_error"})
		}
		if in.Type != "intern" {
			parent, err := exists(ctx, tx, `SELECT 1 FROM team WHERE parent_id = ?`, id)
			if err != nil {
				return err
			}
			if parent {
				return apperr.Validation(apperr.FieldError{Field: "team_type", Key: "validation.team_is_parent", Type: "value_error"})
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE team SET team_name = ?, team_type = ?, parent_id = ?, team_description = ?
			WHERE team_id = ?`, in.Name, in.Type, in.ParentID, in.Description, id)
		if err != nil {
			return fmt.Errorf("users: update team %d: %w", id, err)
		}
		if err := writeTeamLinks(ctx, tx, id, &in); err != nil {
			return err
		}
		return s.recordTeam(ctx, tx, id, version, before, rolesBefore)
	})
	if err != nil {
		return fmt.Errorf("users: update team: %w", err)
	}
	return nil
}

// DeleteTeams deletes teams (remove on team); a team still used elsewhere
// answers 409 and nothing is deleted.
func (s *Service) DeleteTeams(ctx context.Context, teamIDs []int64) error {
	if _, err := s.authorize(ctx, access.ActionRemove, SubjectTeam); err != nil {
		return err
	}
	if len(teamIDs) == 0 || len(teamIDs) > 1000 {
		return apperr.Validation(apperr.FieldError{Field: "team_ids", Key: "validation.required", Type: "missing"})
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, id := range dedupe(teamIDs) {
			if err := s.deleteTeam(ctx, tx, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("users: delete teams: %w", err)
	}
	return nil
}

// deleteTeam deletes one team with its history; its members' memberships
// go with it and are recorded as unlinks on the users.
func (s *Service) deleteTeam(ctx context.Context, tx *db.Tx, id int64) error {
	if ok, err := lockRow(ctx, tx, "team", "team_id", id); err != nil || !ok {
		if err != nil {
			return err
		}
		return errNotFound()
	}
	before, version, err := s.snapshot(ctx, tx, entityTeam, id)
	if err != nil {
		return err
	}
	roles, err := teamRoleIDs(ctx, tx, id)
	if err != nil {
		return err
	}
	members, err := ids(ctx, tx, `SELECT user_id FROM user_team WHERE team_id = ? ORDER BY user_id`, id)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM team WHERE team_id = ?`, id)
	if db.IsForeignKeyViolation(err) {
		return apperr.Conflict("server.tables.still_used").Wrap(err)
	}
	if err != nil {
		return fmt.Errorf("users: delete team %d: %w", id, err)
	}
	var extra map[string][2]any
	if len(roles) > 0 {
		extra = map[string][2]any{"roles": {roles, nil}}
	}
	if _, err := s.recordWrite(ctx, tx, entityTeam, "team", "team_id", id, version, before, nil, extra); err != nil {
		return err
	}
	return s.recordLinks(ctx, tx, entityUser, "teams", id, nil, members)
}

// teamRoleIDs reads the roles linked to team id.
func teamRoleIDs(ctx context.Context, q db.Querier, id int64) ([]int64, error) {
	return ids(ctx, q, `SELECT role_id FROM team_role WHERE team_id = ? ORDER BY role_id`, id)
}

// recordTeam writes the history of a created (before nil) or changed team:
// its fields and multi-selects as the engine compares them, and its roles
// as {"roles": [old, new]}; a change also increments the version.
func (s *Service) recordTeam(ctx context.Context, tx *db.Tx, id, version int64, before validate.Record, rolesBefore []int64) error {
	after, _, err := s.snapshot(ctx, tx, entityTeam, id)
	if err != nil {
		return err
	}
	roles, err := teamRoleIDs(ctx, tx, id)
	if err != nil {
		return err
	}
	var extra map[string][2]any
	switch {
	case before == nil && len(roles) > 0:
		extra = map[string][2]any{"roles": {nil, roles}}
	case before != nil && !slices.Equal(rolesBefore, roles):
		extra = map[string][2]any{"roles": {rolesBefore, roles}}
	}
	_, err = s.recordWrite(ctx, tx, entityTeam, "team", "team_id", id, version, before, after, extra)
	return err
}

// MembershipInput is the body of PUT and DELETE /teams/users.
type MembershipInput struct {
	TeamID    int64   `json:"team_id"`
	UserID    int64   `json:"user_id"`
	ValidFrom *string `json:"valid_from"`
	ValidTo   *string `json:"valid_to"`
}

// checkDates checks valid_from and valid_to (YYYY-MM-DD, to not before
// from).
func (in *MembershipInput) checkDates() error {
	var errs fieldErrs
	var from, to time.Time
	for _, f := range []struct {
		name string
		v    *string
		dst  *time.Time
	}{{"valid_from", in.ValidFrom, &from}, {"valid_to", in.ValidTo, &to}} {
		if f.v == nil || *f.v == "" {
			continue
		}
		t, err := time.Parse(time.DateOnly, *f.v)
		if err != nil {
			errs.add(f.name, "validation.type.date", "type_error", nil)
			continue
		}
		*f.dst = t
	}
	if !from.IsZero() && !to.IsZero() && to.Before(from) {
		errs.add("valid_to", "validation.date_after", "date_after", map[string]string{"attribute": "valid_from"})
	}
	return errs.err()
}

func nullDate(s *string) any {
	if s == nil || *s == "" {
		return nil
	}
	return *s
}

// SetMembership adds a user to a team or changes the membership's
// validity (update on team). External users only join client teams.
func (s *Service) SetMembership(ctx context.Context, in MembershipInput) error {
	if _, err := s.authorize(ctx, access.ActionUpdate, SubjectTeam); err != nil {
		return err
	}
	if err := in.checkDates(); err != nil {
		return err
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		var typ string
		err := tx.QueryRowContext(ctx, `SELECT team_type FROM team WHERE team_id = ?`, in.TeamID).Scan(&typ)
		if err == sql.ErrNoRows {
			return apperr.Validation(apperr.FieldError{Field: "team_id", Key: "validation.unknown_reference", Type: "unknown_reference"})
		}
		if err != nil {
			return fmt.Errorf("users: read team %d: %w", in.TeamID, err)
		}
		var external int
		err = tx.QueryRowContext(ctx, `SELECT ut.usertype_external FROM users u JOIN usertype ut ON ut.usertype_id = u.usertype_id
			WHERE u.user_id = ?`, in.UserID).Scan(&external)
		if err == sql.ErrNoRows {
			return apperr.Validation(apperr.FieldError{Field: "user_id", Key: "validation.unknown_reference", Type: "unknown_reference"})
		}
		if err != nil {
			return fmt.Errorf("users: read user %d: %w", in.UserID, err)
		}
		if external == 1 && typ != "extern_client" {
			return apperr.Validation(apperr.FieldError{Field: "team_id", Key: "validation.team_customer_only", Type: "value_error"})
		}
		var from, to *string
		err = tx.QueryRowContext(ctx, `SELECT CAST(valid_from AS TEXT), CAST(valid_to AS TEXT) FROM user_team
			WHERE user_id = ? AND team_id = ?`, in.UserID, in.TeamID).Scan(&from, &to)
		switch {
		case err == sql.ErrNoRows:
			_, err = tx.ExecContext(ctx, `INSERT INTO user_team (user_id, team_id, valid_from, valid_to) VALUES (?, ?, ?, ?)`,
				in.UserID, in.TeamID, nullDate(in.ValidFrom), nullDate(in.ValidTo))
			if err != nil {
				return fmt.Errorf("users: add membership: %w", err)
			}
			return s.recordMembership(ctx, tx, in.TeamID, in.UserID, tables.HistoryLink, nil, &in)
		case err != nil:
			return fmt.Errorf("users: read membership: %w", err)
		}
		was := MembershipInput{TeamID: in.TeamID, UserID: in.UserID, ValidFrom: day(from), ValidTo: day(to)}
		if nullDate(was.ValidFrom) == nullDate(in.ValidFrom) && nullDate(was.ValidTo) == nullDate(in.ValidTo) {
			return nil // nothing changes
		}
		_, err = tx.ExecContext(ctx, `UPDATE user_team SET valid_from = ?, valid_to = ? WHERE user_id = ? AND team_id = ?`,
			nullDate(in.ValidFrom), nullDate(in.ValidTo), in.UserID, in.TeamID)
		if err != nil {
			return fmt.Errorf("users: change membership: %w", err)
		}
		return s.recordMembership(ctx, tx, in.TeamID, in.UserID, tables.HistoryUpdate, &was, &in)
	})
	if err != nil {
		return fmt.Errorf("users: set membership: %w", err)
	}
	return nil
}

// recordMembership writes the history of a membership on both ends: on
// the team {"users": [old, new]}, on the user {"teams": [old, new]}. A link
// or unlink names the other end's id; a change of validity (typ update,
// was set) names the other end with its dates before and after.
func (s *Service) recordMembership(ctx context.Context, tx *db.Tx, team, user int64, typ string, was, now *MembershipInput) error {
	side := func(key string, other int64) [2]any {
		entry := func(m *MembershipInput) any {
			if m == nil {
				return nil
			}
			return map[string]any{key: other, "valid_from": nullDate(m.ValidFrom), "valid_to": nullDate(m.ValidTo)}
		}
		switch typ {
		case tables.HistoryLink:
			return [2]any{nil, other}
		case tables.HistoryUnlink:
			return [2]any{other, nil}
		}
		return [2]any{entry(was), entry(now)}
	}
	if err := s.engine.RecordHistory(ctx, tx, typ, entityTeam, team, map[string][2]any{"users": side("user_id", user)}); err != nil {
		return err
	}
	return s.engine.RecordHistory(ctx, tx, typ, entityUser, user, map[string][2]any{"teams": side("team_id", team)})
}

// RemoveMembership takes a user out of a team (update on team); 404 when
// the user is not a member.
func (s *Service) RemoveMembership(ctx context.Context, in MembershipInput) error {
	if _, err := s.authorize(ctx, access.ActionUpdate, SubjectTeam); err != nil {
		return err
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM user_team WHERE user_id = ? AND team_id = ?`, in.UserID, in.TeamID)
		if err != nil {
			return fmt.Errorf("users: remove membership: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errNotFound()
		}
		return s.recordMembership(ctx, tx, in.TeamID, in.UserID, tables.HistoryUnlink, nil, nil)
	})
	if err != nil {
		return fmt.Errorf("users: remove membership: %w", err)
	}
	return nil
}
