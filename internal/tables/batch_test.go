package tables_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
)

// TestBatch: a batch checks each row as the generic create does (tenant,
// references, unique values also between its own rows), stores the rows
// it was given in their order with one history row each naming the note,
// and writes nothing when its transaction rolls back.
func TestBatch(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		eng := e.Engine
		grant(t, d, lead, 1) // Portfolio core: points of sale
		leadCtx, adminCtx := e.as(lead), e.as(admin)
		contact := queryInt(t, d, `SELECT MIN(contactperson_id) FROM contactperson WHERE company_id = 1`)
		foreignContact := queryInt(t, d, `SELECT MIN(contactperson_id) FROM contactperson WHERE company_id = 3`)
		row := func(name string, company, contact int64) map[string]any {
			return map[string]any{"company_id": company, "pos_name": name, "pos_branchnumber": "BT-" + name,
				"pos_first_year": 2020, "contactperson_id": contact, "pos_opening_date": "2020-01-01"}
		}

		t.Run("rows are checked like generic creates", func(t *testing.T) {
			b, err := eng.NewBatch(leadCtx, "pos")
			if err != nil {
				t.Fatal(err)
			}
			err = d.InTx(context.Background(), func(tx *db.Tx) error {
				if err := b.Check(leadCtx, tx, 1, row("own", 1, contact)); err != nil {
					t.Errorf("own row: %v", err)
				}
				if err := b.Check(leadCtx, tx, 2, row("foreign", 3, foreignContact)); status(err) != 422 {
					t.Errorf("another group's company: %v", err)
				}
				if err := b.Check(leadCtx, tx, 3, map[string]any{"pos_name": "incomplete"}); status(err) != 422 {
					t.Errorf("missing fields: %v", err)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := eng.NewBatch(e.as(teamMember), "company"); status(err) != 403 {
				t.Fatalf("a batch without the create right: %v", err)
			}
		})

		t.Run("flush stores the rows in order with history", func(t *testing.T) {
			before := queryInt(t, d, `SELECT COUNT(*) FROM pos`)
			b, err := eng.NewBatch(leadCtx, "pos", tables.HistoryNote("import test"))
			if err != nil {
				t.Fatal(err)
			}
			names := []string{"batch-c", "batch-a", "batch-b"}
			var ids []int64
			err = d.InTx(context.Background(), func(tx *db.Tx) error {
				for i, n := range names {
					data := row(n, 1, contact)
					if i == 1 {
						delete(data, "pos_first_year") // another column set: its own statement
						data["pos_first_year"] = 2021
						data["pos_name_external"] = "ext"
					}
					if err := b.Add(leadCtx, tx, i+1, data); err != nil {
						return err
					}
				}
				ids, err = b.Flush(leadCtx, tx)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(ids) != 3 || !slices.IsSorted(ids) {
				t.Fatalf("ids %v", ids)
			}
			for i, id := range ids {
				var name string
				var version int64
				if err := d.QueryRowContext(context.Background(), `SELECT pos_name, row_version FROM pos WHERE pos_id = ?`, id).Scan(&name, &version); err != nil {
					t.Fatal(err)
				}
				if name != names[i] || version != 1 {
					t.Errorf("row %d: %s v%d, want %s v1", id, name, version, names[i])
				}
				n := queryInt(t, d, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'pos' AND trackrecord_row_id = ?
					AND trackrecord_type = 'create' AND trackrecord_comment = 'import test' AND trackrecord_changes LIKE ?`, id, "%"+names[i]+"%")
				if n != 1 {
					t.Errorf("history of %d: %d rows", id, n)
				}
			}
			if got := queryInt(t, d, `SELECT COUNT(*) FROM pos`); got != before+3 {
				t.Fatalf("pos count %d", got)
			}
		})

		t.Run("a rolled back batch writes nothing", func(t *testing.T) {
			before := queryInt(t, d, `SELECT COUNT(*) FROM pos`)
			b, err := eng.NewBatch(adminCtx, "pos")
			if err != nil {
				t.Fatal(err)
			}
			stop := fmt.Errorf("stop")
			err = d.InTx(context.Background(), func(tx *db.Tx) error {
				for i := range 5 {
					if err := b.Add(adminCtx, tx, i, row(fmt.Sprint("rb-", i), 1, contact)); err != nil {
						return err
					}
				}
				if _, err := b.Flush(adminCtx, tx); err != nil {
					return err
				}
				return stop
			})
			if err != stop {
				t.Fatal(err)
			}
			if got := queryInt(t, d, `SELECT COUNT(*) FROM pos`); got != before {
				t.Fatalf("pos count %d, want %d", got, before)
			}
		})

		t.Run("unique values are checked between the batch's rows", func(t *testing.T) {
			b, err := eng.NewBatch(adminCtx, "taxrate")
			if err != nil {
				t.Fatal(err)
			}
			rate := map[string]any{"company_id": 1, "taxrate_code": "BT1", "taxrate_value": "7"}
			err = d.InTx(context.Background(), func(tx *db.Tx) error {
				if err := b.Check(adminCtx, tx, 1, rate); err != nil {
					t.Errorf("first: %v", err)
				}
				if err := b.Check(adminCtx, tx, 2, rate); status(err) != 422 {
					t.Errorf("second with the same code: %v", err)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})

		t.Run("labels resolve inside the caller's tenant", func(t *testing.T) {
			own := "Nordhandel Retail GmbH"
			foreign := "Südmarkt Filialen GmbH"
			got, err := eng.ResolveLabels(leadCtx, d, "company", []string{"company_shortname"}, []string{own, foreign, "SMF", "NHR"})
			if err != nil {
				t.Fatal(err)
			}
			if len(got[own]) != 1 || len(got["NHR"]) != 1 || got[own][0] != got["NHR"][0] || len(got[foreign]) != 0 || len(got["SMF"]) != 0 {
				t.Fatalf("lead: %v", got)
			}
			got, err = eng.ResolveLabels(adminCtx, d, "company", nil, []string{own, foreign})
			if err != nil || len(got[foreign]) != 1 || len(got[own]) != 1 {
				t.Fatalf("admin: %v %v", got, err)
			}
			if _, err := eng.ResolveLabels(leadCtx, d, "company", []string{"customergroup_id"}, []string{"1"}); err == nil {
				t.Fatal("a look-up by a field that is no text")
			}
		})
	})
}
