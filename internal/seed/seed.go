// Package seed creates the data a fresh installation needs (user types,
// roles, teams, permission rules) and the demo data set. Every function is
// idempotent: running it again changes nothing.
package seed

import (
	"context"
	"fmt"

	"portfolio/internal/app"
	"portfolio/internal/auth"
	"portfolio/internal/db"
)

// DemoPassword is the password of every demo user. Demo only.
const DemoPassword = "Demo-Password-1"

// Login describes one demo account for the printed list.
type Login struct {
	Email       string
	Description string
}

// User type ids the spec fixes.
const (
	UsertypeIntern int64 = 1
	UsertypeExtern int64 = 2
)

// Team ids the spec fixes for external members (MVM 6, FM 7, NKA 8, BuHa 9).
// Internal teams take 1–5 and 10.
const (
	TeamMVM        int64 = 1
	TeamFM         int64 = 2
	TeamNKA        int64 = 3
	TeamFoMa       int64 = 4
	TeamBackOffice int64 = 5
	TeamExtMVM     int64 = 6
	TeamExtFM      int64 = 7
	TeamExtNKA     int64 = 8
	TeamExtBuHa    int64 = 9
	TeamBuHa       int64 = 10
)

type roleRow struct {
	id       int64
	name     string
	code     string
	external int
	desc     string
}

// Roles are the nine roles of the spec; "Administratoren" is the
// administrator role.
var roles = []roleRow{
	{1, "Administratoren", "admin", 0, "Administrators: manage everything"},
	{2, "Team Lead", "team_lead", 0, "Leads an internal team"},
	{3, "Team Member", "team_member", 0, "Member of an internal team"},
	{4, "Lawyer", "lawyer", 1, "External lawyer"},
	{5, "Lead", "lead", 1, "Lead on the client side"},
	{6, "Expansion Manager", "expansion_manager", 1, "Expansion manager on the client side"},
	{7, "Store Manager", "store_manager", 1, "Manager of a point of sale"},
	{8, "Area Manager", "area_manager", 1, "Manager of several points of sale"},
	{9, "External Team Member", "ext_team_member", 1, "Member of an external team"},
}

type teamRow struct {
	id     int64
	name   string
	typ    string
	parent any
	desc   string
}

var teams = []teamRow{
	{TeamMVM, "MVM", "intern", nil, "Lease management (Mietvertragsmanagement)"},
	{TeamFM, "FM", "intern", nil, "Facility management"},
	{TeamNKA, "NKA", "intern", nil, "Service charge settlement (Nebenkostenabrechnung)"},
	{TeamFoMa, "FoMa", "intern", nil, "Claims management (Forderungsmanagement)"},
	{TeamBackOffice, "BackOffice", "intern", nil, "Back office"},
	{TeamBuHa, "BuHa", "intern", nil, "Bookkeeping (Buchhaltung)"},
	{TeamExtMVM, "MVM extern", "extern_client", TeamMVM, "Client members working with lease management"},
	{TeamExtFM, "FM extern", "extern_client", TeamFM, "Client members working with facility management"},
	{TeamExtNKA, "NKA extern", "extern_client", TeamNKA, "Client members working with service charges"},
	{TeamExtBuHa, "BuHa extern", "extern_client", TeamBuHa, "Client members working with bookkeeping"},
}

// Base creates what every installation needs: user types, roles, teams and
// the permission rules. It runs inside one transaction.
func Base(ctx context.Context, d *db.DB) error {
	return d.InTx(ctx, func(tx *db.Tx) error {
		for _, ut := range []struct {
			id       int64
			name     string
			external int
			desc     string
		}{{UsertypeIntern, "INTERN", 0, "Staff of the service provider"}, {UsertypeExtern, "EXTERN", 1, "Client and partner users"}} {
			if _, err := tx.ExecContext(ctx, `INSERT INTO usertype (usertype_id, usertype_name, usertype_external, usertype_description)
				VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`, ut.id, ut.name, ut.external, ut.desc); err != nil {
				return fmt.Errorf("seed usertype %s: %w", ut.name, err)
			}
		}
		for _, r := range roles {
			if _, err := tx.ExecContext(ctx, `INSERT INTO role (role_id, role_name, role_code, role_menu, role_external, role_description)
				VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, r.id, r.name, r.code, r.code, r.external, r.desc); err != nil {
				return fmt.Errorf("seed role %s: %w", r.code, err)
			}
		}
		for _, t := range teams {
			if _, err := tx.ExecContext(ctx, `INSERT INTO team (team_id, team_name, team_type, parent_id, team_for_all_customer, team_description)
				VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT DO NOTHING`, t.id, t.name, t.typ, t.parent, t.desc); err != nil {
				return fmt.Errorf("seed team %s: %w", t.name, err)
			}
		}
		if err := applyRights(ctx, tx); err != nil {
			return err
		}
		if err := seedTextTemplates(ctx, tx); err != nil {
			return err
		}
		if err := seedTextModules(ctx, tx); err != nil {
			return err
		}
		for _, seq := range [][2]string{{"usertype", "usertype_id"}, {"role", "role_id"}, {"team", "team_id"}, {"tablegroup", "tablegroup_id"}} {
			if err := d.ResetSequences(ctx, tx, seq[0], seq[1]); err != nil {
				return err
			}
		}
		return nil
	})
}

// ApplyRights writes the current default rights (RightsVersion) into a
// database that was seeded with older ones: the default rows take their
// default flags and teams again, missing ones are added, rows an
// administrator added stay (decision 0059). A database at the current
// version is left alone, and one not seeded yet is left to Base. migrate
// and serve run it after the migrations.
func ApplyRights(ctx context.Context, d *db.DB) error {
	return d.InTx(ctx, func(tx *db.Tx) error {
		var seeded int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM role WHERE role_code = 'team_lead'`).Scan(&seeded); err != nil {
			return fmt.Errorf("seed rights: roles: %w", err)
		}
		if seeded == 0 {
			return nil
		}
		version, err := rightsVersion(ctx, tx)
		if err != nil || version >= RightsVersion {
			return err // rows an administrator deleted stay deleted
		}
		return applyRights(ctx, tx)
	})
}

// applyRights writes the default rights, resetting the default rows when
// the database holds an older version of them, and records the version.
func applyRights(ctx context.Context, tx *db.Tx) error {
	version, err := rightsVersion(ctx, tx)
	if err != nil {
		return err
	}
	if err := seedPermissions(ctx, tx, version < RightsVersion); err != nil {
		return err
	}
	if version >= RightsVersion {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE rights_generation SET defaults_version = ? WHERE rights_generation_id = 1`, RightsVersion); err != nil {
		return fmt.Errorf("seed rights: record version: %w", err)
	}
	return nil
}

// rightsVersion is the version of the default rights the database holds.
func rightsVersion(ctx context.Context, tx *db.Tx) (int, error) {
	var version int
	if err := tx.QueryRowContext(ctx, `SELECT defaults_version FROM rights_generation WHERE rights_generation_id = 1`).Scan(&version); err != nil {
		return 0, fmt.Errorf("seed rights: version: %w", err)
	}
	return version, nil
}

// CreateAdmin makes sure the base data exists and creates a verified
// administrator.
func CreateAdmin(ctx context.Context, a *app.App, u auth.NewUser) (int64, error) {
	if err := Base(ctx, a.DB); err != nil {
		return 0, err
	}
	if err := DefaultPriceIndex(ctx, a); err != nil {
		return 0, err
	}
	u.UsertypeID = UsertypeIntern
	u.RoleCodes = []string{"admin"}
	u.Verified = true
	var id int64
	err := a.DB.InTx(ctx, func(tx *db.Tx) error {
		var err error
		id, err = a.Auth.CreateUser(ctx, tx, u)
		return err
	})
	return id, err
}

// DefaultPriceIndex imports the shipped German consumer price index into
// the default series (migration 0017 creates the series): base data,
// since every index clause follows it unless told otherwise. It goes
// through the module's importer, so it is idempotent.
func DefaultPriceIndex(ctx context.Context, a *app.App) error {
	if _, err := a.Indexation.ImportDefault(ctx); err != nil {
		return fmt.Errorf("seed default price index: %w", err)
	}
	return nil
}
