package contracts_test

import (
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
			// The engine drops a value hidden by the definition (value is
			// shown for criteria 1 and 39 only): nothing of it is stored.
			{Name: "a value on another criterion is not stored", Method: "POST", Path: "/api/", As: admin, Status: 201,
				Absent: []string{`"value"`}, Body: obj{"action": "link", "entity": "contract_criteria_rel", "id": contract,
					"data": withKV(base, "criteria_id", choicesID, "choice_id", choice["choice_id"], "value", 3)}},
			link("the choice is required when the criterion has choices", 422,
				withKV(base, "criteria_id", choicesID), `"loc":["body","choice_id"]`),
			link("valid to before valid from", 422,
				withKV(base, "criteria_id", choicesID, "choice_id", choice["choice_id"], "valid_to", "2025-01-01"), `"loc":["body","valid_to"]`),
			link("a choice", 201, withKV(base, "criteria_id", choicesID, "choice_id", choice["choice_id"], "valid_to", "2027-01-01")),
		})
	})
}

// withCheck keeps the answer's data of s in out.
func withCheck(s apptest.Scenario, out *obj) apptest.Scenario {
	s.Check = func(t *testing.T, r apptest.Response) { *out = written(t, r) }
	return s
}
