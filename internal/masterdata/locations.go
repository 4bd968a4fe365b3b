package masterdata

import (
	"context"
	"encoding/json"
	"net/http"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/reqbody"
	"portfolio/internal/tables"
)

// locationAnswer is the answer of a location save: the location and its
// address as the generic read renders them.
type locationAnswer struct {
	Data    json.RawMessage `json:"data"`
	Address json.RawMessage `json:"address"`
}

// createLocation serves POST /locations: the location's fields and
// either address_id or an address object (a new address, its city found
// or created from zip, name and country), in one transaction.
func (h *handler) createLocation(w http.ResponseWriter, r *http.Request) error {
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	delete(b, "location_id")
	addr, err := h.s.readAddress(r.Context(), b)
	if err != nil {
		return err
	}
	ctx := r.Context()
	var id int64
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		var ref tables.NewRow
		if addr != nil {
			if addr.id > 0 {
				return reqbody.Prefixed("address", apperr.Validation(apperr.FieldError{Field: "address_id", Key: "validation.not_writable", Type: "not_writable"}))
			}
			addrID, _, err := h.s.saveAddress(ctx, tx, addr)
			if err != nil {
				return err
			}
			b["address_id"], ref = addrID, tables.NewRow{Entity: "address", ID: addrID}
		}
		if id, err = h.s.engine.CreateIn(ctx, tx, "location", b, tables.Referring(ref)); err != nil {
			return err
		}
		return h.s.mustSeeNew(ctx, tx, "location", id, "company_id")
	})
	if err != nil {
		return err
	}
	return h.s.answerLocation(ctx, w, http.StatusCreated, id)
}

// updateLocation serves PUT /locations: location_id and row_version name
// the location; an address object with edit=true, address_id (the
// location's own address) and row_version changes the address, one
// without address_id gives the location a new one.
func (h *handler) updateLocation(w http.ResponseWriter, r *http.Request) error {
	b, id, version, err := readUpdate(r, "location_id")
	if err != nil {
		return err
	}
	addr, err := h.s.readAddress(r.Context(), b)
	if err != nil {
		return err
	}
	ctx := r.Context()
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		rec, _, err := h.s.engine.GetIn(ctx, tx, "location", id)
		if err != nil {
			return err
		}
		var ref tables.NewRow
		if addr != nil {
			if own, _ := rec["address_id"].(int64); addr.id > 0 && addr.id != own {
				return apperr.NotFound("server.error.not_found")
			}
			addrID, isNew, err := h.s.saveAddress(ctx, tx, addr)
			if err != nil {
				return err
			}
			if isNew {
				b["address_id"], ref = addrID, tables.NewRow{Entity: "address", ID: addrID}
			}
		}
		return h.s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: "location", ID: id, RowVersion: version, Data: b}, tables.Referring(ref))
	})
	if err != nil {
		return err
	}
	return h.s.answerLocation(ctx, w, http.StatusOK, id)
}

// readLocation serves GET /locations/{id}: the location and its address,
// as a save answers them. A location outside the caller's tenant: 404.
func (h *handler) readLocation(w http.ResponseWriter, r *http.Request) error {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	return h.s.answerLocation(r.Context(), w, http.StatusOK, id)
}

// answerLocation answers location id with its address.
func (s *Service) answerLocation(ctx context.Context, w http.ResponseWriter, status int, id int64) error {
	rec, _, err := s.engine.GetIn(ctx, s.db, "location", id)
	if err != nil {
		return err
	}
	ans := locationAnswer{Address: json.RawMessage("null")}
	if ans.Data, err = s.engine.ReadIn(ctx, s.db, "location", id); err != nil {
		return err
	}
	if a, _ := rec["address_id"].(int64); a > 0 {
		if ans.Address, err = s.engine.ReadIn(ctx, s.db, "address", a); err != nil {
			return err
		}
	}
	httpapi.WriteJSON(w, status, ans)
	return nil
}

// locationPartners serves GET /locations/{id}/partnercompanies: the
// partner companies of a location over time (partner type, valid from and
// to), ten to a page unless per_page says otherwise.
func (h *handler) locationPartners(w http.ResponseWriter, r *http.Request) error {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	if _, _, err := h.s.engine.GetIn(r.Context(), h.s.db, "location", id); err != nil {
		return err
	}
	return h.list(w, r, tables.CustomListQuery{Entity: "location_partnercompany_rel", Data: map[string]any{"location_id": id}}, locationsPerPage)
}

// linkLocationPartner serves POST /locations/partnercompany: location_id,
// partnercompany_id, partnertype_id, valid_from and valid_to (optional,
// after valid_from: 422 otherwise).
func (h *handler) linkLocationPartner(w http.ResponseWriter, r *http.Request) error {
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	location, err := b.TakeID("location_id", true)
	if err != nil {
		return err
	}
	if from, ok := b["valid_from"].(string); ok {
		if to, ok := b["valid_to"].(string); ok && to != "" && from != "" && to <= from && len(to) == len(from) {
			return apperr.Validation(apperr.FieldError{Field: "valid_to", Key: "server.masterdata.valid_to_after", Type: "date_after"})
		}
	}
	ctx := r.Context()
	var out json.RawMessage
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		out, err = h.s.engine.LinkIn(ctx, tx, tables.LinkCommand{Relation: "location_partnercompany_rel", OwnerID: location, Data: b})
		return err
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, map[string]json.RawMessage{"data": out})
	return nil
}
