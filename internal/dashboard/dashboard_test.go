package dashboard_test

import (
	"context"
	"encoding/json"
	"fmt"
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

const (
	admin    = "admin@demo.test"
	teamLead = "team_lead@demo.test"
	lead     = "lead@demo.test"
	leadB    = "lead.b@demo.test"
)

type summary struct {
	PosCount        *int64       `json:"pos_count"`
	ContractCount   *int64       `json:"contract_count"`
	RentalSpace     *json.Number `json:"rental_space"`
	Deadlines90Days *struct {
		Red, Yellow, Green, Overdue int64
	} `json:"deadlines_90_days"`
	Statements90Days *struct {
		Red, Yellow, Green, Overdue int64
	} `json:"statement_deadlines_90_days"`
	DeadlineWindows struct {
		Red, Yellow, Green *[2]string
	} `json:"deadline_windows"`
	TicketsOpen *struct {
		BeforeDeadline int64 `json:"before_deadline"`
		CriticalYellow int64 `json:"critical_yellow"`
		OverDueRed     int64 `json:"over_due_red"`
	} `json:"tickets_open"`
	IndexProposalsOpen *int64 `json:"index_proposals_open"`
	SavingsYear        *struct {
		Claimed, Accepted, Realised *json.Number
	} `json:"savings_year"`
	SavingsByYear []struct {
		Year                        int
		Claimed, Accepted, Realised *json.Number
	} `json:"savings_by_year"`
}

// groupOf is the customer group of an external demo user (0: internal).
func groupOf(t *testing.T, d *db.DB, email string) int64 {
	t.Helper()
	var g *int64
	if err := d.QueryRowContext(context.Background(), `SELECT customergroup_id FROM users WHERE user_email = ?`, email).Scan(&g); err != nil {
		t.Fatal(err)
	}
	if g == nil {
		return 0
	}
	return *g
}

// inGroup is the condition "the company co belongs to group g" (0: any).
func inGroup(g int64) string {
	if g == 0 {
		return "1 = 1"
	}
	return fmt.Sprintf("co.customergroup_id = %d", g)
}

func one(t *testing.T, d *db.DB, query string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := d.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func dateOf(t *testing.T, v any) time.Time {
	t.Helper()
	switch x := v.(type) {
	case time.Time:
		return x
	case string:
		d, err := time.Parse(time.DateOnly, x[:10])
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	t.Fatalf("date %T", v)
	return time.Time{}
}

// overdue counts, beside the lights, the active deadlines whose date passed.
const overdue deadline.Light = "overdue"

// expected computes the figures of group g (0: everything) straight from
// the tables, by another way than the module: rows read and decided in Go.
func expected(t *testing.T, d *db.DB, g int64) (pos, contracts int64, space decimal.Decimal, lights map[deadline.Light]int64, proposals int64) {
	t.Helper()
	ctx := context.Background()
	pos = one(t, d, `SELECT COUNT(*) FROM pos p JOIN company co ON co.company_id = p.company_id WHERE `+inGroup(g))
	contracts = one(t, d, `SELECT COUNT(*) FROM contract c JOIN company co ON co.company_id = c.company_id WHERE `+inGroup(g))
	today := deadline.Day(platformclock.Now().UTC())
	rows, err := d.QueryContext(ctx, `SELECT ca.rentalspace_value, ca.valid_from, ca.valid_to FROM contract_area ca
		JOIN contract c ON c.contract_id = ca.contract_id JOIN company co ON co.company_id = c.company_id WHERE `+inGroup(g))
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var v decimal.NullDecimal
		var from, to any
		if err := rows.Scan(&v, &from, &to); err != nil {
			t.Fatal(err)
		}
		if (from != nil && dateOf(t, from).After(today)) || (to != nil && dateOf(t, to).Before(today)) || !v.Valid {
			continue
		}
		space = space.Add(v.Decimal)
	}
	rows.Close()
	lights = map[deadline.Light]int64{}
	rows, err = d.QueryContext(ctx, `SELECT d.contractaction_notice_date, d.contractaction_expired FROM contractaction d
		JOIN contract c ON c.contract_id = d.contract_id JOIN company co ON co.company_id = c.company_id
		WHERE d.contractaction_status = 'active' AND d.contractaction_notice_date IS NOT NULL AND `+inGroup(g))
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var v any
		var expired int64
		if err := rows.Scan(&v, &expired); err != nil {
			t.Fatal(err)
		}
		n := dateOf(t, v)
		if expired == 1 || n.After(today.AddDate(0, 0, 90)) {
			continue
		}
		if n.Before(today) {
			lights[overdue]++
			continue
		}
		lights[deadline.DefaultThresholds.LightOf(n, today)]++
	}
	rows.Close()
	proposals = one(t, d, `SELECT COUNT(*) FROM indexadjustment a JOIN recurringpayment rp ON rp.recurringpayment_id = a.recurringpayment_id
		JOIN contract c ON c.contract_id = rp.contract_id JOIN company co ON co.company_id = c.company_id
		WHERE a.indexadjustment_status = 'proposed' AND `+inGroup(g))
	return pos, contracts, space, lights, proposals
}

func getSummary(t *testing.T, ta *apptest.TestApp, user string) summary {
	t.Helper()
	r := ta.Do("GET", "/dashboard/summary", ta.Token(user), nil)
	if r.Status != 200 {
		t.Fatalf("%s: %d %s", user, r.Status, r.Body)
	}
	var s summary
	r.JSON(t, &s)
	return s
}

// ticketTotal is the total of the ticket list the dashboard links to.
func ticketTotal(t *testing.T, ta *apptest.TestApp, user, query string) int64 {
	t.Helper()
	r := ta.Do("GET", "/tickets?per_page=1&"+query, ta.Token(user), nil)
	if r.Status != 200 {
		t.Fatalf("%s %s: %d %s", user, query, r.Status, r.Body)
	}
	var out struct {
		Links struct{ Pagination struct{ Total int64 } }
	}
	r.JSON(t, &out)
	return out.Links.Pagination.Total
}

// TestSummary: the home's figures inside the caller's tenant and rights,
// on both databases: the administrator counts everything, the external
// leads of two customer groups only their own group, and each figure
// matches the rows counted another way (and the ticket list it links to).
func TestSummary(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		if err := seed.DemoDeadlines(ctx, d, platformclock.Now().UTC()); err != nil {
			t.Fatal(err)
		}
		proposals(t, d, map[string]int{lead: 2})
		var all summary
		for _, user := range []string{admin, lead, leadB} {
			g := groupOf(t, d, user)
			s := getSummary(t, ta, user)
			if user == admin {
				all = s
			}
			pos, contracts, space, lights, proposals := expected(t, d, g)
			if s.PosCount == nil || *s.PosCount != pos || s.ContractCount == nil || *s.ContractCount != contracts {
				t.Errorf("%s: pos %v contracts %v, want %d %d", user, s.PosCount, s.ContractCount, pos, contracts)
			}
			if s.RentalSpace == nil || !decimal.RequireFromString(s.RentalSpace.String()).Equal(space) {
				t.Errorf("%s: rental space %v, want %s", user, s.RentalSpace, space)
			}
			if s.Deadlines90Days == nil || s.Deadlines90Days.Red != lights[deadline.LightRed] || s.Deadlines90Days.Overdue != lights[overdue] ||
				s.Deadlines90Days.Yellow != lights[deadline.LightYellow] || s.Deadlines90Days.Green != lights[deadline.LightGreen] {
				t.Errorf("%s: deadlines %+v, want %v", user, s.Deadlines90Days, lights)
			}
			if s.IndexProposalsOpen != nil && *s.IndexProposalsOpen != proposals {
				t.Errorf("%s: proposals %d, want %d", user, *s.IndexProposalsOpen, proposals)
			}
			if s.TicketsOpen == nil {
				t.Fatalf("%s: no ticket figures", user)
			}
			for status, n := range map[string]int64{deadline.BeforeDeadline: s.TicketsOpen.BeforeDeadline,
				deadline.CriticalYellow: s.TicketsOpen.CriticalYellow, deadline.OverDueRed: s.TicketsOpen.OverDueRed} {
				if want := ticketTotal(t, ta, user, "status=opened&deadline_status="+status); n != want {
					t.Errorf("%s: %s tickets %d, the list has %d", user, status, n, want)
				}
				// The generic list the home links to filters on the derived status.
				if want := genericCount(t, ta, user, "ticket", []map[string]any{{"field": "ticket_closed", "op": "eq", "value": 0},
					{"field": "ticket_deadline_status", "op": "eq", "value": status}}); n != want {
					t.Errorf("%s: %s tickets %d, the generic list has %d", user, status, n, want)
				}
			}
		}
		if all.IndexProposalsOpen == nil || *all.IndexProposalsOpen < 2 {
			t.Errorf("admin: proposals %v", all.IndexProposalsOpen)
		}
		// The demo deadlines put red and yellow notice dates into both groups.
		sa, sb := getSummary(t, ta, lead), getSummary(t, ta, leadB)
		if sa.Deadlines90Days.Red == 0 || sb.Deadlines90Days.Red == 0 || sa.Deadlines90Days.Yellow == 0 ||
			all.Deadlines90Days.Red != sa.Deadlines90Days.Red+sb.Deadlines90Days.Red {
			t.Errorf("deadlines admin %+v, lead %+v, lead.b %+v", all.Deadlines90Days, sa.Deadlines90Days, sb.Deadlines90Days)
		}
		if *sa.PosCount >= *all.PosCount || *sa.PosCount+*sb.PosCount != *all.PosCount {
			t.Errorf("pos admin %d, lead %d, lead.b %d", *all.PosCount, *sa.PosCount, *sb.PosCount)
		}
		// External leads may not read invoices: no savings figure at all.
		if sa.SavingsYear != nil {
			t.Errorf("lead sees savings %+v", sa.SavingsYear)
		}
		if w := sa.DeadlineWindows; w.Red == nil || w.Yellow == nil || w.Green != nil {
			t.Errorf("windows %+v", w)
		}
	})
}

// proposals writes n proposed index adjustments (and one approved, which
// does not count) on a payment of each external user's group.
func proposals(t *testing.T, d *db.DB, n map[string]int) {
	t.Helper()
	if _, err := d.ExecContext(context.Background(), `INSERT INTO indexclause (indexclause_name, indexclause_adjustment_rule,
		indexclause_description, indexclause_baseyear, indexclause_begin_date, indextransmission_percent, priceindex_id)
		VALUES ('VPI', '5 %', 'Rent follows the VPI', 2020, '2021-01-01', 100, (SELECT MIN(priceindex_id) FROM priceindex))`); err != nil {
		t.Fatal(err)
	}
	clause := one(t, d, `SELECT MAX(indexclause_id) FROM indexclause`)
	for user, k := range n {
		contract := one(t, d, `SELECT MIN(c.contract_id) FROM contract c JOIN company co ON co.company_id = c.company_id WHERE `+
			inGroup(groupOf(t, d, user)))
		if _, err := d.ExecContext(context.Background(), `INSERT INTO recurringpayment (recurringpayment_name, contract_id, taxrate_id,
			recurringpaymenttype_id, sachkonto_id, recurringpayment_begin_date, recurringpayment_end_date, maturitytype_id,
			recurringpayment_sum_per_month, recurringpayment_value_deposit, indexclause_id)
			VALUES ('Rent', ?, (SELECT MIN(taxrate_id) FROM taxrate), (SELECT MIN(recurringpaymenttype_id) FROM recurringpaymenttype),
			(SELECT MIN(sachkonto_id) FROM sachkonto), '2021-01-01', '2031-12-31', (SELECT MIN(maturitytype_id) FROM maturitytype), 1000, 1, ?)`,
			contract, clause); err != nil {
			t.Fatal(err)
		}
		payment := one(t, d, `SELECT MAX(recurringpayment_id) FROM recurringpayment`)
		for i := 0; i <= k; i++ {
			status := "proposed"
			if i == k {
				status = "approved"
			}
			if _, err := d.ExecContext(context.Background(), `INSERT INTO indexadjustment (recurringpayment_id, indexclause_id,
				indexadjustment_reference_month, indexadjustment_current_month, indexadjustment_reference_value, indexadjustment_current_value,
				indexadjustment_change_points, indexadjustment_change_percent, indexadjustment_old_amount, indexadjustment_new_amount,
				indexadjustment_effective_date, indexadjustment_status) VALUES (?, ?, ?, '2026-01', 100, 110, 10, 10, 1000, 1100, '2026-03-01', ?)`,
				payment, clause, fmt.Sprintf("2020-%02d", i+1), status); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// genericCount is the number of rows the generic list answers for filter.
func genericCount(t *testing.T, ta *apptest.TestApp, user, entity string, filter []map[string]any) int64 {
	t.Helper()
	r := ta.Do("POST", "/api/", ta.Token(user), map[string]any{"action": "read-rich", "entity": entity, "filter": filter,
		"columns": []string{entity + "_id"}})
	if r.Status != 200 {
		t.Fatalf("%s list %s: %d %s", user, entity, r.Status, r.Body)
	}
	var out struct {
		Data struct{ Data []json.RawMessage }
	}
	r.JSON(t, &out)
	return int64(len(out.Data.Data))
}

// TestStatementDeadlineLights: the home counts the statements whose
// objection deadline comes within 90 days by the deadline lights (decision
// 0062), within the caller's tenant, and not at all for a caller who may
// not read invoices; on both databases.
func TestStatementDeadlineLights(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		today := platformclock.Today()
		set := func(group int64, days int) {
			t.Helper()
			if _, err := d.ExecContext(ctx, `UPDATE invoice SET invoice_objection_deadline = ? WHERE invoice_id = (
				SELECT MIN(i.invoice_id) FROM invoice i JOIN company c ON c.company_id = i.company_id
				WHERE c.customergroup_id = ? AND i.invoice_objection_deadline IS NULL)`, today.AddDate(0, 0, days).Format(time.DateOnly), group); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := d.ExecContext(ctx, `UPDATE invoice SET invoice_objection_deadline = NULL`); err != nil {
			t.Fatal(err)
		}
		set(1, 0)   // today: red
		set(1, 10)  // red
		set(2, 60)  // yellow
		set(2, 200) // beyond the 90 days
		set(2, -1)  // passed yesterday
		s := getSummary(t, ta, teamLead)
		if s.Statements90Days == nil || s.Statements90Days.Red != 2 || s.Statements90Days.Yellow != 1 || s.Statements90Days.Green != 0 ||
			s.Statements90Days.Overdue != 1 {
			t.Errorf("team lead: statements %+v, want 2 red, 1 yellow, 1 overdue", s.Statements90Days)
		}
		// Another right set: lead.b reads the invoices of group 2 only.
		if _, err := d.ExecContext(ctx, `INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
			SELECT u.user_id, g.tablegroup_id, 0, 1, 0, 0 FROM users u, tablegroup g WHERE u.user_email = ?
			AND NOT EXISTS (SELECT 1 FROM user_tablegroup x WHERE x.user_id = u.user_id AND x.tablegroup_id = g.tablegroup_id)`, leadB); err != nil {
			t.Fatal(err)
		}
		if s := getSummary(t, ta, leadB); s.Statements90Days == nil || s.Statements90Days.Red != 0 || s.Statements90Days.Yellow != 1 {
			t.Errorf("lead.b: statements %+v, want only group 2's yellow one", s.Statements90Days)
		}
		if s := getSummary(t, ta, lead); s.Statements90Days != nil {
			t.Errorf("an external lead without invoice rights: statements %+v, want none", s.Statements90Days)
		}
	})
}
