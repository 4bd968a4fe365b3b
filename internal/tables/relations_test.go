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
		area := s.fresh("area", nil)
		usage := s.ensure("usagetype")
		pos := s.fresh("pos", obj{"company_id": 1})
		tag := s.fresh("tag", obj{"tag_name": "Flagship"})
		user := s.fresh("user", nil)
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
		e.run(t, []scenario{
			{name: "link with attributes", as: admin, body: link("contract_area_rel", contract, areaLink), status: 201,
				want: []string{`"contract_area_id":`, `"rentalspace_value":120.5`}},
			{name: "relation rows carry the link", as: admin, body: relRead("contract_area_rel", "contract_id", contract), status: 200,
				want: []string{`"contract_area_id":`, `"rentalspace_value":120.5`, `"mainusage":1`, `"usagetype_id__label":"usagetype name`}},
			{name: "sums over the link", as: admin, body: obj{"action": "read", "entity": "contract", "id": contract}, status: 200,
				want: []string{`"contract_rentalspace_sum":120.5`, `"contract_allocationspace_sum":80`}},
			{name: "valid_to before valid_from", as: admin, body: link("contract_area_rel", contract, bad), status: 422,
				want: []string{`"loc":["body","valid_to"]`, "This date must be after Valid from"}},
			{name: "valid_to before valid_from in German", as: admin, lang: "de", body: link("contract_area_rel", contract, bad), status: 422,
				want: []string{"Dieses Datum muss nach"}},
			{name: "link attribute unknown", as: admin, body: link("pos_tag_rel", pos, obj{"tag_id": tag, "nope": 1}), status: 422,
				want: []string{`"loc":["body","nope"]`}},
			{name: "link without the other key", as: admin, body: link("pos_tag_rel", pos, obj{}), status: 422,
				want: []string{`"loc":["body","tag_id"]`}},
			{name: "link a missing row", as: admin, body: link("pos_tag_rel", pos, obj{"tag_id": 999999}), status: 422},
			{name: "link with the owner in data", as: admin, body: obj{"action": "link", "entity": "pos_tag_rel", "data": obj{"pos_id": pos, "tag_id": tag}},
				status: 201, want: []string{fmt.Sprintf(`"pos_id":%d`, pos)}},
			{name: "link twice", as: admin, body: link("pos_tag_rel", pos, obj{"tag_id": tag}), status: 409,
				want: []string{"already linked"}},
			{name: "count over the link", as: admin, body: obj{"action": "read", "entity": "tag", "id": tag}, status: 200,
				want: []string{`"tag_count":1`}},
			{name: "other side sees the link", as: admin, body: relRead("tag_pos_rel", "tag_id", tag), status: 200,
				want: []string{`"pos_id":`}},
			{name: "unlink", as: admin, body: unlink("pos_tag_rel", pos, obj{"tag_id": tag}), status: 204},
			{name: "unlinked", as: admin, body: relRead("pos_tag_rel", "pos_id", pos), status: 200, want: []string{`"data":[]`}},
			{name: "unlink again", as: admin, body: unlink("pos_tag_rel", pos, obj{"tag_id": tag}), status: 404,
				want: []string{"not linked"}},
			{name: "link with validity", as: admin, body: link("user_companies_rel", user, obj{"company_id": 1, "valid_from": "2020-01-01"}), status: 201},
			{name: "unlink ends the period", as: admin, body: unlink("user_companies_rel", user, obj{"company_id": 1}), status: 204},
			{name: "ended: no longer valid today", as: admin, body: relRead("user_companies_rel", "user_id", user), status: 200,
				want: []string{`"valid_to":"` + yesterday + `"`}},
			{name: "has-many is not linkable", as: admin, body: link("pos_contract_rel", pos, obj{"contract_id": contract}), status: 422,
				want: []string{"through their own form"}},
			{name: "link needs update on the owner", as: lead, body: link("pos_tag_rel", pos, obj{"tag_id": tag}), status: 403},
			{name: "history records links", as: admin, body: obj{"action": "history", "entity": "pos", "id": pos}, status: 200,
				want: []string{`"trackrecord_type":"unlink"`, `"trackrecord_type":"link"`, `"trackrecord_type":"create"`}},
		})
		// A link with a key of its own changes by that key; its other end
		// stays.
		linkID := id(e.mustOK(admin, link("contract_area_rel", contract, obj{"area_id": s.fresh("area", nil), "usagetype_id": usage,
			"rentalspace_value": 10, "allocationspace_value": 5, "valid_from": "2024-01-01", "mainusage": 0})), "contract_area_id")
		change := func(data obj) obj {
			return obj{"action": "update-link", "entity": "contract_area_rel", "id": contract, "data": data}
		}
		e.run(t, []scenario{
			{name: "update-link by the link's key", as: admin, body: change(obj{"contract_area_id": linkID, "rentalspace_value": 12.5}), status: 200,
				want: []string{`"rentalspace_value":12.5`, `"allocationspace_value":5`, fmt.Sprintf(`"contract_area_id":%d`, linkID)}},
			{name: "the change is stored", as: admin, body: relRead("contract_area_rel", "contract_id", contract), status: 200,
				want: []string{`"rentalspace_value":12.5`}},
			{name: "update-link cannot move the other end", as: admin, body: change(obj{"contract_area_id": linkID, "area_id": area}), status: 422,
				want: []string{`"loc":["body","area_id"]`}},
			{name: "update-link keeps the rules", as: admin, body: change(obj{"contract_area_id": linkID, "valid_to": "2023-12-31"}), status: 422,
				want: []string{`"loc":["body","valid_to"]`}},
			{name: "update-link of a missing link", as: admin, body: change(obj{"contract_area_id": 999999, "rentalspace_value": 1}), status: 404},
		})
		// The link's own history comes newest first.
		res := e.api(admin, obj{"action": "history", "entity": "pos", "id": pos})
		body := string(res.Body)
		if strings.Index(body, `"unlink"`) > strings.Index(body, `"create"`) {
			t.Errorf("history not newest first: %s", clip(body))
		}
	})
}
