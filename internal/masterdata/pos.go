package masterdata

import (
	"net/http"

	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/reqbody"
	"portfolio/internal/tables"
)

// createPos serves POST /pos: company_id, pos_name, pos_first_year,
// pos_branchnumber, pos_name_external, pos_internal_id (56 when not
// sent), pos_opening_date and contactperson_id of a new point of sale.
func (h *handler) createPos(w http.ResponseWriter, r *http.Request) error {
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	delete(b, "pos_id") // the create modal may send an empty key
	return h.createAnswered(w, r, "pos", b, "company_id")
}

// updatePos serves PUT /pos: the same fields with pos_id and row_version.
func (h *handler) updatePos(w http.ResponseWriter, r *http.Request) error {
	b, id, version, err := readUpdate(r, "pos_id")
	if err != nil {
		return err
	}
	ctx := r.Context()
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		return h.s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: "pos", ID: id, RowVersion: version, Data: b})
	})
	if err != nil {
		return err
	}
	return h.s.answerRecord(ctx, w, http.StatusOK, "pos", id)
}

// posLinks are the relations DELETE /pos removes links of, by the body
// member naming the linked ids.
var posLinks = []struct{ member, relation, column string }{
	{"area_ids", "pos_area_rel", "area_id"},
	{"tag_ids", "pos_tag_rel", "tag_id"},
	{"document_ids", "pos_document_rel", "document_id"},
}

// deletePosLinks serves DELETE /pos: pos_id with area_ids, tag_ids or
// document_ids removes those links of that point of sale and nothing else
// (the areas, tags and documents stay); all or nothing.
func (h *handler) deletePosLinks(w http.ResponseWriter, r *http.Request) error {
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	pos, err := b.TakeID("pos_id", true)
	if err != nil {
		return err
	}
	lists := make([][]int64, len(posLinks))
	n := 0
	for i, l := range posLinks {
		if lists[i], err = b.TakeIDs(l.member); err != nil {
			return err
		}
		n += len(lists[i])
	}
	if err := noneLeft(b); err != nil {
		return err
	}
	if n == 0 {
		return reqbody.Missing("area_ids")
	}
	ctx := r.Context()
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		for i, l := range posLinks {
			for _, id := range lists[i] {
				cmd := tables.LinkCommand{Relation: l.relation, OwnerID: pos, Data: map[string]any{l.column: id}}
				if err := h.s.engine.UnlinkIn(ctx, tx, cmd); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"pos_id": pos, "removed": n})
	return nil
}
