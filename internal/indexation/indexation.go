// Package indexation is the index clause module (issue 13, decision 0011):
// price index series imported from the publisher's files, the evaluation
// of index clauses into chains of rent adjustment proposals, their
// approval or rejection, and the payment schedule of a contract with the
// approved adjustments. It reads and writes only through the engine's
// module API.
package indexation

import (
	"context"
	"embed"
	"log/slog"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/schema"
	"portfolio/internal/tables"
)

// Entities of the module.
const (
	entitySeries     = "priceindex"
	entityValue      = "priceindexvalue"
	entityAdjustment = "indexadjustment"
	entityPayment    = "recurringpayment"
	entityClause     = "indexclause"
	entityContract   = "contract"
)

// Adjustment statuses.
const (
	StatusProposed = "proposed"
	StatusApproved = "approved"
	StatusRejected = "rejected"
)

// JobName is the job that runs every index clause (after each import and
// on schedule): portfolio jobs run index_adjustments.
const JobName = "index_adjustments"

//go:embed data/61111-0002_de.csv data/README.md
var shipped embed.FS

// DefaultSeriesFile is the shipped copy of the German consumer price
// index (data/README.md keeps its attribution).
const DefaultSeriesFile = "data/61111-0002_de.csv"

// Service imports price index series, runs index clauses and answers the
// approval and schedule calls.
type Service struct {
	db      *db.DB
	engine  *tables.Engine
	catalog *i18n.Catalog
	log     *slog.Logger
	now     func() time.Time
	// imported, when set, is told after each import that changed values
	// (the app enqueues the index_adjustments job).
	imported func(ctx context.Context)
}

// Deps are what a Service is built from; Now defaults to time.Now.
type Deps struct {
	DB      *db.DB
	Engine  *tables.Engine
	Catalog *i18n.Catalog
	Log     *slog.Logger
	Now     func() time.Time
}

// New returns the service and registers its rules with the engine.
func New(d Deps) *Service {
	if d.Now == nil {
		d.Now = time.Now
	}
	s := &Service{db: d.DB, engine: d.Engine, catalog: d.Catalog, log: d.Log, now: d.Now}
	s.engine.OnWrite(entityClause, tables.HookFunc(defaultSeries))
	return s
}

// AfterImport sets what runs after an import changed values.
func (s *Service) AfterImport(f func(ctx context.Context)) { s.imported = f }

// defaultSeries fills an index clause's empty series with the default
// series on every write (decision 0011).
func defaultSeries(_ context.Context, w *tables.WriteContext) error {
	if w.Record["priceindex_id"] == nil {
		w.Values["priceindex_id"] = schema.DefaultPriceIndexID
	}
	return nil
}

// Bind registers the module's routes.
func Bind(srv *httpapi.Server, s *Service) {
	h := &handler{s: s, log: srv.Logger()}
	srv.Handle("POST /priceindexes/{id}/import", h.importFile, httpapi.MaxBody(maxImportBytes))
	srv.Handle("POST /indexadjustments/run", h.run)
	srv.Handle("POST /indexadjustments/{id}/approve", h.approve)
	srv.Handle("POST /indexadjustments/{id}/reject", h.reject)
	srv.Handle("GET /contracts/{id}/schedule", h.schedule)
	srv.Handle("GET /indexadjustments/{id}/letter.pdf", h.letterFile)
}

type handler struct {
	s   *Service
	log *slog.Logger
}
