package users

import (
	"context"
	"database/sql"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// Usertype is the type of a user as GET /users/{id} answers it.
type Usertype struct {
	ID       int64  `json:"usertype_id"`
	Name     string `json:"usertype_name"`
	External int    `json:"usertype_external"`
}

// Customergroup names a customer group.
type Customergroup struct {
	ID   int64  `json:"customergroup_id"`
	Name string `json:"customergroup_name"`
}

// Company is a user's company with its customer group.
type Company struct {
	ID              int64         `json:"company_id"`
	Name            string        `json:"company_name"`
	CustomergroupID int64         `json:"customergroup_id"`
	Customergroup   Customergroup `json:"customergroup"`
}

// Contactperson is the contact person record linked to a user.
type Contactperson struct {
	ID        int64  `json:"contactperson_id"`
	FirstName string `json:"contactperson_firstname"`
	LastName  string `json:"contactperson_lastname"`
}

// User is one user as GET /users/{id} answers it; the screen derives its
// form values (ids, firmengroup_type) from it.
type User struct {
	ID                     int64          `json:"user_id"`
	UsertypeID             int64          `json:"usertype_id"`
	Usertype               Usertype       `json:"usertype"`
	IsDirector             int            `json:"user_is_director"`
	FirstName              string         `json:"user_firstname"`
	LastName               string         `json:"user_lastname"`
	Email                  string         `json:"user_email"`
	PasswordResetRequired  int            `json:"user_password_reset_required"`
	Locked                 int            `json:"user_locked"`
	WrongPasswordCounter   int            `json:"user_wrong_password_counter"`
	Abbreviation           string         `json:"user_abbreviation"`
	FunctionID             *int64         `json:"function_id"`
	Functions              []int64        `json:"user_functions"`
	FirmengroupType        *int64         `json:"firmengroup_type"`
	PartnergroupID         *int64         `json:"partnergroup_id"`
	PartnercompanyIDs      []int64        `json:"partnercompany_id"`
	CustomergroupID        *int64         `json:"customergroup_id"`
	CompanyID              *int64         `json:"company_id"`
	Company                *Company       `json:"company"`
	FixPhone               *string        `json:"user_fix_phonenumber"`
	FaxPhone               *string        `json:"user_fax_phonenumber"`
	Mobile                 *string        `json:"user_mobile"`
	RoleID                 *int64         `json:"role_id"`
	TeamIDs                []int64        `json:"team_id"`
	HollydayRepresentative *int64         `json:"hollyday_representative"`
	Contactperson          *Contactperson `json:"contactperson"`
	LastLogin              *time.Time     `json:"user_last_login_time"`
	LastActivity           *time.Time     `json:"user_last_activity_time"`
	RowVersion             int64          `json:"row_version"`
}

// ListQuery asks for one page of GET /users.
type ListQuery = tables.CustomListQuery

// List opens the page of users the caller may list (rights and tenant scope
// through the table engine).
func (s *Service) List(ctx context.Context, q ListQuery) (*tables.Cursor, error) {
	q.Entity, q.Data = "user", nil
	return s.engine.CustomList(ctx, q)
}

// visibleUser reports whether user id exists within p's tenant, as the
// table engine decides it for every generic statement: internal callers
// see every user, external ones the users of their own customer group
// (named on the user or through its company) or partner group.
func (s *Service) visibleUser(ctx context.Context, q db.Querier, p *auth.Principal, id int64) (bool, error) {
	return s.engine.VisibleTo(ctx, q, p, entityUser, id)
}

// Get answers user id when the caller may read it; 404 outside its tenant.
func (s *Service) Get(ctx context.Context, id int64) (*User, error) {
	p, err := s.authorize(ctx, access.ActionRead, SubjectUser)
	if err != nil {
		return nil, err
	}
	ok, err := s.visibleUser(ctx, s.db, p, id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errNotFound()
	}
	return s.load(ctx, s.db, id)
}

func (s *Service) load(ctx context.Context, q db.Querier, id int64) (*User, error) {
	u := &User{ID: id}
	var cgName, companyName sql.NullString
	var companyCG sql.NullInt64
	var lastLogin, lastActivity sql.NullTime
	err := q.QueryRowContext(ctx, `SELECT u.usertype_id, ut.usertype_name, ut.usertype_external, u.user_is_director,
			u.user_firstname, u.user_lastname, u.user_email, u.user_password_reset_required, u.user_locked,
			u.user_wrong_password_counter, u.user_abbreviation, u.function_id, u.firmengroup_type, u.partnergroup_id,
			u.customergroup_id, u.company_id, c.company_name, c.customergroup_id, cg.customergroup_name,
			u.user_fix_phonenumber, u.user_fax_phonenumber, u.user_mobile, u.hollyday_representative, u.row_version,
			u.user_last_login_time, u.user_last_activity_time
		FROM users u
		JOIN usertype ut ON ut.usertype_id = u.usertype_id
		LEFT JOIN company c ON c.company_id = u.company_id
		LEFT JOIN customergroup cg ON cg.customergroup_id = c.customergroup_id
		WHERE u.user_id = ?`, id).Scan(&u.UsertypeID, &u.Usertype.Name, &u.Usertype.External, &u.IsDirector,
		&u.FirstName, &u.LastName, &u.Email, &u.PasswordResetRequired, &u.Locked,
		&u.WrongPasswordCounter, &u.Abbreviation, &u.FunctionID, &u.FirmengroupType, &u.PartnergroupID,
		&u.CustomergroupID, &u.CompanyID, &companyName, &companyCG, &cgName,
		&u.FixPhone, &u.FaxPhone, &u.Mobile, &u.HollydayRepresentative, &u.RowVersion, &lastLogin, &lastActivity)
	if err == sql.ErrNoRows {
		return nil, errNotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("users: read user %d: %w", id, err)
	}
	u.Usertype.ID = u.UsertypeID
	if lastLogin.Valid {
		u.LastLogin = &lastLogin.Time
	}
	if lastActivity.Valid {
		u.LastActivity = &lastActivity.Time
	}
	if u.CompanyID != nil {
		u.Company = &Company{ID: *u.CompanyID, Name: companyName.String, CustomergroupID: companyCG.Int64,
			Customergroup: Customergroup{ID: companyCG.Int64, Name: cgName.String}}
		if u.CustomergroupID == nil {
			u.CustomergroupID = &u.Company.CustomergroupID
		}
	}
	// The teams the user belongs to now or will: an ended membership is
	// history (team screen), not a team of the form.
	if u.TeamIDs, err = ids(ctx, q, `SELECT team_id FROM user_team WHERE user_id = ? AND (valid_to IS NULL OR valid_to >= ?)
		ORDER BY team_id`, id, s.today()); err != nil {
		return nil, err
	}
	if u.Functions, err = ids(ctx, q, `SELECT function_id FROM user_function WHERE user_id = ? ORDER BY function_id`, id); err != nil {
		return nil, err
	}
	if u.PartnercompanyIDs, err = ids(ctx, q, `SELECT partnercompany_id FROM user_partnercompany WHERE user_id = ? ORDER BY partnercompany_id`, id); err != nil {
		return nil, err
	}
	roles, err := ids(ctx, q, `SELECT role_id FROM user_role WHERE user_id = ? ORDER BY user_role_rank, role_id`, id)
	if err != nil {
		return nil, err
	}
	if len(roles) > 0 {
		u.RoleID = &roles[0]
	}
	var cp Contactperson
	err = q.QueryRowContext(ctx, `SELECT contactperson_id, contactperson_firstname, contactperson_lastname
		FROM contactperson WHERE user_id = ? ORDER BY contactperson_id LIMIT 1`, id).Scan(&cp.ID, &cp.FirstName, &cp.LastName)
	switch {
	case err == nil:
		u.Contactperson = &cp
	case err != sql.ErrNoRows:
		return nil, fmt.Errorf("users: contact person of user %d: %w", id, err)
	}
	return u, nil
}

// Input is the body of POST /users and PUT /users/{id}. Nil means "not
// sent"; on update hollyday_representative is never sent and is kept.
type Input struct {
	UsertypeID             *int64  `json:"usertype_id"`
	IsDirector             *int    `json:"user_is_director"`
	FirstName              string  `json:"user_firstname"`
	LastName               string  `json:"user_lastname"`
	Email                  string  `json:"user_email"`
	Password               string  `json:"user_password"`
	PasswordResetRequired  *int    `json:"user_password_reset_required"`
	Locked                 *int    `json:"user_locked"`
	FunctionID             *int64  `json:"function_id"`
	Functions              []int64 `json:"user_functions"`
	FirmengroupType        *int    `json:"firmengroup_type"`
	PartnergroupID         *int64  `json:"partnergroup_id"`
	PartnercompanyIDs      []int64 `json:"partnercompany_id"`
	CustomergroupID        *int64  `json:"customergroup_id"`
	CompanyID              *int64  `json:"company_id"`
	FixPhone               *string `json:"user_fix_phonenumber"`
	FaxPhone               *string `json:"user_fax_phonenumber"`
	Mobile                 *string `json:"user_mobile"`
	RoleID                 *int64  `json:"role_id"`
	TeamIDs                []int64 `json:"team_id"`
	HollydayRepresentative *int64  `json:"hollyday_representative"`
	Language               string  `json:"user_language"`
	// RowVersion, when sent on update, must be the stored row_version
	// (409 server.tables.stale otherwise).
	RowVersion *int64 `json:"row_version"`
}

// checked is what validation resolved from an Input.
type checked struct {
	external bool
	roleCode string
}

// forceTenant pins team, customer group and partner group to an external
// caller's own, whatever the request says.
func forceTenant(p *auth.Principal, in *Input) {
	if !p.External {
		return
	}
	in.TeamIDs = p.TeamIDs()
	in.CustomergroupID, in.PartnergroupID = nil, nil
	if p.CustomergroupID > 0 {
		cg := p.CustomergroupID
		in.CustomergroupID = &cg
		one := 1
		in.FirmengroupType = &one
	}
	if p.PartnergroupID > 0 {
		pg := p.PartnergroupID
		in.PartnergroupID = &pg
		zero := 0
		in.FirmengroupType = &zero
	}
}

// check applies the rules of the user entity to in. On create, locked and
// the holiday representative of other users do not apply.
func (s *Service) check(ctx context.Context, q db.Querier, in *Input, create bool) (*checked, error) {
	var errs fieldErrs
	in.FirstName, in.LastName, in.Email = strings.TrimSpace(in.FirstName), strings.TrimSpace(in.LastName), strings.TrimSpace(in.Email)
	for _, f := range []struct{ name, v string }{{"user_firstname", in.FirstName}, {"user_lastname", in.LastName}, {"user_email", in.Email}} {
		if f.v == "" {
			errs.add(f.name, "validation.required", "missing", nil)
		}
	}
	if in.Email != "" {
		if a, err := mail.ParseAddress(in.Email); err != nil || a.Address != in.Email {
			errs.add("user_email", "validation.email", "value_error", nil)
		}
	}
	if !create && in.Password != "" {
		errs.add("user_password", "validation.not_writable", "not_writable", nil)
	}
	for _, f := range []struct {
		name string
		v    *int
	}{{"user_is_director", in.IsDirector}, {"user_password_reset_required", in.PasswordResetRequired}, {"user_locked", in.Locked}} {
		if f.v != nil && *f.v != 0 && *f.v != 1 {
			errs.add(f.name, "validation.type.bool", "type_error", nil)
		}
	}
	c := &checked{}
	external, err := s.checkType(ctx, q, in, &errs, c)
	if err != nil {
		return nil, err
	}
	c.external = external
	if err := s.checkGroups(ctx, q, in, &errs, external); err != nil {
		return nil, err
	}
	if err := s.checkTeams(ctx, q, in, &errs, external); err != nil {
		return nil, err
	}
	if create && in.HollydayRepresentative != nil {
		if external || len(in.PartnercompanyIDs) == 0 {
			errs.add("hollyday_representative", "validation.not_shown", "not_shown", nil)
		} else if err := checkIDs(ctx, q, &errs, "hollyday_representative", "users", "user_id", []int64{*in.HollydayRepresentative}); err != nil {
			return nil, err
		}
	}
	return c, errs.err()
}

// checkType checks the user type, the role against it, the director flag
// and the functions; it reports whether the user is external.
func (s *Service) checkType(ctx context.Context, q db.Querier, in *Input, errs *fieldErrs, c *checked) (bool, error) {
	external := false
	if in.UsertypeID == nil {
		errs.add("usertype_id", "validation.required", "missing", nil)
	} else {
		var ext int
		err := q.QueryRowContext(ctx, `SELECT usertype_external FROM usertype WHERE usertype_id = ?`, *in.UsertypeID).Scan(&ext)
		switch {
		case err == sql.ErrNoRows:
			errs.add("usertype_id", "validation.unknown_reference", "unknown_reference", nil)
		case err != nil:
			return false, fmt.Errorf("users: read user type: %w", err)
		}
		external = ext == 1
	}
	if in.RoleID == nil {
		errs.add("role_id", "validation.required", "missing", nil)
	} else {
		var roleExt int
		err := q.QueryRowContext(ctx, `SELECT role_code, role_external FROM role WHERE role_id = ?`, *in.RoleID).Scan(&c.roleCode, &roleExt)
		switch {
		case err == sql.ErrNoRows:
			errs.add("role_id", "validation.unknown_reference", "unknown_reference", nil)
		case err != nil:
			return false, fmt.Errorf("users: read role: %w", err)
		case in.UsertypeID != nil && (roleExt == 1) != external:
			errs.add("role_id", "validation.role_usertype_mismatch", "value_error", nil)
		}
	}
	if in.IsDirector != nil && *in.IsDirector == 1 && !external {
		errs.add("user_is_director", "validation.director_external_only", "value_error", nil)
	}
	if external && (in.FunctionID != nil || len(in.Functions) > 0) {
		errs.add("user_functions", "validation.not_shown", "not_shown", nil)
	}
	if in.FunctionID != nil {
		if err := checkIDs(ctx, q, errs, "function_id", "function", "function_id", []int64{*in.FunctionID}); err != nil {
			return false, err
		}
	}
	return external, checkIDs(ctx, q, errs, "user_functions", "function", "function_id", in.Functions)
}

// checkGroups checks firmengroup_type and the company, customer group,
// partner group and partner companies it chooses.
func (s *Service) checkGroups(ctx context.Context, q db.Querier, in *Input, errs *fieldErrs, external bool) error {
	if !external {
		if in.FirmengroupType != nil {
			errs.add("firmengroup_type", "validation.not_shown", "not_shown", nil)
		}
		for _, f := range []struct {
			name string
			v    *int64
		}{{"company_id", in.CompanyID}, {"customergroup_id", in.CustomergroupID}, {"partnergroup_id", in.PartnergroupID}} {
			if f.v != nil {
				errs.add(f.name, "validation.not_shown", "not_shown", nil)
			}
		}
		return checkIDs(ctx, q, errs, "partnercompany_id", "partnercompany", "partnercompany_id", in.PartnercompanyIDs)
	}
	if in.FirmengroupType == nil { // as the screen does: a company means a client user
		switch {
		case in.CompanyID != nil || in.CustomergroupID != nil:
			one := 1
			in.FirmengroupType = &one
		case in.PartnergroupID != nil:
			zero := 0
			in.FirmengroupType = &zero
		}
	}
	switch {
	case in.FirmengroupType == nil:
		errs.add("firmengroup_type", "validation.required", "missing", nil)
	case *in.FirmengroupType == 1:
		if in.PartnergroupID != nil || len(in.PartnercompanyIDs) > 0 {
			errs.add("partnergroup_id", "validation.not_shown", "not_shown", nil)
		}
		return s.checkCompany(ctx, q, in, errs)
	case *in.FirmengroupType == 0:
		if in.CompanyID != nil || in.CustomergroupID != nil {
			errs.add("company_id", "validation.not_shown", "not_shown", nil)
		}
		if in.PartnergroupID == nil {
			errs.add("partnergroup_id", "validation.required", "missing", nil)
		} else if err := checkIDs(ctx, q, errs, "partnergroup_id", "partnergroup", "partnergroup_id", []int64{*in.PartnergroupID}); err != nil {
			return err
		}
		if len(in.PartnercompanyIDs) == 0 {
			errs.add("partnercompany_id", "validation.required", "missing", nil)
		}
		for _, id := range in.PartnercompanyIDs {
			ok, err := exists(ctx, q, `SELECT 1 FROM partnercompany WHERE partnercompany_id = ? AND partnergroup_id = ?`, id, deref(in.PartnergroupID))
			if err != nil {
				return err
			}
			if !ok {
				errs.add("partnercompany_id", "validation.unknown_reference", "unknown_reference", nil)
			}
		}
	default:
		errs.add("firmengroup_type", "validation.type.option", "enum", nil)
	}
	return nil
}

// checkCompany checks a client user's company and customer group (derived
// from the company when not sent).
func (s *Service) checkCompany(ctx context.Context, q db.Querier, in *Input, errs *fieldErrs) error {
	if in.CompanyID == nil {
		errs.add("company_id", "validation.required", "missing", nil)
		return nil
	}
	var cg int64
	err := q.QueryRowContext(ctx, `SELECT customergroup_id FROM company WHERE company_id = ?`, *in.CompanyID).Scan(&cg)
	switch {
	case err == sql.ErrNoRows:
		errs.add("company_id", "validation.unknown_reference", "unknown_reference", nil)
	case err != nil:
		return fmt.Errorf("users: read company: %w", err)
	case in.CustomergroupID == nil:
		in.CustomergroupID = &cg
	case *in.CustomergroupID != cg:
		errs.add("customergroup_id", "validation.customergroup_mismatch", "value_error", nil)
	}
	return nil
}

// teamsForCompany selects the client teams available to a company: those
// for all customers and those linked to the company or its customer group.
const teamsForCompany = `SELECT t.team_id FROM team t WHERE t.team_type = 'extern_client' AND (t.team_for_all_customer = 1
	OR t.team_id IN (SELECT team_id FROM team_company WHERE company_id = ?)
	OR t.team_id IN (SELECT tc.team_id FROM team_customergroup tc JOIN company c ON c.customergroup_id = tc.customergroup_id WHERE c.company_id = ?))`

// checkTeams checks the teams: external users only get client teams, of
// their company when they belong to one.
func (s *Service) checkTeams(ctx context.Context, q db.Querier, in *Input, errs *fieldErrs, external bool) error {
	if err := checkIDs(ctx, q, errs, "team_id", "team", "team_id", in.TeamIDs); err != nil || !external {
		return err
	}
	var available map[int64]bool
	if in.CompanyID != nil && in.FirmengroupType != nil && *in.FirmengroupType == 1 {
		list, err := ids(ctx, q, teamsForCompany, *in.CompanyID, *in.CompanyID)
		if err != nil {
			return err
		}
		if len(list) == 0 {
			errs.add("team_id", "validation.no_teams_for_company", "value_error", nil)
			return nil
		}
		available = map[int64]bool{}
		for _, id := range list {
			available[id] = true
		}
	}
	for _, id := range in.TeamIDs {
		var typ string
		err := q.QueryRowContext(ctx, `SELECT team_type FROM team WHERE team_id = ?`, id).Scan(&typ)
		if err == sql.ErrNoRows {
			continue // reported above
		}
		if err != nil {
			return fmt.Errorf("users: read team %d: %w", id, err)
		}
		if typ != "extern_client" || (available != nil && !available[id]) {
			errs.add("team_id", "validation.team_customer_only", "value_error", nil)
		}
	}
	return nil
}

func deref(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func flagOf(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// Create creates a user and queues its verification mail; it answers the
// new id.
func (s *Service) Create(ctx context.Context, in Input) (int64, error) {
	p, err := s.authorize(ctx, access.ActionCreate, SubjectUser)
	if err != nil {
		return 0, err
	}
	forceTenant(p, &in)
	var id int64
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		c, err := s.check(ctx, tx, &in, true)
		if err != nil {
			return err
		}
		nu := auth.NewUser{
			Email: in.Email, FirstName: in.FirstName, LastName: in.LastName, Language: strings.TrimSpace(in.Language),
			UsertypeID: deref(in.UsertypeID), RoleCodes: []string{c.roleCode}, TeamIDs: in.TeamIDs,
			CompanyID: in.CompanyID, CustomergroupID: in.CustomergroupID, PartnergroupID: in.PartnergroupID,
			PartnercompanyIDs: in.PartnercompanyIDs, IsDirector: flagOf(in.IsDirector) == 1,
			Password: in.Password, PasswordResetRequired: flagOf(in.PasswordResetRequired) == 1, SendVerification: true,
		}
		if id, err = s.auth.CreateUser(ctx, tx, nu); err != nil {
			return err
		}
		if err := s.writeExtras(ctx, tx, id, &in, true); err != nil {
			return err
		}
		return s.recordCreate(ctx, tx, id, in.Password)
	})
	if err != nil {
		return 0, fmt.Errorf("users: create: %w", err)
	}
	s.outbox.Kick()
	return id, nil
}

// recordCreate writes the history of a new user (a given password as
// "***") and of the teams it joined.
func (s *Service) recordCreate(ctx context.Context, tx *db.Tx, id int64, password string) error {
	after, _, err := s.snapshot(ctx, tx, entityUser, id)
	if err != nil {
		return err
	}
	if password != "" {
		after["user_password"] = password
	}
	if _, err := s.recordWrite(ctx, tx, entityUser, "users", "user_id", id, 0, nil, after, nil); err != nil {
		return err
	}
	return s.recordLinks(ctx, tx, entityTeam, "users", id, idsOf(after, "team_id"), nil)
}

// writeExtras stores what auth.CreateUser does not: functions, phone
// numbers, firmengroup_type and (on create) the holiday representative.
func (s *Service) writeExtras(ctx context.Context, tx *db.Tx, id int64, in *Input, create bool) error {
	var fg any
	if in.FirmengroupType != nil {
		fg = *in.FirmengroupType
	}
	_, err := tx.ExecContext(ctx, `UPDATE users SET function_id = ?, firmengroup_type = ?, user_fix_phonenumber = ?,
		user_fax_phonenumber = ?, user_mobile = ? WHERE user_id = ?`,
		in.FunctionID, fg, in.FixPhone, in.FaxPhone, in.Mobile, id)
	if err != nil {
		return fmt.Errorf("users: store details of user %d: %w", id, err)
	}
	if create && in.HollydayRepresentative != nil {
		if _, err := tx.ExecContext(ctx, `UPDATE users SET hollyday_representative = ? WHERE user_id = ?`, *in.HollydayRepresentative, id); err != nil {
			return fmt.Errorf("users: store holiday representative of user %d: %w", id, err)
		}
	}
	return replaceLinks(ctx, tx, "user_function", "user_id", "function_id", id, in.Functions)
}

// Update changes user id. The password is never set here and the holiday
// representative is kept; unlocking resets the wrong-password counter and
// locking ends the user's sessions. A row_version sent must be the stored
// one (409 otherwise); an update that changes something increments it and
// writes the history, one that changes nothing writes neither.
func (s *Service) Update(ctx context.Context, id int64, in Input) error {
	p, err := s.authorize(ctx, access.ActionUpdate, SubjectUser)
	if err != nil {
		return err
	}
	forceTenant(p, &in)
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		ok, err := s.visibleUser(ctx, tx, p, id)
		if err != nil {
			return err
		}
		if !ok {
			return errNotFound()
		}
		if ok, err := lockRow(ctx, tx, "users", "user_id", id); err != nil || !ok {
			if err != nil {
				return err
			}
			return errNotFound()
		}
		before, version, err := s.snapshot(ctx, tx, entityUser, id)
		if err != nil {
			return err
		}
		if err := checkVersion(in.RowVersion, version); err != nil {
			return err
		}
		var wasLocked int
		if err := tx.QueryRowContext(ctx, `SELECT user_locked FROM users WHERE user_id = ?`, id).Scan(&wasLocked); err != nil {
			return fmt.Errorf("users: read user %d: %w", id, err)
		}
		c, err := s.check(ctx, tx, &in, false)
		if err != nil {
			return err
		}
		locked := wasLocked
		if in.Locked != nil {
			locked = *in.Locked
		}
		if err := s.updateRow(ctx, tx, id, &in, locked, wasLocked); err != nil {
			return err
		}
		if err := s.writeExtras(ctx, tx, id, &in, false); err != nil {
			return err
		}
		if err := s.updateMemberships(ctx, tx, id, &in, c); err != nil {
			return err
		}
		if err := s.recordUpdate(ctx, tx, id, version, before); err != nil {
			return err
		}
		if locked == 1 && wasLocked == 0 {
			return s.auth.EndSessions(ctx, tx, id, "locked")
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("users: update %d: %w", id, err)
	}
	return nil
}

// recordUpdate compares user id with before and, when something changed,
// increments its version and writes its history and that of the teams it
// joined or left.
func (s *Service) recordUpdate(ctx context.Context, tx *db.Tx, id, version int64, before validate.Record) error {
	after, _, err := s.snapshot(ctx, tx, entityUser, id)
	if err != nil {
		return err
	}
	changed, err := s.recordWrite(ctx, tx, entityUser, "users", "user_id", id, version, before, after, nil)
	if err != nil || !changed {
		return err
	}
	added, removed := idDiff(idsOf(before, "team_id"), idsOf(after, "team_id"))
	return s.recordLinks(ctx, tx, entityTeam, "users", id, added, removed)
}

func (s *Service) updateRow(ctx context.Context, tx *db.Tx, id int64, in *Input, locked, wasLocked int) error {
	counter := "user_wrong_password_counter"
	if wasLocked == 1 && locked == 0 {
		counter = "0"
	}
	_, err := tx.ExecContext(ctx, `UPDATE users SET usertype_id = ?, user_is_director = ?, user_firstname = ?, user_lastname = ?,
			user_email = ?, user_email_normalized = ?, user_password_reset_required = ?, user_locked = ?,
			user_wrong_password_counter = `+counter+`, partnergroup_id = ?, customergroup_id = ?, company_id = ?
		WHERE user_id = ?`,
		deref(in.UsertypeID), flagOf(in.IsDirector), in.FirstName, in.LastName,
		in.Email, strings.ToLower(in.Email), flagOf(in.PasswordResetRequired), locked,
		in.PartnergroupID, in.CustomergroupID, in.CompanyID, id)
	if db.IsUniqueViolation(err) {
		return apperr.Conflict("server.auth.email_taken").Wrap(err)
	}
	if err != nil {
		return fmt.Errorf("users: update user %d: %w", id, err)
	}
	return nil
}

// updateMemberships sets the role, teams and partner companies; team
// memberships that stay keep their validity dates.
func (s *Service) updateMemberships(ctx context.Context, tx *db.Tx, id int64, in *Input, c *checked) error {
	roleID := deref(in.RoleID)
	have, err := ids(ctx, tx, `SELECT role_id FROM user_role WHERE user_id = ? ORDER BY user_role_rank, role_id`, id)
	if err != nil {
		return err
	}
	if len(have) != 1 || have[0] != roleID {
		if _, err := tx.ExecContext(ctx, `DELETE FROM user_role WHERE user_id = ?`, id); err != nil {
			return fmt.Errorf("users: clear roles of %d: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO user_role (user_id, role_id, user_role_rank) VALUES (?, ?, 0)`, id, roleID); err != nil {
			return fmt.Errorf("users: give role %s to %d: %w", c.roleCode, id, err)
		}
	}
	today := s.today()
	current, err := ids(ctx, tx, `SELECT team_id FROM user_team WHERE user_id = ? AND (valid_to IS NULL OR valid_to >= ?)`, id, today)
	if err != nil {
		return err
	}
	ended, err := ids(ctx, tx, `SELECT team_id FROM user_team WHERE user_id = ? AND valid_to < ?`, id, today)
	if err != nil {
		return err
	}
	want := map[int64]bool{}
	for _, t := range in.TeamIDs {
		want[t] = true
	}
	for _, t := range current {
		if !want[t] {
			if _, err := tx.ExecContext(ctx, `DELETE FROM user_team WHERE user_id = ? AND team_id = ?`, id, t); err != nil {
				return fmt.Errorf("users: remove %d from team %d: %w", id, t, err)
			}
		}
		delete(want, t)
	}
	// A team whose membership ended is joined again from today.
	for _, t := range ended {
		if want[t] {
			if _, err := tx.ExecContext(ctx, `UPDATE user_team SET valid_from = ?, valid_to = NULL WHERE user_id = ? AND team_id = ?`, today, id, t); err != nil {
				return fmt.Errorf("users: return %d to team %d: %w", id, t, err)
			}
			delete(want, t)
		}
	}
	for _, t := range dedupe(in.TeamIDs) {
		if want[t] {
			if _, err := tx.ExecContext(ctx, `INSERT INTO user_team (user_id, team_id) VALUES (?, ?)`, id, t); err != nil {
				return fmt.Errorf("users: add %d to team %d: %w", id, t, err)
			}
		}
	}
	return replaceLinks(ctx, tx, "user_partnercompany", "user_id", "partnercompany_id", id, in.PartnercompanyIDs)
}

// Action is an administrator action on a user.
type Action string

// The administrator actions.
const (
	ActionLock               Action = "lock"
	ActionUnlock             Action = "unlock"
	ActionForcePasswordReset Action = "force-password-reset"
	ActionEndSessions        Action = "end-sessions"
)

// actionSQL is the change each action makes and whether it ends the
// user's sessions.
var actionSQL = map[Action]struct {
	set  string
	end  bool
	text string
}{
	ActionLock:               {`user_locked = 1`, true, "server.users.locked"},
	ActionUnlock:             {`user_locked = 0, user_wrong_password_counter = 0`, false, "server.users.unlocked"},
	ActionForcePasswordReset: {`user_password_reset_required = 1`, true, "server.users.password_reset_forced"},
	ActionEndSessions:        {``, true, "server.users.sessions_ended"},
}

// Administer runs an administrator action on user id (manage on user) and
// answers the translated confirmation. An action that changes the user's
// record increments its version and writes its history; ending the
// sessions changes no field of the record, so it writes neither.
func (s *Service) Administer(ctx context.Context, id int64, a Action) (string, error) {
	spec, ok := actionSQL[a]
	if !ok {
		return "", errNotFound()
	}
	if _, err := s.authorize(ctx, access.ActionManage, SubjectUser); err != nil {
		return "", err
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if ok, err := lockRow(ctx, tx, "users", "user_id", id); err != nil || !ok {
			if err != nil {
				return err
			}
			return errNotFound()
		}
		if spec.set != "" {
			before, version, err := s.snapshot(ctx, tx, entityUser, id)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `UPDATE users SET `+spec.set+` WHERE user_id = ?`, id); err != nil {
				return fmt.Errorf("users: %s user %d: %w", a, id, err)
			}
			if err := s.recordUpdate(ctx, tx, id, version, before); err != nil {
				return err
			}
		}
		if spec.end {
			return s.auth.EndSessions(ctx, tx, id, string(a))
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("users: %s: %w", a, err)
	}
	return s.text(ctx, spec.text), nil
}
