package masterdata

import (
	"context"
	"encoding/json"
	"net/http"

	"portfolio/internal/access"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/reqbody"
	"portfolio/internal/tables"
)

// partnerAnswer is the answer of a partner save: the partner company and
// its partner group as the generic read renders them.
type partnerAnswer struct {
	Data         json.RawMessage `json:"data"`
	Partnergroup json.RawMessage `json:"partnergroup"`
}

// createPartner serves POST /partners/new: a partner company (name,
// shortname of at most 10 characters, partner type) in the partner group
// its partnergroup object names by partnergroup_id, or in a new group
// made of that object's values when it has no partnergroup_id; one
// transaction.
func (h *handler) createPartner(w http.ResponseWriter, r *http.Request) error {
	// A caller without the right learns that, not what its body lacks.
	if err := h.s.engine.Require(r.Context(), access.ActionCreate, "partnercompany"); err != nil {
		return err
	}
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	group, err := b.TakeObject("partnergroup")
	if err != nil {
		return err
	}
	if group == nil {
		return reqbody.Missing("partnergroup")
	}
	ctx := r.Context()
	var id int64
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		ref, err := h.s.partnerGroup(ctx, tx, group, b)
		if err != nil {
			return err
		}
		if id, err = h.s.engine.CreateIn(ctx, tx, "partnercompany", b, tables.Referring(ref)); err != nil {
			return err
		}
		return h.s.mustSeeNew(ctx, tx, "partnercompany", id, "partnergroup.partnergroup_id")
	})
	if err != nil {
		return err
	}
	return h.s.answerPartner(ctx, w, http.StatusCreated, id)
}

// updatePartner serves PUT /partners/new: partnercompany_id and
// row_version name the partner company; a partnergroup object moves it to
// that group (or a new one) in the same transaction.
func (h *handler) updatePartner(w http.ResponseWriter, r *http.Request) error {
	b, id, version, err := readUpdate(r, "partnercompany_id")
	if err != nil {
		return err
	}
	group, err := b.TakeObject("partnergroup")
	if err != nil {
		return err
	}
	ctx := r.Context()
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		if _, _, err := h.s.engine.GetIn(ctx, tx, "partnercompany", id); err != nil {
			return err
		}
		var ref tables.NewRow
		if group != nil {
			if ref, err = h.s.partnerGroup(ctx, tx, group, b); err != nil {
				return err
			}
		}
		return h.s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: "partnercompany", ID: id, RowVersion: version, Data: b}, tables.Referring(ref))
	})
	if err != nil {
		return err
	}
	return h.s.answerPartner(ctx, w, http.StatusOK, id)
}

// partnerGroup sets partnergroup_id of the partner data b from the
// partnergroup object: an existing group (its partnergroup_id, checked as
// a reference by the partner company's write) or a new group created from
// the object's values, answered as the new row.
func (s *Service) partnerGroup(ctx context.Context, tx *db.Tx, group reqbody.Body, b reqbody.Body) (tables.NewRow, error) {
	id, err := group.TakeID("partnergroup_id", false)
	if err != nil {
		return tables.NewRow{}, reqbody.Prefixed("partnergroup", err)
	}
	if id > 0 {
		b["partnergroup_id"] = id
		return tables.NewRow{}, reqbody.Prefixed("partnergroup", noneLeft(group))
	}
	if id, err = s.engine.CreateIn(ctx, tx, "partnergroup", group, tables.LinkedLater()); err != nil {
		return tables.NewRow{}, reqbody.Prefixed("partnergroup", err)
	}
	b["partnergroup_id"] = id
	return tables.NewRow{Entity: "partnergroup", ID: id}, nil
}

// answerPartner answers partner company id with its group.
func (s *Service) answerPartner(ctx context.Context, w http.ResponseWriter, status int, id int64) error {
	rec, _, err := s.engine.GetIn(ctx, s.db, "partnercompany", id)
	if err != nil {
		return err
	}
	ans := partnerAnswer{Partnergroup: json.RawMessage("null")}
	if ans.Data, err = s.engine.ReadIn(ctx, s.db, "partnercompany", id); err != nil {
		return err
	}
	if g, _ := rec["partnergroup_id"].(int64); g > 0 {
		if ans.Partnergroup, err = s.engine.ReadIn(ctx, s.db, "partnergroup", g); err != nil {
			return err
		}
	}
	httpapi.WriteJSON(w, status, ans)
	return nil
}

// partner answers the partner company of the path, 404 when the caller
// does not see it.
func (h *handler) partner(r *http.Request) (int64, error) {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return 0, err
	}
	if _, _, err := h.s.engine.GetIn(r.Context(), h.s.db, "partnercompany", id); err != nil {
		return 0, err
	}
	return id, nil
}

// partnerBankdata serves GET /partners/{id}/bankdata: the bank accounts
// of a partner company (the engine masks the IBAN for callers who may not
// edit bank data).
func (h *handler) partnerBankdata(w http.ResponseWriter, r *http.Request) error {
	id, err := h.partner(r)
	if err != nil {
		return err
	}
	return h.list(w, r, tables.CustomListQuery{Entity: "partnercompany_bankdata_rel", Data: map[string]any{"partnercompany_id": id}}, 0)
}

// createBankdata serves POST /partners/{id}/bankdata: a bank account of
// the partner company (IBAN checked, BIC format when given).
func (h *handler) createBankdata(w http.ResponseWriter, r *http.Request) error {
	partner, err := h.partner(r)
	if err != nil {
		return err
	}
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	if err := ownerField(b, "partnercompany_id", partner); err != nil {
		return err
	}
	normalBank(b)
	if err := checkIBAN(b); err != nil {
		return err
	}
	ctx := r.Context()
	var id int64
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		id, err = h.s.created(ctx, tx, "bankdata", b, "partnercompany_id")
		return err
	})
	if err != nil {
		return err
	}
	return h.s.answerBankdata(ctx, w, http.StatusCreated, id)
}

// updateBankdata serves PUT /partners/{id}/bankdata/{bankdata_id} with
// row_version and the changed values.
func (h *handler) updateBankdata(w http.ResponseWriter, r *http.Request) error {
	partner, err := h.partner(r)
	if err != nil {
		return err
	}
	id, err := httpapi.PathID(r, "bankdata_id")
	if err != nil {
		return err
	}
	return h.updateChild(w, r, childUpdate{entity: "bankdata", id: id, owner: "partnercompany_id", ownerID: partner, edit: checkedBank,
		answer: h.s.answerBankdata})
}

// normalBank writes the IBAN and BIC sent as stored.
func normalBank(b reqbody.Body) {
	for _, f := range []string{"bankdata_iban", "bankdata_bic"} {
		if s, ok := b[f].(string); ok {
			b[f] = normalIBAN(s)
		}
	}
}

// checkedBank is normalBank followed by the IBAN check.
func checkedBank(b reqbody.Body) error {
	normalBank(b)
	return checkIBAN(b)
}

// answerBankdata answers bank account id as the caller reads it (the
// IBAN masked unless the caller may edit bank data).
func (s *Service) answerBankdata(ctx context.Context, w http.ResponseWriter, status int, id int64) error {
	raw, err := s.engine.ReadIn(ctx, s.db, "bankdata", id)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, status, map[string]json.RawMessage{"data": raw})
	return nil
}

// createKreditornumber serves POST /partners/{id}/kreditornumber:
// company_id and kreditornumber_number, unique per company (422).
func (h *handler) createKreditornumber(w http.ResponseWriter, r *http.Request) error {
	partner, err := h.partner(r)
	if err != nil {
		return err
	}
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	if err := ownerField(b, "partnercompany_id", partner); err != nil {
		return err
	}
	return h.createAnswered(w, r, "kreditornumber", b, "company_id")
}

// updateKreditornumber serves PUT
// /partners/{id}/kreditornumber/{kreditornumber_id} with row_version and
// the changed values.
func (h *handler) updateKreditornumber(w http.ResponseWriter, r *http.Request) error {
	partner, err := h.partner(r)
	if err != nil {
		return err
	}
	id, err := httpapi.PathID(r, "kreditornumber_id")
	if err != nil {
		return err
	}
	return h.updateChild(w, r, childUpdate{entity: "kreditornumber", id: id, owner: "partnercompany_id", ownerID: partner,
		answer: func(ctx context.Context, w http.ResponseWriter, status int, id int64) error {
			return h.s.answerRecord(ctx, w, status, "kreditornumber", id)
		}})
}

// childUpdate is an update of a row that belongs to the record of the
// path (a partner's bank account).
type childUpdate struct {
	entity  string
	id      int64
	owner   string
	ownerID int64
	edit    func(reqbody.Body) error
	answer  func(ctx context.Context, w http.ResponseWriter, status int, id int64) error
}

// updateChild reads row_version and the changes, checks the row belongs to
// its owner (404 otherwise) and updates it.
func (h *handler) updateChild(w http.ResponseWriter, r *http.Request, u childUpdate) error {
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	version, err := b.RowVersion()
	if err != nil {
		return err
	}
	delete(b, u.entity+"_id")
	if err := ownerField(b, u.owner, u.ownerID); err != nil {
		return err
	}
	if u.edit != nil {
		if err := u.edit(b); err != nil {
			return err
		}
	}
	ctx := r.Context()
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := h.s.mustBelong(ctx, tx, u.entity, u.id, u.owner, u.ownerID); err != nil {
			return err
		}
		return h.s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: u.entity, ID: u.id, RowVersion: version, Data: b})
	})
	if err != nil {
		return err
	}
	return u.answer(ctx, w, http.StatusOK, u.id)
}
