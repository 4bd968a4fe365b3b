package tables_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"portfolio/internal/testkit"
)

// FuzzTenantList: whatever filter, keyword, order or relation owner an
// external user of customer group 1 sends, no list answer holds a row of
// customer group 2 (its companies, or anything named after them).
func FuzzTenantList(f *testing.F) {
	e := newEnv(f, testkit.NewSQLite(f))
	token := e.token(lead)
	foreign := map[float64]bool{}
	for _, row := range e.list(admin, obj{"entity": "company", "filter": []obj{{"field": "customergroup_id", "op": "ne", "value": 1}}}).Data.Data {
		foreign[row["company_id"].(float64)] = true
	}
	if len(foreign) == 0 {
		f.Fatal("the demo data has no company outside customer group 1")
	}
	entities := []string{"pos", "company", "contract", "location", "invoice", "contactperson", "area", "pos_location_rel", "company_pos_rel"}
	f.Add(uint8(0), `[{"field":"company_id","op":"eq","value":3}]`, "", "pos_name")
	f.Add(uint8(0), `{"or":[{"field":"company_id","op":"in","value":[1,2,3]},{"not":{"field":"pos_id","op":"lt","value":0}}]}`, "Süd", "company_id__label")
	f.Add(uint8(1), `[{"field":"customergroup_id","op":"eq","value":2}]`, "", "")
	f.Add(uint8(2), `null`, "Südmarkt", "contract_name")
	f.Add(uint8(7), `[]`, "", "")
	f.Add(uint8(8), `[{"field":"pos_name","op":"contains","value":"a"}]`, "ma", "pos_name")
	f.Fuzz(func(t *testing.T, which uint8, filter, keyword, order string) {
		entity := entities[int(which)%len(entities)]
		body := map[string]any{"action": "read-rich", "entity": entity, "per_page": 500, "filter_all": keyword, "order_by": order}
		if json.Valid([]byte(filter)) {
			body["filter"] = json.RawMessage(filter)
		} else {
			body["filter"] = filter
		}
		switch entity {
		case "pos_location_rel":
			body["data"] = map[string]any{"pos_id": 30} // a point of sale of group 2 in the demo data
		case "company_pos_rel":
			body["data"] = map[string]any{"company_id": 3}
		}
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatalf("encode request: %v", err)
		}
		req, _ := http.NewRequest("POST", e.URL+"/api/", bytes.NewReader(raw))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		answer, _ := io.ReadAll(res.Body)
		if res.StatusCode >= 500 {
			t.Fatalf("%s: %d %s", raw, res.StatusCode, answer)
		}
		if res.StatusCode != http.StatusOK {
			return
		}
		if bytes.Contains(answer, []byte("Südmarkt")) {
			t.Fatalf("%s: the answer names customer group 2: %s", raw, answer)
		}
		var list struct {
			Data struct {
				Data []map[string]any `json:"data"`
			} `json:"data"`
		}
		if err := json.Unmarshal(answer, &list); err != nil {
			t.Fatalf("%s: not a list answer: %v", raw, err)
		}
		for _, row := range list.Data.Data {
			if id, ok := row["company_id"].(float64); ok && foreign[id] {
				t.Fatalf("%s: row of company %v (customer group 2): %v", raw, id, row)
			}
			if cg, ok := row["customergroup_id"].(float64); ok && cg != 1 {
				t.Fatalf("%s: row of customer group %v: %v", raw, cg, row)
			}
		}
	})
}
