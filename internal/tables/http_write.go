package tables

import (
	"bytes"
	"net/http"

	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
)

func (h *handler) create(w http.ResponseWriter, r *http.Request, req *apiRequest) error {
	data, err := decodeObject(req.Data, "data")
	if err != nil {
		return err
	}
	ans, err := h.e.Create(r.Context(), CreateCommand{Entity: req.Entity, Data: data})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, ans)
	return nil
}

func (h *handler) update(w http.ResponseWriter, r *http.Request, req *apiRequest) error {
	id, err := req.requestID()
	if err != nil {
		return err
	}
	data, err := decodeObject(req.Data, "data")
	if err != nil {
		return err
	}
	return h.writeUpdate(w, r, UpdateCommand{Entity: req.Entity, ID: id, RowVersion: req.RowVersion.n, Data: data})
}

// updateField changes one field: {"id", "field", "value", "row_version"}
// (the specification's inline switches, e.g. invoiceposition.flat_rate).
func (h *handler) updateField(w http.ResponseWriter, r *http.Request, req *apiRequest) error {
	id, err := req.requestID()
	if err != nil {
		return err
	}
	if req.Field == "" {
		return apperr.Validation(apperr.FieldError{Field: "field", Key: "validation.required", Type: "missing",
			Args: map[string]string{"field": "field"}})
	}
	v, err := decodeValue(req.Value)
	if err != nil {
		return apperr.Validation(apperr.FieldError{Field: "value", Key: "server.tables.not_a_value", Type: "type_error",
			Args: map[string]string{"field": "value"}})
	}
	return h.writeUpdate(w, r, UpdateCommand{Entity: req.Entity, ID: id, RowVersion: req.RowVersion.n,
		Data: map[string]any{req.Field: v}})
}

func (h *handler) writeUpdate(w http.ResponseWriter, r *http.Request, cmd UpdateCommand) error {
	ans, err := h.e.Update(r.Context(), cmd)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, ans)
	return nil
}

func (h *handler) delete(w http.ResponseWriter, r *http.Request, req *apiRequest) error {
	id, err := req.requestID()
	if err != nil {
		return err
	}
	if err := h.e.Delete(r.Context(), DeleteCommand{Entity: req.Entity, IDs: []int64{id}, RowVersion: req.RowVersion.n}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (h *handler) bulkDelete(w http.ResponseWriter, r *http.Request, req *apiRequest) error {
	raw, err := decodeValue(req.IDs)
	items, ok := raw.([]any)
	if err != nil || !ok {
		return apperr.Validation(apperr.FieldError{Field: "ids", Key: "validation.required", Type: "missing",
			Args: map[string]string{"field": "ids"}})
	}
	ids := make([]int64, 0, len(items))
	seen := map[int64]bool{}
	for _, it := range items {
		id, err := idValue(it)
		if err != nil {
			return apperr.Validation(apperr.FieldError{Field: "ids", Key: "validation.type.list", Type: "type_error",
				Args: map[string]string{"field": "ids"}})
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if err := h.e.Delete(r.Context(), DeleteCommand{Entity: req.Entity, IDs: ids, Bulk: true}); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (h *handler) history(w http.ResponseWriter, r *http.Request, req *apiRequest) error {
	id, err := req.requestID()
	if err != nil {
		return err
	}
	cur, err := h.e.History(r.Context(), HistoryQuery{Entity: req.Entity, ID: id, Lang: req.Lang})
	if err != nil {
		return err
	}
	defer cur.Close()
	return h.streamList(w, r, cur)
}

// linkCommand reads {"entity": "<relation API name>", "id": owner, "data":
// {...}}; the owner may also be named in data by its key (pos_id).
func (req *apiRequest) linkCommand() (LinkCommand, error) {
	var id int64
	if len(bytes.TrimSpace(req.ID)) > 0 && string(bytes.TrimSpace(req.ID)) != "null" {
		var err error
		if id, err = req.requestID(); err != nil {
			return LinkCommand{}, err
		}
	}
	data, err := decodeObject(req.Data, "data")
	if err != nil {
		return LinkCommand{}, err
	}
	return LinkCommand{Relation: req.Entity, OwnerID: id, Data: data}, nil
}

func (h *handler) link(w http.ResponseWriter, r *http.Request, req *apiRequest) error {
	cmd, err := req.linkCommand()
	if err != nil {
		return err
	}
	ans, err := h.e.Link(r.Context(), cmd)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, ans)
	return nil
}

// updateLink changes the attributes of an existing link (valid_from,
// valid_to, comment, ...): the owner as for link, the other end's key and
// the attributes to change in data.
func (h *handler) updateLink(w http.ResponseWriter, r *http.Request, req *apiRequest) error {
	cmd, err := req.linkCommand()
	if err != nil {
		return err
	}
	ans, err := h.e.ChangeLink(r.Context(), cmd)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, ans)
	return nil
}

func (h *handler) unlink(w http.ResponseWriter, r *http.Request, req *apiRequest) error {
	cmd, err := req.linkCommand()
	if err != nil {
		return err
	}
	if err := h.e.Unlink(r.Context(), cmd); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
