package masterdata

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/reqbody"
	"portfolio/internal/tables"
)

// Tax rates of a company are for administrators only: every other caller
// is refused with 403, whatever table rights on company or taxrate it
// holds.

// taxRateCompany checks the caller is an administrator and answers the
// company of the path (404 when there is none).
func (h *handler) taxRateCompany(r *http.Request) (int64, error) {
	if err := requireAdmin(r.Context(), "server.masterdata.admin_only"); err != nil {
		return 0, err
	}
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return 0, err
	}
	if err := h.s.engine.MustSeeIn(r.Context(), h.s.db, "company", id); err != nil {
		return 0, err
	}
	return id, nil
}

// listTaxRates serves GET /companies/{id}/tax-rates.
func (h *handler) listTaxRates(w http.ResponseWriter, r *http.Request) error {
	company, err := h.taxRateCompany(r)
	if err != nil {
		return err
	}
	return h.list(w, r, tables.CustomListQuery{Entity: "taxrate", Data: map[string]any{"company_id": company}}, tables.DefaultCustomPerPage)
}

// createTaxRate serves POST /companies/{id}/tax-rates: taxrate_code and
// taxrate_value (0 to 100) of a new tax rate of the company.
func (h *handler) createTaxRate(w http.ResponseWriter, r *http.Request) error {
	company, err := h.taxRateCompany(r)
	if err != nil {
		return err
	}
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	if err := ownerField(b, "company_id", company); err != nil {
		return err
	}
	return h.createAnswered(w, r, "taxrate", b, "company_id")
}

// updateTaxRate serves PUT /companies/{id}/tax-rates/{taxrate_id} with
// row_version and the changed values; a tax rate of another company
// answers 404.
func (h *handler) updateTaxRate(w http.ResponseWriter, r *http.Request) error {
	company, err := h.taxRateCompany(r)
	if err != nil {
		return err
	}
	id, err := httpapi.PathID(r, "taxrate_id")
	if err != nil {
		return err
	}
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	version, err := b.RowVersion()
	if err != nil {
		return err
	}
	if err := ownerField(b, "company_id", company); err != nil {
		return err
	}
	delete(b, "taxrate_id")
	ctx := r.Context()
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := h.s.mustBelong(ctx, tx, "taxrate", id, "company_id", company); err != nil {
			return err
		}
		return h.s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: "taxrate", ID: id, RowVersion: version, Data: b})
	})
	if err != nil {
		return err
	}
	return h.s.answerRecord(ctx, w, http.StatusOK, "taxrate", id)
}

// deleteTaxRates serves DELETE /companies/{id}/tax-rates with the list of
// tax rate ids to delete (a JSON array, or {"ids": [...]}); all or
// nothing: one id that is not a tax rate of the company answers 404 and
// deletes none.
func (h *handler) deleteTaxRates(w http.ResponseWriter, r *http.Request) error {
	company, err := h.taxRateCompany(r)
	if err != nil {
		return err
	}
	ids, err := readIDList(r, "ids")
	if err != nil {
		return err
	}
	ctx := r.Context()
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, id := range ids {
			if err := h.s.mustBelong(ctx, tx, "taxrate", id, "company_id", company); err != nil {
				return err
			}
			if err := h.s.engine.DeleteIn(ctx, tx, "taxrate", id, 0); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"deleted": ids})
	return nil
}

// readIDList reads a body that is a non-empty list of ids, as a JSON
// array or an object with the list in member name.
func readIDList(r *http.Request, name string) ([]int64, error) {
	var raw json.RawMessage
	if err := httpapi.DecodeJSON(r, &raw, false); err != nil {
		return nil, err
	}
	var ids []int64
	var err error
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
		var l []any
		if err := json.Unmarshal(raw, &l); err != nil {
			return nil, reqbody.TypeError(name, "list")
		}
		ids, err = reqbody.IDList(l, name)
	} else {
		b, derr := reqbody.Decode(raw, "body")
		if derr != nil {
			return nil, derr
		}
		if ids, err = b.TakeIDs(name); err == nil {
			err = noneLeft(b)
		}
	}
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, reqbody.Missing(name)
	}
	return ids, nil
}

// noneLeft refuses members of b no handler took.
func noneLeft(b reqbody.Body) error {
	for k := range b {
		return apperr.Validation(apperr.FieldError{Field: k, Key: "validation.unknown_field", Type: "extra_forbidden"})
	}
	return nil
}

// ownerField sets field of b to owner, the record of the path; a body
// naming another one is refused (422).
func ownerField(b reqbody.Body, field string, owner int64) error {
	if _, ok := b[field]; ok {
		sent, err := b.TakeID(field, false)
		if err != nil {
			return err
		}
		if sent != owner {
			return apperr.Validation(apperr.FieldError{Field: field, Key: "validation.not_writable", Type: "not_writable"})
		}
	}
	b[field] = owner
	return nil
}

// mustBelong answers 404 unless row id of entity is in the caller's
// tenant and its field names owner.
func (s *Service) mustBelong(ctx context.Context, q db.Querier, entity string, id int64, field string, owner int64) error {
	rec, _, err := s.engine.GetIn(ctx, q, entity, id)
	if err != nil {
		return err
	}
	if got, _ := rec[field].(int64); got != owner {
		return apperr.NotFound("server.error.not_found")
	}
	return nil
}

// answerRecord answers record id of entity as the generic read renders
// it, as {"data": record}.
func (s *Service) answerRecord(ctx context.Context, w http.ResponseWriter, status int, entity string, id int64) error {
	rec, err := s.engine.ReadIn(ctx, s.db, entity, id)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, status, map[string]json.RawMessage{"data": rec})
	return nil
}
