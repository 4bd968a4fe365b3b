package invoices

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/deadline"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// The deadlines of a service-charge statement (decision 0062): the
// tenant's objection deadline, counted from the day the statement was
// received, and the landlord's settlement deadline, counted from the end
// of the billing period. Both periods are the contract's
// (contract_objection_months, contract_settlement_months), twelve months
// each when it agrees none, as § 556 Abs. 3 BGB words them.

// Fields of the statement deadlines.
const (
	fieldReceived         = "invoice_received_date"
	fieldPeriodTo         = "invoice_billing_period_to"
	fieldObjection        = "invoice_objection_deadline"
	fieldSettlement       = "invoice_settlement_deadline"
	fieldObjectionMonths  = "contract_objection_months"
	fieldSettlementMonths = "contract_settlement_months"
)

// StatutoryMonths is the period of both deadlines when the contract agrees
// none (§ 556 Abs. 3 Satz 2 and 5 BGB).
const StatutoryMonths = 12

// ObjectionDeadline is the last day an objection to a statement received
// on received may reach the landlord, months months later: the day of the
// last month with received's number, or that month's last day when it
// has none (§§ 187 (1), 188 (2), (3) BGB). Courts differ on whether § 556
// (3) S. 5 BGB ("bis zum Ablauf des zwölften Monats nach Zugang") runs to
// the day (LG Berlin, 25 Oct 2016, 63 S 35/16) or to that month's end (LG
// Frankfurt (Oder), 20 Nov 2012, 16 S 47/12): the earlier reading is the
// one a tenant can rely on. No shift to the next working day either.
func ObjectionDeadline(received time.Time, months int) time.Time {
	first := time.Date(received.Year(), received.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, months, 0)
	day := min(received.Day(), daysIn(first))
	return time.Date(first.Year(), first.Month(), day, 0, 0, 0, 0, time.UTC)
}

// SettlementDeadline is the last day the landlord's statement of a billing
// period ending on periodEnd may reach the tenant: the end of the months-th
// month after the period's end ("bis zum Ablauf des zwölften Monats nach
// Ende des Abrechnungszeitraums", § 556 (3) S. 2 BGB). For a period ending
// mid-month the month's end is the later of the readings, the one that
// does not call a landlord late too early.
func SettlementDeadline(periodEnd time.Time, months int) time.Time {
	first := time.Date(periodEnd.Year(), periodEnd.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, months, 0)
	return time.Date(first.Year(), first.Month(), daysIn(first), 0, 0, 0, 0, time.UTC)
}

// daysIn is the number of days of d's month.
func daysIn(d time.Time) int {
	return time.Date(d.Year(), d.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// periods are a contract's agreed periods in months (0: none agreed).
type periods struct{ objection, settlement int }

// months is p's period of kind, the statutory one when none is agreed, and
// whether it was agreed.
func (p periods) months(kind string) (int, bool) {
	n := p.settlement
	if kind == kindObjection {
		n = p.objection
	}
	if n <= 0 {
		return StatutoryMonths, false
	}
	return n, true
}

// statementDeadlines are the deadline fields of an invoice received on
// received whose billing period ends on periodEnd (nil: not known).
func statementDeadlines(received, periodEnd *time.Time, p periods) validate.Record {
	out := validate.Record{fieldObjection: nil, fieldSettlement: nil}
	if received != nil {
		n, _ := p.months(kindObjection)
		out[fieldObjection] = ObjectionDeadline(*received, n).Format(time.DateOnly)
	}
	if periodEnd != nil {
		n, _ := p.months(kindSettlement)
		out[fieldSettlement] = SettlementDeadline(*periodEnd, n).Format(time.DateOnly)
	}
	return out
}

// deadlineHook keeps an invoice's deadlines and those of a contract's
// invoices current.
type deadlineHook struct{ s *Service }

// BeforeWrite of an invoice derives its deadlines when what they follow
// from is written.
func (h deadlineHook) BeforeWrite(ctx context.Context, w *tables.WriteContext) error {
	if !w.Creating && !changes(w, fieldReceived, fieldPeriodTo, "contract_id") {
		return nil
	}
	contract, _ := w.Record["contract_id"].(int64)
	p, err := h.s.contractPeriods(ctx, w.Tx, contract)
	if err != nil {
		return err
	}
	received, err := dateField(w.Record, fieldReceived)
	if err != nil {
		return err
	}
	end, err := dateField(w.Record, fieldPeriodTo)
	if err != nil {
		return err
	}
	for k, v := range statementDeadlines(received, end, p) {
		w.Values[k] = v
	}
	return nil
}

// contractHook recomputes the deadlines of a contract's invoices when its
// agreed periods change.
type contractHook struct{ s *Service }

func (h contractHook) BeforeWrite(ctx context.Context, w *tables.WriteContext) error {
	if w.Creating || !changes(w, fieldObjectionMonths, fieldSettlementMonths) {
		return nil
	}
	p := periods{objection: intField(w.Record, fieldObjectionMonths), settlement: intField(w.Record, fieldSettlementMonths)}
	w.Later(func(ctx context.Context) error { return h.s.recomputeContract(ctx, w.Tx, w.ID, p) })
	return nil
}

// changes reports whether the write changes one of fields.
func changes(w *tables.WriteContext, fields ...string) bool {
	for _, f := range fields {
		if _, ok := w.Values[f]; ok {
			return true
		}
	}
	return false
}

// contractPeriods reads the agreed periods of a contract the caller sees
// (none for no contract, or one the caller cannot see: the reference check
// refuses that write).
func (s *Service) contractPeriods(ctx context.Context, q db.Querier, contract int64) (periods, error) {
	if contract == 0 {
		return periods{}, nil
	}
	src, err := s.engine.Scoped(ctx, entityContract, "c")
	if err != nil {
		return periods{}, err
	}
	var objection, settlement sql.NullInt64
	err = q.QueryRowContext(ctx, `SELECT c.contract_objection_months, c.contract_settlement_months FROM `+src.SQL+`
		WHERE c.contract_id = ?`, append(src.Args, contract)...).Scan(&objection, &settlement)
	if errors.Is(err, sql.ErrNoRows) {
		return periods{}, nil
	}
	if err != nil {
		return periods{}, fmt.Errorf("invoices: periods of contract %d: %w", contract, err)
	}
	return periods{objection: int(objection.Int64), settlement: int(settlement.Int64)}, nil
}

// recomputeContract stores the deadlines of contract's invoices as its
// periods p make them: all of them, read as the system, as they are
// derived values of the contract the caller was allowed to change (a
// caller whose scope leaves out some of its invoices would leave those
// stale).
func (s *Service) recomputeContract(ctx context.Context, tx *db.Tx, contract int64, p periods) error {
	ctx = tables.AsSystem(ctx)
	src, err := s.engine.Scoped(ctx, entityInvoice, "i")
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT i.invoice_id, i.invoice_received_date, i.invoice_billing_period_to FROM `+src.SQL+`
		WHERE i.contract_id = ? ORDER BY i.invoice_id`, append(src.Args, contract)...)
	if err != nil {
		return fmt.Errorf("invoices: invoices of contract %d: %w", contract, err)
	}
	type dated struct {
		id            int64
		received, end *time.Time
	}
	var all []dated
	for rows.Next() {
		var d dated
		var received, end any
		if err := rows.Scan(&d.id, &received, &end); err != nil {
			rows.Close()
			return fmt.Errorf("invoices: invoices of contract %d: %w", contract, err)
		}
		if d.received, err = optionalDate(received); err == nil {
			d.end, err = optionalDate(end)
		}
		if err != nil {
			rows.Close()
			return fmt.Errorf("invoices: invoice %d: %w", d.id, err)
		}
		all = append(all, d)
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("invoices: invoices of contract %d: %w", contract, err)
	}
	for _, d := range all {
		if _, err := s.engine.DeriveIn(ctx, tx, entityInvoice, d.id, statementDeadlines(d.received, d.end, p)); err != nil {
			return err
		}
	}
	return nil
}

// dateField reads a date field of a record (nil when empty).
func dateField(rec validate.Record, field string) (*time.Time, error) {
	d, err := optionalDate(rec[field])
	if err != nil {
		return nil, fmt.Errorf("invoices: %s: %w", field, err)
	}
	return d, nil
}

// optionalDate is dateOf with nil for no date.
func optionalDate(v any) (*time.Time, error) {
	d, err := dateOf(v)
	if err != nil || d.IsZero() {
		return nil, err
	}
	return &d, nil
}

// intField reads an integer field of a record (0 when empty).
func intField(rec validate.Record, field string) int {
	switch v := rec[field].(type) {
	case int64:
		return int(v)
	case float64:
		return int(v)
	}
	return 0
}

// Kinds of statement deadline.
const (
	kindObjection  = "objection"
	kindSettlement = "settlement"
)

// StatementDeadline is one deadline of a statement as the invoice page
// shows it: its date, what it is counted from, the period, whether the
// contract agreed it, whether it has passed, and all of that in words in
// the reader's language.
type StatementDeadline struct {
	Kind        string `json:"kind"`
	Date        string `json:"date"`
	From        string `json:"from"`
	Months      int    `json:"months"`
	Agreed      bool   `json:"agreed"`
	Passed      bool   `json:"passed"`
	Explanation string `json:"explanation"`
}

// explainDeadlines are the statement deadlines of an invoice record (its
// stored fields) under periods p, as of today, in lang.
func (s *Service) explainDeadlines(lang string, rec validate.Record, p periods) ([]StatementDeadline, error) {
	var out []StatementDeadline
	for _, k := range []struct{ kind, from, field string }{
		{kindObjection, fieldReceived, fieldObjection}, {kindSettlement, fieldPeriodTo, fieldSettlement},
	} {
		from, err := dateField(rec, k.from)
		if err != nil {
			return nil, err
		}
		date, err := dateField(rec, k.field)
		if err != nil {
			return nil, err
		}
		if from == nil || date == nil {
			continue
		}
		months, agreed := p.months(k.kind)
		out = append(out, StatementDeadline{Kind: k.kind, Date: date.Format(time.DateOnly), From: from.Format(time.DateOnly),
			Months: months, Agreed: agreed, Passed: date.Before(deadline.Day(s.now())),
			Explanation: s.explainDeadline(lang, k.kind, *date, *from, months, agreed)})
	}
	return out, nil
}

// explainDeadline says one deadline in lang: "Objections by 15 March 2026:
// 12 months after receipt on 15 March 2025 (§ 556 (3) BGB)".
func (s *Service) explainDeadline(lang, kind string, date, from time.Time, months int, agreed bool) string {
	if !i18n.Supported(lang) {
		lang = i18n.Default
	}
	basis := "invoice.deadline.basis.statute"
	if agreed {
		basis = "invoice.deadline.basis.agreed"
	}
	form := "other"
	if months == 1 {
		form = "one"
	}
	return s.catalog.T(lang, "invoice.deadline."+kind, map[string]string{
		"date": s.catalog.LongDate(lang, date), "from": s.catalog.LongDate(lang, from),
		"period": s.catalog.T(lang, "deadline.period.month."+form, map[string]string{"n": strconv.Itoa(months)}),
		"basis":  s.catalog.T(lang, basis, nil),
	})
}
