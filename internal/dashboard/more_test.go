package dashboard_test

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"portfolio/internal/db"
	platformclock "portfolio/internal/platform/clock"
	"portfolio/internal/platform/deadline"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

func exec(t *testing.T, d *db.DB, query string, args ...any) {
	t.Helper()
	if _, err := d.ExecContext(context.Background(), query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// invoiceWith writes an invoice dated date on the first contract of group
// g with contradiction points claiming claims (accepted amounts accepted,
// "" for none) and inspection results (value, realised).
func invoiceWith(t *testing.T, d *db.DB, g int64, date string, claims, accepted []string, results [][2]any) {
	t.Helper()
	contract := one(t, d, `SELECT MIN(c.contract_id) FROM contract c JOIN company co ON co.company_id = c.company_id WHERE `+inGroup(g))
	exec(t, d, `INSERT INTO invoice (invoice_date, invoice_date_of_order, invoice_contract_year, company_id, invoice_allocationarea,
		invoice_payment_date, contract_id, partnertype_id, invoice_number, invoice_billing_period_from, invoice_billing_period_to)
		VALUES (?, ?, 2025, (SELECT company_id FROM contract WHERE contract_id = ?), 100, ?, ?, (SELECT MIN(partnertype_id) FROM partnertype),
		?, '2025-01-01', '2025-12-31')`, date, date, contract, date, contract, fmt.Sprintf("T-%d-%s", g, date))
	invoice := one(t, d, `SELECT MAX(invoice_id) FROM invoice`)
	exec(t, d, `INSERT INTO contradiction (invoice_id, contradiction_name) VALUES (?, 'Objection')`, invoice)
	objection := one(t, d, `SELECT MAX(contradiction_id) FROM contradiction`)
	for i, c := range claims {
		var acc any
		if accepted[i] != "" {
			acc = accepted[i]
		}
		exec(t, d, `INSERT INTO contradictionpoint (contradiction_id, contradictionpoint_rank, contradictionpoint_title, contradictionpoint_text,
			contradictionpoint_claim, contradictionpoint_accepted) VALUES (?, ?, 'Point', '<p>x</p>', ?, ?)`, objection, i, c, acc)
	}
	for _, lookup := range []string{"claimtype", "savingtype", "rating", "resultcategorization"} {
		if one(t, d, `SELECT COUNT(*) FROM `+lookup) == 0 {
			exec(t, d, `INSERT INTO `+lookup+` (`+lookup+`_name) VALUES ('Test')`)
		}
	}
	for _, r := range results {
		exec(t, d, `INSERT INTO inspectionresult (invoice_id, inspectionresult_value, inspectionresult_realised, unique_or_perennial,
			claimtype_id, savingtype_id, rating_id, resultcategorization_id) VALUES (?, ?, ?, 'unique', (SELECT MIN(claimtype_id) FROM claimtype),
			(SELECT MIN(savingtype_id) FROM savingtype), (SELECT MIN(rating_id) FROM rating), (SELECT MIN(resultcategorization_id) FROM resultcategorization))`,
			invoice, r[0], r[1])
	}
}

func dec(t *testing.T, n interface{ String() string }) decimal.Decimal {
	t.Helper()
	return decimal.RequireFromString(n.String())
}

// TestSavings: this year's claimed, accepted and realised savings are
// exact decimal sums over the claims and results made this year, here
// rows without history on invoices dated this year (0.1 + 0.2 is 0.3,
// also on SQLite), last year's invoices and unrealised results left out.
func TestSavings(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		before := getSummary(t, ta, admin).SavingsYear
		if before == nil || before.Claimed == nil || before.Realised == nil {
			t.Fatalf("admin: savings %+v", before)
		}
		year := platformclock.Now().UTC().Year()
		thisYear, lastYear := fmt.Sprintf("%d-03-15", year), fmt.Sprintf("%d-12-20", year-1)
		a, b := groupOf(t, d, lead), groupOf(t, d, leadB)
		invoiceWith(t, d, a, thisYear, []string{"0.1", "0.2"}, []string{"0.05", ""}, [][2]any{{"10.1", 1}, {"5", 0}})
		invoiceWith(t, d, b, thisYear, []string{"7.7"}, []string{"0.25"}, [][2]any{{"3.3", 1}})
		invoiceWith(t, d, a, lastYear, []string{"100"}, []string{"100"}, [][2]any{{"100", 1}})
		for _, user := range []string{admin, teamLead} {
			after := getSummary(t, ta, user).SavingsYear
			if after == nil || after.Claimed == nil || after.Accepted == nil || after.Realised == nil {
				t.Fatalf("%s: savings %+v", user, after)
			}
			for name, c := range map[string][3]any{
				"claimed":  {before.Claimed, after.Claimed, "8"},
				"accepted": {before.Accepted, after.Accepted, "0.3"},
				"realised": {before.Realised, after.Realised, "13.4"},
			} {
				was, now := dec(t, c[0].(interface{ String() string })), dec(t, c[1].(interface{ String() string }))
				if got := now.Sub(was); !got.Equal(decimal.RequireFromString(c[2].(string))) {
					t.Errorf("%s: %s grew by %s (%s), want %s", user, name, got, now, c[2])
				}
			}
		}
		if s := getSummary(t, ta, lead); s.SavingsYear != nil {
			t.Errorf("lead: savings %+v", s.SavingsYear)
		}
	})
}

// madeOn gives the rows of entity with keys above after the history's
// create row of a write made at when, as the engine writes it.
func madeOn(t *testing.T, d *db.DB, entity string, after int64, when time.Time) {
	t.Helper()
	exec(t, d, `INSERT INTO trackrecord (trackrecord_timestamp, trackrecord_type, trackrecord_category, trackrecord_row_id, trackrecord_changes)
		SELECT ?, 'create', ?, `+entity+`_id, '{}' FROM `+entity+` WHERE `+entity+`_id > ?`, when, entity, after)
}

// TestSavingsByTheDayTheClaimWasMade: a claim counts in the year it was
// made (its history's create row), whatever its statement's date; a
// result likewise; a row without history counts on its statement's date
// (decision 0069). Every year with savings is in savings_by_year, newest
// first, this year's always; on both databases.
func TestSavingsByTheDayTheClaimWasMade(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		year := platformclock.Now().UTC().Year()
		byYear := func(user string) map[int][3]decimal.Decimal {
			t.Helper()
			s := getSummary(t, ta, user)
			out := map[int][3]decimal.Decimal{}
			last := 1 << 30
			for _, y := range s.SavingsByYear {
				if y.Year >= last {
					t.Errorf("%s: years out of order: %d after %d", user, y.Year, last)
				}
				last = y.Year
				out[y.Year] = [3]decimal.Decimal{dec(t, y.Claimed), dec(t, y.Accepted), dec(t, y.Realised)}
			}
			this, ok := out[year]
			if !ok || s.SavingsYear == nil {
				t.Fatalf("%s: no savings of %d in %+v", user, year, s.SavingsByYear)
			}
			if !this[0].Equal(dec(t, s.SavingsYear.Claimed)) || !this[2].Equal(dec(t, s.SavingsYear.Realised)) {
				t.Errorf("%s: savings_year %+v differs from %d in savings_by_year %v", user, s.SavingsYear, year, this)
			}
			return out
		}
		before := byYear(admin)
		a := groupOf(t, d, lead)
		maxKey := func(entity string) int64 { return one(t, d, `SELECT COALESCE(MAX(`+entity+`_id), 0) FROM `+entity) }

		// Last year's statement, claimed and realised this year.
		points, results := maxKey("contradictionpoint"), maxKey("inspectionresult")
		invoiceWith(t, d, a, fmt.Sprintf("%d-11-20", year-1), []string{"40"}, []string{"30"}, [][2]any{{"7", 1}})
		thisYear := time.Date(year, 1, 2, 9, 30, 0, 0, time.UTC)
		madeOn(t, d, "contradictionpoint", points, thisYear)
		madeOn(t, d, "inspectionresult", results, thisYear)
		// This year's statement, claimed last year (a correction of an
		// earlier statement, say).
		points = maxKey("contradictionpoint")
		invoiceWith(t, d, a, fmt.Sprintf("%d-02-10", year), []string{"11"}, []string{""}, nil)
		madeOn(t, d, "contradictionpoint", points, time.Date(year-1, 6, 1, 12, 0, 0, 0, time.UTC))
		// A statement of two years ago without history: its date counts.
		invoiceWith(t, d, a, fmt.Sprintf("%d-05-05", year-2), []string{"5.5"}, []string{"5.5"}, nil)

		after := byYear(admin)
		for _, c := range []struct {
			year int
			want [3]string
		}{{year, [3]string{"40", "30", "7"}}, {year - 1, [3]string{"11", "0", "0"}}, {year - 2, [3]string{"5.5", "5.5", "0"}}} {
			for i, w := range c.want {
				if got := after[c.year][i].Sub(before[c.year][i]); !got.Equal(decimal.RequireFromString(w)) {
					t.Errorf("%d: figure %d grew by %s, want %s", c.year, i, got, w)
				}
			}
		}
		if s := getSummary(t, ta, lead); s.SavingsByYear != nil {
			t.Errorf("lead: savings by year %+v", s.SavingsByYear)
		}
	})
}

type ticketDashboard struct {
	Open   int64
	Boards []struct {
		BoardID int64 `json:"board_id"`
		Count   int64
		Columns []struct {
			ColumnxID int64 `json:"columnx_id"`
			Count     int64
		}
	}
	Statuses map[string]int64
	Teams    []struct {
		TeamID *int64 `json:"team_id"`
		Count  int64
	}
	Weeks []struct {
		From, To       string
		Opened, Closed int64
	}
}

// TestTicketDashboard: open tickets per board, column, status and team
// agree with the ticket lists the figures link to, inside the caller's
// tenant; closing a ticket moves it from the open figures into this
// week's closed bar.
func TestTicketDashboard(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		get := func(user string) ticketDashboard {
			r := ta.Do("GET", "/dashboard/tickets", ta.Token(user), nil)
			if r.Status != 200 {
				t.Fatalf("%s: %d %s", user, r.Status, r.Body)
			}
			var out ticketDashboard
			r.JSON(t, &out)
			return out
		}
		all, mine := get(admin), get(lead)
		if all.Open == 0 || mine.Open == 0 || mine.Open >= all.Open {
			t.Fatalf("open: admin %d, lead %d", all.Open, mine.Open)
		}
		for user, dash := range map[string]ticketDashboard{admin: all, lead: mine} {
			if want := ticketTotal(t, ta, user, "status=opened"); dash.Open != want {
				t.Errorf("%s: open %d, list %d", user, dash.Open, want)
			}
			var boards, columns, teams, statuses int64
			for _, b := range dash.Boards {
				boards += b.Count
				if want := ticketTotal(t, ta, user, fmt.Sprintf("status=opened&board_id=%d", b.BoardID)); b.Count != want {
					t.Errorf("%s: board %d: %d, list %d", user, b.BoardID, b.Count, want)
				}
				for _, c := range b.Columns {
					columns += c.Count
				}
			}
			for _, tm := range dash.Teams {
				teams += tm.Count
			}
			for _, s := range deadline.TicketStatuses {
				statuses += dash.Statuses[s]
				if want := ticketTotal(t, ta, user, "status=opened&deadline_status="+s); dash.Statuses[s] != want {
					t.Errorf("%s: %s: %d, list %d", user, s, dash.Statuses[s], want)
				}
			}
			if boards != dash.Open || columns != dash.Open || teams != dash.Open || statuses != dash.Open {
				t.Errorf("%s: open %d, boards %d, columns %d, teams %d, statuses %d", user, dash.Open, boards, columns, teams, statuses)
			}
			if len(dash.Weeks) != 12 || dash.Weeks[11].To < platformclock.Now().UTC().Format(time.DateOnly) {
				t.Errorf("%s: weeks %+v", user, dash.Weeks)
			}
		}
		// The administrator closes one of the lead's group's open tickets.
		before := get(leadB)
		var id, version int64
		if err := d.QueryRowContext(context.Background(), `SELECT t.ticket_id, t.row_version FROM ticket t JOIN pos p ON p.pos_id = t.pos_id
			JOIN company co ON co.company_id = p.company_id WHERE t.ticket_closed = 0 AND `+inGroup(groupOf(t, d, lead))+`
			ORDER BY t.ticket_id LIMIT 1`).Scan(&id, &version); err != nil {
			t.Fatal(err)
		}
		if r := ta.Do("PUT", "/tickets/update", ta.Token(admin), map[string]any{"ticket_id": id, "row_version": version, "ticket_closed": 1}); r.Status != 200 {
			t.Fatalf("close: %d %s", r.Status, r.Body)
		}
		now, other := get(lead), get(leadB)
		if now.Open != mine.Open-1 || now.Weeks[11].Closed != mine.Weeks[11].Closed+1 {
			t.Errorf("after closing: open %d (was %d), closed this week %d (was %d)", now.Open, mine.Open, now.Weeks[11].Closed, mine.Weeks[11].Closed)
		}
		if other.Weeks[11].Closed != before.Weeks[11].Closed || other.Open != before.Open {
			t.Errorf("lead.b sees the closing in another group: %+v, was %+v", other.Weeks[11], before.Weeks[11])
		}
		var opened int64
		for _, w := range get(admin).Weeks {
			opened += w.Opened
		}
		if want := one(t, d, `SELECT COUNT(*) FROM ticket WHERE ticket_creation_time >= ?`, weekStart(11)); opened != want {
			t.Errorf("opened in 12 weeks %d, want %d", opened, want)
		}
	})
}

// weekStart is the Monday weeksAgo weeks before this week's.
func weekStart(weeksAgo int) time.Time {
	today := deadline.Day(platformclock.Now().UTC())
	return today.AddDate(0, 0, -((int(today.Weekday())+6)%7)-7*weeksAgo)
}

type portfolioMap struct {
	Places []struct {
		Key      string
		Lat, Lon float64
		Count    int
		Status   string
		PosID    int64 `json:"pos_id"`
	}
	Placed      int
	Unplaced    int
	Attribution string
}

type mapPlace struct {
	Key    string
	Total  int
	Points []struct {
		PosID  int64 `json:"pos_id"`
		Name   string
		Status string
	}
}

// TestMap: the map places the caller's points of sale only, one marker
// per postal code area inside Europe, coloured by the worst of their
// contracts' next notice dates; a place lists exactly its points.
func TestMap(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		if err := seed.DemoDeadlines(context.Background(), d, platformclock.Now().UTC()); err != nil {
			t.Fatal(err)
		}
		for _, user := range []string{admin, lead} {
			r := ta.Do("GET", "/dashboard/map", ta.Token(user), nil)
			if r.Status != 200 {
				t.Fatalf("%s: %d %s", user, r.Status, r.Body)
			}
			var m portfolioMap
			r.JSON(t, &m)
			g := groupOf(t, d, user)
			want := one(t, d, `SELECT COUNT(*) FROM pos p JOIN company co ON co.company_id = p.company_id WHERE `+inGroup(g))
			if int64(m.Placed+m.Unplaced) != want || len(m.Places) == 0 || m.Attribution == "" {
				t.Errorf("%s: %d placed, %d unplaced, want %d in all", user, m.Placed, m.Unplaced, want)
			}
			red, placed := 0, 0
			for _, p := range m.Places {
				if p.Lat < 35 || p.Lat > 60 || p.Lon < -10 || p.Lon > 25 {
					t.Errorf("%s: place %s at %v,%v", user, p.Key, p.Lat, p.Lon)
				}
				placed += p.Count
				if (p.Count == 1) != (p.PosID != 0) {
					t.Errorf("%s: place %s of %d names pos %d", user, p.Key, p.Count, p.PosID)
				}
				var detail mapPlace
				dr := ta.Do("GET", "/dashboard/map/place?key="+url.QueryEscape(p.Key), ta.Token(user), nil)
				if dr.Status != 200 {
					t.Fatalf("%s: place %s: %d %s", user, p.Key, dr.Status, dr.Body)
				}
				dr.JSON(t, &detail)
				if detail.Total != p.Count || len(detail.Points) != p.Count {
					t.Errorf("%s: place %s lists %d of %d, the map says %d", user, p.Key, len(detail.Points), detail.Total, p.Count)
				}
				worst := ""
				for _, pt := range detail.Points {
					if g != 0 && one(t, d, `SELECT COUNT(*) FROM pos p JOIN company co ON co.company_id = p.company_id
						WHERE p.pos_id = ? AND `+inGroup(g), pt.PosID) != 1 {
						t.Errorf("%s sees pos %d of another group", user, pt.PosID)
					}
					worst = string(deadline.Worse(deadline.Light(worst), deadline.Light(pt.Status)))
				}
				if worst != p.Status {
					t.Errorf("%s: place %s is %q, its points' worst is %q", user, p.Key, p.Status, worst)
				}
				if p.Status == string(deadline.LightRed) {
					red++
				}
			}
			if placed != m.Placed {
				t.Errorf("%s: places hold %d points, placed says %d", user, placed, m.Placed)
			}
			if red == 0 {
				t.Errorf("%s: no red place although the demo deadlines fall within 30 days", user)
			}
		}
		if r := ta.Do("GET", "/dashboard/map/place?key=nonsense", ta.Token(admin), nil); r.Status != 422 {
			t.Errorf("a key without a postal code: %d %s", r.Status, r.Body)
		}
	})
}
