// Package masterdata is the portfolio master data module: companies and
// their tax rates, partners with bank data and creditor numbers, contact
// persons, points of sale, locations and areas, and the postal code
// lookup. It binds the master-data calls of the specification and reads
// and writes through the table engine's module API (internal/tables,
// module.go), so its writes carry the same rights, tenant scope,
// validation, history and row_version checks as the generic ones. Every
// write of one call runs in one transaction: a refused part leaves
// nothing written.
package masterdata

import (
	"context"
	"log/slog"
	"net/http"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/reqbody"
	"portfolio/internal/tables"
)

// Service answers the master-data calls.
type Service struct {
	db     *db.DB
	engine *tables.Engine
	log    *slog.Logger
	postal *postalCodes
}

// New returns the master-data service and registers its write rules with
// the engine (the IBAN check of bank data), so every write applies them.
func New(d *db.DB, engine *tables.Engine, log *slog.Logger) *Service {
	engine.OnWrite("bankdata", tables.HookFunc(checkBankdata))
	return &Service{db: d, engine: engine, log: log, postal: newPostalCodes(d)}
}

// Bind registers the master-data routes.
func Bind(srv *httpapi.Server, s *Service) {
	h := &handler{s: s, log: srv.Logger()}
	srv.Handle("GET /companies", h.listCompanies)
	srv.Handle("GET /companies/{id}", h.readCompany)
	srv.Handle("POST /companies/", h.createCompany)
	srv.Handle("PUT /companies/", h.updateCompany)
	srv.Handle("GET /companies/{id}/tax-rates", h.listTaxRates)
	srv.Handle("POST /companies/{id}/tax-rates", h.createTaxRate)
	srv.Handle("PUT /companies/{id}/tax-rates/{taxrate_id}", h.updateTaxRate)
	srv.Handle("DELETE /companies/{id}/tax-rates", h.deleteTaxRates)
	srv.Handle("POST /partners/new", h.createPartner)
	srv.Handle("PUT /partners/new", h.updatePartner)
	srv.Handle("GET /partners/{id}/bankdata", h.partnerBankdata)
	srv.Handle("POST /partners/{id}/bankdata", h.createBankdata)
	srv.Handle("PUT /partners/{id}/bankdata/{bankdata_id}", h.updateBankdata)
	srv.Handle("POST /partners/{id}/kreditornumber", h.createKreditornumber)
	srv.Handle("PUT /partners/{id}/kreditornumber/{kreditornumber_id}", h.updateKreditornumber)
	srv.Handle("GET /contacts", h.listContacts)
	srv.Handle("GET /contacts/{id}", h.readContact)
	srv.Handle("POST /contacts", h.createContact)
	srv.Handle("PUT /contacts", h.updateContact)
	srv.Handle("POST /pos", h.createPos)
	srv.Handle("PUT /pos", h.updatePos)
	srv.Handle("DELETE /pos", h.deletePosLinks)
	srv.Handle("GET /areas", h.listAreas)
	srv.Handle("GET /areas/serviceobjects/list", h.listAreaServiceObjects)
	srv.Handle("GET /locations", h.listLocations)
	srv.Handle("POST /locations", h.createLocation)
	srv.Handle("PUT /locations", h.updateLocation)
	srv.Handle("GET /locations/{id}", h.readLocation)
	srv.Handle("GET /locations/{id}/partnercompanies", h.locationPartners)
	srv.Handle("POST /locations/partnercompany", h.linkLocationPartner)
	srv.Handle("GET /users/state/{zip}", h.stateOfZip)
	srv.Handle("POST /tickets/{id}/customer", h.createNewCustomer)
}

// handler decodes the master-data requests and encodes their answers.
type handler struct {
	s   *Service
	log *slog.Logger
}

// principal is the caller of ctx (401 without one).
func principal(ctx context.Context) (*auth.Principal, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return nil, apperr.Unauthorized("server.auth.not_authenticated")
	}
	return p, nil
}

// requireAdmin answers 403 with the server text refusal unless the caller
// is an administrator, whatever table rights the caller holds.
func requireAdmin(ctx context.Context, refusal string) error {
	p, err := principal(ctx)
	if err != nil {
		return err
	}
	if !p.IsAdmin() {
		return apperr.Forbidden(refusal)
	}
	return nil
}

// created stores a new row of entity in tx through the engine and makes
// sure the caller sees it afterwards (the engine leaves that check to the
// module, which may link the row first): a row outside the caller's
// tenant is refused like an unknown reference on field.
func (s *Service) created(ctx context.Context, tx *db.Tx, entity string, data map[string]any, field string) (int64, error) {
	id, err := s.engine.CreateIn(ctx, tx, entity, data)
	if err != nil {
		return 0, err
	}
	return id, s.mustSeeNew(ctx, tx, entity, id, field)
}

// createAnswered creates a row of entity from b in a transaction of its own
// (created: the new row must be the caller's, else 422 on field) and
// answers it with 201.
func (h *handler) createAnswered(w http.ResponseWriter, r *http.Request, entity string, b reqbody.Body, field string) error {
	ctx := r.Context()
	var id int64
	err := h.s.db.InTx(ctx, func(tx *db.Tx) error {
		var err error
		id, err = h.s.created(ctx, tx, entity, b, field)
		return err
	})
	if err != nil {
		return err
	}
	return h.s.answerRecord(ctx, w, http.StatusCreated, entity, id)
}

// mustSeeNew refuses a row just written that the caller would not see.
func (s *Service) mustSeeNew(ctx context.Context, tx *db.Tx, entity string, id int64, field string) error {
	p, err := principal(ctx)
	if err != nil {
		return err
	}
	ok, err := s.engine.VisibleTo(ctx, tx, p, entity, id)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.Validation(apperr.FieldError{Field: field, Key: "validation.unknown_reference", Type: "unknown_reference"})
	}
	return nil
}
