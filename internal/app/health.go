package app

import (
	"context"
	"net/http"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
)

// bindHealth registers /healthz (the process answers) and /readyz (the
// database answers and is fully migrated).
func bindHealth(srv *httpapi.Server, d *db.DB) {
	srv.Handle("GET /healthz", func(w http.ResponseWriter, r *http.Request) error {
		httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok"})
		return nil
	}, httpapi.Public())
	srv.Handle("GET /readyz", func(w http.ResponseWriter, r *http.Request) error {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := d.Ping(ctx); err != nil {
			return apperr.New(apperr.KindUnavailable, "server.error.unavailable").Wrap(err)
		}
		pending, err := d.PendingMigrations(ctx)
		if err != nil || pending > 0 {
			return apperr.New(apperr.KindUnavailable, "server.error.unavailable").Wrap(err)
		}
		httpapi.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok", "database": string(d.Dialect())})
		return nil
	}, httpapi.Public())
}
