package contracts_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"portfolio/internal/contracts"
	"portfolio/internal/db"
	platformclock "portfolio/internal/platform/clock"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestCurrentEndThroughAPI: exercising an option moves the contract's
// current end, not its agreed end; undoing the exercise, deleting the
// option or editing the agreed end moves it back or along; nobody writes
// it; the history names it; the nightly recomputation moves it when an
// automatic extension prolongs, and raises one left behind (decision
// 0064).
func TestCurrentEndThroughAPI(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		contract, _ := contractOf(t, d, 1)
		// The contract's own deadlines (the demo's) out of the way, without
		// the hooks: the ends below are this test's deadlines' only.
		if _, err := d.ExecContext(ctx, `DELETE FROM contractaction WHERE contract_id = ?`, contract); err != nil {
			t.Fatal(err)
		}
		ends := func() (agreed, current string) {
			t.Helper()
			var got struct {
				Data struct {
					Agreed  string `json:"contract_end_date"`
					Current string `json:"contract_current_end_date"`
				}
			}
			r := ta.Do("GET", fmt.Sprintf("/contracts/%d", contract), ta.Token(admin), nil)
			if r.Status != 200 {
				t.Fatalf("GET contract: %d %s", r.Status, r.Body)
			}
			r.JSON(t, &got)
			return got.Data.Agreed, got.Data.Current
		}
		want := func(step, agreed, current string) {
			t.Helper()
			if a, c := ends(); a != agreed || c != current {
				t.Fatalf("%s: end %s, current end %s; want %s, %s", step, a, c, agreed, current)
			}
		}
		version := func() int64 {
			t.Helper()
			_, v := contractOf(t, d, 1)
			return v
		}
		update := func(entity string, id, rv int64, data obj, status int) apptest.Response {
			t.Helper()
			r := ta.Do("POST", "/api/", ta.Token(admin), obj{"action": "update", "entity": entity, "id": id, "row_version": rv, "data": data})
			if r.Status != status {
				t.Fatalf("update %s %v: %d, want %d: %s", entity, data, r.Status, status, r.Body)
			}
			return r
		}
		update("contract", contract, version(), obj{"contract_end_date": "2027-12-31"}, 200)
		want("the end agreed", "2027-12-31", "2027-12-31")

		// Option 1's notice date is 2026-12-31; its declaration reached the
		// landlord on that day at the latest, and not after today.
		declared := min(platformclock.Now().UTC().Format(time.DateOnly), "2026-12-31")
		r := ta.Do("POST", "/api/", ta.Token(admin), obj{"action": "create", "entity": "contractaction", "data": obj{
			"contract_id": contract, "contractaction_acting_by": "mieter", "contractaction_type": "active_option",
			"contractaction_options_count": 2, "contractaction_extension_value": 5, "contractaction_extension_unit": "year",
			"contractaction_notice_period_value": 12, "contractaction_notice_period_unit": "month",
			"contractaction_options_exercised": 1, "contractaction_exercised_date": declared}})
		if r.Status != 201 {
			t.Fatalf("create an exercised option: %d %s", r.Status, r.Body)
		}
		option := written(t, r)
		id, rv := int64(option["contractaction_id"].(float64)), int64(option["row_version"].(float64))
		want("1 of 2 options of 5 years exercised", "2027-12-31", "2032-12-31")

		rv = int64(written(t, update("contractaction", id, rv, obj{"contractaction_options_exercised": 0}, 200))["row_version"].(float64))
		want("the exercise undone", "2027-12-31", "2027-12-31")
		rv = int64(written(t, update("contractaction", id, rv, obj{"contractaction_options_exercised": 1}, 200))["row_version"].(float64))
		want("exercised again", "2027-12-31", "2032-12-31")

		update("contract", contract, version(), obj{"contract_end_date": "2028-06-30"}, 200)
		want("the end date edited", "2028-06-30", "2033-06-30")

		ta.Run(t, []apptest.Scenario{
			{Name: "nobody writes the current end", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body:     obj{"action": "update", "entity": "contract", "id": contract, "row_version": version(), "data": obj{"contract_current_end_date": "2040-12-31"}},
				Contains: []string{"contract_current_end_date"}},
			{Name: "the history names the current end", Method: "POST", Path: "/api/", As: admin, Status: 200,
				Body: obj{"action": "history", "entity": "contract", "id": contract}, Contains: []string{"contract_current_end_date", "2033-06-30"}},
			{Name: "the definition serves it read-only with its help", Method: "GET", Path: "/api/definitions/contract", As: admin,
				Header: map[string]string{"Accept-Language": "de"}, Status: 200,
				Contains: []string{`"attribute_i18n":"Aktuelles Vertragsende"`, `"attribute_help":"Berechnet: das Ende, bis zu dem der Vertrag jetzt läuft.`}},
			{Name: "the generic list filters by it", Method: "POST", Path: "/api/", As: admin, Status: 200,
				Body:     obj{"action": "read-rich", "entity": "contract", "columns": []string{"contract_current_end_date"}, "filter": []obj{{"field": "contract_current_end_date", "op": "eq", "value": "2033-06-30"}}},
				Contains: []string{fmt.Sprintf(`"contract_id":%d`, contract)}},
		})

		// A cancelled option no longer applies; deleting it takes its end too.
		// (The edited end moved the option's dates: its next row_version.)
		if err := d.QueryRowContext(ctx, `SELECT row_version FROM contractaction WHERE contractaction_id = ?`, id).Scan(&rv); err != nil {
			t.Fatal(err)
		}
		rv = int64(written(t, update("contractaction", id, rv, obj{"contractaction_status": "cancelled"}, 200))["row_version"].(float64))
		want("the option cancelled", "2028-06-30", "2028-06-30")
		rv = int64(written(t, update("contractaction", id, rv, obj{"contractaction_status": "active"}, 200))["row_version"].(float64))
		want("the option reopened", "2028-06-30", "2033-06-30")
		if r := ta.Do("POST", "/api/", ta.Token(admin), obj{"action": "delete", "entity": "contractaction", "id": id, "row_version": rv}); r.Status != 204 {
			t.Fatalf("delete the option: %d %s", r.Status, r.Body)
		}
		want("the option deleted", "2028-06-30", "2028-06-30")

		// A yearly automatic extension, notice 3 months before: once its
		// notice date (2028-03-31) passes without notice, the nightly
		// recomputation prolongs the contract to 2029-06-30.
		if r := ta.Do("POST", "/api/", ta.Token(admin), obj{"action": "create", "entity": "contractaction", "data": obj{
			"contract_id": contract, "contractaction_acting_by": "mieter", "contractaction_type": "automatic_extension",
			"contractaction_extension_value": 1, "contractaction_extension_unit": "year",
			"contractaction_notice_period_value": 3, "contractaction_notice_period_unit": "month"}}); r.Status != 201 {
			t.Fatalf("create an extension: %d %s", r.Status, r.Body)
		}
		if today := platformclock.Now().UTC().Format(time.DateOnly); today <= "2028-03-31" {
			want("an extension not yet made", "2028-06-30", "2028-06-30")
		}
		later := time.Date(2028, 4, 15, 0, 0, 0, 0, time.UTC)
		svc := contracts.New(contracts.Deps{DB: d, Engine: ta.Engine, Outbox: ta.Outbox, Catalog: ta.Catalog, Now: func() time.Time { return later }})
		if _, err := svc.RecomputeNoticeDates(ctx); err != nil {
			t.Fatal(err)
		}
		want("the extension made overnight", "2028-06-30", "2029-06-30")
		var unnamed int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'contract' AND trackrecord_row_id = ?
			AND user_id IS NULL AND trackrecord_changes LIKE '%contract_current_end_date%'`, contract).Scan(&unnamed); err != nil || unnamed == 0 {
			t.Fatalf("no history row of the system for the moved end (%d): %v", unnamed, err)
		}
		// A current end left behind (what migration 0064 cannot count) is
		// raised by the next night.
		if _, err := d.ExecContext(ctx, `UPDATE contract SET contract_current_end_date = contract_end_date WHERE contract_id = ?`, contract); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.RecomputeNoticeDates(ctx); err != nil {
			t.Fatal(err)
		}
		want("raised by the next night", "2028-06-30", "2029-06-30")
	})
}
