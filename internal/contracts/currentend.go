package contracts

import (
	"context"
	"fmt"
	"strings"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// The contract's current end (decision 0064): contract_end_date is the end
// the lease agrees, T0, from which every deadline counts (decision 0008);
// contract_current_end_date is the end the contract runs to now, the
// latest of T0 and the ends its deadlines' uses reached. It is derived,
// never written by a client, so exercising an option is counted once (in
// the deadline), and undoing it brings the end back.

// fieldCurrentEnd is the contract's current end.
const fieldCurrentEnd = "contract_current_end_date"

// ReachedEnd is the end up to which the uses of deadline dl so far, n as
// computed (or stored) for it, have moved its contract: nil when they
// moved nothing.
//
//   - An active option with k ≥ 1 options exercised: the end of the term
//     the k-th reached, the deadline's resulting end (Tk; TC once all were
//     exercised). It stays there when the next option lapses.
//   - An automatic option or extension that prolonged k ≥ 1 times (its
//     notice dates passed without notice): Tk, the end of the term running
//     now. Used up, the last notice date passed too: TC, one term more.
//   - Resiliations move nothing: a notice given is a status, not a date
//     the other party received, and is left to the lease accounting.
func ReachedEnd(dl Deadline, n Notice) *time.Time {
	if n.End == nil || dl.ContractEnd == nil {
		return nil
	}
	switch dl.Type {
	case TypeActiveOption:
		if n.Uses == 0 {
			return nil
		}
		return n.End
	case TypeAutomaticOption, TypeAutomaticExtension:
		if n.Expired {
			_, end := OptionNotice(dl, n.Uses+1)
			return &end
		}
		if n.Uses == 0 {
			return nil
		}
		return n.End
	}
	return nil
}

// CurrentEnd is a contract's current end: the latest of its agreed end and
// the ends its deadlines reached (nil entries reached nothing); nil
// without an agreed end.
func CurrentEnd(agreed *time.Time, reached ...*time.Time) *time.Time {
	if agreed == nil {
		return nil
	}
	end := *agreed
	for _, r := range reached {
		if r != nil && r.After(end) {
			end = *r
		}
	}
	return &end
}

// countsForEnd reports whether a deadline of status counts for its
// contract's end: every one but a cancelled one (it no longer applies).
func countsForEnd(status string) bool { return status != StatusCancelled }

// rollingTypes are the deadline types whose uses move the contract's end.
var rollingTypes = []any{TypeActiveOption, TypeAutomaticOption, TypeAutomaticExtension}

// reachedOf is the end deadline r (a row of deadlineRows) reached as n
// gives its uses; nil for a cancelled deadline.
func reachedOf(r deadlineRow, n Notice) *time.Time {
	if s, _ := r.rec[fieldStatus].(string); !countsForEnd(s) {
		return nil
	}
	return ReachedEnd(deadlineOf(r.rec, r.end, nil), n)
}

// noticeOf reads the derived values of a deadline as stored (canonical
// values of a record or of storedNotice).
func noticeOf(rec validate.Record) Notice {
	var n Notice
	n.Date, _ = dateOf(rec[fieldNotice])
	n.End, _ = dateOf(rec[fieldEffective])
	switch v := rec[fieldUses].(type) {
	case int64:
		n.Uses = int(v)
	case float64:
		n.Uses = int(v)
	}
	switch v := rec[fieldExpired].(type) {
	case int64:
		n.Expired = v == 1
	case bool:
		n.Expired = v
	}
	return n
}

// sameDay reports whether a and b are the same date, or both none.
func sameDay(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

// currentEndChunk is how many contracts one read of refreshCurrentEnds
// names.
const currentEndChunk = 500

// refreshCurrentEnds derives the current end of contracts from their
// agreed ends and their stored deadlines, all of them (read as the
// system: the end is the contract's, whatever part of its deadlines the
// caller sees), and stores those that changed through the engine's
// DeriveManyIn (the next row_version, a history row naming ctx's user; the
// contracts must lie within ctx's tenant). It answers how many changed.
func (s *Service) refreshCurrentEnds(ctx context.Context, tx *db.Tx, contracts []int64) (int, error) {
	var changes []tables.Derived
	for start := 0; start < len(contracts); start += currentEndChunk {
		chunk := contracts[start:min(start+currentEndChunk, len(contracts))]
		agreed, err := s.agreedEnds(ctx, tx, chunk)
		if err != nil {
			return 0, err
		}
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(chunk)), ", ")
		args := make([]any, 0, len(chunk)+len(rollingTypes)+1)
		for _, c := range chunk {
			args = append(args, c)
		}
		args = append(append(args, StatusCancelled), rollingTypes...)
		rows, err := s.deadlineRows(tables.AsSystem(ctx), tx, `d.contract_id IN (`+marks+`) AND d.contractaction_status <> ?
			AND d.contractaction_type IN (?, ?, ?)`, args...)
		if err != nil {
			return 0, err
		}
		reached := map[int64][]*time.Time{}
		for _, r := range rows {
			reached[r.contract] = append(reached[r.contract], reachedOf(r, noticeOf(r.stored)))
		}
		for _, c := range chunk {
			end, ok := agreed[c]
			if !ok {
				continue // gone, or not the caller's: DeriveManyIn would answer 404
			}
			changes = append(changes, tables.Derived{ID: c, Values: validate.Record{fieldCurrentEnd: dateValue(CurrentEnd(end, reached[c]...))}})
		}
	}
	return s.engine.DeriveManyIn(ctx, tx, entityContract, changes)
}

// agreedEnds reads the agreed end dates of contracts (those within the
// caller's tenant).
func (s *Service) agreedEnds(ctx context.Context, q db.Querier, contracts []int64) (map[int64]*time.Time, error) {
	src, err := s.engine.Scoped(ctx, entityContract, "c")
	if err != nil {
		return nil, err
	}
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(contracts)), ", ")
	args := append([]any{}, src.Args...)
	for _, c := range contracts {
		args = append(args, c)
	}
	rows, err := q.QueryContext(ctx, `SELECT c.contract_id, c.contract_end_date FROM `+src.SQL+` WHERE c.contract_id IN (`+marks+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("contracts: end dates: %w", err)
	}
	defer rows.Close()
	out := make(map[int64]*time.Time, len(contracts))
	for rows.Next() {
		var id int64
		var end any
		if err := rows.Scan(&id, &end); err != nil {
			return nil, fmt.Errorf("contracts: end dates: %w", err)
		}
		if out[id], err = dateOf(end); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("contracts: end dates: %w", err)
	}
	return out, nil
}

// deadlineReached is the end a deadline's record reached (rec: canonical
// values with its derived ones; end: its contract's agreed end).
func deadlineReached(rec validate.Record, end *time.Time) *time.Time {
	if s, _ := rec[fieldStatus].(string); rec == nil || !countsForEnd(s) {
		return nil
	}
	return ReachedEnd(deadlineOf(rec, end, nil), noticeOf(rec))
}

// afterDeadlineDelete keeps the current end of a deleted deadline's
// contract: an exercised option deleted no longer moves it.
func (s *Service) afterDeadlineDelete(ctx context.Context, d *tables.DeleteContext) error {
	contract, _ := d.Stored["contract_id"].(int64)
	if contract == 0 {
		return nil
	}
	end, _, err := s.contractFacts(ctx, d.Tx, contract)
	if err != nil || deadlineReached(d.Stored, end) == nil {
		return err
	}
	_, err = s.refreshCurrentEnds(ctx, d.Tx, []int64{contract})
	return err
}
