package tickets

import (
	"context"
	"fmt"
	"strings"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// The ticket fields the rules read and write.
const (
	fieldYellow = "ticket_yellow_deadline"
	fieldRed    = "ticket_red_deadline"
	fieldBoard  = "board_id"
	fieldColumn = "columnx_id"
	fieldTeam   = "team_id"
	// fieldUpdated marks a ticket changed after its creation.
	fieldUpdated = "ticket_updated"
)

// Track record types of the ticket timeline (beside the engine's create,
// update and delete rows).
const (
	TrackMove  = "move"
	TrackStamp = "stamp"
)

// rules are the ticket rules on every write, generic or through the
// ticket calls (tables.Hook and tables.Preparer).
type rules struct{ s *Service }

// Prepare fills absent deadlines from the board's default values before
// the record is validated (decision 0013): yellow = now + yellow hours,
// red = yellow + red hours; a red deadline given alone gets yellow = red -
// red hours, not before now.
func (r *rules) Prepare(ctx context.Context, w *tables.WriteContext) error {
	rec := w.Record
	yellowEmpty, redEmpty := validate.Empty(rec[fieldYellow]), validate.Empty(rec[fieldRed])
	board := idOf(rec[fieldBoard])
	if (!yellowEmpty && !redEmpty) || board == 0 {
		return nil
	}
	h, err := r.s.defaultHours(ctx, w.Tx, board)
	if err != nil {
		return err
	}
	now := r.s.now().UTC().Truncate(time.Second)
	red := time.Duration(h.Red) * time.Hour
	switch {
	case yellowEmpty && redEmpty:
		yellow := now.Add(time.Duration(h.Yellow) * time.Hour)
		rec[fieldYellow], rec[fieldRed] = yellow, yellow.Add(red)
	case redEmpty:
		if y, ok := timeOf(rec[fieldYellow]); ok {
			rec[fieldRed] = y.Add(red)
		}
	default:
		if rd, ok := timeOf(rec[fieldRed]); ok {
			yellow := rd.Add(-red)
			if yellow.Before(now) {
				yellow = now
			}
			if yellow.After(rd) {
				yellow = rd
			}
			rec[fieldYellow] = yellow
		}
	}
	return nil
}

// BeforeWrite checks the column against the ticket's board, the quality
// gate of a column entered, gives the ticket the column's team and writes
// the timeline of a move (and of a stamp column entered).
func (r *rules) BeforeWrite(ctx context.Context, w *tables.WriteContext) error {
	rec := w.Record
	if !w.Creating && idOf(w.Stored[fieldUpdated]) == 0 {
		w.Values[fieldUpdated], rec[fieldUpdated] = int64(1), int64(1)
	}
	boardChanged := w.Creating || !validate.Equal(rec[fieldBoard], w.Stored[fieldBoard])
	columnChanged := w.Creating || !validate.Equal(rec[fieldColumn], w.Stored[fieldColumn])
	if err := r.boardSeen(ctx, w, boardChanged); err != nil {
		return err
	}
	if !boardChanged && !columnChanged {
		return nil
	}
	board, target := idOf(rec[fieldBoard]), idOf(rec[fieldColumn])
	cols, err := r.s.columns(ctx, w.Tx, board)
	if err != nil {
		return err
	}
	to, ok := find(cols, target)
	if !ok {
		return apperr.Validation(apperr.FieldError{Field: fieldColumn, Key: "validation.ticket.column_of_board",
			Type: "column_of_board", Args: map[string]string{"field": "columnx_id"}})
	}
	if !columnChanged {
		return nil
	}
	if !isPlaced(ctx) { // a ticket entering a column goes to its end
		rank, err := r.s.endRank(ctx, w.Tx, to.ID, w.ID)
		if err != nil {
			return err
		}
		w.Values[fieldRank], rec[fieldRank] = rank, rank
	}
	if to.QualityGate {
		if err := r.qualityGate(ctx, w, board, to); err != nil {
			return err
		}
	}
	if to.Team != 0 && !validate.Equal(rec[fieldTeam], to.Team) {
		w.Values[fieldTeam], rec[fieldTeam] = to.Team, to.Team
	}
	if w.Creating {
		return nil // the engine's create row starts the timeline
	}
	from, _ := find(cols, idOf(w.Stored[fieldColumn]))
	fromName := from.Name
	if fromName == "" {
		fromName = fmt.Sprint(idOf(w.Stored[fieldColumn]))
	}
	// The timeline and the stamped copies are written after the ticket
	// itself (tables.WriteContext.Later: one order of writes, no deadlock).
	fromID, id, tx := idOf(w.Stored[fieldColumn]), w.ID, w.Tx
	w.Later(func(ctx context.Context) error {
		if err := r.s.engine.Track(ctx, tx, tables.TrackEntry{Type: TrackMove, Category: entity, RowID: id, Status: to.Name,
			Comment: fromName + " → " + to.Name, Changes: map[string][2]any{fieldColumn: {fromID, to.ID}}}); err != nil {
			return err
		}
		if !to.Stamp {
			return nil
		}
		// The documents module makes the stamped copies (OnStamp); the
		// timeline records the stamp and how many documents it covered.
		comment := "stamped in " + to.Name
		if r.s.stamp != nil {
			n, err := r.s.stamp(ctx, tx, id)
			if err != nil {
				return err
			}
			comment += fmt.Sprintf(" (%d documents)", n)
		}
		return r.s.engine.Track(ctx, tx, tables.TrackEntry{Type: TrackStamp, Category: entity, RowID: id, Status: to.Name,
			Comment: comment})
	})
	return nil
}

// boardSeen refuses a write of a ticket on a board the caller does not
// see (decision 0027): a ticket stored on such a board answers 404 like
// one that does not exist; a board chosen that the caller does not see is
// 422 not_available on board_id.
func (r *rules) boardSeen(ctx context.Context, w *tables.WriteContext, boardChanged bool) error {
	seen, err := r.s.boardsOf(ctx, w.Tx)
	if err != nil || seen.all {
		return err
	}
	if !w.Creating && !seen.sees(idOf(w.Stored[fieldBoard])) {
		return apperr.NotFound("server.error.not_found")
	}
	if boardChanged && !seen.sees(idOf(w.Record[fieldBoard])) {
		return apperr.Validation(apperr.FieldError{Field: fieldBoard, Key: "validation.not_available", Type: "not_available",
			Args: map[string]string{"field": fieldBoard}})
	}
	return nil
}

// qualityGate refuses to enter column to unless the ticket has documents
// of every document type of its board: 422 on columnx_id naming the
// missing types.
func (r *rules) qualityGate(ctx context.Context, w *tables.WriteContext, board int64, to column) error {
	required, err := r.s.requiredTypes(ctx, w.Tx, board)
	if err != nil || len(required) == 0 {
		return err
	}
	have := map[int64]bool{}
	if !w.Creating {
		if have, err = r.s.documentTypes(ctx, w.Tx, w.ID); err != nil {
			return err
		}
	}
	var missing []string
	for _, t := range required {
		if !have[t.ID] {
			missing = append(missing, t.Name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return apperr.Validation(apperr.FieldError{Field: fieldColumn, Key: "validation.ticket.quality_gate", Type: "quality_gate",
		Args: map[string]string{"field": "columnx_id", "column": to.Name, "types": strings.Join(missing, ", ")}})
}

func find(cols []column, id int64) (column, bool) {
	for _, c := range cols {
		if c.ID == id {
			return c, true
		}
	}
	return column{}, false
}
