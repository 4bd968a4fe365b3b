package jobs

import (
	"net/http"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/httpapi"
)

// Bind registers the Back Office job routes (administrators only).
func Bind(srv *httpapi.Server, q *Queue) {
	h := &handler{q: q}
	srv.Handle("GET /backoffice/jobs", h.list)
	srv.Handle("POST /backoffice/jobs/{name}/run", h.run)
}

type handler struct{ q *Queue }

// listAnswer is the answer of GET /backoffice/jobs.
type listAnswer struct {
	Jobs []Status `json:"jobs"`
}

func (h *handler) list(w http.ResponseWriter, r *http.Request) error {
	if err := authorize(r); err != nil {
		return err
	}
	jobs, err := h.q.List(r.Context())
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, listAnswer{Jobs: jobs})
	return nil
}

func (h *handler) run(w http.ResponseWriter, r *http.Request) error {
	if err := authorize(r); err != nil {
		return err
	}
	st, err := h.q.Enqueue(r.Context(), r.PathValue("name"))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusAccepted, st)
	return nil
}

// authorize lets administrators through: the jobs are the whole
// installation's, not any tenant's.
func authorize(r *http.Request) error {
	p, ok := auth.PrincipalFrom(r.Context())
	if !ok {
		return apperr.Unauthorized("server.auth.not_authenticated")
	}
	if !p.IsAdmin() {
		return apperr.Forbidden("server.auth.forbidden")
	}
	return nil
}
