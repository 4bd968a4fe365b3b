package contracts_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"portfolio/internal/contracts"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestDeadlineRulesThroughAPI: the notice rule, the end a notice is given
// to and the options exercised are ordinary fields of a deadline, written
// through the generic API and validated by the server; the notice date,
// the resulting end and used up follow (decision 0008), the working days
// of § 580a are the location's state's, and the deadline list tells the
// rule behind each date in the caller's language. Every date lies far
// from the day the test runs (contract ends in 2050 or in 2025), so no
// expectation depends on it.
func TestDeadlineRulesThroughAPI(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		contract, version := contractOf(t, d, 1)
		// The contract's location lies in Bavaria (Heilige Drei Könige).
		if _, err := d.ExecContext(ctx, `UPDATE city SET state = 'Bayern', country_id = (SELECT country_id FROM country WHERE country_short = 'DE')
			WHERE city_id = (SELECT a.city_id FROM contract c JOIN location l ON l.location_id = c.location_id
				JOIN address a ON a.address_id = l.address_id WHERE c.contract_id = ?)`, contract); err != nil {
			t.Fatal(err)
		}
		ta.Run(t, []apptest.Scenario{{Name: "contract end", Method: "POST", Path: "/api/", As: admin, Status: 200,
			Body: obj{"action": "update", "entity": "contract", "id": contract, "row_version": version, "data": obj{"contract_end_date": "2050-12-31"}}}})
		create := func(data obj) obj {
			data["contract_id"], data["contractaction_acting_by"] = contract, "mieter"
			if data["contractaction_notice_period_unit"] == nil {
				data["contractaction_notice_period_value"], data["contractaction_notice_period_unit"] = 6, "month"
			}
			return obj{"action": "create", "entity": "contractaction", "data": data}
		}
		res := func(date string, kv ...any) obj {
			m := obj{"contractaction_type": "resiliation", "contractaction_resiliation_date": date}
			for i := 0; i+1 < len(kv); i += 2 {
				m[kv[i].(string)] = kv[i+1]
			}
			return create(m)
		}
		var option obj
		ta.Run(t, []apptest.Scenario{
			{Name: "§ 580a for 2027-12-31", Method: "POST", Path: "/api/", As: admin, Status: 201,
				Body:     res("2027-12-31", "contractaction_notice_rule", "statutory_580a"),
				Contains: []string{`"contractaction_notice_date":"2027-07-05"`, `"contractaction_effective_date":"2027-12-31"`}},
			{Name: "§ 580a for 2028-06-30", Method: "POST", Path: "/api/", As: admin, Status: 201,
				Body:     res("2028-06-30", "contractaction_notice_rule", "statutory_580a"),
				Contains: []string{`"contractaction_notice_date":"2028-01-05"`}},
			{Name: "§ 580a in Bavaria skips Heilige Drei Könige", Method: "POST", Path: "/api/", As: admin, Status: 201,
				Body:     res("2031-06-30", "contractaction_notice_rule", "statutory_580a"),
				Contains: []string{`"contractaction_notice_date":"2031-01-07"`}},
			{Name: "to a quarter's end", Method: "POST", Path: "/api/", As: admin, Status: 201,
				Body:     res("2040-11-02", "contractaction_notice_to", "quarter_end"),
				Contains: []string{`"contractaction_notice_date":"2040-06-30"`, `"contractaction_effective_date":"2040-12-31"`, `"contractaction_notice_to":"quarter_end"`}},
			{Name: "the default rule", Method: "POST", Path: "/api/", As: admin, Status: 201, Body: res("2040-11-02"),
				Contains: []string{`"contractaction_notice_date":"2040-05-02"`, `"contractaction_notice_rule":"calendar"`, `"contractaction_notice_to":"date"`}},
			{Name: "unknown notice rule", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body: res("2040-11-02", "contractaction_notice_rule", "oral"), Contains: []string{`"loc":["body","contractaction_notice_rule"]`}},
			{Name: "unknown notice end", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body: res("2040-11-02", "contractaction_notice_to", "week_end"), Contains: []string{`"loc":["body","contractaction_notice_to"]`}},
			{Name: "derived values are not written by clients", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body: res("2040-11-02", "contractaction_effective_date", "2041-01-01"), Contains: []string{"contractaction_effective_date"}},
			{Name: "a resiliation is not exercised", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body: res("2040-11-02", "contractaction_options_exercised", 1), Contains: []string{`"loc":["body","contractaction_options_exercised"]`}},
			{Name: "an active option", Method: "POST", Path: "/api/", As: admin, Status: 201,
				Body: create(obj{"contractaction_type": "active_option", "contractaction_options_count": 2, "contractaction_extension_value": 5,
					"contractaction_extension_unit": "year", "contractaction_notice_period_value": 12, "contractaction_notice_period_unit": "month"}),
				Contains: []string{`"contractaction_notice_date":"2049-12-31"`, `"contractaction_effective_date":"2050-12-31"`, `"contractaction_expired":0`},
				Check:    func(t *testing.T, r apptest.Response) { option = written(t, r) }},
		})
		id, rv := int64(option["contractaction_id"].(float64)), int64(option["row_version"].(float64))
		exercise := func(data obj, status int, contains ...string) {
			t.Helper()
			r := ta.Do("POST", "/api/", ta.Token(admin), obj{"action": "update", "entity": "contractaction", "id": id, "row_version": rv, "data": data})
			if r.Status != status {
				t.Fatalf("exercise %v: %d, want %d: %s", data, r.Status, status, r.Body)
			}
			for _, c := range contains {
				if !bytesContain(r.Body, c) {
					t.Fatalf("exercise %v: %s lacks %s", data, r.Body, c)
				}
			}
			if status == 200 {
				rv = int64(written(t, r)["row_version"].(float64))
			}
		}
		exercise(obj{"contractaction_options_exercised": 1}, 422, `"loc":["body","contractaction_exercised_date"]`)
		exercise(obj{"contractaction_options_exercised": 1, "contractaction_exercised_date": "2050-01-01"}, 422,
			`"loc":["body","contractaction_exercised_date"]`)
		// Declared in time: the next option's deadline follows from the end
		// the first one reached.
		exercise(obj{"contractaction_options_exercised": 1, "contractaction_exercised_date": "2026-01-15"}, 200,
			`"contractaction_notice_date":"2054-12-31"`, `"contractaction_effective_date":"2055-12-31"`, `"contractaction_uses":1`,
			`"contractaction_status":"active"`)
		exercise(obj{"contractaction_options_exercised": 3}, 422, `"loc":["body","contractaction_options_exercised"]`)
		// The last one exercised: nothing left to watch, closed as pulled.
		exercise(obj{"contractaction_options_exercised": 2}, 200, `"contractaction_effective_date":"2060-12-31"`,
			`"contractaction_expired":1`, `"contractaction_status":"pulled"`)

		// A second contract ended on 2025-08-31 (the demo data): its active
		// option was never declared, so the chain ended there; no further
		// deadline, no light.
		var ended int64
		if err := d.QueryRowContext(ctx, `SELECT contract_id FROM contract WHERE company_id = 1 AND contract_id <> ?
			AND contract_end_date = '2025-08-31' ORDER BY contract_id LIMIT 1`, contract).Scan(&ended); err != nil {
			t.Fatal(err)
		}
		ta.Run(t, []apptest.Scenario{
			{Name: "a lapsed option", Method: "POST", Path: "/api/", As: admin, Status: 201,
				Body: obj{"action": "create", "entity": "contractaction", "data": obj{"contract_id": ended, "contractaction_acting_by": "mieter",
					"contractaction_type": "active_option", "contractaction_options_count": 2, "contractaction_extension_value": 5,
					"contractaction_extension_unit": "year", "contractaction_notice_period_value": 12, "contractaction_notice_period_unit": "month"}},
				Contains: []string{`"contractaction_notice_date":"2024-08-31"`, `"contractaction_expired":1`, `"contractaction_status":"active"`}},
			{Name: "the list explains the lapsed option", Method: "GET", Path: fmt.Sprintf("/contracts/deadlines?contract_id=%d", ended), As: admin,
				Header: map[string]string{"Accept-Language": "en"}, Status: 200,
				Contains: []string{`"explanation":"Option 1 of 2 was not declared by 31 August 2024: the contract ends on 31 August 2025"`,
					`"code":"lapsed"`, `"traffic_light":""`, `"contractaction_expired":true`}},
			{Name: "the list explains § 580a in German", Method: "GET", Path: fmt.Sprintf("/contracts/deadlines?contract_id=%d&from=2027-07-05&to=2027-07-05", contract), As: admin,
				Header: map[string]string{"Accept-Language": "de"}, Status: 200,
				Contains: []string{`"explanation":"Kündigung bis 5. Juli 2027 (3. Werktag im Juli 2027, § 580a Abs. 2 BGB) zum 31. Dezember 2027"`,
					`"contractaction_effective_date":"2027-12-31"`}},
			{Name: "the list explains a quarter's end in French", Method: "GET", Path: fmt.Sprintf("/contracts/deadlines?contract_id=%d&from=2040-06-30&to=2040-06-30", contract), As: admin,
				Header: map[string]string{"Accept-Language": "fr"}, Status: 200,
				Contains: []string{`"explanation":"Résiliation au plus tard le 30 juin 2040 (6 mois pour la fin d'un trimestre) pour le 31 décembre 2040"`}},
			{Name: "the contract's deadlines explain too", Method: "GET", Path: fmt.Sprintf("/contracts/%d", contract), As: admin,
				Header: map[string]string{"Accept-Language": "en"}, Status: 200,
				Contains: []string{`"explanation":"Notice by 7 January 2031 (the 3rd working day of January 2031, § 580a (2) BGB) for 30 June 2031"`,
					`"explanation":"All 2 options exercised: the contract runs until 31 December 2060"`}},
			{Name: "the fields' help in German", Method: "GET", Path: "/api/definitions/contractaction", As: admin,
				Header: map[string]string{"Accept-Language": "de"}, Status: 200,
				Contains: []string{`"attribute_help":"Wie das Kündigungsdatum aus dem Ende folgt`, `"attribute_i18n":"Kündigungsregel"`}},
			{Name: "a malformed contract id", Method: "GET", Path: "/contracts/deadlines?contract_id=x", As: admin, Status: 422,
				Contains: []string{`"contract_id"`}},
		})
	})
}

func bytesContain(b []byte, s string) bool { return strings.Contains(string(b), s) }

// TestRuleInMailAndCalendar: the alert mail and the calendar feed tell the
// rule behind each notice date, in the user's language, with the same
// words as the deadline list. The deadline's dates lie in 2040 and the
// digest runs on a fixed clock, so nothing depends on the day the test
// runs.
func TestRuleInMailAndCalendar(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		if _, err := d.ExecContext(ctx, `UPDATE users SET user_language = 'de' WHERE user_email = ?`, leadB); err != nil {
			t.Fatal(err)
		}
		var leadBID int64
		if err := d.QueryRowContext(ctx, `SELECT user_id FROM users WHERE user_email = ?`, leadB).Scan(&leadBID); err != nil {
			t.Fatal(err)
		}
		own, _ := contractOf(t, d, 3) // lead.b's tenant
		r := ta.Do("POST", "/api/", ta.Token(admin), obj{"action": "create", "entity": "contractaction", "data": obj{
			"contract_id": own, "contractaction_acting_by": "mieter", "contractaction_type": "resiliation",
			"contractaction_resiliation_date": "2040-11-02", "contractaction_notice_to": "quarter_end",
			"contractaction_notice_period_value": 6, "contractaction_notice_period_unit": "month",
			"contractaction_responsible_user_id": leadBID}})
		if r.Status != http.StatusCreated {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		const want = "Kündigung bis 30. Juni 2040 (6 Monate zum Quartalsende) zum 31. Dezember 2040"

		clk := &clock{t: time.Date(2040, 6, 10, 8, 0, 0, 0, time.UTC)} // 20 days before the notice date
		svc := contracts.New(contracts.Deps{DB: d, Engine: ta.Engine, Outbox: ta.Outbox, Catalog: ta.Catalog, Principals: ta.Auth,
			PublicURL: "http://portfolio.test", Now: clk.now})
		if sent, err := svc.SendDeadlineDigests(ctx); err != nil || sent != 1 {
			t.Fatalf("digest: %d mails, %v", sent, err)
		}
		m := ta.SMTP.WaitFor(t, 10*time.Second, func(m testkit.Mail) bool { return slices.Contains(m.To, leadB) })
		if !strings.Contains(m.Text, want) {
			t.Fatalf("the mail does not tell the rule %q:\n%s", want, m.Text)
		}

		var link struct{ URL string }
		ta.Run(t, []apptest.Scenario{{Name: "calendar link", Method: "POST", Path: "/user/calendar", As: leadB, Status: 200,
			Check: func(t *testing.T, r apptest.Response) { r.JSON(t, &link) }}})
		u, err := url.Parse(link.URL)
		if err != nil {
			t.Fatal(err)
		}
		feed := ta.Do("GET", u.Path, "", nil)
		unfolded := strings.ReplaceAll(string(feed.Body), "\r\n ", "")
		if feed.Status != 200 || !strings.Contains(unfolded, `\n`+strings.ReplaceAll(want, ",", `\,`)) {
			t.Fatalf("the feed does not tell the rule %q: %d\n%s", want, feed.Status, feed.Body)
		}
	})
}
