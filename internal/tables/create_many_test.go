package tables_test

import (
	"context"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// TestCreateManyIn: the bulk create keeps CreateIn's rules: the caller's
// right, validation, references within the tenant, one history row per
// record; the keys come back in order; any bad row fails the whole call
// and the module's transaction writes nothing.
func TestCreateManyIn(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		eng := e.Engine
		grant(t, d, lead, 1) // Portfolio core: points of sale
		leadCtx, otherCtx := e.as(lead), e.as(leadB)
		ctx := context.Background()
		s := newSampler(e, t)
		posEnt, _ := eng.Registry().Entity("pos")
		rows := func(company int64, names ...string) []map[string]any {
			var out []map[string]any
			for _, n := range names {
				out = append(out, s.data(posEnt, obj{"pos_name": n, "company_id": company}))
			}
			return out
		}
		create := func(c context.Context, data []map[string]any) ([]int64, error) {
			var ids []int64
			err := d.InTx(ctx, func(tx *db.Tx) error {
				var err error
				ids, err = eng.CreateManyIn(c, tx, "pos", data)
				return err
			})
			return ids, err
		}
		count := func() int64 { return queryInt(t, d, `SELECT COUNT(*) FROM pos WHERE pos_name LIKE 'Bulk %'`) }

		ids, err := create(leadCtx, rows(1, "Bulk A", "Bulk B", "Bulk C"))
		if err != nil || len(ids) != 3 || !(ids[0] < ids[1] && ids[1] < ids[2]) {
			t.Fatalf("create three: %v %v", ids, err)
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM pos WHERE pos_id = ? AND pos_name = 'Bulk C'`, ids[2]); n != 1 {
			t.Error("the third key is not the third row")
		}
		if n := queryInt(t, d, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'pos' AND trackrecord_type = 'create'
			AND trackrecord_row_id IN (?, ?, ?)`, ids[0], ids[1], ids[2]); n != 3 {
			t.Errorf("%d history rows, want 3", n)
		}
		// Another tenant's company in the last row: 422, nothing written.
		if _, err := create(leadCtx, append(rows(1, "Bulk D"), rows(3, "Bulk E")...)); status(err) != 422 {
			t.Errorf("a foreign reference: %v", err)
		}
		// A row that breaks a rule: 422, nothing written.
		if _, err := create(leadCtx, append(rows(1, "Bulk F"), rows(1, "Bulk "+strings.Repeat("x", 300))...)); status(err) != 422 {
			t.Errorf("a name too long: %v", err)
		}
		// No right to create: 403.
		if _, err := create(otherCtx, rows(1, "Bulk G")); status(err) != 403 {
			t.Errorf("lead.b@ without the create right: %v", err)
		}
		if n := count(); n != 3 {
			t.Errorf("%d bulk rows stored, want the first call's 3", n)
		}
	})
}
