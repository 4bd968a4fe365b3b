package contracts

import (
	"context"
	"fmt"

	"portfolio/internal/db"
	"portfolio/internal/tables"
)

// recomputeBatch is how many deadlines the nightly recomputation reads,
// computes and writes in one transaction: large enough that the
// statements per batch, not per deadline, set the pace, short enough (tens
// of milliseconds) not to hold SQLite's write lock for long.
const recomputeBatch = 5000

// RecomputeNoticeDates stores the notice dates of every active option and
// extension as of today: once a notice date passes, the next use of the
// option counts. It runs nightly (job deadline_notice_dates) as the system
// (tables.AsSystem: no tenant scope), and answers how many dates moved.
//
// Set-based, in batches: each transaction reads the next recomputeBatch
// deadlines by key (keyset paging, one statement), computes their dates in
// Go with the rules of notice.go, and writes the ones that move with the
// engine's DeriveManyIn: stored values read in chunks, one UPDATE per moved
// deadline (the next row_version, checked), and their history rows in
// multi-row INSERTs. A recomputed date is a change users see on the
// contract, so it keeps the history row every derived write has, naming no
// user (docs/decisions/0008-notice-dates.md). The contracts whose current
// end the moved deadlines change (an automatic extension that prolonged
// overnight) get it in the same transaction (decision 0064).
func (s *Service) RecomputeNoticeDates(ctx context.Context) (int, error) {
	ctx = tables.AsSystem(ctx)
	moved := 0
	var after int64
	for {
		var n, read int
		err := s.db.InTx(ctx, func(tx *db.Tx) error {
			var err error
			n, read, after, err = s.recomputeBatch(ctx, tx, after)
			return err
		})
		if err != nil {
			return moved, fmt.Errorf("contracts: recompute notice dates: %w", err)
		}
		moved += n
		if read < recomputeBatch {
			return moved, nil
		}
	}
}

// recomputeBatch recomputes the rolling deadlines with keys after after,
// up to recomputeBatch of them, inside tx: it answers how many dates moved,
// how many deadlines it read and the last key read.
func (s *Service) recomputeBatch(ctx context.Context, tx *db.Tx, after int64) (moved, read int, last int64, err error) {
	rows, err := s.deadlineRows(ctx, tx, `d.contractaction_id > ? AND d.contractaction_status = ?
		AND d.contractaction_type IN (?, ?, ?) ORDER BY d.contractaction_id LIMIT ?`,
		after, StatusActive, TypeActiveOption, TypeAutomaticOption, TypeAutomaticExtension, recomputeBatch)
	if err != nil || len(rows) == 0 {
		return 0, 0, after, err
	}
	states, err := s.statesOf(ctx, tx, workdayLocations(rows))
	if err != nil {
		return 0, 0, after, err
	}
	today := s.now()
	var changes []tables.Derived
	var ends []int64 // contracts whose current end moves
	seen := map[int64]bool{}
	for _, r := range rows {
		n, err := NoticeDate(deadlineOf(r.rec, r.end, calendarOf(r.rec, states[r.location])), today)
		if err != nil {
			continue // a deadline its own values give no date keeps the stored one
		}
		v := derivedValues(n)
		moves := !sameDerived(v, r.stored)
		if moves {
			changes = append(changes, tables.Derived{ID: r.id, Values: v})
		}
		// An automatic extension that prolonged moves its contract's end;
		// one reaching past the stored current end (a used-up extension
		// migration 0064 could not count) raises it.
		reached := reachedOf(r, n)
		if !seen[r.contract] && ((moves && !sameDay(reached, reachedOf(r, noticeOf(r.stored)))) ||
			(reached != nil && (r.current == nil || reached.After(*r.current)))) {
			seen[r.contract] = true
			ends = append(ends, r.contract)
		}
	}
	moved, err = s.engine.DeriveManyIn(ctx, tx, entityDeadline, changes)
	if err != nil {
		return moved, len(rows), after, err
	}
	if len(ends) > 0 {
		if _, err := s.refreshCurrentEnds(ctx, tx, ends); err != nil {
			return moved, len(rows), after, err
		}
	}
	return moved, len(rows), rows[len(rows)-1].id, nil
}

// workdayLocations are the locations of the deadlines that count working
// days (§ 580a BGB), each once.
func workdayLocations(rows []deadlineRow) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, r := range rows {
		if r.rec[fieldRule] == Rule580a && r.location > 0 && !seen[r.location] {
			seen[r.location] = true
			out = append(out, r.location)
		}
	}
	return out
}
