// Package masterdata is the portfolio master data module: companies and
// their tax rates, partners with bank data and creditor numbers, contact
// persons, points of sale, locations and areas, and the postal code
// lookup. It binds the master-data calls of the specification and reads
// and writes through the table engine's module API (internal/tables,
// module.go), so its writes carry the same rights, tenant scope,
// validation, history and row_version checks as the generic ones.
package masterdata

import (
	"log/slog"
	"net/http"
	"strconv"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/tables"
)

// Service answers the master-data calls.
type Service struct {
	db     *db.DB
	engine *tables.Engine
	log    *slog.Logger
}

// New returns the master-data service.
func New(d *db.DB, engine *tables.Engine, log *slog.Logger) *Service {
	return &Service{db: d, engine: engine, log: log}
}

// Bind registers the master-data routes.
func Bind(srv *httpapi.Server, s *Service) {
	h := &handler{s: s, log: srv.Logger()}
	srv.Handle("GET /partners/{id}/bankdata", h.partnerBankdata)
}

// handler decodes the master-data requests and encodes their answers.
type handler struct {
	s   *Service
	log *slog.Logger
}

// pathID reads the {name} path value as a record key; anything else
// names no record (404).
func pathID(r *http.Request, name string) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	if err != nil || id <= 0 {
		return 0, apperr.NotFound("server.error.not_found")
	}
	return id, nil
}

// partnerBankdata serves GET /partners/{id}/bankdata: the bank accounts
// of a partner company (its bankdata relation), as a custom list.
func (h *handler) partnerBankdata(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r, "id")
	if err != nil {
		return err
	}
	q, err := tables.ParseCustomQuery(r.URL.Query())
	if err != nil {
		return err
	}
	q.Entity, q.Data = "partnercompany_bankdata_rel", map[string]any{"partnercompany_id": id}
	cur, err := h.s.engine.CustomList(r.Context(), q)
	if err != nil {
		return err
	}
	defer cur.Close()
	return tables.WriteCustomList(w, r, h.log, cur)
}
