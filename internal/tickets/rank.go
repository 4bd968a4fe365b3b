package tickets

import (
	"context"
	"encoding/json"
	"fmt"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// fieldBefore names, in PUT /tickets/update, the ticket the updated one
// is placed before.
const fieldBefore = "before_ticket_id"

// placedKey marks a write whose rank the ticket call has set.
type placedKey struct{}

func placed(ctx context.Context) context.Context { return context.WithValue(ctx, placedKey{}, true) }

func isPlaced(ctx context.Context) bool { v, _ := ctx.Value(placedKey{}).(bool); return v }

// fieldRank is the order of a ticket within its column (decision 0027).
const fieldRank = "ticket_rank"

// rankGap is the distance between neighbouring ranks at the end of a
// column and after a renumbering: room for 16 placements between the
// same two tickets before the column is renumbered.
const rankGap int64 = 1 << 16

// rankAt is one ticket's rank as the placement reads it.
type rankAt struct {
	ID, Rank int64
}

// edge is the ticket of column (other than exclude) with the highest rank
// below limit (below: true) or the highest rank of all (limit ignored);
// ok false when there is none. It reads as the system: the order of a
// column spans every tenant's tickets in it.
func (s *Service) edge(ctx context.Context, q db.Querier, column, exclude int64, below bool, limit int64) (rankAt, bool, error) {
	conds := []any{cond(fieldColumn, "eq", column)}
	if exclude != 0 {
		conds = append(conds, cond("ticket_id", "ne", exclude))
	}
	if below {
		conds = append(conds, cond(fieldRank, "lt", limit))
	}
	raw, err := json.Marshal(conds)
	if err != nil {
		return rankAt{}, false, err
	}
	recs, err := s.rows(system(ctx), q, tables.ListQuery{Entity: entity, Filter: raw, OrderBy: fieldRank, OrderDir: "DESC",
		Columns: []string{fieldRank}, PerPage: 1, Page: 1})
	if err != nil || len(recs) == 0 {
		return rankAt{}, false, err
	}
	return rankAt{ID: idOf(recs[0]["ticket_id"]), Rank: idOf(recs[0][fieldRank])}, true, nil
}

// endRank is the rank of a ticket (id, 0 when new) entering the end of
// column.
func (s *Service) endRank(ctx context.Context, q db.Querier, column, id int64) (int64, error) {
	last, ok, err := s.edge(ctx, q, column, id, false, 0)
	if err != nil || !ok {
		return rankGap, err
	}
	return last.Rank + rankGap, nil
}

// rankBefore is the rank of ticket id placed in column right before
// ticket before (0: at the end of the column). before must be a ticket the
// caller sees in that column (422 on before_ticket_id otherwise). When no
// whole number is left between before and its predecessor, the other
// tickets of the column are renumbered first (tables.DeriveManyIn, in the
// write's transaction).
func (s *Service) rankBefore(ctx context.Context, tx *db.Tx, column, id, before int64) (int64, error) {
	if before == 0 {
		return s.endRank(ctx, tx, column, id)
	}
	bad := apperr.Validation(apperr.FieldError{Field: fieldBefore, Key: "validation.ticket.before_in_column", Type: "before_in_column",
		Args: map[string]string{"field": fieldBefore}})
	if before == id {
		return 0, bad
	}
	rec, _, err := s.engine.GetIn(ctx, tx, entity, before) // the caller's view: 404 → not theirs
	if err != nil {
		if apperr.IsKind(err, apperr.KindNotFound) {
			return 0, bad
		}
		return 0, err
	}
	if idOf(rec[fieldColumn]) != column {
		return 0, bad
	}
	next := idOf(rec[fieldRank])
	prev, ok, err := s.edge(ctx, tx, column, id, true, next)
	if err != nil {
		return 0, err
	}
	if !ok {
		return next - rankGap, nil
	}
	if next-prev.Rank >= 2 {
		return prev.Rank + (next-prev.Rank)/2, nil
	}
	// No gap left (or equal ranks, as rows written before ranks existed):
	// renumber the column, then place again.
	if err := s.renumber(ctx, tx, column, id); err != nil {
		return 0, err
	}
	return s.rankBefore(ctx, tx, column, id, before)
}

// renumber gives the tickets of column (but exclude) the ranks rankGap,
// 2·rankGap, … in their current order (rank, then id).
func (s *Service) renumber(ctx context.Context, tx *db.Tx, column, exclude int64) error {
	sys := system(ctx)
	raw, err := json.Marshal([]any{cond(fieldColumn, "eq", column), cond("ticket_id", "ne", exclude)})
	if err != nil {
		return err
	}
	var rows []tables.Derived
	for page := 1; ; page++ {
		recs, err := s.rows(sys, tx, tables.ListQuery{Entity: entity, Filter: raw, OrderBy: fieldRank, OrderDir: "ASC",
			Columns: []string{fieldRank}, PerPage: maxRows, Page: page})
		if err != nil {
			return fmt.Errorf("tickets: renumber column %d: %w", column, err)
		}
		for _, r := range recs {
			rank := int64(len(rows)+1) * rankGap
			if idOf(r[fieldRank]) != rank {
				rows = append(rows, tables.Derived{ID: idOf(r["ticket_id"]), Values: validate.Record{fieldRank: rank}})
			} else {
				rows = append(rows, tables.Derived{ID: 0})
			}
		}
		if len(recs) < maxRows {
			break
		}
	}
	changed := rows[:0]
	for _, r := range rows {
		if r.ID != 0 {
			changed = append(changed, r)
		}
	}
	_, err = s.engine.DeriveManyIn(sys, tx, entity, changed)
	return err
}
