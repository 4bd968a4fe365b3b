// Package contracts is the lease contract module: the deadlines' notice
// dates (computed on every write of a deadline or of its contract's end
// date) and their status lifecycle, and the tax rates a contract's
// payments may use. The contract steps and the alerts will live here too.
package contracts

import (
	"context"
	"log/slog"
	"net/http"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/clock"
	"portfolio/internal/platform/deadline"
	"portfolio/internal/platform/mailer"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/tables"
)

// Service answers the contract calls, keeps the deadlines' notice dates
// and sends their alerts.
type Service struct {
	db        *db.DB
	engine    *tables.Engine
	outbox    *mailer.Outbox
	catalog   *i18n.Catalog // server texts (mails)
	attrs     *i18n.Catalog // shipped field and option labels
	publicURL string
	lights    deadline.Thresholds
	now       func() time.Time
	// principals give the digest its recipients' and the calendar feed its
	// link owner's rights.
	principals PrincipalSource
	// dueSources are the modules whose dated items the digest and the
	// calendar carry, this module's deadlines first (due.go).
	dueSources []DueSource
}

// Deps are what a Service is built from; Now defaults to time.Now.
type Deps struct {
	DB        *db.DB
	Engine    *tables.Engine
	Outbox    *mailer.Outbox
	Catalog   *i18n.Catalog
	PublicURL string
	// Lights are the traffic light thresholds (zero: 30 and 90 days).
	Lights deadline.Thresholds
	Now    func() time.Time
	// Principals build the rights of a user who is not logged in (the
	// digest's recipient, a calendar link's owner): without them the
	// digest fails and the calendar feed answers 404.
	Principals PrincipalSource
}

// New returns the contract service and registers its rules with the
// engine.
func New(d Deps) *Service {
	if d.Now == nil {
		d.Now = clock.Now
	}
	if d.Lights == (deadline.Thresholds{}) {
		d.Lights = deadline.DefaultThresholds
	}
	s := &Service{db: d.DB, engine: d.Engine, outbox: d.Outbox, catalog: d.Catalog, attrs: i18n.MustLoadAttributes(),
		publicURL: d.PublicURL, lights: d.Lights, now: d.Now, principals: d.Principals}
	s.dueSources = []DueSource{deadlineSource{s}}
	s.registerHooks()
	return s
}

// Bind registers the contract routes.
func Bind(srv *httpapi.Server, s *Service) {
	h := &handler{s: s, log: srv.Logger()}
	srv.Handle("GET /contracts/tax-rates", h.taxRates)
	srv.Handle("GET /contracts/deadlines", h.deadlines)
	srv.Handle("GET /contracts/{id}", h.contract)
	srv.Handle("POST /contracts/step/0", h.createStep0)
	srv.Handle("PUT /contracts/step/0/{id}", h.updateStep0)
	srv.Handle("POST /contracts/step/2", h.savePayments)
	srv.Handle("PUT /contracts/step/2", h.savePayments)
	srv.Handle("POST /contracts/step/7", h.linkDocuments)
	srv.Handle("GET /user/deadline-alerts", h.alertSettings)
	srv.Handle("PUT /user/deadline-alerts", h.saveAlertSettings)
	srv.Handle("GET /contracts/deadlines/lights", h.lightThresholds)
	bindCalendar(srv, h)
}

type handler struct {
	s   *Service
	log *slog.Logger
}

// taxRates serves GET /contracts/tax-rates: the tax rates of the company
// of contract_id, or of company_id, or every tax rate the caller sees.
func (h *handler) taxRates(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	q, err := tables.ParseCustomQuery(v)
	if err != nil {
		return err
	}
	contract, err := tables.QueryID(v, "contract_id")
	if err != nil {
		return err
	}
	company, err := tables.QueryID(v, "company_id")
	if err != nil {
		return err
	}
	if contract > 0 {
		if company, err = h.s.companyOf(r.Context(), contract); err != nil {
			return err
		}
	}
	q.Entity = "taxrate"
	if company > 0 {
		q.Data = map[string]any{"company_id": company}
	}
	cur, err := h.s.engine.CustomList(r.Context(), q)
	if err != nil {
		return err
	}
	defer cur.Close()
	return tables.WriteCustomList(w, r, h.log, cur)
}

// companyOf returns the company of a contract the caller may read (404
// for a contract outside the caller's tenant).
func (s *Service) companyOf(ctx context.Context, contract int64) (int64, error) {
	rec, _, err := s.engine.GetIn(ctx, s.db, "contract", contract)
	if err != nil {
		return 0, err
	}
	company, _ := rec["company_id"].(int64)
	return company, nil
}
