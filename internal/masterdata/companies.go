package masterdata

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/reqbody"
	"portfolio/internal/tables"
)

// companyAnswer is the answer of a company save: the company as the
// generic read renders it and its address (null without one).
type companyAnswer struct {
	Data    json.RawMessage `json:"data"`
	Address json.RawMessage `json:"address"`
}

// readCompany serves GET /companies/{id}: the company and its address
// (null without one), as a save answers them, so the company page reads
// and writes one shape. A company outside the caller's tenant: 404.
func (h *handler) readCompany(w http.ResponseWriter, r *http.Request) error {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	return h.s.answerCompany(r.Context(), w, http.StatusOK, id)
}

// createCompany serves POST /companies/: a company and, when the body
// carries an address object, its address and company details, in one
// transaction.
func (h *handler) createCompany(w http.ResponseWriter, r *http.Request) error {
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	addr, err := h.s.readAddress(r.Context(), b)
	if err != nil {
		return err
	}
	ctx := r.Context()
	var id int64
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		if id, err = h.s.created(ctx, tx, "company", b, "customergroup_id"); err != nil {
			return err
		}
		if addr == nil {
			return nil
		}
		return h.s.setCompanyAddress(ctx, tx, id, addr)
	})
	if err != nil {
		return err
	}
	return h.s.answerCompany(ctx, w, http.StatusCreated, id)
}

// updateCompany serves PUT /companies/: company_id and row_version name
// the company; an address object with edit=true, address_id and
// row_version changes its address, one without address_id gives it a new
// one. Company and address are written in one transaction.
func (h *handler) updateCompany(w http.ResponseWriter, r *http.Request) error {
	b, id, version, err := readUpdate(r, "company_id")
	if err != nil {
		return err
	}
	addr, err := h.s.readAddress(r.Context(), b)
	if err != nil {
		return err
	}
	ctx := r.Context()
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := h.s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: "company", ID: id, RowVersion: version, Data: b}); err != nil {
			return err
		}
		if addr == nil {
			return nil
		}
		return h.s.setCompanyAddress(ctx, tx, id, addr)
	})
	if err != nil {
		return err
	}
	return h.s.answerCompany(ctx, w, http.StatusOK, id)
}

// setCompanyAddress stores addr as the address of company (its company
// details row, created when the company has none).
func (s *Service) setCompanyAddress(ctx context.Context, tx *db.Tx, company int64, addr *partInput) error {
	if addr.id > 0 {
		own, err := s.companyAddress(ctx, tx, company)
		if err != nil {
			return err
		}
		if own.address != addr.id {
			return apperr.NotFound("server.error.not_found")
		}
	}
	addrID, isNew, err := s.saveAddress(ctx, tx, addr)
	if err != nil || !isNew {
		return err
	}
	det, err := s.companyAddress(ctx, tx, company)
	if err != nil {
		return err
	}
	ref := tables.NewRow{Entity: "address", ID: addrID}
	if det.id == 0 {
		id, err := s.engine.CreateIn(ctx, tx, "companydetails", map[string]any{"company_id": company, "address_id": addrID}, tables.Referring(ref))
		if err != nil {
			return reqbody.Prefixed("address", err)
		}
		return s.mustSeeNew(ctx, tx, "companydetails", id, "company_id")
	}
	return s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: "companydetails", ID: det.id, RowVersion: det.version,
		Data: map[string]any{"address_id": addrID}}, tables.Referring(ref))
}

// details is a company's company details row: its key, row_version and
// address (zeros: none).
type details struct {
	id, version, address int64
}

// companyAddress reads the company details of company within the
// caller's tenant.
func (s *Service) companyAddress(ctx context.Context, q db.Querier, company int64) (details, error) {
	src, err := s.engine.Scoped(ctx, "companydetails", "cd")
	if err != nil {
		return details{}, err
	}
	rows, err := q.QueryContext(ctx, `SELECT cd.companydetails_id, cd.row_version, COALESCE(cd.address_id, 0) FROM `+src.SQL+
		` WHERE cd.company_id = ?`, append(src.Args, company)...)
	if err != nil {
		return details{}, fmt.Errorf("masterdata: company details of %d: %w", company, err)
	}
	defer rows.Close()
	var d details
	if rows.Next() {
		if err := rows.Scan(&d.id, &d.version, &d.address); err != nil {
			return details{}, fmt.Errorf("masterdata: company details of %d: %w", company, err)
		}
	}
	if err := rows.Err(); err != nil {
		return details{}, fmt.Errorf("masterdata: company details of %d: %w", company, err)
	}
	return d, nil
}

// answerCompany answers company id and its address as the caller reads
// them.
func (s *Service) answerCompany(ctx context.Context, w http.ResponseWriter, status int, id int64) error {
	company, err := s.engine.ReadIn(ctx, s.db, "company", id)
	if err != nil {
		return err
	}
	ans := companyAnswer{Data: company, Address: json.RawMessage("null")}
	det, err := s.companyAddress(ctx, s.db, id)
	if err != nil {
		return err
	}
	if det.address > 0 {
		if ans.Address, err = s.engine.ReadIn(ctx, s.db, "address", det.address); err != nil {
			return err
		}
	}
	httpapi.WriteJSON(w, status, ans)
	return nil
}
