package auth

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/db"
)

// UserRecord is the current user record of GET /user/ (specification,
// section 3). Flags are 0/1 like every boolean of the API; lists are never
// null.
type UserRecord struct {
	UserID           int64                  `json:"user_id"`
	Email            string                 `json:"user_email"`
	FirstName        string                 `json:"user_firstname"`
	LastName         string                 `json:"user_lastname"`
	Abbreviation     string                 `json:"user_abbreviation"`
	Language         *string                `json:"user_language"`
	FixPhone         *string                `json:"user_fix_phonenumber"`
	FaxPhone         *string                `json:"user_fax_phonenumber"`
	Mobile           *string                `json:"user_mobile"`
	IsDirector       int                    `json:"user_is_director"`
	LastLoginTime    *time.Time             `json:"user_last_login_time"`
	Usertype         UsertypeRecord         `json:"usertype"`
	Roles            []RoleRecord           `json:"roles"`
	PartnerCompanies []PartnerCompanyRecord `json:"partnercompany"`
	Company          *CompanyRecord         `json:"company"`
	CustomerGroup    *CustomerGroupRecord   `json:"customergroup"`
	PartnerGroup     *PartnerGroupRecord    `json:"partnergroup"`
	TeamIDs          []int64                `json:"team_id"`
	Teams            []TeamRecord           `json:"teams"`
	Configs          []ConfigRecord         `json:"configs"`
	Tablegroups      []TablegroupTables     `json:"tablegroups"`
	UsersTablegroups []UserTablegroupRecord `json:"users_tablegroups"`
	Rules            []access.Rule          `json:"rules"`
}

// UsertypeRecord is the user's type.
type UsertypeRecord struct {
	ID       int64  `json:"usertype_id"`
	Name     string `json:"usertype_name"`
	External int    `json:"usertype_external"`
}

// RoleRecord is one valid role with its table-group flags.
type RoleRecord struct {
	ID          int64                 `json:"role_id"`
	Name        string                `json:"role_name"`
	Code        string                `json:"role_code"`
	Menu        string                `json:"role_menu"`
	Tablegroups []RoleTablegroupFlags `json:"tablegroups"`
}

// RoleTablegroupFlags are a role's c/r/u/d flags on a table group.
type RoleTablegroupFlags struct {
	ID    int64  `json:"tablegroup_id"`
	Name  string `json:"tablegroup_name"`
	CrudC int    `json:"crud_c"`
	CrudR int    `json:"crud_r"`
	CrudU int    `json:"crud_u"`
	CrudD int    `json:"crud_d"`
}

// PartnerCompanyRecord is a partner company of the user.
type PartnerCompanyRecord struct {
	ID   int64  `json:"partnercompany_id"`
	Name string `json:"partnercompany_name"`
}

// CompanyRecord is the user's company.
type CompanyRecord struct {
	ID              int64  `json:"company_id"`
	Name            string `json:"company_name"`
	CustomergroupID int64  `json:"customergroup_id"`
}

// CustomerGroupRecord is the user's customer group.
type CustomerGroupRecord struct {
	ID   int64  `json:"customergroup_id"`
	Name string `json:"customergroup_name"`
}

// PartnerGroupRecord is the user's partner group.
type PartnerGroupRecord struct {
	ID   int64  `json:"partnergroup_id"`
	Name string `json:"partnergroup_name"`
}

// TeamRecord is a team the user belongs to today.
type TeamRecord struct {
	ID   int64  `json:"team_id"`
	Name string `json:"team_name"`
	Type string `json:"team_type"`
}

// ConfigRecord is one configuration entry; the only key is "menu".
type ConfigRecord struct {
	Key string              `json:"config_key"`
	Val []access.MenuAccess `json:"config_val"`
}

// TablegroupTables lists the tables of a table group.
type TablegroupTables struct {
	ID     int64    `json:"tablegroup_id"`
	Tables []string `json:"table_name"`
}

// UserTablegroupRecord are the user's own flags on a table group.
type UserTablegroupRecord struct {
	ID int64 `json:"tablegroup_id"`
	C  int   `json:"c"`
	R  int   `json:"r"`
	U  int   `json:"u"`
	D  int   `json:"d"`
}

func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}

// UserRecord builds the current user record of p.
func (s *Service) UserRecord(ctx context.Context, q db.Querier, p *Principal) (*UserRecord, error) {
	rec, err := loadUserRow(ctx, q, p.UserID)
	if err != nil {
		return nil, err
	}
	if rec.PartnerCompanies, err = loadPartnerCompanies(ctx, q, p.UserID); err != nil {
		return nil, err
	}
	g, err := s.rights.Grants(ctx, q, p.Subject(), p.RightsGeneration)
	if err != nil {
		return nil, fmt.Errorf("auth: rights of user %d: %w", p.UserID, err)
	}
	fillMemberships(rec, p, g)
	fillGrants(rec, g)
	return rec, nil
}

func loadUserRow(ctx context.Context, q db.Querier, userID int64) (*UserRecord, error) {
	rec := &UserRecord{UserID: userID}
	var lang, fix, fax, mobile, companyName, cgName, pgName sql.NullString
	var lastLogin sql.NullTime
	var companyID, companyCG, cgID, pgID sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT u.user_email, u.user_firstname, u.user_lastname, u.user_abbreviation, u.user_language,
			u.user_fix_phonenumber, u.user_fax_phonenumber, u.user_mobile, u.user_is_director, u.user_last_login_time,
			ut.usertype_id, ut.usertype_name, ut.usertype_external,
			c.company_id, c.company_name, c.customergroup_id, cg.customergroup_id, cg.customergroup_name, pg.partnergroup_id, pg.partnergroup_name
		FROM users u
		JOIN usertype ut ON ut.usertype_id = u.usertype_id
		LEFT JOIN company c ON c.company_id = u.company_id
		LEFT JOIN customergroup cg ON cg.customergroup_id = COALESCE(u.customergroup_id, c.customergroup_id)
		LEFT JOIN partnergroup pg ON pg.partnergroup_id = u.partnergroup_id
		WHERE u.user_id = ?`, userID).Scan(
		&rec.Email, &rec.FirstName, &rec.LastName, &rec.Abbreviation, &lang,
		&fix, &fax, &mobile, &rec.IsDirector, &lastLogin,
		&rec.Usertype.ID, &rec.Usertype.Name, &rec.Usertype.External,
		&companyID, &companyName, &companyCG, &cgID, &cgName, &pgID, &pgName)
	if err != nil {
		return nil, fmt.Errorf("auth: read user %d: %w", userID, err)
	}
	rec.Language, rec.FixPhone, rec.FaxPhone, rec.Mobile = strPtr(lang), strPtr(fix), strPtr(fax), strPtr(mobile)
	if lastLogin.Valid {
		t := lastLogin.Time.UTC()
		rec.LastLoginTime = &t
	}
	if companyID.Valid {
		rec.Company = &CompanyRecord{ID: companyID.Int64, Name: companyName.String, CustomergroupID: companyCG.Int64}
	}
	if cgID.Valid {
		rec.CustomerGroup = &CustomerGroupRecord{ID: cgID.Int64, Name: cgName.String}
	}
	if pgID.Valid {
		rec.PartnerGroup = &PartnerGroupRecord{ID: pgID.Int64, Name: pgName.String}
	}
	return rec, nil
}

func strPtr(v sql.NullString) *string {
	if !v.Valid {
		return nil
	}
	return &v.String
}

func loadPartnerCompanies(ctx context.Context, q db.Querier, userID int64) ([]PartnerCompanyRecord, error) {
	rows, err := q.QueryContext(ctx, `SELECT p.partnercompany_id, p.partnercompany_name
		FROM user_partnercompany up JOIN partnercompany p ON p.partnercompany_id = up.partnercompany_id
		WHERE up.user_id = ? ORDER BY p.partnercompany_name, p.partnercompany_id`, userID)
	if err != nil {
		return nil, fmt.Errorf("auth: read partner companies of user %d: %w", userID, err)
	}
	defer rows.Close()
	out := []PartnerCompanyRecord{}
	for rows.Next() {
		var pc PartnerCompanyRecord
		if err := rows.Scan(&pc.ID, &pc.Name); err != nil {
			return nil, fmt.Errorf("auth: scan partner company: %w", err)
		}
		out = append(out, pc)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("auth: read partner companies: %w", err)
	}
	return out, nil
}

// fillMemberships copies the valid roles (with their table-group flags) and
// teams.
func fillMemberships(rec *UserRecord, p *Principal, g *access.Grants) {
	rec.Roles = make([]RoleRecord, 0, len(p.Roles))
	for _, r := range p.Roles {
		rr := RoleRecord{ID: r.ID, Name: r.Name, Code: r.Code, Menu: r.Menu, Tablegroups: []RoleTablegroupFlags{}}
		for _, c := range g.RoleCruds[r.Code] {
			rr.Tablegroups = append(rr.Tablegroups, RoleTablegroupFlags{ID: c.TablegroupID, Name: c.TablegroupName,
				CrudC: flag(c.C), CrudR: flag(c.R), CrudU: flag(c.U), CrudD: flag(c.D)})
		}
		rec.Roles = append(rec.Roles, rr)
	}
	rec.TeamIDs = make([]int64, 0, len(p.Teams))
	rec.Teams = make([]TeamRecord, 0, len(p.Teams))
	for _, t := range p.Teams {
		rec.TeamIDs = append(rec.TeamIDs, t.ID)
		rec.Teams = append(rec.Teams, TeamRecord{ID: t.ID, Name: t.Name, Type: t.Type})
	}
}

// fillGrants adds the menu configuration, table groups, the user's own flags
// and the rules.
func fillGrants(rec *UserRecord, g *access.Grants) {
	rec.Configs = []ConfigRecord{{Key: "menu", Val: g.Menus()}}
	rec.Tablegroups = []TablegroupTables{}
	for _, id := range g.GroupIDs() {
		tables := g.Tables[id]
		if tables == nil {
			tables = []string{}
		}
		rec.Tablegroups = append(rec.Tablegroups, TablegroupTables{ID: id, Tables: tables})
	}
	rec.UsersTablegroups = []UserTablegroupRecord{}
	for _, c := range g.UserCruds {
		rec.UsersTablegroups = append(rec.UsersTablegroups, UserTablegroupRecord{ID: c.TablegroupID, C: flag(c.C), R: flag(c.R), U: flag(c.U), D: flag(c.D)})
	}
	rec.Rules = g.Rules()
}
