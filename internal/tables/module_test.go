package tables_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
	"portfolio/internal/validate"
)

// as returns the context of a request by the demo user email, with the
// principal the server's authentication puts there.
func (e *env) as(email string) context.Context {
	e.t.Helper()
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("Authorization", "Bearer "+e.token(email))
	ctx, err := e.Auth.Authenticate(r)
	if err != nil {
		e.t.Fatalf("authenticate %s: %v", email, err)
	}
	return ctx
}

// status is the HTTP status an engine error is answered with.
func status(err error) int { return httpapi.StatusOf(err) }

// TestModuleAPI: a module's reads and writes through the engine keep the
// caller's rights and tenant, validate, check row_version, write history,
// and commit or roll back with the module's transaction.
func TestModuleAPI(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		eng := e.Engine
		own := queryInt(t, d, `SELECT MIN(pos_id) FROM pos WHERE company_id = 1`)
		foreign := queryInt(t, d, `SELECT MIN(pos_id) FROM pos WHERE company_id = 3`)
		grant(t, d, lead, 1) // Portfolio core: points of sale, companies, tags
		leadCtx, adminCtx, memberCtx := e.as(lead), e.as(admin), e.as(teamMember)
		ctx := context.Background()
		s := newSampler(e, t)
		posEnt, _ := eng.Registry().Entity("pos")

		t.Run("reads stay in the tenant", func(t *testing.T) {
			rec, version, err := eng.GetIn(leadCtx, d, "pos", own)
			if err != nil || version < 1 || rec["company_id"] != int64(1) {
				t.Fatalf("own pos: %v %d %v", rec, version, err)
			}
			if _, _, err := eng.GetIn(leadCtx, d, "pos", foreign); status(err) != 404 {
				t.Fatalf("foreign pos: %v", err)
			}
			if _, _, err := eng.GetIn(leadCtx, d, "pos", 999999); status(err) != 404 {
				t.Fatalf("missing pos: %v", err)
			}
			if _, err := eng.ReadIn(leadCtx, d, "pos", foreign); status(err) != 404 {
				t.Fatalf("read foreign: %v", err)
			}
			if err := eng.MustSeeIn(leadCtx, d, "pos", foreign); status(err) != 404 {
				t.Fatalf("must see foreign: %v", err)
			}
			raw, err := eng.ReadIn(adminCtx, d, "pos", foreign)
			if err != nil || !strings.Contains(string(raw), `"row_version"`) {
				t.Fatalf("admin reads foreign: %s %v", raw, err)
			}
		})

		t.Run("a right the caller lacks is refused", func(t *testing.T) {
			if _, _, err := eng.GetIn(leadCtx, d, "users_log", 1); status(err) != 403 && status(err) != 404 {
				t.Fatalf("no right: %v", err)
			}
			if err := d.InTx(ctx, func(tx *db.Tx) error {
				_, err := eng.CreateIn(memberCtx, tx, "user", map[string]any{"user_email": "x@demo.test"})
				return err
			}); status(err) != 403 {
				t.Fatalf("a team member creates a user: %v", err)
			}
		})

		t.Run("scoped source counts the caller's rows", func(t *testing.T) {
			for who, c := range map[string]context.Context{lead: leadCtx, admin: adminCtx} {
				src, err := eng.Scoped(c, "pos", "p")
				if err != nil {
					t.Fatal(err)
				}
				var n int64
				if err := d.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+src.SQL+" WHERE p.pos_id > ?", append(src.Args, 0)...).Scan(&n); err != nil {
					t.Fatalf("%s: %v", who, err)
				}
				want := e.list(who, obj{"entity": "pos", "count": true, "per_page": 1}).Data.Total
				if want == nil || n != *want {
					t.Fatalf("%s: scoped count %d, list total %v", who, n, want)
				}
			}
			if _, err := eng.Scoped(leadCtx, "pos", "p; DROP"); err == nil {
				t.Fatal("an alias that is not an identifier is accepted")
			}
		})

		t.Run("update validates, versions and records history", func(t *testing.T) {
			_, version, err := eng.GetIn(leadCtx, d, "pos", own)
			if err != nil {
				t.Fatal(err)
			}
			update := func(id, v int64, data map[string]any) error {
				return d.InTx(ctx, func(tx *db.Tx) error {
					return eng.UpdateIn(leadCtx, tx, tables.UpdateCommand{Entity: "pos", ID: id, RowVersion: v, Data: data})
				})
			}
			if err := update(foreign, 1, map[string]any{"pos_name": "x"}); status(err) != 404 {
				t.Fatalf("foreign: %v", err)
			}
			if err := update(own, version+5, map[string]any{"pos_name": "x"}); status(err) != 409 {
				t.Fatalf("stale: %v", err)
			}
			if err := update(own, version, map[string]any{"pos_name": strings.Repeat("x", 500)}); status(err) != 422 {
				t.Fatalf("too long: %v", err)
			}
			history := func() int64 {
				return queryInt(t, d, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'pos' AND trackrecord_row_id = ?`, own)
			}
			before := history()
			if err := update(own, version, map[string]any{"pos_name": "Modul Nord"}); err != nil {
				t.Fatal(err)
			}
			rec, v2, err := eng.GetIn(leadCtx, d, "pos", own)
			if err != nil || rec["pos_name"] != "Modul Nord" || v2 != version+1 || history() != before+1 {
				t.Fatalf("after update: %v v%d %v history %d→%d", rec["pos_name"], v2, err, before, history())
			}
		})

		t.Run("a failing module transaction leaves nothing", func(t *testing.T) {
			_, version, _ := eng.GetIn(leadCtx, d, "pos", own)
			boom := errors.New("module fails after the write")
			err := d.InTx(ctx, func(tx *db.Tx) error {
				if err := eng.UpdateIn(leadCtx, tx, tables.UpdateCommand{Entity: "pos", ID: own, RowVersion: version,
					Data: map[string]any{"pos_name": "Halb"}}); err != nil {
					return err
				}
				cur, err := eng.ListIn(leadCtx, tx, tables.ListQuery{Entity: "pos", Data: map[string]any{"pos_id": own}, Columns: []string{"pos_name"}})
				if err != nil {
					return err
				}
				defer cur.Close()
				if !cur.Next() || cur.Record()["pos_name"] != "Halb" {
					t.Errorf("ListIn does not see the transaction's own write")
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("transaction: %v", err)
			}
			rec, v, _ := eng.GetIn(leadCtx, d, "pos", own)
			if rec["pos_name"] == "Halb" || v != version {
				t.Fatalf("half write survived: %v v%d", rec["pos_name"], v)
			}
		})

		t.Run("delete keeps tenant and references", func(t *testing.T) {
			del := func(who context.Context, entity string, id int64) error {
				return d.InTx(ctx, func(tx *db.Tx) error { return eng.DeleteIn(who, tx, entity, id, 0) })
			}
			if err := del(adminCtx, "company", 1); status(err) != 409 {
				t.Fatalf("referenced company: %v", err)
			}
			tag := e.create("tag", obj{"tag_name": "Modul"})
			if err := del(leadCtx, "tag", id(tag, "tag_id")); status(err) != 403 {
				t.Fatalf("lead (no delete flag) deletes a tag: %v", err)
			}
			if err := del(adminCtx, "tag", id(tag, "tag_id")); err != nil {
				t.Fatal(err)
			}
			if n := queryInt(t, d, `SELECT COUNT(*) FROM tag WHERE tag_id = ?`, id(tag, "tag_id")); n != 0 {
				t.Fatal("tag not deleted")
			}
		})

		t.Run("module values are stored, not the request's", func(t *testing.T) {
			data := s.data(posEnt, obj{"pos_name": "Mod", "company_id": 1})
			err := d.InTx(ctx, func(tx *db.Tx) error {
				_, err := eng.CreateIn(adminCtx, tx, "pos", data,
					tables.WithValues(validate.Record{"pos_name": "Vom Modul"}))
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if n := queryInt(t, d, `SELECT COUNT(*) FROM pos WHERE pos_name = 'Vom Modul'`); n != 1 {
				t.Fatalf("module value not stored: %d", n)
			}
		})
	})
}

// TestChoiceRuleWithUnknownColumnFails: a module's rule naming a column
// its target does not have is a programming error that fails the write
// (500), never a silently unlimited choice.
func TestChoiceRuleWithUnknownColumnFails(t *testing.T) {
	d := testkit.NewSQLite(t)
	e := newEnv(t, d)
	posEnt, _ := e.Engine.Registry().Entity("pos")
	data := newSampler(e, t).data(posEnt, obj{"company_id": 1})
	e.Engine.OnChoices("pos", func(q tables.ChoiceQuery) tables.ChoiceLimit {
		if q.Target.Name != "company" {
			return tables.ChoiceLimit{}
		}
		return tables.ChoiceLimit{Where: []tables.Match{{Column: "no_such_column", Values: []any{1}}}}
	})
	res := e.api(admin, obj{"action": "create", "entity": "pos", "data": data})
	if res.Status != http.StatusInternalServerError {
		t.Fatalf("status %d: %s", res.Status, res.Body)
	}
}
