package tables

import (
	"net/http"
	"strconv"

	"portfolio/internal/httpapi"
)

// listViews serves GET /api/views?entity=pos.
func (h *handler) listViews(w http.ResponseWriter, r *http.Request) error {
	views, err := h.e.Views(r.Context(), r.URL.Query().Get("entity"))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": views})
	return nil
}

// createView serves POST /api/views.
func (h *handler) createView(w http.ResponseWriter, r *http.Request) error {
	var cmd SaveViewCommand
	if err := httpapi.DecodeJSON(r, &cmd, true); err != nil {
		return err
	}
	v, err := h.e.SaveView(r.Context(), cmd)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, map[string]any{"data": v})
	return nil
}

// updateView serves PUT /api/views/{id}.
func (h *handler) updateView(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return errNotFound()
	}
	var cmd SaveViewCommand
	if err := httpapi.DecodeJSON(r, &cmd, true); err != nil {
		return err
	}
	cmd.ID = id
	v, err := h.e.SaveView(r.Context(), cmd)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": v})
	return nil
}

// deleteView serves DELETE /api/views/{id}.
func (h *handler) deleteView(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return errNotFound()
	}
	if err := h.e.DeleteView(r.Context(), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
