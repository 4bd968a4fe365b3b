package tables_test

import (
	"fmt"
	"net/http"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestNarrowingThroughLink: a list field narrowed through a link (a
// contract's location is one of its point of sale's locations, linked by
// pos_location) offers only the linked rows, and every write refuses
// another one, as any other narrowing does.
func TestNarrowingThroughLink(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		s := newSampler(e, t)
		location := mustEntity("location")
		posA := s.fresh("pos", obj{"company_id": 1})
		posB := s.fresh("pos", obj{"company_id": 1})
		locA := s.fresh("location", obj{"company_id": 1})
		locB := s.fresh("location", obj{"company_id": 1})
		s.link(location, "pos", locA, posA)
		s.link(location, "pos", locB, posB)

		// The options follow the chosen point of sale; none without one.
		offered := func(pos any) map[int64]bool {
			t.Helper()
			out := map[int64]bool{}
			for _, o := range e.options(admin, "contract", "location_id", obj{"pos_id": pos}, obj{"per_page": 500}, http.StatusOK).Data {
				out[o.Value] = true
			}
			return out
		}
		if got := offered(posA); !got[locA] || got[locB] || len(got) != 1 {
			t.Fatalf("locations of point of sale %d: %v, want only %d", posA, got, locA)
		}
		if got := offered(nil); len(got) != 0 {
			t.Fatalf("locations without a point of sale: %v", got)
		}

		contract := func(pos, loc int64) obj {
			return obj{"action": "create", "entity": "contract", "data": s.data(mustEntity("contract"),
				obj{"company_id": 1, "pos_id": pos, "location_id": loc})}
		}
		update := func(id, version int64, data obj) obj {
			return obj{"action": "update", "entity": "contract", "id": id, "row_version": version, "data": data}
		}
		notAvailable := []string{`"loc":["body","location_id"]`, `"type":"not_available"`}
		ok := id(e.mustOK(admin, contract(posA, locA)), "contract_id")
		// A stored mismatch (older data) stays while a write leaves it alone.
		odd := id(e.mustOK(admin, contract(posB, locB)), "contract_id")
		if _, err := d.ExecContext(t.Context(), `UPDATE contract SET location_id = ? WHERE contract_id = ?`, locA, odd); err != nil {
			t.Fatal(err)
		}

		e.run(t, []apptest.Scenario{
			{Name: "create with a location of another point of sale", As: admin, Body: contract(posA, locB), Status: 422,
				Contains: []string{`{"loc":["body","location_id"],"msg":"The selected Location is not available","type":"not_available"}`}},
			{Name: "in German", As: admin, Header: lang("de"), Body: contract(posA, locB), Status: 422, Contains: []string{"ist nicht verfügbar"}},
			{Name: "create with a location of the point of sale", As: admin, Body: contract(posA, locA), Status: 201},
			{Name: "update to a location of another point of sale", As: admin, Body: update(ok, 1, obj{"location_id": locB}),
				Status: 422, Contains: notAvailable},
			{Name: "update-field too", As: admin, Status: 422, Contains: notAvailable,
				Body: obj{"action": "update-field", "entity": "contract", "id": ok, "field": "location_id", "value": locB, "row_version": 1}},
			{Name: "moving to another point of sale leaves the location outside its options", As: admin,
				Body: update(ok, 1, obj{"pos_id": posB}), Status: 422, Contains: notAvailable},
			{Name: "a stored mismatch stays while the write leaves it alone", As: admin,
				Body: update(odd, 1, obj{"contract_name": "Unverändert"}), Status: 200},
			{Name: "moving with a location of the new point of sale", As: admin,
				Body: update(ok, 1, obj{"pos_id": posB, "location_id": locB}), Status: 200,
				Contains: []string{fmt.Sprintf(`"location_id":%d`, locB)}},
		})
	})
}
