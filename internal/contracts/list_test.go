package contracts_test

import (
	"context"
	"sort"
	"testing"
	"time"

	"portfolio/internal/contracts"
	"portfolio/internal/db"
	platformclock "portfolio/internal/platform/clock"
	"portfolio/internal/platform/deadline"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// deadlineList is the answer of GET /contracts/deadlines.
type deadlineList struct {
	Data  []contracts.DeadlineRow
	Links struct{ Pagination contracts.Pagination }
}

func decodeDeadlines(t *testing.T, r apptest.Response) deadlineList {
	t.Helper()
	var out deadlineList
	r.JSON(t, &out)
	return out
}

// count runs a COUNT(*) statement.
func count(t *testing.T, d *db.DB, q string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := d.QueryRowContext(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// noticeOrder fails unless the rows' notice dates are in order (desc:
// latest first).
func noticeOrder(t *testing.T, rows []contracts.DeadlineRow, desc bool) {
	t.Helper()
	dates := make([]string, len(rows))
	for i, r := range rows {
		if r.NoticeDate != nil {
			dates[i] = *r.NoticeDate
		}
	}
	sorted := sort.SliceIsSorted(dates, func(i, j int) bool {
		if desc {
			return dates[i] > dates[j]
		}
		return dates[i] < dates[j]
	})
	if !sorted {
		t.Fatalf("notice dates out of order (desc %v): %v", desc, dates)
	}
}

// TestDeadlineList: GET /contracts/deadlines answers the caller's
// deadlines with contract, point of sale, company and traffic light, sorted
// by notice date, in a notice-date window, by status, page by page; bad
// query parameters answer 422 naming the parameter, a caller without the
// list rights 403.
func TestDeadlineList(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		ta := apptest.NewApp(t, d)
		var inactive int64
		if err := d.QueryRowContext(ctx, `SELECT MIN(contractaction_id) FROM contractaction WHERE contractaction_type = 'active_option'`).
			Scan(&inactive); err != nil {
			t.Fatal(err)
		}
		if _, err := d.ExecContext(ctx, `UPDATE contractaction SET contractaction_status = 'unactive' WHERE contractaction_id = ?`, inactive); err != nil {
			t.Fatal(err)
		}
		all := count(t, d, `SELECT COUNT(*) FROM contractaction`)
		const from, to = "2026-01-01", "2028-12-31"
		inWindow := count(t, d, `SELECT COUNT(*) FROM contractaction WHERE contractaction_notice_date BETWEEN ? AND ?`, from, to)
		if inWindow == 0 || inWindow == all {
			t.Fatalf("the demo data has %d of %d deadlines in the window: nothing to test", inWindow, all)
		}
		today := platformclock.Now().UTC()
		get := func(name, query string, status int, check func(t *testing.T, l deadlineList), contains ...string) apptest.Scenario {
			s := apptest.Scenario{Name: name, Method: "GET", Path: "/contracts/deadlines" + query, As: admin, Status: status, Contains: contains}
			if check != nil {
				s.Check = func(t *testing.T, r apptest.Response) { check(t, decodeDeadlines(t, r)) }
			}
			return s
		}
		ta.Run(t, []apptest.Scenario{
			get("first page, by notice date", "", 200, func(t *testing.T, l deadlineList) {
				p := l.Links.Pagination
				if len(l.Data) != 50 || p.Total != all || p.CurrentPage != 1 || p.PerPage != 50 || p.LastPage != (all+49)/50 {
					t.Fatalf("%d rows, pagination %+v; want 50 of %d", len(l.Data), p, all)
				}
				noticeOrder(t, l.Data, false)
				for _, r := range l.Data {
					if r.ContractLabel == nil || r.PosLabel == nil || r.CompanyLabel == nil || r.Type == "" {
						t.Fatalf("row without its contract, point of sale or company: %+v", r)
					}
					want := deadline.Light("") // none for a deadline not active or used up
					if r.Status == contracts.StatusActive && !r.Expired && r.NoticeDate != nil {
						nd, _ := time.Parse(time.DateOnly, *r.NoticeDate)
						want = deadline.DefaultThresholds.LightOf(nd, today)
					}
					if r.TrafficLight != want {
						t.Fatalf("deadline %d (%s, %v): light %q, want %q", r.ID, r.Status, *r.NoticeDate, r.TrafficLight, want)
					}
				}
			}, `"links":{"pagination":{"current_page":1,`),
			get("window, latest first", "?from="+from+"&to="+to+"&order=desc&per_page=500", 200, func(t *testing.T, l deadlineList) {
				if int64(len(l.Data)) != inWindow || l.Links.Pagination.Total != inWindow {
					t.Fatalf("%d rows, total %d; want %d", len(l.Data), l.Links.Pagination.Total, inWindow)
				}
				noticeOrder(t, l.Data, true)
				for _, r := range l.Data {
					if *r.NoticeDate < from || *r.NoticeDate > to {
						t.Fatalf("deadline %d outside the window: %s", r.ID, *r.NoticeDate)
					}
				}
			}),
			get("one day", "?from=2027-01-31&to=2027-01-31", 200, func(t *testing.T, l deadlineList) {
				for _, r := range l.Data {
					if *r.NoticeDate != "2027-01-31" {
						t.Fatalf("deadline %d on %s", r.ID, *r.NoticeDate)
					}
				}
			}),
			get("by status", "?status=unactive", 200, func(t *testing.T, l deadlineList) {
				if len(l.Data) != 1 || l.Data[0].ID != inactive || l.Data[0].TrafficLight != "" || l.Data[0].Status != "unactive" {
					t.Fatalf("status unactive: %+v", l.Data)
				}
			}),
			get("several statuses", "?status=unactive,cancelled&status=pulled", 200, nil, `"total":1}`),
			get("second page", "?per_page=5&page=2", 200, func(t *testing.T, l deadlineList) {
				if len(l.Data) != 5 || l.Links.Pagination.CurrentPage != 2 {
					t.Fatalf("page 2: %d rows, %+v", len(l.Data), l.Links.Pagination)
				}
			}),
			get("by contract", "?order_by=contract_id__label", 200, nil),
			get("malformed from", "?from=2026-13-01", 422, nil, `"loc":["query","from"]`),
			get("malformed to", "?to=tomorrow", 422, nil, `"loc":["query","to"]`),
			get("to before from", "?from=2027-01-02&to=2027-01-01", 422, nil, `"loc":["query","to"]`),
			get("unknown order", "?order_by=contract_end_date", 422, nil, `"loc":["query","order_by"]`),
			get("page too large", "?per_page=501", 422, nil, `"loc":["query","per_page"]`),
			get("unknown status", "?status=open", 422, nil, `"loc":["query","status"]`),
			{Name: "a store manager may not list deadlines", Method: "GET", Path: "/contracts/deadlines", As: "store_manager@demo.test", Status: 403},
			{Name: "not logged in", Method: "GET", Path: "/contracts/deadlines", Status: 401},
		})
	})
}

// TestDeadlineListAgreesWithGenericList: for every demo user who may list
// deadlines, the list's total is the total of the generic deadline list,
// so it shows exactly the deadlines the engine's rights and tenant scope
// let the user see.
func TestDeadlineListAgreesWithGenericList(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		for _, user := range []string{admin, teamMember, "lawyer@demo.test", lead, leadB, "partner@demo.test"} {
			token := ta.Token(user)
			ours := ta.Do("GET", "/contracts/deadlines?per_page=1", token, nil)
			generic := ta.Do("POST", "/api/", token, obj{"action": "read-rich", "entity": "contractaction", "per_page": 1, "count": true})
			if ours.Status != 200 {
				if ours.Status != 403 {
					t.Errorf("%s: %d %s", user, ours.Status, ours.Body)
				}
				continue
			}
			var g struct{ Data struct{ Total int64 } }
			generic.JSON(t, &g)
			if got := decodeDeadlines(t, ours).Links.Pagination.Total; got != g.Data.Total || got == 0 {
				t.Errorf("%s: %d deadlines, the generic list %d", user, got, g.Data.Total)
			}
		}
	})
}
