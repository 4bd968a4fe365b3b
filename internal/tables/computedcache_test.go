package tables_test

import (
	"fmt"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
)

// TestComputedValuesTakeEffectOnNextRequest: a page's computed columns (a
// contract's space sums over its areas, each area's tenant tested, and its
// next notice date) are cached per data generation (computedcache.go). A
// repeated page is answered from the cache; the values change on the very
// next request after a plain SQL write to any table they read: a link's
// space, a new link, an area moved to another customer group's location
// and a location moved to the lead's customer group (the lead's sums
// follow, the administrator's stay), a deadline's date; and a lead never
// sees the administrator's sums.
func TestComputedValuesTakeEffectOnNextRequest(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		exec := func(q string, args ...any) {
			t.Helper()
			mustExec(t, d, q, args...)
		}
		inGroup := `SELECT a.area_id FROM area a JOIN location l ON l.location_id = a.location_id
			JOIN company c ON c.company_id = l.company_id WHERE c.customergroup_id = ? ORDER BY a.area_id`
		own, other := queryInts(t, d, inGroup, 1), queryInts(t, d, inGroup, 2)
		if len(own) < 2 || len(other) < 1 {
			t.Fatalf("the demo data has %d areas in customer group 1 and %d in 2; the test needs 2 and 1", len(own), len(other))
		}
		contract := queryInt(t, d, `SELECT MIN(contract_id) FROM contract WHERE company_id IN (SELECT company_id FROM company WHERE customergroup_id = 1)`)
		exec(`DELETE FROM contract_area WHERE contract_id = ?`, contract)
		link := func(area int64, rental, allocation string) {
			t.Helper()
			exec(`INSERT INTO contract_area (contract_id, area_id, usagetype_id, unit_id, rentalspace_value, allocationspace_value, valid_from)
				VALUES (?, ?, (SELECT MIN(usagetype_id) FROM usagetype), 1, `+rental+`, `+allocation+`, '2020-01-01')`, contract, area)
		}
		link(own[0], "10.5", "1")
		link(own[1], "20", "2")
		link(other[0], "400", "40")

		type values struct{ rental, allocation, notice string }
		read := func(as string) values {
			t.Helper()
			rows := e.list(as, obj{"entity": "contract", "per_page": 5,
				"filter": []obj{{"field": "contract_id", "op": "eq", "value": contract}}}).Data.Data
			if len(rows) != 1 {
				t.Fatalf("%s: %d rows, want the contract", as, len(rows))
			}
			r := rows[0]
			return values{fmt.Sprint(r["contract_rentalspace_sum"]), fmt.Sprint(r["contract_allocationspace_sum"]), fmt.Sprint(r["contract_next_notice_date"])}
		}
		check := func(step string, lead, admin values) {
			t.Helper()
			for _, c := range []struct {
				as   string
				want values
			}{{"lead@demo.test", lead}, {"admin@demo.test", admin}} {
				served := tables.ComputedServed(e.Engine)
				first, second := read(c.as), read(c.as)
				if first != c.want || second != c.want {
					t.Errorf("%s, %s: %+v then %+v, want %+v", step, c.as, first, second, c.want)
				}
				if tables.ComputedServed(e.Engine) == served {
					t.Errorf("%s, %s: the repeated page did not take its values from the cache", step, c.as)
				}
			}
		}
		notice := fmt.Sprint(read("admin@demo.test").notice)
		check("start", values{"30.5", "3", notice}, values{"430.5", "43", notice})

		exec(`UPDATE contract_area SET rentalspace_value = 11.5 WHERE contract_id = ? AND area_id = ?`, contract, own[0])
		check("a link's space changed", values{"31.5", "3", notice}, values{"431.5", "43", notice})

		link(own[0], "100", "10")
		check("a link added", values{"131.5", "13", notice}, values{"531.5", "53", notice})

		otherLocation := queryInt(t, d, `SELECT location_id FROM area WHERE area_id = ?`, other[0])
		exec(`UPDATE area SET location_id = (SELECT MIN(l.location_id) FROM location l JOIN company c ON c.company_id = l.company_id
			WHERE c.customergroup_id = 2 AND l.location_id <> ?) WHERE area_id = ?`, otherLocation, own[1])
		check("an area moved to a location of customer group 2", values{"111.5", "11", notice}, values{"531.5", "53", notice})

		exec(`UPDATE location SET company_id = (SELECT MIN(company_id) FROM company WHERE customergroup_id = 1) WHERE location_id = ?`, otherLocation)
		check("a location moved to customer group 1", values{"511.5", "51", notice}, values{"531.5", "53", notice})

		exec(`UPDATE contractaction SET contract_id = ?, contractaction_status = 'active', contractaction_notice_date = '2099-01-02'
			WHERE contractaction_id = (SELECT MIN(contractaction_id) FROM contractaction)`, contract)
		if notice == "2099-01-02" {
			t.Fatal("the contract's notice date was already the one the test sets")
		}
		want := "2099-01-02"
		if notice != "<nil>" && notice < want {
			want = notice // an earlier active notice date stays the next one
		}
		check("a deadline moved to the contract", values{"511.5", "51", want}, values{"531.5", "53", want})
	})
}
