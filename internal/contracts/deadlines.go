package contracts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/platform/holidays"
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
	// What the server derives with the notice date (decision 0008).
	fieldEffective = "contractaction_effective_date"
	fieldUses      = "contractaction_uses"
	fieldExpired   = "contractaction_expired"
	fieldExercised = "contractaction_options_exercised"
	fieldExercDate = "contractaction_exercised_date"
	fieldRule      = "contractaction_notice_rule"
	fieldTo        = "contractaction_notice_to"
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
	s.engine.OnDelete(entityDeadline, s.afterDeadlineDelete)
	s.engine.OnLink(relContractCriteria, checkCriteriaLink)
}

// beforeDeadlineWrite checks a status change and computes the deadline's
// notice date, and what derives with it, from what is about to be stored.
func (s *Service) beforeDeadlineWrite(ctx context.Context, w *tables.WriteContext) error {
	if err := checkTransition(ctx, w); err != nil {
		return err
	}
	contract, _ := w.Record["contract_id"].(int64)
	end, state, err := s.contractFacts(ctx, w.Tx, contract)
	if err != nil {
		return err
	}
	dl := deadlineOf(w.Record, end, calendarOf(w.Record, state))
	notice, err := NoticeDate(dl, s.now())
	if err != nil {
		return noticeError(err)
	}
	if err := checkExercise(w.Record, dl, s.now()); err != nil {
		return err
	}
	for k, v := range derivedValues(notice) {
		w.Values[k] = v
	}
	if exercisedAll(dl, notice) && w.Record[fieldStatus] == StatusActive {
		w.Values[fieldStatus] = StatusPulled // nothing is left to watch: closed as exercised
	}
	s.laterCurrentEnd(w, dl, notice, end)
	if p, ok := auth.PrincipalFrom(ctx); ok && w.Creating && w.Record[fieldResponsible] == nil {
		w.Values[fieldResponsible] = p.UserID // who creates a deadline answers for it
	}
	return nil
}

// laterCurrentEnd queues, after the deadline is stored, the current end
// of its contract when the end the deadline reached changes (an option
// exercised or undone, a deadline cancelled, moved to another contract or
// created with uses already made); dl and n are the deadline and its
// notice as they will be stored, end its contract's agreed end.
func (s *Service) laterCurrentEnd(w *tables.WriteContext, dl Deadline, n Notice, end *time.Time) {
	contract, _ := w.Record["contract_id"].(int64)
	var reached *time.Time
	if status, _ := w.Record[fieldStatus].(string); countsForEnd(status) {
		reached = ReachedEnd(dl, n)
	}
	var contracts []int64
	switch old, _ := w.Stored["contract_id"].(int64); {
	case w.Creating:
		if reached != nil {
			contracts = []int64{contract}
		}
	case old != contract:
		contracts = []int64{old, contract}
	case !sameDay(reached, deadlineReached(w.Stored, end)):
		contracts = []int64{contract}
	}
	if len(contracts) == 0 || contract == 0 {
		return
	}
	w.Later(func(ctx context.Context) error {
		_, err := s.refreshCurrentEnds(ctx, w.Tx, contracts)
		return err
	})
}

// derivedValues are the stored fields a computed notice gives.
func derivedValues(n Notice) validate.Record {
	expired := int64(0)
	if n.Expired {
		expired = 1
	}
	return validate.Record{fieldNotice: dateValue(n.Date), fieldEffective: dateValue(n.End), fieldUses: int64(n.Uses), fieldExpired: expired}
}

// exercisedAll reports whether every option of an active option was
// exercised.
func exercisedAll(dl Deadline, n Notice) bool {
	return dl.Type == TypeActiveOption && n.Expired && dl.OptionsCount != nil && dl.Exercised >= *dl.OptionsCount
}

// checkExercise refuses an exercised option without the date its
// declaration reached the other party, or with a date after that option's
// notice date (a late declaration exercises nothing: the chain had ended)
// or after today (422 on contractaction_exercised_date).
func checkExercise(rec validate.Record, dl Deadline, today time.Time) error {
	if dl.Type != TypeActiveOption || dl.Exercised == 0 || dl.ContractEnd == nil {
		return nil
	}
	on, err := dateOf(rec[fieldExercDate])
	if err != nil {
		return err
	}
	if on == nil {
		return apperr.Validation(apperr.FieldError{Field: fieldExercDate, Key: "validation.required", Type: "missing",
			Args: map[string]string{"field": fieldExercDate}})
	}
	by, _ := OptionNotice(dl, dl.Exercised-1)
	if on.After(by) || on.After(Day(today)) {
		return apperr.Validation(apperr.FieldError{Field: fieldExercDate, Key: "server.contracts.exercised_late", Type: "value_error",
			Args: map[string]string{"field": fieldExercDate, "date": by.Format(time.DateOnly)}})
	}
	return nil
}

// beforeContractWrite recomputes the notice dates of a contract's
// deadlines when its end date changes (the options count from it), and
// the contract's current end with them; a new contract, without
// deadlines yet, runs to its agreed end.
func (s *Service) beforeContractWrite(ctx context.Context, w *tables.WriteContext) error {
	if _, changed := w.Values[fieldEnd]; !changed && !w.Creating {
		return nil
	}
	end, err := dateOf(w.Record[fieldEnd])
	if err != nil {
		return err
	}
	var reached []*time.Time
	if !w.Creating {
		_, state, err := s.contractFacts(ctx, w.Tx, w.ID)
		if err != nil {
			return err
		}
		if reached, err = s.recomputeContract(ctx, w.Tx, w.ID, end, state); err != nil {
			return err
		}
	}
	current := CurrentEnd(end, reached...)
	if stored, err := dateOf(w.Stored[fieldCurrentEnd]); err != nil || w.Creating || !sameDay(stored, current) {
		w.Values[fieldCurrentEnd], w.Record[fieldCurrentEnd] = dateValue(current), dateValue(current)
	}
	return nil
}

// recomputeContract stores the notice dates of every deadline of contract
// as its end date end makes them (state: its location's state), and
// answers the ends they reached (ReachedEnd).
func (s *Service) recomputeContract(ctx context.Context, tx *db.Tx, contract int64, end *time.Time, state string) ([]*time.Time, error) {
	rows, err := s.deadlineRows(ctx, tx, "d.contract_id = ? ORDER BY d.contractaction_id", contract)
	if err != nil {
		return nil, err
	}
	reached := make([]*time.Time, 0, len(rows))
	for _, r := range rows {
		r.end = end
		n, err := s.storeNotice(ctx, tx, r.id, deadlineOf(r.rec, end, calendarOf(r.rec, state)))
		if err != nil {
			return nil, err
		}
		reached = append(reached, reachedOf(r, n))
	}
	return reached, nil
}

// storeNotice computes and stores the notice date of deadline id, and
// answers it; a deadline whose own values cannot give one (stored before
// these rules) keeps no date.
func (s *Service) storeNotice(ctx context.Context, tx *db.Tx, id int64, dl Deadline) (Notice, error) {
	notice, err := NoticeDate(dl, s.now())
	if err != nil {
		notice = Notice{}
	}
	_, err = s.engine.DeriveIn(ctx, tx, entityDeadline, id, derivedValues(notice))
	return notice, err
}

// deadlineRow is a stored deadline with the values its notice date needs
// and the values derived from them as stored.
type deadlineRow struct {
	id       int64
	contract int64
	rec      validate.Record
	end      *time.Time
	location int64
	stored   validate.Record // derivedValues as stored
	// current is the contract's current end as stored.
	current *time.Time
}

// deadlineRows reads the caller's deadlines matching where (the WHERE
// clause on alias d, the contract aliased c, with what follows it: ORDER
// BY, LIMIT) with the values their notice dates need.
func (s *Service) deadlineRows(ctx context.Context, q db.Querier, where string, args ...any) ([]deadlineRow, error) {
	src, err := s.engine.Scoped(ctx, entityDeadline, "d")
	if err != nil {
		return nil, err
	}
	// Dates are read as their text: the SQLite driver would parse a DATE
	// column into a time.Time trying several layouts, a third of the
	// nightly recomputation's reading time; parseDay reads "YYYY-MM-DD".
	rows, err := q.QueryContext(ctx, `SELECT d.contractaction_id, d.contractaction_type, CAST(d.contractaction_resiliation_date AS TEXT),
			d.contractaction_options_count, d.contractaction_extension_value, d.contractaction_extension_unit,
			d.contractaction_notice_period_value, d.contractaction_notice_period_unit, d.contractaction_notice_rule,
			d.contractaction_notice_to, d.contractaction_options_exercised, CAST(c.contract_end_date AS TEXT), c.location_id,
			CAST(d.contractaction_notice_date AS TEXT), CAST(d.contractaction_effective_date AS TEXT), d.contractaction_uses,
			d.contractaction_expired, d.contract_id, d.contractaction_status, CAST(c.contract_current_end_date AS TEXT)
		FROM `+src.SQL+` JOIN contract c ON c.contract_id = d.contract_id WHERE `+where,
		append(src.Args, args...)...)
	if err != nil {
		return nil, fmt.Errorf("contracts: read deadlines: %w", err)
	}
	defer rows.Close()
	var out []deadlineRow
	for rows.Next() {
		r, err := scanDeadline(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// scanDeadline reads one row of deadlineRows.
func scanDeadline(rows *sql.Rows) (deadlineRow, error) {
	var id, contract int64
	var typ, extUnit, noticeUnit, rule, to, status sql.NullString
	var resiliation, end, notice, effective, current any
	var count, extValue, noticeValue, exercised, location, uses, expired sql.NullInt64
	if err := rows.Scan(&id, &typ, &resiliation, &count, &extValue, &extUnit, &noticeValue, &noticeUnit, &rule, &to,
		&exercised, &end, &location, &notice, &effective, &uses, &expired, &contract, &status, &current); err != nil {
		return deadlineRow{}, fmt.Errorf("contracts: read deadlines: %w", err)
	}
	// Sized for every value it takes: a map grown on the way costs the
	// nightly recomputation as much as the rules it computes.
	r := deadlineRow{id: id, contract: contract, location: location.Int64, rec: make(validate.Record, 12)}
	r.rec["contractaction_type"], r.rec["contractaction_extension_unit"] = typ.String, extUnit.String
	r.rec["contractaction_notice_period_unit"], r.rec[fieldRule], r.rec[fieldTo] = noticeUnit.String, rule.String, to.String
	r.rec[fieldExercised], r.rec[fieldStatus] = exercised.Int64, status.String
	if d, err := dateOf(resiliation); err == nil && d != nil {
		r.rec["contractaction_resiliation_date"] = d.Format(time.DateOnly)
	}
	if count.Valid {
		r.rec["contractaction_options_count"] = count.Int64
	}
	r.rec["contractaction_extension_value"], r.rec["contractaction_notice_period_value"] = extValue.Int64, noticeValue.Int64
	var err error
	if r.end, err = dateOf(end); err != nil {
		return r, err
	}
	if r.current, err = dateOf(current); err != nil {
		return r, err
	}
	n, err := dateOf(notice)
	if err != nil {
		return r, err
	}
	e, err := dateOf(effective)
	if err != nil {
		return r, err
	}
	r.stored = validate.Record{fieldNotice: dateValue(n), fieldEffective: dateValue(e), fieldUses: uses.Int64, fieldExpired: expired.Int64}
	return r, nil
}

// sameDerived reports whether the derived values a and b are the same.
func sameDerived(a, b validate.Record) bool {
	for _, k := range []string{fieldNotice, fieldEffective, fieldUses, fieldExpired} {
		if a[k] != b[k] {
			return false
		}
	}
	return true
}

// contractFacts reads the end date of a contract the caller sees and the
// state of its location (nil and "": none, or no such contract: the
// reference check answers that). The state counts only for locations in
// Germany, whose holidays the working days of § 580a BGB exclude.
func (s *Service) contractFacts(ctx context.Context, q db.Querier, contract int64) (*time.Time, string, error) {
	src, err := s.engine.Scoped(ctx, entityContract, "c")
	if err != nil {
		return nil, "", err
	}
	var end any
	var state sql.NullString
	err = q.QueryRowContext(ctx, `SELECT c.contract_end_date, `+stateOfLocation+` FROM `+src.SQL+`
		WHERE c.contract_id = ?`, append(src.Args, contract)...).Scan(&end, &state)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("contracts: end of contract %d: %w", contract, err)
	}
	d, err := dateOf(end)
	return d, state.String, err
}

// stateOfLocation is the state of the location of contract c (a German
// one; NULL otherwise), read through its address and city.
const stateOfLocation = `(SELECT ci.state FROM location l JOIN address a ON a.address_id = l.address_id
	JOIN city ci ON ci.city_id = a.city_id JOIN country co ON co.country_id = ci.country_id
	WHERE l.location_id = c.location_id AND co.country_short = 'DE')`

// statesOf reads the states of locations (stateOfLocation) in one
// statement: the nightly recomputation needs them only for the deadlines
// that count working days.
func (s *Service) statesOf(ctx context.Context, q db.Querier, locations []int64) (map[int64]string, error) {
	out := map[int64]string{}
	if len(locations) == 0 {
		return out, nil
	}
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(locations)), ", ")
	args := make([]any, len(locations))
	for i, l := range locations {
		args[i] = l
	}
	rows, err := q.QueryContext(ctx, `SELECT l.location_id, ci.state FROM location l JOIN address a ON a.address_id = l.address_id
		JOIN city ci ON ci.city_id = a.city_id JOIN country co ON co.country_id = ci.country_id
		WHERE co.country_short = 'DE' AND l.location_id IN (`+marks+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("contracts: states of locations: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var state string
		if err := rows.Scan(&id, &state); err != nil {
			return nil, fmt.Errorf("contracts: states of locations: %w", err)
		}
		out[id] = state
	}
	return out, rows.Err()
}

// calendarOf is the working-day calendar a deadline needs: its location's
// state's for § 580a, none for the calendar rule.
func calendarOf(rec validate.Record, state string) Workdays {
	if rec[fieldRule] != Rule580a {
		return nil
	}
	return holidays.NewCalendar(state)
}

// deadlineOf reads a deadline's record (canonical values), its contract's
// end date end and the working days of its location.
func deadlineOf(rec validate.Record, end *time.Time, w Workdays) Deadline {
	str := func(k string) string { v, _ := rec[k].(string); return v }
	num := func(k string) int { v, _ := rec[k].(int64); return int(v) }
	dl := Deadline{
		Type:        str("contractaction_type"),
		Extension:   Period{Value: num("contractaction_extension_value"), Unit: str("contractaction_extension_unit")},
		Notice:      Period{Value: num("contractaction_notice_period_value"), Unit: str("contractaction_notice_period_unit")},
		Rule:        str(fieldRule),
		To:          str(fieldTo),
		Exercised:   num(fieldExercised),
		Workdays:    w,
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
		if d, ok := parseDay(x); ok {
			return &d, nil
		}
		d, err := time.Parse(time.DateOnly, x)
		if err != nil {
			return nil, fmt.Errorf("contracts: date %q: %w", x, err)
		}
		return &d, nil
	}
	return nil, fmt.Errorf("contracts: date of type %T", v)
}

// parseDay reads a valid date written "YYYY-MM-DD" without the general
// layout parser (the nightly recomputation reads 300,000 rows of five
// dates); ok is false for anything else, which time.Parse then judges.
func parseDay(s string) (time.Time, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return time.Time{}, false
	}
	n := [3]int{}
	for i, part := range [3]string{s[:4], s[5:7], s[8:]} {
		for _, c := range []byte(part) {
			if c < '0' || c > '9' {
				return time.Time{}, false
			}
			n[i] = n[i]*10 + int(c-'0')
		}
	}
	d := time.Date(n[0], time.Month(n[1]), n[2], 0, 0, 0, 0, time.UTC)
	if d.Month() != time.Month(n[1]) || d.Day() != n[2] { // 2027-02-30 and the like
		return time.Time{}, false
	}
	return d, true
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
	case errors.Is(err, ErrExercised):
		field, key, typ = fieldExercised, "server.contracts.options_exercised", "value_error"
	case errors.Is(err, ErrNoticeRule):
		field, key, typ = fieldRule, "validation.one_of", "enum"
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
