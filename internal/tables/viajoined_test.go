package tables_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
)

// TestTenantThroughJoinedRowsEqualsSets: on PostgreSQL a page of a large
// tenant tests the tenant on the rows it joins for its labels (a ticket's
// point of sale, a deadline's contract and company) instead of through
// sets of keys (Scope.viaJoined). Every page must hold the same rows and
// values either way, for both customer groups' leads, several lists and
// orders, with a filter and a keyword, and its total.
func TestTenantThroughJoinedRowsEqualsSets(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		on, off := true, false
		defer tables.ForceViaJoined(e.Engine, nil)
		pages := []obj{
			{"entity": "ticket", "order_by": "ticket_id"},
			{"entity": "ticket", "order_by": "ticket_creation_time", "order_dir": "DESC", "filter_all": "a"},
			{"entity": "ticket", "order_by": "pos_id__label"},
			{"entity": "contract", "order_by": "contract_name"},
			{"entity": "contract", "order_by": "contract_id", "filter": []obj{{"field": "contract_name", "op": "contains", "value": "a"}}},
			{"entity": "contractaction", "order_by": "contractaction_notice_date"},
			{"entity": "pos", "order_by": "pos_name", "filter_all": "e"},
			{"entity": "location", "order_by": "location_id"},
			{"entity": "area", "order_by": "area_id"},
		}
		read := func(as string, page obj, perPage, current int) (string, bool) {
			t.Helper()
			b := obj{"action": "read-rich", "per_page": perPage, "current_page": current, "count": true}
			for k, v := range page {
				b[k] = v
			}
			res := e.api(as, b)
			if res.Status == http.StatusForbidden {
				return "", false
			}
			if res.Status != http.StatusOK {
				t.Fatalf("%s %v: %d %s", as, b, res.Status, res.Body)
			}
			var a listAnswer
			res.JSON(t, &a)
			out, err := json.Marshal(a.Data)
			if err != nil {
				t.Fatal(err)
			}
			return string(out), true
		}
		for _, as := range []string{lead, leadB} {
			for _, page := range pages {
				for _, window := range [][2]int{{50, 1}, {3, 2}} {
					tables.ForceViaJoined(e.Engine, &off)
					sets, ok := read(as, page, window[0], window[1])
					if !ok {
						continue
					}
					tables.ForceViaJoined(e.Engine, &on)
					joined, _ := read(as, page, window[0], window[1])
					if joined != sets {
						t.Errorf("%s %v page %v:\njoined %s\nsets   %s", as, page, window, joined, sets)
					}
				}
			}
		}
	})
}
