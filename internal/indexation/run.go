package indexation

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/schema"
)

const defaultSeriesID = schema.DefaultPriceIndexID

// runBatch is how many payments one transaction of a run evaluates: the
// run streams through the payments by key, so memory stays flat.
const runBatch = 1000

// RunError is a payment the run could not evaluate.
type RunError struct {
	RecurringpaymentID int64  `json:"recurringpayment_id"`
	Month              string `json:"month,omitempty"`
	Detail             string `json:"detail"`
}

// RunResult is the answer of a run: the open proposals of the evaluated
// payments (new or stored by an earlier run), how many were created now,
// and the payments that could not be evaluated.
type RunResult struct {
	Proposals []json.RawMessage `json:"proposals"`
	Created   int               `json:"created"`
	// Dropped counts stored proposals deleted because they no longer
	// followed from their clause, amount or index values (those that
	// still follow in another form are created again and counted in
	// Created).
	Dropped   int        `json:"dropped"`
	Evaluated int        `json:"evaluated"`
	Errors    []RunError `json:"errors"`
	// evaluated are the payments evaluated, kept only when ids were named.
	evaluated []int64
}

type runBody struct {
	RecurringpaymentIDs []int64 `json:"recurringpayment_ids"`
}

// run serves POST /indexadjustments/run.
func (h *handler) run(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	var body runBody
	if r.ContentLength != 0 {
		if err := httpapi.DecodeJSON(r, &body, true); err != nil {
			return err
		}
	}
	res, err := h.s.Run(ctx, body.RecurringpaymentIDs, true)
	if err != nil {
		return err
	}
	if len(body.RecurringpaymentIDs) > 0 && len(res.Errors) == len(body.RecurringpaymentIDs) {
		fields := make([]apperr.FieldError, len(res.Errors))
		for i, e := range res.Errors {
			fields[i] = apperr.FieldError{Loc: []any{"body", "recurringpayment_ids", i}, Message: e.Detail, Type: "value_error"}
		}
		return apperr.Validation(fields...)
	}
	httpapi.WriteJSON(w, http.StatusOK, res)
	return nil
}

// payment is what a run reads of a recurring payment and its clause.
type payment struct {
	id, clause, series int64
	amount             decimal.NullDecimal
	baseYear           int
	// begin is the clause's begin date; payBegin, payEnd and
	// contractBegin bound the chain (zero: not set).
	begin, payBegin, payEnd, contractBegin time.Time
	c                                      Clause
	// key is c.wordingKey(), once per payment.
	key uint64
}

// stored is an adjustment already stored for a payment.
type stored struct {
	id, version        int64
	reference, current Month
	status             string
	// What a proposal was computed with and yields, to tell whether it
	// still follows from its clause, amount and index values.
	clause                                   int64
	refValue, curValue, oldAmount, newAmount decimal.Decimal
	effective                                time.Time
	rule                                     string
}

// follows reports whether the stored proposal st is what evaluating
// payment p gives now (a, for the same months).
func (st stored) follows(p payment, a Proposal) bool {
	return st.clause == p.clause && st.refValue.Equal(a.ReferenceValue) && st.curValue.Equal(a.CurrentValue) &&
		st.oldAmount.Equal(a.OldAmount) && st.newAmount.Equal(a.NewAmount) && st.effective.Equal(a.Effective) &&
		storedKey(st.rule) == p.c.ruleKey(p.key, a)
}

// Run evaluates the index clauses of the payments ids (all the caller
// sees when empty) and stores the proposals not stored yet. answer keeps
// the open proposals for the answer (the job leaves it false: memory
// stays flat). The caller needs create on indexadjustment; the job runs
// as the system.
func (s *Service) Run(ctx context.Context, ids []int64, answer bool) (*RunResult, error) {
	if err := s.engine.Require(ctx, access.ActionCreate, entityAdjustment); err != nil {
		return nil, err
	}
	for _, id := range ids {
		if err := s.engine.MustSeeIn(ctx, s.db, entityPayment, id); err != nil {
			return nil, err
		}
	}
	res := &RunResult{Proposals: []json.RawMessage{}, Errors: []RunError{}}
	series := map[[2]int64]*Series{} // (series, base year) → values in that base year
	var after int64
	for {
		var batch []payment
		err := s.db.InTx(ctx, func(tx *db.Tx) error {
			var err error
			batch, err = s.payments(ctx, tx, ids, after)
			if err != nil || len(batch) == 0 {
				return err
			}
			return s.runBatch(ctx, tx, batch, series, res, answer)
		})
		if err != nil {
			return nil, err
		}
		if len(ids) > 0 {
			for _, p := range batch {
				res.evaluated = append(res.evaluated, p.id)
			}
		}
		if len(batch) < runBatch {
			s.reportUnevaluated(ctx, ids, res)
			if len(ids) == 0 {
				if err := s.dropUnindexed(ctx, res); err != nil {
					return nil, err
				}
			}
			return res, nil
		}
		after = batch[len(batch)-1].id
	}
}

// dropUnindexed deletes the proposals of payments that no longer have
// value deposit or an index clause (switched off or removed since they
// were proposed): nothing follows from them any more.
func (s *Service) dropUnindexed(ctx context.Context, res *RunResult) error {
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		a, err := s.engine.Scoped(ctx, entityAdjustment, "a")
		if err != nil {
			return err
		}
		p, err := s.engine.Scoped(ctx, entityPayment, "p")
		if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT a.indexadjustment_id, a.row_version FROM `+a.SQL+` JOIN `+p.SQL+`
			ON p.recurringpayment_id = a.recurringpayment_id WHERE a.indexadjustment_status = ?
			AND (p.indexclause_id IS NULL OR p.recurringpayment_value_deposit IS NULL OR p.recurringpayment_value_deposit <> 1)`,
			append(append(append([]any{}, a.Args...), p.Args...), StatusProposed)...)
		if err != nil {
			return fmt.Errorf("indexation: read proposals without a clause: %w", err)
		}
		var drop [][2]int64
		for rows.Next() {
			var id, version int64
			if err := rows.Scan(&id, &version); err != nil {
				rows.Close()
				return fmt.Errorf("indexation: read proposals without a clause: %w", err)
			}
			drop = append(drop, [2]int64{id, version})
		}
		if err := rows.Close(); err != nil {
			return err
		}
		for _, d := range drop {
			if err := s.engine.DeleteIn(ctx, tx, entityAdjustment, d[0], d[1]); err != nil {
				return fmt.Errorf("indexation: drop proposal %d: %w", d[0], err)
			}
			res.Dropped++
		}
		return nil
	})
}

// reportUnevaluated adds an error for each requested payment the run did
// not evaluate: it has no value deposit or no index clause.
func (s *Service) reportUnevaluated(ctx context.Context, ids []int64, res *RunResult) {
	if len(ids) == 0 {
		return
	}
	seen := map[int64]bool{}
	for _, e := range res.Errors {
		seen[e.RecurringpaymentID] = true
	}
	for _, p := range res.evaluated {
		seen[p] = true
	}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			res.Errors = append(res.Errors, RunError{RecurringpaymentID: id, Detail: s.catalog.T(i18n.LangFrom(ctx), "server.indexation.no_clause", nil)})
		}
	}
}

// payments reads the next batch of payments with value deposit and an
// index clause, by key after after.
func (s *Service) payments(ctx context.Context, q db.Querier, ids []int64, after int64) ([]payment, error) {
	p, err := s.engine.Scoped(ctx, entityPayment, "p")
	if err != nil {
		return nil, err
	}
	c, err := s.engine.Scoped(ctx, entityClause, "c")
	if err != nil {
		return nil, err
	}
	k, err := s.engine.Scoped(ctx, entityContract, "k")
	if err != nil {
		return nil, err
	}
	where := "p.recurringpayment_value_deposit = 1 AND p.recurringpayment_id > ?"
	args := append(append(append(append([]any{}, p.Args...), c.Args...), k.Args...), after)
	if len(ids) > 0 {
		where += " AND p.recurringpayment_id IN (" + strings.TrimSuffix(strings.Repeat("?,", len(ids)), ",") + ")"
		for _, id := range ids {
			args = append(args, id)
		}
	}
	rows, err := q.QueryContext(ctx, `SELECT p.recurringpayment_id, p.recurringpayment_sum_per_month, c.indexclause_id, c.priceindex_id,
		c.indexclause_baseyear, c.indexclause_begin_date, c.indextransmission_percent, c.change_in_percent,
		c.indexclause_minimal_percent_change, c.indexclause_minimal_point_change, `+clauseWordingColumns+`,
		p.recurringpayment_begin_date, p.recurringpayment_end_date, k.contract_begin_date
		FROM `+p.SQL+` JOIN `+c.SQL+` ON c.indexclause_id = p.indexclause_id
		LEFT JOIN `+k.SQL+` ON k.contract_id = p.contract_id
		WHERE `+where+` ORDER BY p.recurringpayment_id LIMIT `+strconv.Itoa(runBatch), args...)
	if err != nil {
		return nil, fmt.Errorf("indexation: read payments: %w", err)
	}
	defer rows.Close()
	var out []payment
	for rows.Next() {
		var x payment
		var series sql.NullInt64
		var begin, payBegin, payEnd, contractBegin any
		var inPercent int64
		var minPercent, minPoints decimal.NullDecimal
		var w wording
		if err := rows.Scan(append([]any{&x.id, &x.amount, &x.clause, &series, &x.baseYear, &begin, &x.c.Transmission, &inPercent,
			&minPercent, &minPoints}, append(w.targets(), &payBegin, &payEnd, &contractBegin)...)...); err != nil {
			return nil, fmt.Errorf("indexation: read payments: %w", err)
		}
		x.series = defaultSeriesID
		if series.Valid {
			x.series = series.Int64
		}
		if x.begin, err = dateOf(begin); err != nil {
			return nil, err
		}
		if x.payBegin, x.payEnd, x.contractBegin, err = optionalDates(payBegin, payEnd, contractBegin); err != nil {
			return nil, err
		}
		w.apply(&x.c)
		x.c.Begin = MonthOf(x.begin)
		x.c.InPercent = inPercent == 1
		if minPercent.Valid {
			x.c.MinPercent = &minPercent.Decimal
		}
		if minPoints.Valid {
			x.c.MinPoints = &minPoints.Decimal
		}
		x.key = x.c.wordingKey()
		out = append(out, x)
	}
	return out, rows.Err()
}

// dateOf reads a DATE column (text on SQLite, time on PostgreSQL).
func dateOf(v any) (time.Time, error) {
	switch d := v.(type) {
	case time.Time:
		return d, nil
	case string:
		return time.Parse(time.DateOnly, d[:min(len(d), 10)])
	case []byte:
		return time.Parse(time.DateOnly, string(d[:min(len(d), 10)]))
	}
	return time.Time{}, fmt.Errorf("indexation: %T is not a date", v)
}

// optionalDates reads DATE columns that may be empty (zero time).
func optionalDates(vs ...any) (a, b, c time.Time, err error) {
	out := make([]time.Time, len(vs))
	for i, v := range vs {
		if v == nil {
			continue
		}
		if out[i], err = dateOf(v); err != nil {
			return a, b, c, err
		}
	}
	return out[0], out[1], out[2], nil
}

// runBatch evaluates one batch of payments inside tx.
func (s *Service) runBatch(ctx context.Context, tx *db.Tx, batch []payment, cache map[[2]int64]*Series, res *RunResult, answer bool) error {
	known, err := s.adjustments(ctx, tx, batch[0].id, batch[len(batch)-1].id)
	if err != nil {
		return err
	}
	lang := i18n.LangFrom(ctx)
	var proposals []map[string]any
	for _, p := range batch {
		res.Evaluated++
		fail := func(month, key string, args map[string]string) {
			res.Errors = append(res.Errors, RunError{RecurringpaymentID: p.id, Month: month, Detail: s.catalog.T(lang, key, args)})
		}
		if !p.amount.Valid {
			fail("", "server.indexation.no_amount", nil)
			continue
		}
		series, err := s.series(ctx, tx, p.series, p.baseYear, p.c.InPercent, cache)
		var missing *MissingMonthError
		if errors.As(err, &missing) {
			fail(missing.Month.String(), "server.indexation.missing_rebase", map[string]string{"month": missing.Month.String(), "year": strconv.Itoa(p.baseYear)})
			continue
		}
		if err != nil {
			return err
		}
		ref, approved := MonthOf(p.begin), false
		rejected := map[[2]Month]bool{}
		existing := map[[2]Month]bool{}
		for _, a := range known[p.id] {
			switch a.status {
			case StatusApproved:
				ref, approved = max(ref, a.current), true
			case StatusRejected:
				rejected[[2]Month{a.reference, a.current}] = true
			}
		}
		bounds := PaymentBounds(p.begin, p.payBegin, p.payEnd, p.contractBegin, ref, approved)
		chain, err := EvaluateWithin(series, p.c, ref, p.amount.Decimal, bounds, func(r, c Month) bool { return rejected[[2]Month{r, c}] })
		if errors.As(err, &missing) {
			fail(missing.Month.String(), "server.indexation.missing_reference", map[string]string{"month": missing.Month.String()})
			continue
		}
		if err != nil {
			fail("", "server.indexation.no_value", nil)
			continue
		}
		stale, err := s.dropStale(ctx, tx, p, known[p.id], chain, existing)
		if err != nil {
			return err
		}
		res.Dropped += stale
		for _, a := range chain {
			key := [2]Month{a.Reference, a.Current}
			if existing[key] {
				continue
			}
			proposals = append(proposals, proposalData(p, a))
		}
	}
	// The batch's new proposals in one bulk write: the same checks and
	// history as one CreateIn each, in a few multi-row statements.
	if _, err := s.engine.CreateManyIn(ctx, tx, entityAdjustment, proposals); err != nil {
		return fmt.Errorf("indexation: store the adjustments of payments %d to %d: %w", batch[0].id, batch[len(batch)-1].id, err)
	}
	res.Created += len(proposals)
	if !answer {
		return nil
	}
	return s.openProposals(ctx, tx, batch[0].id, batch[len(batch)-1].id, batch, res)
}

// dropStale deletes the stored proposals of payment p that no longer
// follow from its clause, amount and index values (the clause or the
// amount was edited, an index value revised: decision 0011) and marks in
// existing the months of every adjustment that stays, so that the run
// stores the chain anew where it changed. Approved and rejected
// adjustments are decisions and stay as they are. It answers how many
// proposals it dropped.
func (s *Service) dropStale(ctx context.Context, tx *db.Tx, p payment, known []stored, chain []Proposal, existing map[[2]Month]bool) (int, error) {
	fresh := make(map[[2]Month]Proposal, len(chain))
	for _, a := range chain {
		fresh[[2]Month{a.Reference, a.Current}] = a
	}
	dropped := 0
	for _, st := range known {
		key := [2]Month{st.reference, st.current}
		if st.status == StatusProposed {
			if a, ok := fresh[key]; !ok || !st.follows(p, a) {
				if err := s.engine.DeleteIn(ctx, tx, entityAdjustment, st.id, st.version); err != nil {
					return dropped, fmt.Errorf("indexation: drop the stale proposal %d of payment %d: %w", st.id, p.id, err)
				}
				dropped++
				continue
			}
		}
		existing[key] = true
	}
	return dropped, nil
}

// proposalData is the stored form of a proposal.
func proposalData(p payment, a Proposal) map[string]any {
	return map[string]any{
		"recurringpayment_id": p.id, "indexclause_id": p.clause,
		"indexadjustment_reference_month": a.Reference.String(), "indexadjustment_current_month": a.Current.String(),
		"indexadjustment_reference_value": a.ReferenceValue.String(), "indexadjustment_current_value": a.CurrentValue.String(),
		"indexadjustment_change_points": a.ChangePoints.String(), "indexadjustment_change_percent": a.ChangePercent.String(),
		"indexadjustment_old_amount": a.OldAmount.String(), "indexadjustment_new_amount": a.NewAmount.String(),
		"indexadjustment_effective_date": a.Effective.Format(time.DateOnly),
		"indexadjustment_rule":           p.c.RuleOf(a).JSON(),
	}
}

// adjustments reads the stored adjustments of the payments with keys from
// first to last.
func (s *Service) adjustments(ctx context.Context, q db.Querier, first, last int64) (map[int64][]stored, error) {
	a, err := s.engine.Scoped(ctx, entityAdjustment, "a")
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT a.recurringpayment_id, a.indexadjustment_id, a.row_version, a.indexadjustment_reference_month,
		a.indexadjustment_current_month, a.indexadjustment_status, a.indexclause_id, a.indexadjustment_reference_value,
		a.indexadjustment_current_value, a.indexadjustment_old_amount, a.indexadjustment_new_amount, a.indexadjustment_effective_date,
		a.indexadjustment_rule
		FROM `+a.SQL+` WHERE a.recurringpayment_id BETWEEN ? AND ?`, append(a.Args, first, last)...)
	if err != nil {
		return nil, fmt.Errorf("indexation: read adjustments: %w", err)
	}
	defer rows.Close()
	out := map[int64][]stored{}
	for rows.Next() {
		var id int64
		var ref, cur string
		var x stored
		var clause sql.NullInt64
		var values [4]decimal.NullDecimal
		var effective any
		var rule sql.NullString
		if err := rows.Scan(&id, &x.id, &x.version, &ref, &cur, &x.status, &clause,
			&values[0], &values[1], &values[2], &values[3], &effective, &rule); err != nil {
			return nil, fmt.Errorf("indexation: read adjustments: %w", err)
		}
		x.clause, x.rule = clause.Int64, rule.String
		x.refValue, x.curValue, x.oldAmount, x.newAmount = values[0].Decimal, values[1].Decimal, values[2].Decimal, values[3].Decimal
		if effective != nil {
			if x.effective, err = dateOf(effective); err != nil {
				return nil, err
			}
		}
		if x.reference, err = ParseMonth(ref); err != nil {
			return nil, err
		}
		if x.current, err = ParseMonth(cur); err != nil {
			return nil, err
		}
		out[id] = append(out[id], x)
	}
	return out, rows.Err()
}

// openProposals adds the proposed adjustments of the batch's payments to
// the answer, in chain order.
func (s *Service) openProposals(ctx context.Context, q db.Querier, first, last int64, batch []payment, res *RunResult) error {
	a, err := s.engine.Scoped(ctx, entityAdjustment, "a")
	if err != nil {
		return err
	}
	in := map[int64]bool{}
	for _, p := range batch {
		in[p.id] = true
	}
	rows, err := q.QueryContext(ctx, `SELECT a.indexadjustment_id, a.recurringpayment_id FROM `+a.SQL+`
		WHERE a.recurringpayment_id BETWEEN ? AND ? AND a.indexadjustment_status = ?
		ORDER BY a.recurringpayment_id, a.indexadjustment_current_month`, append(a.Args, first, last, StatusProposed)...)
	if err != nil {
		return fmt.Errorf("indexation: read proposals: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id, pay int64
		if err := rows.Scan(&id, &pay); err != nil {
			rows.Close()
			return fmt.Errorf("indexation: read proposals: %w", err)
		}
		if in[pay] {
			ids = append(ids, id)
		}
	}
	if err := rows.Close(); err != nil {
		return err
	}
	for _, id := range ids {
		rec, err := s.engine.ReadIn(ctx, q, entityAdjustment, id)
		if err != nil {
			return err
		}
		res.Proposals = append(res.Proposals, rec)
	}
	return nil
}

// series reads series id as a clause in base year year compares it
// (ComparedBaseYear: a percent clause the published values), once per
// run.
func (s *Service) series(ctx context.Context, q db.Querier, id int64, year int, inPercent bool, cache map[[2]int64]*Series) (*Series, error) {
	if got, ok := cache[[2]int64{id, int64(year)}]; ok && !inPercent {
		return got, nil
	}
	published, ok := cache[[2]int64{id, 0}]
	if !ok {
		rec, _, err := s.engine.GetIn(ctx, q, entitySeries, id)
		if err != nil {
			return nil, err
		}
		base, _ := rec["priceindex_baseyear"].(int64)
		stored, err := s.storedValues(ctx, q, id)
		if err != nil {
			return nil, err
		}
		values := make(map[Month]decimal.Decimal, len(stored))
		for m, v := range stored {
			values[m] = v.value
		}
		published = NewSeries(int(base), values)
		cache[[2]int64{id, 0}] = published
	}
	if year = ComparedBaseYear(inPercent, year, published.BaseYear); year == published.BaseYear {
		return published, nil
	}
	rebased, err := Rebase(published, year)
	if err != nil {
		return nil, err
	}
	cache[[2]int64{id, int64(year)}] = rebased
	return rebased, nil
}
