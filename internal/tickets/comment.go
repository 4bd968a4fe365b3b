package tickets

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/reqbody"
	"portfolio/internal/tables"
)

// TrackComment is the track record type of a comment on a ticket.
const TrackComment = "comment"

// ActionNote is the right to comment a ticket: the specification's table
// access action "note".
const ActionNote = "note"

// maxComment is the longest comment, in characters.
const maxComment = 4000

// OnCommented sets what is told, after the commit, that ticket got a
// comment (app publishes it on the event stream as an update of the
// ticket, so that every open timeline reloads).
func (s *Service) OnCommented(f func(ticket int64)) { s.commented = f }

// comment serves POST /tickets/comment {ticket_id, comment}: a comment on
// the ticket's timeline (a trackrecord row type comment, category ticket,
// with the author and the time), for a caller with the specification's
// table access action "note" on tickets (section 6: "Table access per
// action (list, read, create, update, remove, note, seeHeader) for
// ticket ...") who sees this one (tenant and board, 404 otherwise). The
// update right is not needed: the ticket itself does not change. Answers
// 201 with the timeline entry (decision 0027).
func (h *handler) comment(w http.ResponseWriter, r *http.Request) error {
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	id, err := b.TakeID("ticket_id", true)
	if err != nil {
		return err
	}
	raw, _ := b.Take("comment").(string)
	text := strings.TrimSpace(raw)
	switch {
	case text == "":
		return reqbody.Missing("comment")
	case utf8.RuneCountInString(text) > maxComment:
		return apperr.Validation(apperr.FieldError{Field: "comment", Key: "validation.max", Type: "max_length",
			Args: map[string]string{"field": "comment", "length": "4000"}})
	}
	ctx := r.Context()
	if err := h.s.engine.Require(ctx, ActionNote, entity); err != nil {
		return err
	}
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		rec, _, err := h.s.engine.GetIn(ctx, tx, entity, id) // 404 outside the tenant
		if err != nil {
			return err
		}
		if err := h.s.mustSeeBoard(ctx, tx, idOf(rec[fieldBoard])); err != nil {
			return err
		}
		if err := h.s.engine.Track(ctx, tx, tables.TrackEntry{Type: TrackComment, Category: entity, RowID: id,
			Status: "", Comment: text}); err != nil {
			return err
		}
		if h.s.commented != nil {
			tx.AfterCommit(func() { h.s.commented(id) })
		}
		return nil
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, map[string]any{"data": map[string]any{"ticket_id": id, "trackrecord_type": TrackComment,
		"trackrecord_comment": text}})
	return nil
}
