package tables_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/i18n"
	"portfolio/internal/schema"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
)

// TestScopeOfEveryEntity runs the scoped list, count, keyword search and
// the relation reads of every entity on the database as an external user
// holding every right, as a client and as a partner user: every tenant
// path's statement must run on both dialects, and rows outside the group
// must not appear.
func TestScopeOfEveryEntity(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		eng := tables.MustNew(tables.Deps{DB: d, Catalog: i18n.MustLoad()})
		adminRole := []access.Role{{ID: 1, Code: access.AdminRoleCode, Name: access.AdminRoleName}}
		principals := map[string]*auth.Principal{
			"client":  {UserID: 1, External: true, CustomergroupID: 1, Roles: adminRole},
			"partner": {UserID: 1, External: true, PartnergroupID: 1, Roles: adminRole},
			"none":    {UserID: 1, External: true, Roles: adminRole},
		}
		owners := map[string]int64{}
		for _, ent := range schema.All() {
			if len(ent.Relations) > 0 {
				e.t, s.t = t, t
				owners[ent.Name] = s.ensure(ent.Name)
			}
		}
		for who, p := range principals {
			ctx := auth.WithPrincipal(context.Background(), p)
			for _, ent := range schema.All() {
				if ent.Limits.NoGenericList {
					continue
				}
				cur, err := eng.List(ctx, tables.ListQuery{Entity: ent.Name, Count: true, Search: "zz", PerPage: 5})
				if err != nil {
					t.Fatalf("%s lists %s: %v", who, ent.Name, err)
				}
				for cur.Next() {
				}
				if err := cur.Err(); err != nil {
					t.Fatalf("%s lists %s: %v", who, ent.Name, err)
				}
				if who == "none" && !ent.Tenant.Global && cur.Page().Total != nil && *cur.Page().Total != 0 {
					t.Errorf("an external user without a group sees %d rows of %s", *cur.Page().Total, ent.Name)
				}
				cur.Close()
				for i := range ent.Relations {
					rel := &ent.Relations[i]
					target, _ := schema.Get(rel.Target)
					if target.Limits.NoGenericList {
						continue
					}
					cur, err := eng.List(ctx, tables.ListQuery{Entity: rel.APIName(ent.Name), Count: true,
						Data: map[string]any{ent.PK: json.Number(strconv.FormatInt(owners[ent.Name], 10))}})
					if err == nil {
						cur.Close()
					} else if _, ok := apperrNotFound(err); !ok {
						t.Fatalf("%s reads %s: %v", who, rel.APIName(ent.Name), err)
					}
				}
			}
		}
	})
}

// TestTenantLinksCountWhileValid: a partner user sees a location through
// its partner company's link only while the link is valid: not before it
// starts, not after it ends.
func TestTenantLinksCountWhileValid(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		partnerType := s.ensure("partnertype")
		today := time.Now().UTC()
		day := func(offset int) string { return today.AddDate(0, 0, offset).Format(time.DateOnly) }
		cases := []struct {
			name     string
			from, to any
			visible  bool
		}{
			{"open-ended since 2020", "2020-01-01", nil, true},
			{"ends today", "2020-01-01", day(0), true},
			{"starts today", day(0), nil, true},
			{"ended yesterday", "2020-01-01", day(-1), false},
			{"starts tomorrow", day(1), nil, false},
		}
		for _, c := range cases {
			loc := s.fresh("location", obj{"company_id": 3, "location_name": "Partnerobjekt " + c.name})
			e.mustOK(admin, obj{"action": "link", "entity": "location_partnercompany_rel", "id": loc,
				"data": obj{"partnercompany_id": 1, "partnertype_id": partnerType, "valid_from": c.from, "valid_to": c.to}})
			res := e.api(partner, obj{"action": "read", "entity": "location", "id": loc})
			if got := res.Status == http.StatusOK; got != c.visible {
				t.Errorf("%s: partner reads the location: %d %s, want visible %v", c.name, res.Status, res.Body, c.visible)
			}
		}
	})
}
