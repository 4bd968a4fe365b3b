package tables_test

import (
	"context"
	"fmt"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
)

// TestHooksSeeStoredRows: what a write hook queues with Later runs once
// its row is stored, in the bulk creates too (with the row's new key), so
// it may read the row back; a delete hook is told about each deleted
// record with the record as it was, inside the delete's transaction.
func TestHooksSeeStoredRows(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		eng := e.Engine
		ctx := e.as(admin)
		var seen []string
		eng.OnWrite("pos", tables.HookFunc(func(_ context.Context, w *tables.WriteContext) error {
			name, _ := w.Record["pos_name"].(string)
			w.Later(func(ctx context.Context) error {
				var stored string
				if err := w.Tx.QueryRowContext(ctx, `SELECT pos_name FROM pos WHERE pos_id = ?`, w.ID).Scan(&stored); err != nil {
					return fmt.Errorf("row %d of %q not stored yet: %w", w.ID, name, err)
				}
				seen = append(seen, stored)
				return nil
			})
			return nil
		}))
		var deleted []string
		eng.OnDelete("pos", func(ctx context.Context, dc *tables.DeleteContext) error {
			var n int
			if err := dc.Tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos WHERE pos_id = ?`, dc.ID).Scan(&n); err != nil || n != 0 {
				return fmt.Errorf("pos %d still there (%d): %v", dc.ID, n, err)
			}
			name, _ := dc.Stored["pos_name"].(string)
			deleted = append(deleted, name)
			return nil
		})
		s := newSampler(e, t)
		posEnt, _ := eng.Registry().Entity("pos")
		rows := []map[string]any{s.data(posEnt, obj{"pos_name": "Hooked A", "company_id": 1}),
			s.data(posEnt, obj{"pos_name": "Hooked B", "company_id": 1})}
		var ids []int64
		err := d.InTx(ctx, func(tx *db.Tx) error {
			var err error
			ids, err = eng.CreateManyIn(ctx, tx, "pos", rows)
			return err
		})
		if err != nil || fmt.Sprint(seen) != "[Hooked A Hooked B]" {
			t.Fatalf("bulk create: %v, the queued functions saw %v", err, seen)
		}
		if err := d.InTx(ctx, func(tx *db.Tx) error { return eng.DeleteIn(ctx, tx, "pos", ids[1], 0) }); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(deleted) != "[Hooked B]" {
			t.Fatalf("delete hook told %v", deleted)
		}
	})
}
