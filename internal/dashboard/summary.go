package dashboard

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/shopspring/decimal"

	"portfolio/internal/db"
	"portfolio/internal/platform/deadline"
	"portfolio/internal/platform/savings"
)

// Summary is the dashboard home's figures (GET /dashboard/summary). A
// figure the caller may not read (no read right on what it counts) is
// null. Windows give the date bounds of each deadline light, so a figure
// links to exactly the rows it counts.
type Summary struct {
	PosCount        *int64       `json:"pos_count"`
	ContractCount   *int64       `json:"contract_count"`
	RentalSpace     *json.Number `json:"rental_space"`
	Deadlines90Days *LightCounts `json:"deadlines_90_days"`
	// Statements90Days counts the service-charge statements whose
	// objection deadline lies in the same windows (decision 0062).
	Statements90Days   *LightCounts    `json:"statement_deadlines_90_days"`
	DeadlineWindows    DeadlineWindows `json:"deadline_windows"`
	TicketsOpen        *TicketCounts   `json:"tickets_open"`
	IndexProposalsOpen *int64          `json:"index_proposals_open"`
	// SavingsYear is this year's savings; SavingsByYear every year's
	// that has any, newest first, this year's always among them (the
	// card offers the year as a choice). Both null without the read
	// right on invoices.
	SavingsYear   *Savings  `json:"savings_year"`
	SavingsByYear []Savings `json:"savings_by_year"`
	Year          int       `json:"year"`
	Today         string    `json:"today"`
}

// LightCounts counts active deadlines by traffic light within the 90
// days, and those whose date passed (Overdue: nobody closed them).
type LightCounts struct {
	Red     int64 `json:"red"`
	Yellow  int64 `json:"yellow"`
	Green   int64 `json:"green"`
	Overdue int64 `json:"overdue"`
}

// DeadlineWindows are the first and last notice day ([from, to], dates)
// of each light within the 90 days; a light that cannot occur in the
// window (green while the yellow threshold reaches past 90 days) is null.
type DeadlineWindows struct {
	Red    *[2]string `json:"red"`
	Yellow *[2]string `json:"yellow"`
	Green  *[2]string `json:"green"`
}

// TicketCounts counts open tickets by deadline status.
type TicketCounts struct {
	BeforeDeadline int64 `json:"before_deadline"`
	CriticalYellow int64 `json:"critical_yellow"`
	OverDueRed     int64 `json:"over_due_red"`
}

// Savings are one year's sums of the invoice review: what the claims
// made in it claimed and what the landlords accepted of them, and the
// value of the inspection results recorded in it as realised (each
// counted on the day it was made: savings.MadeSQL, decision 0069). Each
// is null when the caller may not read what it sums.
type Savings struct {
	Year     int          `json:"year"`
	Claimed  *json.Number `json:"claimed"`
	Accepted *json.Number `json:"accepted"`
	Realised *json.Number `json:"realised"`
	From     string       `json:"from"`
	To       string       `json:"to"`
}

// Summary computes the home's figures for the caller of ctx.
func (s *Service) Summary(ctx context.Context) (*Summary, error) {
	now := s.now().UTC()
	today := deadline.Day(now)
	out := &Summary{Year: today.Year(), Today: today.Format(time.DateOnly)}
	out.DeadlineWindows = s.windows(today)
	steps := []struct {
		name string
		run  func(context.Context, time.Time, *Summary) error
	}{
		{"size", s.portfolioSize}, {"deadlines", s.deadlines}, {"statements", s.statementDeadlines}, {"tickets", s.openTickets},
		{"proposals", s.proposals}, {"savings", s.savings},
	}
	for _, step := range steps {
		began := time.Now()
		if err := step.run(ctx, now, out); err != nil {
			return nil, err
		}
		s.log.DebugContext(ctx, "dashboard summary", "step", step.name, "took", time.Since(began))
	}
	return out, nil
}

// count runs a COUNT(*) statement.
func (s *Service) count(ctx context.Context, query string, args ...any) (int64, error) {
	var n int64
	if err := s.db.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("dashboard: count: %w", err)
	}
	return n, nil
}

// portfolioSize counts points of sale and contracts and sums the rental
// space of the contracts' area links valid today.
func (s *Service) portfolioSize(ctx context.Context, now time.Time, out *Summary) error {
	if ok, err := s.mayRead(ctx, entityPos); err != nil {
		return err
	} else if ok {
		from, args, err := s.scoped(ctx, entityPos, "p")
		if err != nil {
			return err
		}
		n, err := s.count(ctx, `SELECT COUNT(*) FROM `+from[0], args...)
		if err != nil {
			return err
		}
		out.PosCount = &n
	}
	ok, err := s.mayRead(ctx, entityContract)
	if err != nil || !ok {
		return err
	}
	from, args, err := s.scoped(ctx, entityContract, "c")
	if err != nil {
		return err
	}
	n, err := s.count(ctx, `SELECT COUNT(*) FROM `+from[0], args...)
	if err != nil {
		return err
	}
	out.ContractCount = &n
	space, err := s.rentalSpace(ctx, from[0], args, out.Today)
	if err != nil {
		return err
	}
	out.RentalSpace = &space
	return nil
}

// rentalSpace sums rentalspace_value over the area links valid on today of
// the caller's contracts (as GET /contracts/{id} sums one contract's).
// The column is NUMERIC(18,4), which SQLite stores as REAL: a SQL SUM of
// the values would add binary fractions. Each value is therefore turned
// back into its exact count of ten-thousandths (ROUND(v * 10000): exact
// for every value of scale 4 below 10^11) and those integers are summed,
// exactly, in SQL on both databases; Go divides by 10,000 as a decimal.
// Summing in the database keeps the 180,000 links of a 100,000-point
// portfolio off the wire (decision 0019). The links are scanned in full
// and matched to the caller's contracts by key ("+ca.contract_id" keeps
// SQLite from probing the link index once per contract, which is ten
// times slower; PostgreSQL ignores the unary plus).
func (s *Service) rentalSpace(ctx context.Context, contracts string, args []any, today string) (json.Number, error) {
	var sum sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT SUM(CAST(ROUND(ca.rentalspace_value * 10000) AS BIGINT)) FROM contract_area ca
		WHERE +ca.contract_id IN (SELECT c.contract_id FROM `+contracts+`)
		AND ca.rentalspace_value IS NOT NULL AND (ca.valid_from IS NULL OR ca.valid_from <= ?)
		AND (ca.valid_to IS NULL OR ca.valid_to >= ?)`, append(append([]any{}, args...), today, today)...).Scan(&sum)
	if err != nil {
		return "", fmt.Errorf("dashboard: rental space: %w", err)
	}
	if !sum.Valid {
		return "0", nil
	}
	units, err := decimal.NewFromString(sum.String)
	if err != nil {
		return "", fmt.Errorf("dashboard: rental space %q: %w", sum.String, err)
	}
	return json.Number(units.Shift(-4).String()), nil
}

// windows are the date bounds of each light within the 90 days, from
// deadline.Thresholds.LastDays.
func (s *Service) windows(today time.Time) DeadlineWindows {
	red, yellow := s.lights.LastDays(today)
	end := today.AddDate(0, 0, horizonDays)
	span := func(from, to time.Time) *[2]string {
		if to.After(end) {
			to = end
		}
		if from.After(to) {
			return nil
		}
		return &[2]string{from.Format(time.DateOnly), to.Format(time.DateOnly)}
	}
	return DeadlineWindows{
		Red:    span(today, red),
		Yellow: span(red.AddDate(0, 0, 1), yellow),
		Green:  span(yellow.AddDate(0, 0, 1), end),
	}
}

// deadlines counts the active deadlines whose notice date lies in the next
// 90 days (today included) by traffic light.
func (s *Service) deadlines(ctx context.Context, now time.Time, out *Summary) error {
	// A used-up deadline watches nothing: its passed date is not overdue.
	c, err := s.lightCounts(ctx, now, entityDeadline, "d.contractaction_notice_date",
		"d.contractaction_status = 'active' AND d.contractaction_expired = 0")
	out.Deadlines90Days = c
	return err
}

// statementDeadlines counts the statements whose objection deadline lies
// in the next 90 days by the same lights.
func (s *Service) statementDeadlines(ctx context.Context, now time.Time, out *Summary) error {
	c, err := s.lightCounts(ctx, now, entityInvoice, "d.invoice_objection_deadline", "")
	out.Statements90Days = c
	return err
}

// lightCounts counts the rows of entity (aliased d) meeting where (if
// any) whose date column lies in the next 90 days (today included) by
// traffic light, and those whose date passed; nil when the caller may not
// read entity.
func (s *Service) lightCounts(ctx context.Context, now time.Time, entity, date, where string) (*LightCounts, error) {
	ok, err := s.mayRead(ctx, entity)
	if err != nil || !ok {
		return nil, err
	}
	from, args, err := s.scoped(ctx, entity, "d")
	if err != nil {
		return nil, err
	}
	if where != "" {
		where += " AND "
	}
	today := deadline.Day(now)
	red, yellow := s.lights.LastDays(today)
	day := func(t time.Time) string { return t.Format(time.DateOnly) }
	// The light bounds stand in the select list, before the FROM item's
	// arguments; the window after them.
	args = append(append([]any{day(today), day(today), day(red), day(red), day(yellow), day(yellow)}, args...),
		day(today.AddDate(0, 0, horizonDays)))
	c := &LightCounts{}
	err = s.db.QueryRowContext(ctx, `SELECT
		COUNT(CASE WHEN `+date+` < ? THEN 1 END),
		COUNT(CASE WHEN `+date+` >= ? AND `+date+` <= ? THEN 1 END),
		COUNT(CASE WHEN `+date+` > ? AND `+date+` <= ? THEN 1 END),
		COUNT(CASE WHEN `+date+` > ? THEN 1 END)
		FROM `+from[0]+` WHERE `+where+date+` <= ?`, args...).Scan(&c.Overdue, &c.Red, &c.Yellow, &c.Green)
	if err != nil {
		return nil, fmt.Errorf("dashboard: %s by light: %w", entity, err)
	}
	return c, nil
}

// openTickets counts the open tickets by deadline status.
func (s *Service) openTickets(ctx context.Context, now time.Time, out *Summary) error {
	ok, err := s.mayRead(ctx, entityTicket)
	if err != nil || !ok {
		return err
	}
	status, sargs := deadline.TicketStatusSQL("t.ticket_yellow_deadline", "t.ticket_red_deadline", "", now)
	from, args, err := s.scoped(ctx, entityTicket, "t")
	if err != nil {
		return err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT x.s, COUNT(*) FROM (SELECT `+status+` AS s FROM `+from[0]+`
		WHERE t.ticket_closed = 0) x GROUP BY x.s`, append(sargs, args...)...)
	if err != nil {
		return fmt.Errorf("dashboard: open tickets: %w", err)
	}
	defer rows.Close()
	c := &TicketCounts{}
	for rows.Next() {
		var st string
		var n int64
		if err := rows.Scan(&st, &n); err != nil {
			return fmt.Errorf("dashboard: open tickets: %w", err)
		}
		switch st {
		case deadline.BeforeDeadline:
			c.BeforeDeadline = n
		case deadline.CriticalYellow:
			c.CriticalYellow = n
		case deadline.OverDueRed:
			c.OverDueRed = n
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("dashboard: open tickets: %w", err)
	}
	out.TicketsOpen = c
	return nil
}

// proposals counts the index adjustments waiting for a decision.
func (s *Service) proposals(ctx context.Context, _ time.Time, out *Summary) error {
	ok, err := s.mayRead(ctx, entityAdjustment)
	if err != nil || !ok {
		return err
	}
	from, args, err := s.scoped(ctx, entityAdjustment, "a")
	if err != nil {
		return err
	}
	n, err := s.count(ctx, `SELECT COUNT(*) FROM `+from[0]+` WHERE a.indexadjustment_status = 'proposed'`, args...)
	if err != nil {
		return err
	}
	out.IndexProposalsOpen = &n
	return nil
}

// savings sums the invoice review's savings of every year that has any,
// each claim and result in the year it was made (savings.MadeSQL,
// decision 0069), as exact decimals: the claims and accepted amounts of
// the contradiction points, the values of the realised inspection
// results. This year's stands in the list even when it has none, and on
// its own as SavingsYear.
func (s *Service) savings(ctx context.Context, now time.Time, out *Summary) error {
	okInvoice, err := s.mayRead(ctx, entityInvoice)
	if err != nil || !okInvoice {
		return err
	}
	okPoints, err := s.mayReadAll(ctx, entityPoint, entityObjection)
	if err != nil {
		return err
	}
	okResults, err := s.mayRead(ctx, entityResult)
	if err != nil {
		return err
	}
	years := map[int]*[3]decimal.Decimal{now.Year(): {}}
	d := s.db.Dialect()
	if okPoints {
		from, args, err := s.scoped(ctx, entityPoint, "p", entityObjection, "o", entityInvoice, "i")
		if err != nil {
			return err
		}
		err = s.yearSums(ctx, years, 0, `SELECT `+db.DateText(d, savings.MadeSQL(savings.Point, "p", "i"))+`,
			p.contradictionpoint_claim, p.contradictionpoint_accepted FROM `+from[0]+`
			JOIN `+from[1]+` ON o.contradiction_id = p.contradiction_id
			JOIN `+from[2]+` ON i.invoice_id = o.invoice_id
			WHERE p.contradictionpoint_claim IS NOT NULL OR p.contradictionpoint_accepted IS NOT NULL`, args...)
		if err != nil {
			return err
		}
	}
	if okResults {
		from, args, err := s.scoped(ctx, entityResult, "r", entityInvoice, "i")
		if err != nil {
			return err
		}
		err = s.yearSums(ctx, years, 2, `SELECT `+db.DateText(d, savings.MadeSQL(savings.Result, "r", "i"))+`,
			r.inspectionresult_value FROM `+from[0]+`
			JOIN `+from[1]+` ON i.invoice_id = r.invoice_id
			WHERE r.inspectionresult_realised = 1`, args...)
		if err != nil {
			return err
		}
	}
	order := make([]int, 0, len(years))
	for y := range years {
		order = append(order, y)
	}
	slices.Sort(order)
	slices.Reverse(order)
	out.SavingsByYear = make([]Savings, 0, len(order))
	for _, y := range order {
		sums := years[y]
		sv := Savings{Year: y, From: fmt.Sprintf("%04d-01-01", y), To: fmt.Sprintf("%04d-12-31", y)}
		number := func(i int) *json.Number {
			n := json.Number(sums[i].String())
			return &n
		}
		if okPoints {
			sv.Claimed, sv.Accepted = number(0), number(1)
		}
		if okResults {
			sv.Realised = number(2)
		}
		out.SavingsByYear = append(out.SavingsByYear, sv)
		if y == now.Year() {
			this := sv
			out.SavingsYear = &this
		}
	}
	return nil
}

// yearSums streams the rows of query, each a day (text beginning with
// the year, or a time) and decimal columns, and adds each column exactly
// to the sums of the day's year, from index first on (NULL adds nothing).
func (s *Service) yearSums(ctx context.Context, years map[int]*[3]decimal.Decimal, first int, query string, args ...any) error {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("dashboard: savings: %w", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return fmt.Errorf("dashboard: savings: %w", err)
	}
	var day any
	vals := make([]decimal.NullDecimal, len(cols)-1)
	ptrs := []any{&day}
	for i := range vals {
		ptrs = append(ptrs, &vals[i])
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return fmt.Errorf("dashboard: savings: %w", err)
		}
		y := savings.YearOf(day)
		if y == 0 {
			continue
		}
		sums := years[y]
		if sums == nil {
			sums = &[3]decimal.Decimal{}
			years[y] = sums
		}
		for i, v := range vals {
			if v.Valid {
				sums[first+i] = sums[first+i].Add(v.Decimal)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("dashboard: savings: %w", err)
	}
	return nil
}
