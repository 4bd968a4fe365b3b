package seed_test

import (
	"context"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
)

// TestApplyRightsUpgrades: a database holding the defaults of before
// (version 1: Portfolio details writable without teams, no right to save a
// recurring payment) gets the current defaults once from ApplyRights, as
// migrate runs it; an administrator's own row survives, and at the current
// version a default row the administrator deleted stays deleted
// (decision 0059).
func TestApplyRightsUpgrades(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if err := seed.Base(ctx, d); err != nil {
			t.Fatal(err)
		}
		// The old defaults, as a database of before holds them.
		exec(t, d, `UPDATE crud SET crud_c = 1, crud_u = 1 WHERE tablegroup_id = 7 AND role_id = (SELECT role_id FROM role WHERE role_code = 'team_member')`)
		exec(t, d, `DELETE FROM access WHERE access_subject = 'recurringpayment' AND access_action IN ('create', 'remove')`)
		exec(t, d, `UPDATE access SET access_teams = '' WHERE access_subject = 'recurringpayment' AND access_action = 'update' AND role_code = 'team_lead'`)
		exec(t, d, `INSERT INTO access (access_kind, access_subject, access_action, role_code, access_teams) VALUES ('table', 'tag', 'remove', 'lead', '')`)
		exec(t, d, `UPDATE rights_generation SET defaults_version = 1`)
		generation := queryInt(t, d, `SELECT generation FROM rights_generation`)

		if err := seed.ApplyRights(ctx, d); err != nil {
			t.Fatal(err)
		}
		if n := queryInt(t, d, `SELECT crud_c + crud_u FROM crud WHERE tablegroup_id = 7 AND role_id = (SELECT role_id FROM role WHERE role_code = 'team_member')`); n != 0 {
			t.Errorf("Portfolio details still writable without teams for team members")
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM access WHERE access_subject = 'recurringpayment' AND access_action = 'create' AND access_teams = 'MVM,FM'`); n != 2 {
			t.Errorf("%d team roles may create recurring payments in MVM and FM, want 2", n)
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM access WHERE access_subject = 'recurringpayment' AND access_action = 'update' AND role_code = 'team_lead' AND access_teams = 'MVM,FM'`); n != 1 {
			t.Errorf("the team lead's update of recurring payments kept no team restriction")
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM access WHERE access_subject = 'tag' AND access_action = 'remove' AND role_code = 'lead'`); n != 1 {
			t.Errorf("the administrator's own row is gone")
		}
		if v := queryInt(t, d, `SELECT defaults_version FROM rights_generation`); v != seed.RightsVersion {
			t.Errorf("version %d recorded, want %d", v, seed.RightsVersion)
		}
		if g := queryInt(t, d, `SELECT generation FROM rights_generation`); g <= generation {
			t.Errorf("the rights generation did not advance: %d", g)
		}

		// At the current version, migrate leaves the rights as they are.
		exec(t, d, `DELETE FROM access WHERE access_subject = 'recurringpayment' AND access_action = 'remove' AND role_code = 'team_member'`)
		if err := seed.ApplyRights(ctx, d); err != nil {
			t.Fatal(err)
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM access WHERE access_subject = 'recurringpayment' AND access_action = 'remove' AND role_code = 'team_member'`); n != 0 {
			t.Errorf("a default row the administrator deleted came back")
		}
	})
}
