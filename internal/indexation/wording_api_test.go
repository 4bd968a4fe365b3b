package indexation_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestClauseWordingThroughTheAPI: the clause fields of issue 39 are
// ordinary fields (validated, 422 and nothing written), the run follows
// them, each proposal explains its rule on the screen's call and in the
// letter, and a payment gets no proposal before it exists. Both databases.
func TestClauseWordingThroughTheAPI(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		clauses := one(t, d, `SELECT COUNT(*) FROM indexclause`)
		base := obj{"indexclause_name": "bad", "indexclause_adjustment_rule": "5 %", "indexclause_description": "d",
			"indexclause_baseyear": 2020, "indexclause_begin_date": "2021-01-01", "indextransmission_percent": 100,
			"change_in_percent": 1, "indexclause_minimal_percent_change": 5}
		with := func(k string, v any, more ...any) obj {
			out := obj{}
			for key, val := range base {
				out[key] = val
			}
			out[k] = v
			for i := 0; i+1 < len(more); i += 2 {
				out[more[i].(string)] = more[i+1]
			}
			return out
		}
		bad := func(name string, data obj, field string) apptest.Scenario {
			return apptest.Scenario{Name: name, Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body: obj{"action": "create", "entity": "indexclause", "data": data}, Contains: []string{`"` + field + `"`}}
		}
		ta.Run(t, []apptest.Scenario{
			bad("five decimals", with("indexclause_percent_decimals", 5), "indexclause_percent_decimals"),
			bad("negative decimals", with("indexclause_percent_decimals", -1), "indexclause_percent_decimals"),
			bad("an unknown threshold rule", with("indexclause_threshold_rule", "about"), "indexclause_threshold_rule"),
			bad("zero minimum months", with("indexclause_min_months", 0), "indexclause_min_months"),
			bad("zero schedule months", with("indexclause_schedule_months", 0), "indexclause_schedule_months"),
			bad("a floor above the cap", with("indexclause_min_percent", 6, "indexclause_max_percent", 5), "indexclause_min_percent"),
			bad("a cap below -100 %", with("indexclause_max_percent", -101), "indexclause_max_percent"),
		})
		if n := one(t, d, `SELECT COUNT(*) FROM indexclause`); n != clauses {
			t.Fatalf("%d clauses after refused writes, want %d", n, clauses)
		}

		// Destatis / IHK (see TestEvaluateWording): a 10 % clause "VPI 2015 = 100" from June 2021 compares the
		// published 102.9 with 113.5 (October 2022).
		rebased := indexedPaymentWith(t, d, ta, 1, "2021-06-01", obj{"indexclause_baseyear": 2015, "indexclause_minimal_percent_change": 10}, nil)
		// A 5 % clause from January 2021 rounded to one decimal: February 2022 (4.95 % → 5.0 %); then 12 months
		// unchanged from March 2022: compared on February 2023 (115.2 / 106.0: 8.68 % → 8.7 %, 1050 × 1.087).
		rounded := indexedPaymentWith(t, d, ta, 1, "2021-01-01", obj{"indexclause_minimal_percent_change": 5, "indexclause_percent_decimals": 1,
			"indexclause_min_months": 12}, nil)
		// "More than 5 %" with one decimal: not February (exactly 5.0 %), March 2022 (7.0 %).
		moreThan := indexedPaymentWith(t, d, ta, 1, "2021-01-01", obj{"indexclause_name": "more", "indexclause_minimal_percent_change": 5,
			"indexclause_percent_decimals": 1, "indexclause_threshold_rule": "more_than"}, nil)
		// Upward only, 0.5 points from October 2023: the decrease to 117.3 is ignored.
		upward := indexedPaymentWith(t, d, ta, 1, "2023-10-01", obj{"change_in_percent": 0, "indexclause_minimal_percent_change": nil,
			"indexclause_minimal_point_change": 0.5, "indexclause_upward_only": 1}, nil)
		// Issue 39: a payment beginning 2027-01-01 on a clause from January 2021 got proposals effective
		// 2022-04-01, 2022-12-01 and 2024-07-01.
		future := indexedPaymentWith(t, d, ta, 1, "2021-01-01", obj{"indexclause_name": "future", "indexclause_minimal_percent_change": 5},
			obj{"recurringpayment_begin_date": "2027-01-01", "recurringpayment_end_date": "2036-12-31"})
		ta.Run(t, []apptest.Scenario{{Name: "run them", Method: "POST", Path: "/indexadjustments/run", As: admin, Status: 200,
			Body: obj{"recurringpayment_ids": []int64{rebased, rounded, moreThan, upward, future}}, Contains: []string{`"errors":[]`}}})

		first := func(pay int64) (id int64, chain string) {
			rows, err := d.QueryContext(context.Background(), `SELECT indexadjustment_id, indexadjustment_current_month,
				indexadjustment_reference_value, indexadjustment_current_value, indexadjustment_new_amount
				FROM indexadjustment WHERE recurringpayment_id = ? ORDER BY indexadjustment_current_month`, pay)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			for rows.Next() {
				var month string
				var ref, cur, amount float64
				var aid int64
				if err := rows.Scan(&aid, &month, &ref, &cur, &amount); err != nil {
					t.Fatal(err)
				}
				if id == 0 {
					id = aid
				}
				chain += fmt.Sprintf("%s %.1f>%.1f %.2f\n", month, ref, cur, amount)
			}
			return id, chain
		}
		check := func(name string, pay int64, want string) int64 {
			id, chain := first(pay)
			if !strings.HasPrefix(chain, want) {
				t.Errorf("%s: chain\n%swant it to begin with\n%s", name, chain, want)
			}
			return id
		}
		check("published values", rebased, "2022-10 102.9>113.5 1103.01\n")
		roundedID := check("rounded, then 12 months", rounded, "2022-02 101.0>106.0 1050.00\n2023-02 106.0>115.2 1141.35\n")
		check("more than", moreThan, "2022-03 101.0>108.1 1070.00\n")
		upwardID := check("upward only", upward, "2024-03 117.8>118.6 1006.79\n")
		if _, chain := first(future); chain != "" {
			t.Errorf("a payment beginning 2027 got proposals:\n%s", chain)
		}

		explain := func(lang string, ids ...int64) []struct {
			ID      int64  `json:"indexadjustment_id"`
			Text    string `json:"text"`
			Warning string `json:"warning"`
		} {
			var out struct {
				Explanations []struct {
					ID      int64  `json:"indexadjustment_id"`
					Text    string `json:"text"`
					Warning string `json:"warning"`
				} `json:"explanations"`
			}
			res := ta.Client().Do(t, "POST", "/indexadjustments/explanations", map[string]string{"Authorization": "Bearer " + ta.Token(teamLead),
				"Accept-Language": lang, "Content-Type": "application/json"}, []byte(fmt.Sprintf(`{"ids":[%d,%d,99999999]}`, ids[0], ids[1])))
			if res.Status != 200 {
				t.Fatalf("explanations: %d %s", res.Status, res.Body)
			}
			if err := json.Unmarshal(res.Body, &out); err != nil {
				t.Fatal(err)
			}
			return out.Explanations
		}
		en := explain("en", roundedID, upwardID)
		if len(en) != 2 || en[0].ID != roundedID || en[0].Text != "+4.95 %, rounded to 5.0 % (one decimal), threshold 5 % reached; unchanged for 12 months since 1 January 2021" ||
			en[0].Warning != "" {
			t.Errorf("the rounded proposal's rule in English: %+v", en)
		}
		if len(en) == 2 && (!strings.Contains(en[1].Warning, "§ 2 (3) PrKlG") || en[1].Text != "+0.8 points (+0.68 %), threshold 0.5 points reached") {
			t.Errorf("the upward-only proposal: %+v", en[1])
		}
		if de := explain("de", roundedID, upwardID); len(de) != 2 || de[0].Text != "+4,95 %, gerundet auf 5,0 % (eine Nachkommastelle), Schwelle 5 % erreicht; 12 Monate unverändert seit 01.01.2021" ||
			!strings.Contains(de[1].Warning, "§ 2 Abs. 3 PrKlG") {
			t.Errorf("in German: %+v", de)
		}
		for lang, want := range map[string][]string{
			"de": {"Angewandte Regel", "gerundet auf 5,0 %", "Hinweis", "§ 2 Abs. 3 PrKlG"},
			"fr": {"Règle appliquée", "Remarque", "§ 2 al. 3 PrKlG"},
			"en": {"Rule applied", "threshold 0.5 points reached", "Note", "§ 2 (3) PrKlG"},
		} {
			text := letterText(t, ta, teamLead, upwardID, lang)
			if lang == "de" {
				text += letterText(t, ta, teamLead, roundedID, lang)
			}
			for _, w := range want {
				if !strings.Contains(strings.Join(strings.Fields(text), " "), w) {
					t.Errorf("the %s letter lacks %q:\n%s", lang, w, text)
				}
			}
		}
		if text := letterText(t, ta, teamLead, roundedID, "en"); strings.Contains(text, "PrKlG") {
			t.Errorf("a clause applying decreases warns:\n%s", text)
		}
	})
}
