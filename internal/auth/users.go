package auth

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
)

// NewUser describes a user to create. Nil ids mean "none".
type NewUser struct {
	Email     string
	FirstName string
	LastName  string
	// Language is the preferred language (en, de, fr) or "".
	Language   string
	UsertypeID int64
	// RoleCodes are the roles in rank order; the first decides whether the
	// user is an administrator.
	RoleCodes         []string
	TeamIDs           []int64
	CompanyID         *int64
	CustomergroupID   *int64 // derived from the company when nil
	PartnergroupID    *int64
	PartnercompanyIDs []int64
	// IsDirector is allowed for external users only.
	IsDirector bool
	// Password is optional: without one the user chooses it through the
	// verification link (or a reset link).
	Password              string
	PasswordResetRequired bool
	// Verified marks the address as confirmed (seeded and command-line
	// users); unverified users cannot log in.
	Verified bool
	// SendVerification queues the verification mail through the same
	// querier. Mail queued inside a transaction goes out after the commit,
	// at the next outbox scan or when the caller kicks the outbox.
	SendVerification bool
}

// CreateUser validates u and creates the user through q (pass a transaction
// to make it atomic with other writes). Invalid fields answer 422, a taken
// address 409.
func (s *Service) CreateUser(ctx context.Context, q db.Querier, u NewUser) (int64, error) {
	u.Email, u.FirstName, u.LastName = strings.TrimSpace(u.Email), strings.TrimSpace(u.FirstName), strings.TrimSpace(u.LastName)
	if err := u.validate(); err != nil {
		return 0, err
	}
	refs, err := resolveRefs(ctx, q, &u)
	if err != nil {
		return 0, err
	}
	hash := ""
	if u.Password != "" {
		if hash, err = HashPassword(u.Password); err != nil {
			return 0, err
		}
	}
	id, err := s.insertUser(ctx, q, &u, hash)
	if err != nil {
		return 0, err
	}
	if err := insertMemberships(ctx, q, id, refs.roleIDs, &u); err != nil {
		return 0, err
	}
	if u.SendVerification {
		acc := &account{id: id, email: u.Email, firstName: u.FirstName, lastName: u.LastName, language: u.Language}
		if err := s.sendLink(ctx, q, i18n.LangFrom(ctx), acc, purposeVerify, s.verifyTTL); err != nil {
			return 0, err
		}
	}
	return id, nil
}

// validate checks the fields that need no database.
func (u *NewUser) validate() error {
	var c checker
	if c.required("user_email", u.Email) {
		c.maxLen("user_email", u.Email, maxEmailLen)
		c.email("user_email", u.Email)
	}
	for _, f := range []struct{ name, value string }{{"user_firstname", u.FirstName}, {"user_lastname", u.LastName}} {
		if c.required(f.name, f.value) {
			c.maxLen(f.name, f.value, maxNameLen)
		}
	}
	if u.UsertypeID <= 0 {
		c.custom("usertype_id", "validation.required", "missing")
	}
	if len(u.RoleCodes) == 0 {
		c.custom("role_id", "validation.required", "missing")
	}
	c.language("user_language", u.Language)
	c.password("user_password", u.Password)
	return c.err()
}

// refs are the ids resolved from a NewUser.
type refs struct {
	roleIDs []int64
}

// resolveRefs checks that every referenced row exists, derives the customer
// group from the company, and checks the director flag against the user
// type.
func resolveRefs(ctx context.Context, q db.Querier, u *NewUser) (*refs, error) {
	var c checker
	external, err := usertypeExternal(ctx, q, u.UsertypeID)
	if err != nil {
		return nil, err
	}
	switch {
	case external < 0:
		c.custom("usertype_id", "validation.unknown_reference", "unknown_reference")
	case u.IsDirector && external == 0:
		c.custom("user_is_director", "validation.director_external_only", "value_error")
	}
	r := &refs{}
	for _, code := range u.RoleCodes {
		id, err := lookupID(ctx, q, `SELECT role_id FROM role WHERE role_code = ?`, code)
		if err != nil {
			return nil, err
		}
		if id == 0 {
			c.custom("role_id", "validation.unknown_reference", "unknown_reference")
		}
		r.roleIDs = append(r.roleIDs, id)
	}
	if err := checkRefs(ctx, q, &c, u); err != nil {
		return nil, err
	}
	return r, c.err()
}

func usertypeExternal(ctx context.Context, q db.Querier, id int64) (int, error) {
	var ext int
	err := q.QueryRowContext(ctx, `SELECT usertype_external FROM usertype WHERE usertype_id = ?`, id).Scan(&ext)
	if isNoRows(err) {
		return -1, nil
	}
	if err != nil {
		return 0, fmt.Errorf("auth: read user type %d: %w", id, err)
	}
	return ext, nil
}

// lookupID runs a one-value id query; 0 means no row.
func lookupID(ctx context.Context, q db.Querier, query string, arg any) (int64, error) {
	var id int64
	err := q.QueryRowContext(ctx, query, arg).Scan(&id)
	if isNoRows(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("auth: look up %v: %w", arg, err)
	}
	return id, nil
}

// refCheck is one referenced id and the query that finds it.
type refCheck struct {
	field string
	ids   []int64
	query string
}

// checkRefs checks the company, groups, teams and partner companies.
func checkRefs(ctx context.Context, q db.Querier, c *checker, u *NewUser) error {
	if u.CompanyID != nil {
		cg, err := lookupID(ctx, q, `SELECT customergroup_id FROM company WHERE company_id = ?`, *u.CompanyID)
		if err != nil {
			return err
		}
		switch {
		case cg == 0:
			c.custom("company_id", "validation.unknown_reference", "unknown_reference")
		case u.CustomergroupID == nil:
			u.CustomergroupID = &cg
		case *u.CustomergroupID != cg:
			c.custom("customergroup_id", "validation.customergroup_mismatch", "value_error")
		}
	}
	checks := []refCheck{
		{"customergroup_id", ids(u.CustomergroupID), `SELECT customergroup_id FROM customergroup WHERE customergroup_id = ?`},
		{"partnergroup_id", ids(u.PartnergroupID), `SELECT partnergroup_id FROM partnergroup WHERE partnergroup_id = ?`},
		{"team_ids", u.TeamIDs, `SELECT team_id FROM team WHERE team_id = ?`},
		{"partnercompany_id", u.PartnercompanyIDs, `SELECT partnercompany_id FROM partnercompany WHERE partnercompany_id = ?`},
	}
	for _, rc := range checks {
		for _, id := range rc.ids {
			found, err := lookupID(ctx, q, rc.query, id)
			if err != nil {
				return err
			}
			if found == 0 {
				c.custom(rc.field, "validation.unknown_reference", "unknown_reference")
			}
		}
	}
	return nil
}

func ids(id *int64) []int64 {
	if id == nil {
		return nil
	}
	return []int64{*id}
}

func nullID(id *int64) any {
	if id == nil {
		return nil
	}
	return *id
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// firmengroupType is 1 for a client-company user, 0 for a partner user,
// NULL otherwise.
func firmengroupType(u *NewUser) any {
	switch {
	case u.CompanyID != nil:
		return 1
	case u.PartnergroupID != nil || len(u.PartnercompanyIDs) > 0:
		return 0
	}
	return nil
}

func (s *Service) insertUser(ctx context.Context, q db.Querier, u *NewUser, hash string) (int64, error) {
	var verifiedAt any
	if u.Verified {
		verifiedAt = s.now()
	}
	var id int64
	err := q.QueryRowContext(ctx, `INSERT INTO users (usertype_id, user_is_director, user_firstname, user_lastname, user_email,
			user_email_normalized, user_password, user_password_reset_required, user_abbreviation, firmengroup_type,
			partnergroup_id, customergroup_id, company_id, user_verified_at, user_language)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING user_id`,
		u.UsertypeID, flag(u.IsDirector), u.FirstName, u.LastName, u.Email,
		normalizeEmail(u.Email), nullString(hash), flag(u.PasswordResetRequired), abbreviation(u.FirstName, u.LastName), firmengroupType(u),
		nullID(u.PartnergroupID), nullID(u.CustomergroupID), nullID(u.CompanyID), verifiedAt, nullString(u.Language)).Scan(&id)
	if db.IsUniqueViolation(err) {
		return 0, apperr.Conflict("server.auth.email_taken").Wrap(err)
	}
	if err != nil {
		return 0, fmt.Errorf("auth: insert user %s: %w", u.Email, err)
	}
	return id, nil
}

func insertMemberships(ctx context.Context, q db.Querier, userID int64, roleIDs []int64, u *NewUser) error {
	for rank, id := range roleIDs {
		if _, err := q.ExecContext(ctx, `INSERT INTO user_role (user_id, role_id, user_role_rank) VALUES (?, ?, ?)`, userID, id, rank); err != nil {
			return fmt.Errorf("auth: give role %d to user %d: %w", id, userID, err)
		}
	}
	for _, id := range dedupe(u.TeamIDs) {
		if _, err := q.ExecContext(ctx, `INSERT INTO user_team (user_id, team_id) VALUES (?, ?)`, userID, id); err != nil {
			return fmt.Errorf("auth: add user %d to team %d: %w", userID, id, err)
		}
	}
	for _, id := range dedupe(u.PartnercompanyIDs) {
		if _, err := q.ExecContext(ctx, `INSERT INTO user_partnercompany (user_id, partnercompany_id) VALUES (?, ?)`, userID, id); err != nil {
			return fmt.Errorf("auth: link user %d to partner company %d: %w", userID, id, err)
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

// registerInput is the body of POST /jwt/register.
type registerInput struct {
	Email           string  `json:"user_email"`
	FirstName       string  `json:"user_firstname"`
	LastName        string  `json:"user_lastname"`
	UsertypeID      *int64  `json:"usertype_id"`
	RoleID          *int64  `json:"role_id"`
	TeamIDs         []int64 `json:"team_ids"`
	CompanyID       *int64  `json:"company_id"`
	CustomergroupID *int64  `json:"customergroup_id"`
	PartnergroupID  *int64  `json:"partnergroup_id"`
	Password        string  `json:"user_password"`
	Language        string  `json:"user_language"`
}

func idOf(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// handleRegister creates a user (administrators only for now) and mails the
// verification link.
func (s *Service) handleRegister(w http.ResponseWriter, r *http.Request) error {
	p, err := principal(r)
	if err != nil {
		return err
	}
	if !p.IsAdmin() {
		return apperr.Forbidden("server.auth.forbidden")
	}
	var in registerInput
	if err := httpapi.DecodeJSON(r, &in, true); err != nil {
		return err
	}
	ctx := r.Context()
	var id int64
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		u, err := in.newUser(ctx, tx)
		if err != nil {
			return err
		}
		id, err = s.CreateUser(ctx, tx, u)
		return err
	})
	if err != nil {
		return err
	}
	s.outbox.Kick()
	httpapi.WriteJSON(w, http.StatusCreated, map[string]any{
		"user_id": id,
		"detail":  s.catalog.T(i18n.LangFrom(ctx), "server.auth.user_created", nil),
	})
	return nil
}

// newUser maps the payload to a NewUser; the role id is resolved to its
// code (an unknown one answers 422 like any unknown reference).
func (in *registerInput) newUser(ctx context.Context, q db.Querier) (NewUser, error) {
	u := NewUser{
		Email: in.Email, FirstName: in.FirstName, LastName: in.LastName, Language: strings.TrimSpace(in.Language),
		UsertypeID: idOf(in.UsertypeID), TeamIDs: in.TeamIDs, CompanyID: in.CompanyID,
		CustomergroupID: in.CustomergroupID, PartnergroupID: in.PartnergroupID,
		Password: in.Password, SendVerification: true,
	}
	if in.RoleID == nil {
		return u, nil // validate reports the missing role
	}
	var code string
	err := q.QueryRowContext(ctx, `SELECT role_code FROM role WHERE role_id = ?`, *in.RoleID).Scan(&code)
	if isNoRows(err) {
		return u, apperr.Validation(apperr.FieldError{Field: "role_id", Key: "validation.unknown_reference", Type: "unknown_reference"})
	}
	if err != nil {
		return u, fmt.Errorf("auth: read role %d: %w", *in.RoleID, err)
	}
	u.RoleCodes = []string{code}
	return u, nil
}

// handleGeneratePassword answers a fresh random password that meets the
// policy, for the user form's "generate" button.
func (s *Service) handleGeneratePassword(w http.ResponseWriter, r *http.Request) error {
	pw, err := GeneratePassword()
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]string{"password": pw})
	return nil
}
