package contracts_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"portfolio/internal/contracts"
	"portfolio/internal/db"
	platformclock "portfolio/internal/platform/clock"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestCalendarFeed: a user's secret link serves, without login, one
// all-day event per notice date of the active deadlines they answer for
// and may see; another tenant's deadline, another user's and an inactive
// one stay out; the token opens nothing else; a replaced or revoked link
// answers 404.
func TestCalendarFeed(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		var leadBID, adminID int64
		if err := d.QueryRowContext(ctx, `SELECT user_id FROM users WHERE user_email = ?`, leadB).Scan(&leadBID); err != nil {
			t.Fatal(err)
		}
		if err := d.QueryRowContext(ctx, `SELECT user_id FROM users WHERE user_email = ?`, admin).Scan(&adminID); err != nil {
			t.Fatal(err)
		}
		own, _ := contractOf(t, d, 3)     // Südmarkt: lead.b's tenant
		foreign, _ := contractOf(t, d, 1) // Nordhandel
		// A name that needs escaping and folding.
		if _, err := d.ExecContext(ctx, `UPDATE contract SET contract_name = ? WHERE contract_id = ?`,
			`Mietvertrag; Halle, "Süd" \ Nord — mit einem sehr langen Namen, der gefaltet werden muss`, own); err != nil {
			t.Fatal(err)
		}
		notice := contracts.Day(platformclock.Now()).AddDate(0, 0, 45)
		create := func(contract, responsible int64, status string) int64 {
			t.Helper()
			r := ta.Do("POST", "/api/", ta.Token(admin), obj{"action": "create", "entity": "contractaction", "data": obj{
				"contract_id": contract, "contractaction_acting_by": "mieter", "contractaction_type": "resiliation",
				"contractaction_resiliation_date":    contracts.AddMonths(notice, 3).Format(time.DateOnly),
				"contractaction_notice_period_value": 3, "contractaction_notice_period_unit": "month",
				"contractaction_responsible_user_id": responsible, "contractaction_status": status}})
			if r.Status != http.StatusCreated {
				t.Fatalf("create deadline: %d %s", r.Status, r.Body)
			}
			return int64(written(t, r)["contractaction_id"].(float64))
		}
		mine := create(own, leadBID, "active")
		// A deadline of another tenant naming lead.b, as rows from before the
		// write check kept references in the record's tenant may.
		otherTenant := create(foreign, adminID, "active")
		if _, err := d.ExecContext(ctx, `UPDATE contractaction SET contractaction_responsible_user_id = ? WHERE contractaction_id = ?`,
			leadBID, otherTenant); err != nil {
			t.Fatal(err)
		}
		otherUser := create(own, adminID, "active")
		inactive := create(own, leadBID, "unactive")
		uid := func(id int64) string { return "UID:deadline-" + strconv.FormatInt(id, 10) + "-" }

		var link struct{ URL string }
		ta.Run(t, []apptest.Scenario{
			{Name: "no link yet", Method: "GET", Path: "/user/calendar", As: leadB, Status: 200,
				Contains: []string{`{"exists":false}`}},
			{Name: "anonymous may not ask", Method: "GET", Path: "/user/calendar", Status: 401},
			{Name: "anonymous may not create", Method: "POST", Path: "/user/calendar", Status: 401},
			{Name: "create", Method: "POST", Path: "/user/calendar", As: leadB, Status: 200,
				Contains: []string{`"url":"http://portfolio.test/calendar/`, `.ics"`},
				Check:    func(t *testing.T, r apptest.Response) { r.JSON(t, &link) }},
		})
		ta.Run(t, []apptest.Scenario{
			{Name: "a link exists, without its URL", Method: "GET", Path: "/user/calendar", As: leadB, Status: 200,
				Contains: []string{`"exists":true`, `"created_at":"`}, Absent: []string{"/calendar/", "url"}},
			{Name: "another user's link is not theirs", Method: "GET", Path: "/user/calendar", As: admin, Status: 200,
				Contains: []string{`{"exists":false}`}},
		})
		u, err := url.Parse(link.URL)
		if err != nil {
			t.Fatal(err)
		}
		feed := ta.Do("GET", u.Path, "", nil)
		if feed.Status != 200 || !strings.HasPrefix(feed.Header.Get("Content-Type"), "text/calendar") {
			t.Fatalf("feed: %d %s %s", feed.Status, feed.Header.Get("Content-Type"), feed.Body)
		}
		body := string(feed.Body)
		for _, line := range strings.SplitAfter(body, "\r\n") {
			if strings.Contains(strings.TrimSuffix(line, "\r\n"), "\n") || len(strings.TrimSuffix(line, "\r\n")) > 75 {
				t.Fatalf("line not CRLF-terminated or longer than 75 octets: %q", line)
			}
		}
		unfolded := strings.ReplaceAll(body, "\r\n ", "")
		for _, want := range []string{"BEGIN:VCALENDAR\r\n", "VERSION:2.0\r\n", uid(mine), "DTSTAMP:",
			"DTSTART;VALUE=DATE:" + notice.Format("20060102"),
			`SUMMARY:Termination: Mietvertrag\; Halle\, "Süd" \\ Nord`,
			"URL:http://portfolio.test/app/table/contract/view/" + strconv.FormatInt(own, 10), "END:VCALENDAR\r\n"} {
			if !strings.Contains(unfolded, want) {
				t.Fatalf("feed lacks %q:\n%s", want, body)
			}
		}
		for name, id := range map[string]int64{"another tenant's": otherTenant, "another user's": otherUser, "an inactive": inactive} {
			if strings.Contains(body, uid(id)) {
				t.Fatalf("feed shows %s deadline %d:\n%s", name, id, body)
			}
		}

		token := strings.TrimSuffix(strings.TrimPrefix(u.Path, "/calendar/"), ".ics")
		ta.Run(t, []apptest.Scenario{
			{Name: "the token is no access token", Method: "GET", Path: "/user/deadline-alerts", Status: 401,
				Header: map[string]string{"Authorization": "Bearer " + token}},
			{Name: "nor a query token", Method: "GET", Path: "/contracts/deadlines/lights?authorization=" + token, Status: 401},
			{Name: "unknown token", Method: "GET", Path: "/calendar/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics", Status: 404},
			{Name: "not an .ics", Method: "GET", Path: "/calendar/" + token, Status: 404},
			{Name: "replace", Method: "POST", Path: "/user/calendar", As: leadB, Status: 200},
			{Name: "the old link is dead", Method: "GET", Path: u.Path, Status: 404},
		})
		var again struct{ URL string }
		ta.Run(t, []apptest.Scenario{{Name: "create again", Method: "POST", Path: "/user/calendar", As: leadB, Status: 200,
			Check: func(t *testing.T, r apptest.Response) { r.JSON(t, &again) }}})
		fresh, _ := url.Parse(again.URL)
		ta.Run(t, []apptest.Scenario{
			{Name: "the new link works", Method: "GET", Path: fresh.Path, Status: 200, Contains: []string{uid(mine)}},
			{Name: "revoke", Method: "DELETE", Path: "/user/calendar", As: leadB, Status: 204},
			{Name: "revoked", Method: "GET", Path: fresh.Path, Status: 404},
			{Name: "no link after revoking", Method: "GET", Path: "/user/calendar", As: leadB, Status: 200,
				Contains: []string{`{"exists":false}`}},
			{Name: "revoke twice", Method: "DELETE", Path: "/user/calendar", As: leadB, Status: 204},
			{Name: "anonymous may not revoke", Method: "DELETE", Path: "/user/calendar", Status: 401},
		})
		var stored int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM calendar_token WHERE token_hash = ?`, token).Scan(&stored); err != nil || stored != 0 {
			t.Fatalf("the token itself is stored (%d rows, %v)", stored, err)
		}
	})
}

// TestLightThresholds: the app reads the traffic-light thresholds.
func TestLightThresholds(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ta.Run(t, []apptest.Scenario{
			{Name: "thresholds", Method: "GET", Path: "/contracts/deadlines/lights", As: lead, Status: 200,
				Contains: []string{`{"red_days":30,"yellow_days":90}`}},
			{Name: "anonymous", Method: "GET", Path: "/contracts/deadlines/lights", Status: 401},
		})
	})
}
