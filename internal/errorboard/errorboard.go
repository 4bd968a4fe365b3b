// Package errorboard is the error dashboard (issue 17): what went wrong
// without anyone watching — job runs that failed for good, mail that could
// not be delivered, imports whose commit failed, and the server's recent
// failed answers (5xx) with their request ids — each to be retried (runs,
// mail, imports) or dismissed. It is for
// administrators and the roles given the error_dashboard menu (the team
// leads): the entries are the installation's, not a tenant's.
package errorboard

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/imports"
	"portfolio/internal/jobs"
	"portfolio/internal/platform/clock"
	"portfolio/internal/platform/mailer"
	"portfolio/internal/tables"
)

// listLimit bounds each list of the dashboard: the newest entries.
const listLimit = 100

// keptFailures is how many recorded failed answers are kept.
const keptFailures = 1000

// menuSubject is the access subject that opens the error dashboard.
const menuSubject = access.MenuPrefix + "error_dashboard"

// Service records failed answers and answers the error dashboard.
type Service struct {
	db     *db.DB
	jobs   *jobs.Queue
	outbox *mailer.Outbox
	// imports answers the failed imports (the imports module's service:
	// the board reads them through it, never its tables).
	imports Imports
	// engine and catalog serve the Back Office's translation edits.
	engine  *tables.Engine
	catalog *i18n.Catalog
	log     *slog.Logger
	now     func() time.Time
}

// Deps are what a Service is built from (Jobs and Outbox may be set later
// with Use, as the app builds them after its server).
type Deps struct {
	DB  *db.DB
	Log *slog.Logger
	Now func() time.Time
}

// New returns the service.
func New(d Deps) *Service {
	if d.Now == nil {
		d.Now = clock.Now
	}
	if d.Log == nil {
		d.Log = slog.Default()
	}
	return &Service{db: d.DB, log: d.Log, now: d.Now}
}

// Use gives the service the job queue and the mail outbox it reports on.
func (s *Service) Use(q *jobs.Queue, o *mailer.Outbox) { s.jobs, s.outbox = q, o }

// Imports is what the board needs of the imports module
// (*imports.Service).
type Imports interface {
	FailedImports(ctx context.Context, limit int) ([]imports.FailedImport, error)
	RetryFailed(ctx context.Context, id int64) error
	DismissFailed(ctx context.Context, id int64) error
}

// UseImports gives the service the imports module it reports on.
func (s *Service) UseImports(i Imports) { s.imports = i }

// Failure is a recorded failed answer.
type Failure struct {
	ID         int64     `json:"id"`
	OccurredAt time.Time `json:"occurred_at"`
	RequestID  string    `json:"request_id"`
	Method     string    `json:"method"`
	Path       string    `json:"path"`
	Route      string    `json:"route"`
	Status     int       `json:"status"`
	Message    string    `json:"message"`
}

// Board is GET /backoffice/errors.
type Board struct {
	Jobs      []jobs.FailedRun       `json:"jobs"`
	Mails     []mailer.Undelivered   `json:"mails"`
	Imports   []imports.FailedImport `json:"imports"`
	Responses []Failure              `json:"responses"`
}

// Observe records a failed answer (5xx). A 503 is the request bound's
// deliberate answer under load (counted by the metrics), not a failure.
// Recording must never fail the request: an error is logged.
func (s *Service) Observe(o httpapi.Observation) {
	if o.Status < 500 || o.Status == http.StatusServiceUnavailable {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := s.record(ctx, o); err != nil {
		s.log.Error("error dashboard: failed answer not recorded", "request_id", o.RequestID, "error", err)
	}
}

func (s *Service) record(ctx context.Context, o httpapi.Observation) error {
	message := o.Failure
	if message == "" {
		message = http.StatusText(o.Status)
	}
	var id int64
	err := s.db.QueryRowContext(ctx, `INSERT INTO server_failure (occurred_at, request_id, failure_method, failure_path,
		failure_route, failure_status, failure_message) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING failure_id`,
		s.now().UTC(), o.RequestID, o.Method, o.Path, o.Pattern, o.Status, truncate(message, 2000)).Scan(&id)
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM server_failure WHERE failure_id <= ?`, id-keptFailures); err != nil {
		return fmt.Errorf("prune: %w", err)
	}
	return nil
}

// truncate cuts s to at most n bytes on a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// Board answers the newest entries of each kind.
func (s *Service) Board(ctx context.Context) (*Board, error) {
	out := &Board{Jobs: []jobs.FailedRun{}, Mails: []mailer.Undelivered{}, Imports: []imports.FailedImport{}, Responses: []Failure{}}
	if s.jobs != nil {
		runs, err := s.jobs.Failed(ctx, listLimit)
		if err != nil {
			return nil, err
		}
		out.Jobs = runs
	}
	mails, err := mailer.ListUndelivered(ctx, s.db, listLimit)
	if err != nil {
		return nil, err
	}
	out.Mails = mails
	if s.imports != nil {
		failed, err := s.imports.FailedImports(ctx, listLimit)
		if err != nil {
			return nil, err
		}
		out.Imports = failed
	}
	rows, err := s.db.QueryContext(ctx, `SELECT failure_id, occurred_at, request_id, failure_method, failure_path, failure_route,
		failure_status, failure_message FROM server_failure WHERE dismissed_at IS NULL ORDER BY failure_id DESC LIMIT ?`, listLimit)
	if err != nil {
		return nil, fmt.Errorf("errorboard: failures: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var f Failure
		if err := rows.Scan(&f.ID, &f.OccurredAt, &f.RequestID, &f.Method, &f.Path, &f.Route, &f.Status, &f.Message); err != nil {
			return nil, fmt.Errorf("errorboard: failures: %w", err)
		}
		out.Responses = append(out.Responses, f)
	}
	return out, rows.Err()
}

// Retry retries entry id of source ("jobs", "mails" or "imports": the
// import's commit runs again as its uploader).
func (s *Service) Retry(ctx context.Context, source string, id int64) error {
	switch source {
	case "jobs":
		if s.jobs == nil {
			return notFound()
		}
		return notFoundIf(s.jobs.RetryFailed(ctx, id), jobs.ErrNoSuchRun)
	case "mails":
		if err := notFoundIf(mailer.RetryUndelivered(ctx, s.db, id, s.now()), mailer.ErrNoSuchMail); err != nil {
			return err
		}
		if s.outbox != nil {
			s.outbox.Kick()
		}
		return nil
	case "imports":
		if s.imports == nil {
			return notFound()
		}
		return notFoundIf(s.imports.RetryFailed(ctx, id), imports.ErrNoSuchFailure)
	}
	return notFound()
}

// Dismiss takes entry id of source ("jobs", "mails", "imports" or
// "responses") off the dashboard.
func (s *Service) Dismiss(ctx context.Context, source string, id int64) error {
	switch source {
	case "jobs":
		if s.jobs == nil {
			return notFound()
		}
		return notFoundIf(s.jobs.DismissFailed(ctx, id), jobs.ErrNoSuchRun)
	case "mails":
		return notFoundIf(mailer.DismissUndelivered(ctx, s.db, id, s.now()), mailer.ErrNoSuchMail)
	case "imports":
		if s.imports == nil {
			return notFound()
		}
		return notFoundIf(s.imports.DismissFailed(ctx, id), imports.ErrNoSuchFailure)
	case "responses":
		res, err := s.db.ExecContext(ctx, `UPDATE server_failure SET dismissed_at = ? WHERE failure_id = ? AND dismissed_at IS NULL`, s.now().UTC(), id)
		if err != nil {
			return fmt.Errorf("errorboard: dismiss failure %d: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("errorboard: dismiss failure %d: %w", id, err)
		} else if n != 1 {
			return notFound()
		}
		return nil
	}
	return notFound()
}

func notFound() error { return apperr.NotFound("server.error.not_found") }

// notFoundIf answers 404 for the sentinel none, err otherwise.
func notFoundIf(err, none error) error {
	if errors.Is(err, none) {
		return notFound()
	}
	return err
}

// Bind registers the error dashboard's routes.
func Bind(srv *httpapi.Server, s *Service) {
	h := &handler{s: s}
	srv.Handle("GET /backoffice/errors", h.board)
	srv.Handle("POST /backoffice/errors/{source}/{id}/retry", h.retry)
	srv.Handle("POST /backoffice/errors/{source}/{id}/dismiss", h.dismiss)
}

type handler struct{ s *Service }

func (h *handler) board(w http.ResponseWriter, r *http.Request) error {
	if err := h.s.authorize(r.Context()); err != nil {
		return err
	}
	b, err := h.s.Board(r.Context())
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, b)
	return nil
}

func (h *handler) retry(w http.ResponseWriter, r *http.Request) error {
	return h.change(w, r, h.s.Retry)
}

func (h *handler) dismiss(w http.ResponseWriter, r *http.Request) error {
	return h.change(w, r, h.s.Dismiss)
}

func (h *handler) change(w http.ResponseWriter, r *http.Request, do func(context.Context, string, int64) error) error {
	if err := h.s.authorize(r.Context()); err != nil {
		return err
	}
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	if err := do(r.Context(), r.PathValue("source"), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// authorize lets administrators and the roles with the error_dashboard
// menu through.
func (s *Service) authorize(ctx context.Context) error {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return apperr.Unauthorized("server.auth.not_authenticated")
	}
	if p.IsAdmin() {
		return nil
	}
	rules, err := access.RulesFor(ctx, s.db, p.Subject())
	if err != nil {
		return fmt.Errorf("errorboard: rights of user %d: %w", p.UserID, err)
	}
	if !access.Can(rules, access.ActionRead, menuSubject) {
		return apperr.Forbidden("server.auth.forbidden")
	}
	return nil
}
