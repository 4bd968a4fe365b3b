package contracts_test

import (
	"context"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestCriteriaRules: a contract's criteria keep a numeric value only for
// criteria 1 and 39, a choice when the criterion offers choices, and valid
// dates (to not before from), through the generic API.
func TestCriteriaRules(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		contract, _ := contractOf(t, d, 1)
		create := func(entity string, data obj) apptest.Scenario {
			return apptest.Scenario{Name: "create " + entity, Method: "POST", Path: "/api/", As: admin, Status: 201,
				Body: obj{"action": "create", "entity": entity, "data": data}}
		}
		var typ obj
		ta.Run(t, []apptest.Scenario{withCheck(create("criteriatype", obj{"criteriatype_name": "Usage"}), &typ)})
		tid := typ["criteriatype_id"]
		var withValue, withChoices obj
		ta.Run(t, []apptest.Scenario{
			withCheck(create("criteria", obj{"criteria_name": "Area (value)", "criteriatype_id": tid}), &withValue),
			withCheck(create("criteria", obj{"criteria_name": "Usage (choices)", "criteriatype_id": tid}), &withChoices),
		})
		// The demo data has no criteria, so the first one created is
		// criteria 1, the one that carries a value.
		if withValue["criteria_id"].(float64) != 1 {
			t.Fatalf("the first criterion created has id %v, not 1: the value rule cannot be tested", withValue["criteria_id"])
		}
		choicesID := withChoices["criteria_id"]
		var choice obj
		ta.Run(t, []apptest.Scenario{withCheck(create("choice", obj{"criteria_id": choicesID, "choice_name": "Retail"}), &choice)})
		link := func(name string, status int, data obj, contains ...string) apptest.Scenario {
			return apptest.Scenario{Name: name, Method: "POST", Path: "/api/", As: admin, Status: status, Contains: contains,
				Body: obj{"action": "link", "entity": "contract_criteria_rel", "id": contract, "data": data}}
		}
		base := obj{"valid_from": "2026-01-01"}
		ta.Run(t, []apptest.Scenario{
			link("a value on criteria 1", 201, withKV(base, "criteria_id", 1, "value", 120.5)),
			// Only criteria 1 and 39 take a value: a value on another one
			// is refused, not dropped.
			link("a value on another criterion is refused", 422,
				withKV(base, "criteria_id", choicesID, "choice_id", choice["choice_id"], "value", 3),
				`"loc":["body","value"]`, "Only the criteria 1 and 39 take a numeric value."),
			link("an empty value on another criterion is no value", 201,
				withKV(base, "criteria_id", choicesID, "choice_id", choice["choice_id"], "value", nil, "valid_from", "2025-01-01")),
			link("the choice is required when the criterion has choices", 422,
				withKV(base, "criteria_id", choicesID), `"loc":["body","choice_id"]`),
			link("valid to before valid from", 422,
				withKV(base, "criteria_id", choicesID, "choice_id", choice["choice_id"], "valid_to", "2025-01-01"), `"loc":["body","valid_to"]`),
		})
		var linked obj
		ta.Run(t, []apptest.Scenario{withCheck(
			link("a choice", 201, withKV(base, "criteria_id", choicesID, "choice_id", choice["choice_id"], "valid_to", "2027-01-01")), &linked)})
		update := func(name string, status int, data obj, contains ...string) apptest.Scenario {
			data["contract_criteria_id"] = linked["contract_criteria_id"]
			return apptest.Scenario{Name: name, Method: "POST", Path: "/api/", As: admin, Status: status, Contains: contains,
				Body: obj{"action": "update-link", "entity": "contract_criteria_rel", "id": contract, "data": data}}
		}
		ta.Run(t, []apptest.Scenario{
			update("a value added to another criterion's link is refused", 422, obj{"value": 7}, `"loc":["body","value"]`),
			update("the link changes otherwise", 200, obj{"comment": "checked"}, `"comment":"checked"`),
		})
		var stored any
		if err := d.QueryRowContext(context.Background(), `SELECT value FROM contract_criteria WHERE contract_criteria_id = ?`,
			linked["contract_criteria_id"]).Scan(&stored); err != nil || stored != nil {
			t.Fatalf("the refused value was stored: %v (%v)", stored, err)
		}
	})
}

// withCheck keeps the answer's data of s in out.
func withCheck(s apptest.Scenario, out *obj) apptest.Scenario {
	s.Check = func(t *testing.T, r apptest.Response) { *out = written(t, r) }
	return s
}
