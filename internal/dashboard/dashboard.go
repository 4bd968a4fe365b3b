// Package dashboard answers the dashboards' figures (issue 17: the home's
// summary and portfolio map; issue 15: the ticket dashboard; decision
// 0019). Every figure is read inside the caller's tenant through the
// engine's Scoped sources and only when the caller may read the entity it
// counts; money and space are summed in Go with exact decimals.
package dashboard

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/platform/clock"
	"portfolio/internal/platform/deadline"
	"portfolio/internal/tables"
)

// Entities the dashboards count.
const (
	entityPos        = "pos"
	entityContract   = "contract"
	entityDeadline   = "contractaction"
	entityTicket     = "ticket"
	entityAdjustment = "indexadjustment"
	entityPoint      = "contradictionpoint"
	entityObjection  = "contradiction"
	entityInvoice    = "invoice"
	entityResult     = "inspectionresult"
	entityLocation   = "location"
	entityAddress    = "address"
	entityCity       = "city"
	entityCountry    = "country"
	entityBoard      = "board"
	entityColumn     = "columnx"
	entityTeam       = "team"
	entityTrack      = "trackrecord"
)

// horizonDays is the window of the deadline figure: notice dates from
// today to today plus 90 days.
const horizonDays = 90

// Service answers the dashboard calls.
type Service struct {
	db     *db.DB
	engine *tables.Engine
	lights deadline.Thresholds
	log    *slog.Logger
	now    func() time.Time
	// maps caches the portfolio map per scope and data generation
	// (mapcache.go); mapHits counts the answers it served.
	maps    mapCache
	mapHits atomic.Int64
}

// Deps are what a Service is built from; Lights default to
// deadline.DefaultThresholds, Now to time.Now.
type Deps struct {
	DB     *db.DB
	Engine *tables.Engine
	Lights deadline.Thresholds
	Log    *slog.Logger
	Now    func() time.Time
}

// New returns the service.
func New(d Deps) *Service {
	if d.Lights == (deadline.Thresholds{}) {
		d.Lights = deadline.DefaultThresholds
	}
	if d.Now == nil {
		d.Now = clock.Now
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &Service{db: d.DB, engine: d.Engine, lights: d.Lights, log: d.Log, now: d.Now}
}

// Bind registers the module's routes.
func Bind(srv *httpapi.Server, s *Service) {
	h := &handler{s: s}
	srv.Handle("GET /dashboard/summary", h.summary)
	srv.Handle("GET /dashboard/map", h.portfolioMap)
	srv.Handle("GET /dashboard/map/place", h.mapPlace)
	srv.Handle("GET /dashboard/tickets", h.tickets)
}

type handler struct{ s *Service }

// summary serves GET /dashboard/summary.
func (h *handler) summary(w http.ResponseWriter, r *http.Request) error {
	sum, err := h.s.Summary(r.Context())
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, sum)
	return nil
}

// tickets serves GET /dashboard/tickets.
func (h *handler) tickets(w http.ResponseWriter, r *http.Request) error {
	t, err := h.s.Tickets(r.Context())
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, t)
	return nil
}

// portfolioMap serves GET /dashboard/map (cached per scope and data
// generation).
func (h *handler) portfolioMap(w http.ResponseWriter, r *http.Request) error {
	m, err := h.s.MapCached(r.Context())
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, m)
	return nil
}

// mapPlace serves GET /dashboard/map/place?key=<country>-<postal code>.
func (h *handler) mapPlace(w http.ResponseWriter, r *http.Request) error {
	m, err := h.s.MapPlace(r.Context(), strings.TrimSpace(r.URL.Query().Get("key")))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, m)
	return nil
}

// mayRead reports whether the caller may read entity: false (not an error)
// when the rights say no, so a figure the caller may not see is left out
// instead of failing the whole dashboard.
func (s *Service) mayRead(ctx context.Context, entity string) (bool, error) {
	err := s.engine.Require(ctx, access.ActionRead, entity)
	if apperr.IsKind(err, apperr.KindForbidden) {
		return false, nil
	}
	return err == nil, err
}

// mayReadAll is mayRead over several entities.
func (s *Service) mayReadAll(ctx context.Context, entities ...string) (bool, error) {
	for _, e := range entities {
		ok, err := s.mayRead(ctx, e)
		if !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// scoped returns the caller's FROM items of entities, in order, and
// their arguments in the same order.
func (s *Service) scoped(ctx context.Context, pairs ...string) ([]string, []any, error) {
	if len(pairs)%2 != 0 {
		return nil, nil, errors.New("dashboard: scoped needs entity and alias pairs")
	}
	var froms []string
	var args []any
	for i := 0; i < len(pairs); i += 2 {
		src, err := s.engine.Scoped(ctx, pairs[i], pairs[i+1])
		if err != nil {
			return nil, nil, err
		}
		froms = append(froms, src.SQL)
		args = append(args, src.Args...)
	}
	return froms, args, nil
}
