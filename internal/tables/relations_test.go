package tables_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestEveryRelationReads reads every relation of every entity for a sample
// owner, with a keyword, a sort on the key and a count.
func TestEveryRelationReads(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		for _, ent := range schema.All() {
			for _, rel := range ent.Relations {
				api := rel.APIName(ent.Name)
				t.Run(api, func(t *testing.T) {
					e.t, s.t = t, t
					owner := s.ensure(ent.Name)
					target := mustEntity(rel.Target)
					res := e.api(admin, obj{"action": "read-rich", "entity": api, "data": obj{ent.PK: owner},
						"count": true, "filter_all": "xy", "order_by": target.PK, "order_dir": "DESC"})
					// Documents, not listed on their own, are read as relations.
					if want := http.StatusOK; res.Status != want {
						t.Fatalf("%d %s", res.Status, clip(string(res.Body)))
					}
				})
			}
		}
	})
}

func TestLinks(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		s.ensure("unit") // the default unit of area links (id 1)
		contract := s.fresh("contract", obj{"company_id": 1})
		area := s.freshIn("area", 1, nil) // of the contract's customer group
		usage := s.ensure("usagetype")
		pos := s.fresh("pos", obj{"company_id": 1})
		tag := s.fresh("tag", obj{"tag_name": "Flagship"})
		user := s.freshIn("user", 1, nil)
		yesterday := time.Now().UTC().AddDate(0, 0, -1).Format("2006-01-02")
		link := func(rel string, owner int64, data obj) obj {
			return obj{"action": "link", "entity": rel, "id": owner, "data": data}
		}
		unlink := func(rel string, owner int64, data obj) obj {
			return obj{"action": "unlink", "entity": rel, "id": owner, "data": data}
		}
		relRead := func(rel, key string, owner int64) obj {
			return obj{"action": "read-rich", "entity": rel, "data": obj{key: owner}}
		}
		areaLink := obj{"area_id": area, "usagetype_id": usage, "rentalspace_value": 120.5, "allocationspace_value": 80,
			"valid_from": "2024-01-01", "mainusage": 1}
		bad := obj{"area_id": area, "usagetype_id": usage, "rentalspace_value": 1, "allocationspace_value": 1,
			"valid_from": "2024-05-01", "valid_to": "2024-04-30"}
		e.run(t, []apptest.Scenario{
			{Name: "link with attributes", As: admin, Body: link("contract_area_rel", contract, areaLink), Status: 201,
				Contains: []string{`"contract_area_id":`, `"rentalspace_value":120.5`}},
			{Name: "relation rows carry the link", As: admin, Body: relRead("contract_area_rel", "contract_id", contract), Status: 200,
				Contains: []string{`"contract_area_id":`, `"rentalspace_value":120.5`, `"mainusage":1`, `"usagetype_id__label":"usagetype name`}},
			{Name: "sums over the link", As: admin, Body: obj{"action": "read", "entity": "contract", "id": contract}, Status: 200,
				Contains: []string{`"contract_rentalspace_sum":120.5`, `"contract_allocationspace_sum":80`}},
			{Name: "valid_to before valid_from", As: admin, Body: link("contract_area_rel", contract, bad), Status: 422,
				Contains: []string{`"loc":["body","valid_to"]`, "This date must be after Valid from"}},
			{Name: "valid_to before valid_from in German", As: admin, Header: lang("de"), Body: link("contract_area_rel", contract, bad), Status: 422,
				Contains: []string{"Dieses Datum muss nach"}},
			{Name: "link attribute unknown", As: admin, Body: link("pos_tag_rel", pos, obj{"tag_id": tag, "nope": 1}), Status: 422,
				Contains: []string{`"loc":["body","nope"]`}},
			{Name: "link without the other key", As: admin, Body: link("pos_tag_rel", pos, obj{}), Status: 422,
				Contains: []string{`"loc":["body","tag_id"]`}},
			{Name: "link a missing row", As: admin, Body: link("pos_tag_rel", pos, obj{"tag_id": 999999}), Status: 422},
			{Name: "link with the owner in data", As: admin, Body: obj{"action": "link", "entity": "pos_tag_rel", "data": obj{"pos_id": pos, "tag_id": tag}},
				Status: 201, Contains: []string{fmt.Sprintf(`"pos_id":%d`, pos)}},
			{Name: "link twice", As: admin, Body: link("pos_tag_rel", pos, obj{"tag_id": tag}), Status: 409,
				Contains: []string{"already linked"}},
			{Name: "count over the link", As: admin, Body: obj{"action": "read", "entity": "tag", "id": tag}, Status: 200,
				Contains: []string{`"tag_count":1`}},
			{Name: "other side sees the link", As: admin, Body: relRead("tag_pos_rel", "tag_id", tag), Status: 200,
				Contains: []string{`"pos_id":`}},
			{Name: "unlink", As: admin, Body: unlink("pos_tag_rel", pos, obj{"tag_id": tag}), Status: 204},
			{Name: "unlinked", As: admin, Body: relRead("pos_tag_rel", "pos_id", pos), Status: 200, Contains: []string{`"data":[]`}},
			{Name: "unlink again", As: admin, Body: unlink("pos_tag_rel", pos, obj{"tag_id": tag}), Status: 404,
				Contains: []string{"not linked"}},
			{Name: "link with validity", As: admin, Body: link("user_companies_rel", user, obj{"company_id": 1, "valid_from": "2020-01-01"}), Status: 201},
			{Name: "unlink ends the period", As: admin, Body: unlink("user_companies_rel", user, obj{"company_id": 1}), Status: 204},
			{Name: "ended: no longer valid today", As: admin, Body: relRead("user_companies_rel", "user_id", user), Status: 200,
				Contains: []string{`"valid_to":"` + yesterday + `"`}},
			{Name: "has-many is not linkable", As: admin, Body: link("pos_contract_rel", pos, obj{"contract_id": contract}), Status: 422,
				Contains: []string{"through their own form"}},
			{Name: "link needs update on the owner", As: lead, Body: link("pos_tag_rel", pos, obj{"tag_id": tag}), Status: 403},
			{Name: "history records links", As: admin, Body: obj{"action": "history", "entity": "pos", "id": pos}, Status: 200,
				Contains: []string{`"trackrecord_type":"unlink"`, `"trackrecord_type":"link"`, `"trackrecord_type":"create"`}},
		})
		// A link with a key of its own changes by that key; its other end
		// stays.
		linkID := id(e.mustOK(admin, link("contract_area_rel", contract, obj{"area_id": s.freshIn("area", 1, nil), "usagetype_id": usage,
			"rentalspace_value": 10, "allocationspace_value": 5, "valid_from": "2024-01-01", "mainusage": 0})), "contract_area_id")
		change := func(data obj) obj {
			return obj{"action": "update-link", "entity": "contract_area_rel", "id": contract, "data": data}
		}
		e.run(t, []apptest.Scenario{
			{Name: "update-link by the link's key", As: admin, Body: change(obj{"contract_area_id": linkID, "rentalspace_value": 12.5}), Status: 200,
				Contains: []string{`"rentalspace_value":12.5`, `"allocationspace_value":5`, fmt.Sprintf(`"contract_area_id":%d`, linkID)}},
			{Name: "the change is stored", As: admin, Body: relRead("contract_area_rel", "contract_id", contract), Status: 200,
				Contains: []string{`"rentalspace_value":12.5`}},
			{Name: "update-link cannot move the other end", As: admin, Body: change(obj{"contract_area_id": linkID, "area_id": area}), Status: 422,
				Contains: []string{`"loc":["body","area_id"]`}},
			{Name: "update-link keeps the rules", As: admin, Body: change(obj{"contract_area_id": linkID, "valid_to": "2023-12-31"}), Status: 422,
				Contains: []string{`"loc":["body","valid_to"]`}},
			{Name: "update-link of a missing link", As: admin, Body: change(obj{"contract_area_id": 999999, "rentalspace_value": 1}), Status: 404},
		})
		// The link's own history comes newest first.
		res := e.api(admin, obj{"action": "history", "entity": "pos", "id": pos})
		body := string(res.Body)
		if strings.Index(body, `"unlink"`) > strings.Index(body, `"create"`) {
			t.Errorf("history not newest first: %s", clip(body))
		}
	})
}
