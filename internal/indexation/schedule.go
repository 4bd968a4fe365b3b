package indexation

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/shopspring/decimal"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/schema"
)

// maxScheduleMonths bounds a schedule's range (50 years).
const maxScheduleMonths = 600

// Due is one payment falling due.
type Due struct {
	RecurringpaymentID int64       `json:"recurringpayment_id"`
	Name               string      `json:"recurringpayment_name"`
	DueDate            string      `json:"due_date"`
	Amount             json.Number `json:"amount"`
}

// ScheduleMonth is one month of a schedule.
type ScheduleMonth struct {
	Month    string      `json:"month"`
	Payments []Due       `json:"payments"`
	Total    json.Number `json:"total"`
}

// ScheduleYear is a year's total.
type ScheduleYear struct {
	Year  int         `json:"year"`
	Total json.Number `json:"total"`
}

// Schedule is the answer of GET /contracts/{id}/schedule.
type Schedule struct {
	ContractID int64           `json:"contract_id"`
	From       string          `json:"from"`
	To         string          `json:"to"`
	Months     []ScheduleMonth `json:"months"`
	Years      []ScheduleYear  `json:"years"`
	Total      json.Number     `json:"total"`
}

func (h *handler) schedule(w http.ResponseWriter, r *http.Request) error {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	bad := func(field string) error {
		return apperr.Validation(apperr.FieldError{Loc: []any{"query", field}, Key: "server.indexation.month_range", Type: "value_error"})
	}
	from, err := ParseMonth(r.URL.Query().Get("from"))
	if err != nil {
		return bad("from")
	}
	to, err := ParseMonth(r.URL.Query().Get("to"))
	if err != nil || to < from || to-from >= maxScheduleMonths {
		return bad("to")
	}
	sch, err := h.s.Schedule(r.Context(), id, from, to)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, sch)
	return nil
}

// schedPayment is a payment as the schedule reads it.
type schedPayment struct {
	id                  int64
	name                string
	amount              decimal.NullDecimal
	begin, end          time.Time
	maturity            int64
	fixedDay            int
	dailyRange, monthly int
	steps               []step // approved adjustments by effective month
}

type step struct {
	from     Month
	old, new decimal.Decimal
}

// amountIn is the payment's monthly amount in month m: the new amount of
// the last approved adjustment effective by m, before the first one its
// old amount, without any the stored amount.
func (p *schedPayment) amountIn(m Month) decimal.Decimal {
	if len(p.steps) == 0 {
		return p.amount.Decimal
	}
	amount := p.steps[0].old
	for _, s := range p.steps {
		if s.from <= m {
			amount = s.new
		}
	}
	return amount
}

// Schedule is the due payments of contract id from month from to month
// to, with the amounts after approved adjustments (decision 0011: when a
// payment falls due).
func (s *Service) Schedule(ctx context.Context, id int64, from, to Month) (*Schedule, error) {
	if err := s.engine.MustSeeIn(ctx, s.db, entityContract, id); err != nil {
		return nil, err
	}
	if err := s.engine.Require(ctx, access.ActionRead, entityPayment); err != nil {
		return nil, err
	}
	pays, err := s.schedulePayments(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	out := &Schedule{ContractID: id, From: from.String(), To: to.String(), Months: []ScheduleMonth{}, Years: []ScheduleYear{}}
	years := map[int]decimal.Decimal{}
	total := decimal.Zero
	for m := from; m <= to; m++ {
		month := ScheduleMonth{Month: m.String(), Payments: []Due{}}
		sum := decimal.Zero
		for i := range pays {
			p := &pays[i]
			if !p.amount.Valid || MonthOf(p.begin) > m || (!p.end.IsZero() && MonthOf(p.end) < m) {
				continue
			}
			every, day := 1, 1
			switch p.maturity {
			case schema.MaturityFixedDate:
				day = p.fixedDay
			case schema.MaturityRanges:
				every, day = max(p.monthly, 1), max(p.dailyRange, 1)
			}
			if int(m-MonthOf(p.begin))%every != 0 {
				continue
			}
			amount := decimal.Zero
			for k := Month(0); k < Month(every); k++ {
				amount = amount.Add(p.amountIn(m + k))
			}
			first := m.First()
			last := first.AddDate(0, 1, -1).Day()
			due := time.Date(first.Year(), first.Month(), min(day, last), 0, 0, 0, 0, time.UTC)
			month.Payments = append(month.Payments, Due{RecurringpaymentID: p.id, Name: p.name, DueDate: due.Format(time.DateOnly),
				Amount: json.Number(amount.StringFixed(2))})
			sum = sum.Add(amount)
		}
		month.Total = json.Number(sum.StringFixed(2))
		out.Months = append(out.Months, month)
		years[m.Year()] = years[m.Year()].Add(sum)
		total = total.Add(sum)
	}
	keys := make([]int, 0, len(years))
	for y := range years {
		keys = append(keys, y)
	}
	sort.Ints(keys)
	for _, y := range keys {
		out.Years = append(out.Years, ScheduleYear{Year: y, Total: json.Number(years[y].StringFixed(2))})
	}
	out.Total = json.Number(total.StringFixed(2))
	return out, nil
}

// schedulePayments reads the contract's payments the caller sees with
// their approved adjustments.
func (s *Service) schedulePayments(ctx context.Context, q db.Querier, contract int64) ([]schedPayment, error) {
	p, err := s.engine.Scoped(ctx, entityPayment, "p")
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT p.recurringpayment_id, p.recurringpayment_name, p.recurringpayment_sum_per_month,
		p.recurringpayment_begin_date, p.recurringpayment_end_date, p.maturitytype_id, p.recurringpayment_maturity_date,
		p.recurringpayment_maturity_daily_range, p.recurringpayment_maturity_monthly_range
		FROM `+p.SQL+` WHERE p.contract_id = ? ORDER BY p.recurringpayment_id`, append(p.Args, contract)...)
	if err != nil {
		return nil, fmt.Errorf("indexation: read payments: %w", err)
	}
	var out []schedPayment
	for rows.Next() {
		var x schedPayment
		var begin, end, fixed any
		var daily, monthly *int64
		if err := rows.Scan(&x.id, &x.name, &x.amount, &begin, &end, &x.maturity, &fixed, &daily, &monthly); err != nil {
			rows.Close()
			return nil, fmt.Errorf("indexation: read payments: %w", err)
		}
		if x.begin, err = dateOf(begin); err != nil {
			rows.Close()
			return nil, err
		}
		if end != nil {
			if x.end, err = dateOf(end); err != nil {
				rows.Close()
				return nil, err
			}
		}
		x.fixedDay = 1
		if fixed != nil {
			if d, err := dateOf(fixed); err == nil {
				x.fixedDay = d.Day()
			}
		}
		if daily != nil {
			x.dailyRange = int(*daily)
		}
		if monthly != nil {
			x.monthly = int(*monthly)
		}
		out = append(out, x)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return out, nil
	}
	a, err := s.engine.Scoped(ctx, entityAdjustment, "a")
	if err != nil {
		return nil, err
	}
	byID := map[int64]*schedPayment{}
	for i := range out {
		byID[out[i].id] = &out[i]
	}
	rows, err = q.QueryContext(ctx, `SELECT a.recurringpayment_id, a.indexadjustment_effective_date, a.indexadjustment_old_amount,
		a.indexadjustment_new_amount FROM `+a.SQL+` WHERE a.recurringpayment_id BETWEEN ? AND ? AND a.indexadjustment_status = ?
		ORDER BY a.indexadjustment_effective_date`, append(a.Args, out[0].id, out[len(out)-1].id, StatusApproved)...)
	if err != nil {
		return nil, fmt.Errorf("indexation: read adjustments: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var pay int64
		var eff any
		var st step
		if err := rows.Scan(&pay, &eff, &st.old, &st.new); err != nil {
			return nil, fmt.Errorf("indexation: read adjustments: %w", err)
		}
		d, err := dateOf(eff)
		if err != nil {
			return nil, err
		}
		st.from = MonthOf(d)
		if p, ok := byID[pay]; ok {
			p.steps = append(p.steps, st)
		}
	}
	return out, rows.Err()
}
