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
	"portfolio/internal/platform/clock"
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
	// changed, when set, is told after a committed write that changes what
	// the clauses yield: an import that changed values, an edited clause,
	// a payment's amount, value deposit or clause (the app enqueues the
	// index_adjustments job, whose run replaces the proposals that no
	// longer follow).
	changed func(ctx context.Context)
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
		d.Now = clock.Now
	}
	s := &Service{db: d.DB, engine: d.Engine, catalog: d.Catalog, log: d.Log, now: d.Now}
	s.engine.OnWrite(entityClause, tables.HookFunc(s.beforeClauseWrite))
	s.engine.OnWrite(entityPayment, tables.HookFunc(s.beforePaymentWrite))
	return s
}

// AfterChange sets what runs after a committed write changed what the
// clauses yield.
func (s *Service) AfterChange(f func(ctx context.Context)) { s.changed = f }

// clauseInputs are the fields of an index clause its evaluation reads.
var clauseInputs = []string{"priceindex_id", "indexclause_baseyear", "indexclause_begin_date", "indextransmission_percent",
	"change_in_percent", "indexclause_minimal_percent_change", "indexclause_minimal_point_change",
	"indexclause_percent_decimals", "indexclause_threshold_rule", "indexclause_min_months", "indexclause_schedule_months",
	"indexclause_max_percent", "indexclause_min_percent", "indexclause_upward_only"}

// paymentInputs are the fields of a recurring payment its evaluation
// reads.
var paymentInputs = []string{"recurringpayment_sum_per_month", "recurringpayment_value_deposit", "indexclause_id",
	"recurringpayment_begin_date", "recurringpayment_end_date"}

// beforeClauseWrite fills an index clause's empty series with the default
// series on every write (decision 0011), and has the proposals
// re-evaluated once an edit of what the evaluation reads has committed.
func (s *Service) beforeClauseWrite(ctx context.Context, w *tables.WriteContext) error {
	if w.Record["priceindex_id"] == nil {
		w.Values["priceindex_id"] = schema.DefaultPriceIndexID
	}
	if !w.Creating {
		s.reevaluateAfter(ctx, w, clauseInputs)
	}
	return nil
}

// beforePaymentWrite has the proposals re-evaluated once a write of what
// the evaluation reads of a payment has committed (a new payment with
// value deposit is evaluated at once rather than at the next daily run).
func (s *Service) beforePaymentWrite(ctx context.Context, w *tables.WriteContext) error {
	if w.Creating && !truthy(w.Record["recurringpayment_value_deposit"]) {
		return nil
	}
	s.reevaluateAfter(ctx, w, paymentInputs)
	return nil
}

// reevaluateAfter tells s.changed after w's transaction commits when w
// writes one of fields (a rolled-back write tells nothing).
func (s *Service) reevaluateAfter(ctx context.Context, w *tables.WriteContext, fields []string) {
	if s.changed == nil || w.Tx == nil {
		return
	}
	for _, f := range fields {
		if _, ok := w.Values[f]; ok {
			ctx := context.WithoutCancel(ctx)
			w.Tx.AfterCommit(func() { s.changed(ctx) })
			return
		}
	}
}

// truthy reads a switch value as the engine stores it.
func truthy(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case int64:
		return x != 0
	case int:
		return x != 0
	case float64:
		return x != 0
	}
	return false
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
	srv.Handle("POST /indexadjustments/explanations", h.explanations)
}

type handler struct {
	s   *Service
	log *slog.Logger
}
