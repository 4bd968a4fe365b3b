package contracts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// Entities and fields of deadlines.
const (
	entityDeadline = "contractaction"
	entityContract = "contract"
	fieldNotice    = "contractaction_notice_date"
	fieldStatus    = "contractaction_status"
	fieldEnd       = "contract_end_date"
	// fieldResponsible is who answers for a deadline and gets its alerts.
	fieldResponsible = "contractaction_responsible_user_id"
)

// Deadline statuses (docs/decisions/0008-notice-dates.md).
const (
	StatusActive    = "active"
	StatusInactive  = "unactive"
	StatusCancelled = "cancelled"
	StatusPulled    = "pulled"
	StatusStopped   = "stopped"
)

// registerHooks adds the contract rules to every write of deadlines and
// contracts, generic or not.
func (s *Service) registerHooks() {
	s.engine.OnWrite(entityDeadline, tables.HookFunc(s.beforeDeadlineWrite))
	s.engine.OnWrite(entityContract, tables.HookFunc(s.beforeContractWrite))
	s.engine.OnLink(relContractCriteria, checkCriteriaLink)
}

// beforeDeadlineWrite checks a status change and computes the deadline's
// notice date from what is about to be stored.
func (s *Service) beforeDeadlineWrite(ctx context.Context, w *tables.WriteContext) error {
	if err := checkTransition(ctx, w); err != nil {
		return err
	}
	contract, _ := w.Record["contract_id"].(int64)
	end, err := s.contractEnd(ctx, w.Tx, contract)
	if err != nil {
		return err
	}
	notice, err := NoticeDate(deadlineOf(w.Record, end), s.now())
	if err != nil {
		return noticeError(err)
	}
	w.Values[fieldNotice] = dateValue(notice.Date)
	if p, ok := auth.PrincipalFrom(ctx); ok && w.Creating && w.Record[fieldResponsible] == nil {
		w.Values[fieldResponsible] = p.UserID // who creates a deadline answers for it
	}
	return nil
}

// beforeContractWrite recomputes the notice dates of a contract's
// deadlines when its end date changes: the options count from it.
func (s *Service) beforeContractWrite(ctx context.Context, w *tables.WriteContext) error {
	if w.Creating {
		return nil
	}
	if _, changed := w.Values[fieldEnd]; !changed {
		return nil
	}
	end, err := dateOf(w.Record[fieldEnd])
	if err != nil {
		return err
	}
	return s.recomputeContract(ctx, w.Tx, w.ID, end)
}

// recomputeContract stores the notice dates of every deadline of contract
// as its end date end makes them.
func (s *Service) recomputeContract(ctx context.Context, tx *db.Tx, contract int64, end *time.Time) error {
	rows, err := s.deadlineRows(ctx, tx, "d.contract_id = ? ORDER BY d.contractaction_id", contract)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if err := s.storeNotice(ctx, tx, r.id, deadlineOf(r.rec, end)); err != nil {
			return err
		}
	}
	return nil
}

// storeNotice computes and stores the notice date of deadline id; a
// deadline whose own values cannot give one (stored before these rules)
// keeps no date.
func (s *Service) storeNotice(ctx context.Context, tx *db.Tx, id int64, dl Deadline) error {
	notice, err := NoticeDate(dl, s.now())
	if err != nil {
		notice = Notice{}
	}
	_, err = s.engine.DeriveIn(ctx, tx, entityDeadline, id, validate.Record{fieldNotice: dateValue(notice.Date)})
	return err
}

// deadlineRow is a stored deadline with the values its notice date needs
// and the notice date stored.
type deadlineRow struct {
	id     int64
	rec    validate.Record
	end    *time.Time
	notice *time.Time
}

// deadlineRows reads the caller's deadlines matching where (the WHERE
// clause on alias d, the contract aliased c, with what follows it: ORDER
// BY, LIMIT) with the values their notice dates need.
func (s *Service) deadlineRows(ctx context.Context, q db.Querier, where string, args ...any) ([]deadlineRow, error) {
	src, err := s.engine.Scoped(ctx, entityDeadline, "d")
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT d.contractaction_id, d.contractaction_type, d.contractaction_resiliation_date,
			d.contractaction_options_count, d.contractaction_extension_value, d.contractaction_extension_unit,
			d.contractaction_notice_period_value, d.contractaction_notice_period_unit, c.contract_end_date,
			d.contractaction_notice_date
		FROM `+src.SQL+` JOIN contract c ON c.contract_id = d.contract_id WHERE `+where,
		append(src.Args, args...)...)
	if err != nil {
		return nil, fmt.Errorf("contracts: read deadlines: %w", err)
	}
	defer rows.Close()
	var out []deadlineRow
	for rows.Next() {
		var id int64
		var typ, extUnit, noticeUnit sql.NullString
		var resiliation, end, notice any
		var count, extValue, noticeValue sql.NullInt64
		if err := rows.Scan(&id, &typ, &resiliation, &count, &extValue, &extUnit, &noticeValue, &noticeUnit, &end, &notice); err != nil {
			return nil, fmt.Errorf("contracts: read deadlines: %w", err)
		}
		r := deadlineRow{id: id, rec: validate.Record{
			"contractaction_type": typ.String, "contractaction_extension_unit": extUnit.String,
			"contractaction_notice_period_unit": noticeUnit.String,
		}}
		if d, err := dateOf(resiliation); err == nil && d != nil {
			r.rec["contractaction_resiliation_date"] = d.Format(time.DateOnly)
		}
		if count.Valid {
			r.rec["contractaction_options_count"] = count.Int64
		}
		r.rec["contractaction_extension_value"], r.rec["contractaction_notice_period_value"] = extValue.Int64, noticeValue.Int64
		if r.end, err = dateOf(end); err != nil {
			return nil, err
		}
		if r.notice, err = dateOf(notice); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// contractEnd reads the end date of a contract the caller sees (nil: none,
// or no such contract: the reference check answers that).
func (s *Service) contractEnd(ctx context.Context, q db.Querier, contract int64) (*time.Time, error) {
	src, err := s.engine.Scoped(ctx, entityContract, "c")
	if err != nil {
		return nil, err
	}
	var end any
	err = q.QueryRowContext(ctx, `SELECT c.contract_end_date FROM `+src.SQL+` WHERE c.contract_id = ?`,
		append(src.Args, contract)...).Scan(&end)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("contracts: end of contract %d: %w", contract, err)
	}
	return dateOf(end)
}

// deadlineOf reads a deadline's record (canonical values) and its
// contract's end date end.
func deadlineOf(rec validate.Record, end *time.Time) Deadline {
	str := func(k string) string { v, _ := rec[k].(string); return v }
	num := func(k string) int { v, _ := rec[k].(int64); return int(v) }
	dl := Deadline{
		Type:        str("contractaction_type"),
		Extension:   Period{Value: num("contractaction_extension_value"), Unit: str("contractaction_extension_unit")},
		Notice:      Period{Value: num("contractaction_notice_period_value"), Unit: str("contractaction_notice_period_unit")},
		ContractEnd: end,
	}
	if d, err := dateOf(rec["contractaction_resiliation_date"]); err == nil {
		dl.ResiliationDate = d
	}
	if v, ok := rec["contractaction_options_count"].(int64); ok {
		n := int(v)
		dl.OptionsCount = &n
	}
	return dl
}

// dateOf reads a stored or canonical date (text "YYYY-MM-DD…" or a
// time.Time); nil for an empty one.
func dateOf(v any) (*time.Time, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case time.Time:
		d := Day(x)
		return &d, nil
	case []byte:
		return dateOf(string(x))
	case string:
		if x == "" {
			return nil, nil
		}
		if len(x) > 10 {
			x = x[:10]
		}
		d, err := time.Parse(time.DateOnly, x)
		if err != nil {
			return nil, fmt.Errorf("contracts: date %q: %w", x, err)
		}
		return &d, nil
	}
	return nil, fmt.Errorf("contracts: date of type %T", v)
}

// dateValue is d as the engine stores dates ("YYYY-MM-DD"), nil for none.
func dateValue(d *time.Time) any {
	if d == nil {
		return nil
	}
	return d.Format(time.DateOnly)
}

// noticeError turns what NoticeDate refuses into the field error of the
// value that is missing (422).
func noticeError(err error) error {
	field, key, typ := "contractaction_notice_period_unit", "validation.required", "missing"
	switch {
	case errors.Is(err, ErrResiliationDate):
		field = "contractaction_resiliation_date"
	case errors.Is(err, ErrExtension):
		field = "contractaction_extension_unit"
	case errors.Is(err, ErrOptionsCount):
		field, key, typ = "contractaction_options_count", "validation.min_value", "value_error"
	case errors.Is(err, ErrDeadlineType):
		field = "contractaction_type"
	case !errors.Is(err, ErrNoticePeriod):
		return err
	}
	return apperr.Validation(apperr.FieldError{Field: field, Key: key, Type: typ,
		Args: map[string]string{"field": field, "min": "1"}})
}

// transitions are the status changes anyone who may update a deadline may
// make; every other change (reopening a cancelled, pulled or stopped
// deadline) is an administrator's correction.
var transitions = map[string][]string{
	StatusActive:   {StatusInactive, StatusCancelled, StatusPulled, StatusStopped},
	StatusInactive: {StatusActive, StatusCancelled},
}

// optionOnly are the statuses only option deadlines reach: an option is
// pulled (exercised); resiliations and extensions are stopped.
var optionOnly = map[string]bool{StatusPulled: true}

// checkTransition refuses a status change the lifecycle does not allow
// (422 on contractaction_status).
func checkTransition(ctx context.Context, w *tables.WriteContext) error {
	to, _ := w.Record[fieldStatus].(string)
	typ, _ := w.Record["contractaction_type"].(string)
	refuse := func() error {
		return apperr.Validation(apperr.FieldError{Field: fieldStatus, Key: "server.contracts.status_change", Type: "value_error",
			Args: map[string]string{"field": fieldStatus}})
	}
	if optionOnly[to] && typ != TypeActiveOption && typ != TypeAutomaticOption {
		return refuse()
	}
	if w.Creating {
		if to != StatusActive && to != StatusInactive && to != "" {
			return refuse()
		}
		return nil
	}
	from, _ := w.Stored[fieldStatus].(string)
	if from == to || from == "" {
		return nil
	}
	for _, allowed := range transitions[from] {
		if allowed == to {
			return nil
		}
	}
	if p, ok := auth.PrincipalFrom(ctx); ok && p.IsAdmin() {
		return nil
	}
	return refuse()
}

// sameDate reports whether two optional dates are the same day.
func sameDate(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}
