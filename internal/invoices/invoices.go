// Package invoices is the invoice review module (issue 14, decision 0016):
// the invoice page's read (GET /invoices/{id}) with exact sums, the
// contradiction generator that checks every position against the lease,
// the objection letter of a contradiction package in three languages, the
// rule that a package holds only contradictions of its point of sale, and
// the savings (claimed, accepted, realised). It reads and writes only
// through the engine's module API.
package invoices

import (
	"log/slog"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/clock"
	"portfolio/internal/tables"
)

// Entities of the module.
const (
	entityInvoice    = "invoice"
	entityPosition   = "invoiceposition"
	entityContract   = "contract"
	entityCompany    = "company"
	entityCostType   = "costtype"
	entityPayment    = "recurringpayment"
	entityAdjustment = "indexadjustment"
	entityTaxRate    = "taxrate"
	entityTextModule = "textmodule"
	entityPoint      = "contradictionpoint"
	entityContra     = "contradiction"
	entityPackage    = "contradictionpackage"
	entityResult     = "inspectionresult"
)

// Service answers the invoice review calls.
type Service struct {
	db      *db.DB
	engine  *tables.Engine
	catalog *i18n.Catalog
	log     *slog.Logger
	now     func() time.Time
}

// Deps are what a Service is built from; Now defaults to time.Now.
type Deps struct {
	DB      *db.DB
	Engine  *tables.Engine
	Catalog *i18n.Catalog
	Log     *slog.Logger
	Now     func() time.Time
}

// New returns the service and registers its rules with the engine: a
// contradiction joins only a package of its own point of sale; an
// invoice's statement deadlines follow its dates and its contract's
// periods.
func New(d Deps) *Service {
	if d.Now == nil {
		d.Now = clock.Now
	}
	s := &Service{db: d.DB, engine: d.Engine, catalog: d.Catalog, log: d.Log, now: d.Now}
	s.engine.OnWrite(entityContra, packageRule{s: s})
	s.engine.OnWrite(entityInvoice, deadlineHook{s: s})
	s.engine.OnWrite(entityInvoice, responsibleHook{})
	s.engine.OnWrite(entityContract, contractHook{s: s})
	return s
}

// Bind registers the module's routes.
func Bind(srv *httpapi.Server, s *Service) {
	h := &handler{s: s}
	srv.Handle("GET /invoices/savings", h.savings)
	srv.Handle("POST /invoices", h.createInvoice)
	srv.Handle("GET /invoices/{id}", h.invoice)
	srv.Handle("POST /contradiction_generators/start", h.generate)
	srv.Handle("POST /contradictionpackages", h.createPackage)
	srv.Handle("GET /contradictionpackages/{id}/letter.pdf", h.letterFile)
}

type handler struct{ s *Service }
