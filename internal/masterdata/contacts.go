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
	"portfolio/internal/validate"
)

// Entities of a contact person save.
const (
	entityContact = "contactperson"
	entityDetails = "contactdetails"
	entityAddress = "address"
)

// contactAnswer is the answer of a contact person save: the contact
// person, its contact details and its address as the generic read renders
// them (null without one).
type contactAnswer struct {
	Data           json.RawMessage `json:"data"`
	Contactdetails json.RawMessage `json:"contactdetails"`
	Address        json.RawMessage `json:"address"`
}

// contactParts are the nested objects of a contact person save.
type contactParts struct {
	details, address *partInput
}

// readContactParts takes the contactdetails and address members of b.
func (s *Service) readContactParts(ctx context.Context, b reqbody.Body) (contactParts, error) {
	var p contactParts
	var err error
	if p.details, err = readPart(b, entityDetails); err != nil {
		return p, err
	}
	p.address, err = s.readAddress(ctx, b)
	return p, err
}

// readContact serves GET /contacts/{id}: the contact person with its
// contact details and address, as a save answers them. A contact person
// outside the caller's tenant: 404.
func (h *handler) readContact(w http.ResponseWriter, r *http.Request) error {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	return h.s.answerContact(r.Context(), w, http.StatusOK, id)
}

// createContact serves POST /contacts: the contact person's fields (its
// shortname derived from first and last name) with optional contactdetails
// and address objects, all written in one transaction.
func (h *handler) createContact(w http.ResponseWriter, r *http.Request) error {
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	delete(b, "contactperson_id") // the form may send an empty key
	parts, err := h.s.readContactParts(r.Context(), b)
	if err != nil {
		return err
	}
	ctx := r.Context()
	var id int64
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		refs, err := h.s.saveContactParts(ctx, tx, b, parts, nil)
		if err != nil {
			return err
		}
		// CreateIn refuses a contact person outside the caller's tenant.
		id, err = h.s.engine.CreateIn(ctx, tx, entityContact, b, tables.Referring(refs...))
		return err
	})
	if err != nil {
		return err
	}
	return h.s.answerContact(ctx, w, http.StatusCreated, id)
}

// updateContact serves PUT /contacts: contactperson_id and row_version
// name the contact person; a contactdetails object with contactdetails_id
// and row_version (an address object with address_id and row_version)
// changes its own contact details (address), one without the key gives it
// new ones. One transaction.
func (h *handler) updateContact(w http.ResponseWriter, r *http.Request) error {
	b, id, version, err := readUpdate(r, "contactperson_id")
	if err != nil {
		return err
	}
	parts, err := h.s.readContactParts(r.Context(), b)
	if err != nil {
		return err
	}
	ctx := r.Context()
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		stored, _, err := h.s.engine.GetIn(ctx, tx, entityContact, id)
		if err != nil {
			return err
		}
		refs, err := h.s.saveContactParts(ctx, tx, b, parts, stored)
		if err != nil {
			return err
		}
		return h.s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: entityContact, ID: id, RowVersion: version, Data: b},
			tables.Referring(refs...))
	})
	if err != nil {
		return err
	}
	return h.s.answerContact(ctx, w, http.StatusOK, id)
}

// saveContactParts stores the contact details and the address of a
// contact person (stored: its stored values; nil for a new one) inside tx.
// A part that names a row which is not the contact person's own answers
// 404; a new part is referred to from b and answered as a new row.
func (s *Service) saveContactParts(ctx context.Context, tx *db.Tx, b reqbody.Body, parts contactParts, stored validate.Record) ([]tables.NewRow, error) {
	var refs []tables.NewRow
	for _, in := range []*partInput{parts.details, parts.address} {
		if in == nil {
			continue
		}
		key := in.entity + "_id"
		if own, _ := stored[key].(int64); in.id > 0 && in.id != own {
			return nil, apperr.NotFound("server.error.not_found")
		}
		save := s.savePart
		if in.entity == entityAddress {
			save = s.saveAddress
		}
		id, isNew, err := save(ctx, tx, in)
		if err != nil {
			return nil, err
		}
		if isNew {
			b[key] = id
			refs = append(refs, tables.NewRow{Entity: in.entity, ID: id})
		}
	}
	return refs, nil
}

// answerContact answers contact person id with its contact details and
// address as the caller reads them.
func (s *Service) answerContact(ctx context.Context, w http.ResponseWriter, status int, id int64) error {
	rec, _, err := s.engine.GetIn(ctx, s.db, entityContact, id)
	if err != nil {
		return err
	}
	ans := contactAnswer{Contactdetails: json.RawMessage("null"), Address: json.RawMessage("null")}
	if ans.Data, err = s.engine.ReadIn(ctx, s.db, entityContact, id); err != nil {
		return err
	}
	for _, part := range []struct {
		entity string
		out    *json.RawMessage
	}{{entityDetails, &ans.Contactdetails}, {entityAddress, &ans.Address}} {
		if ref, _ := rec[part.entity+"_id"].(int64); ref > 0 {
			if *part.out, err = s.engine.ReadIn(ctx, s.db, part.entity, ref); err != nil {
				return err
			}
		}
	}
	httpapi.WriteJSON(w, status, ans)
	return nil
}
