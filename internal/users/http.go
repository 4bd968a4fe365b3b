package users

import (
	"net/http"
	"strconv"

	"portfolio/internal/httpapi"
	"portfolio/internal/tables"
)

// Bind registers the user and team routes (all private).
func Bind(srv *httpapi.Server, s *Service) {
	h := &handler{s: s}
	srv.Handle("GET /users", h.list)
	srv.Handle("POST /users", h.create)
	srv.Handle("GET /users/{id}", h.get)
	srv.Handle("PUT /users/{id}", h.update)
	for _, a := range []Action{ActionLock, ActionUnlock, ActionForcePasswordReset, ActionEndSessions} {
		srv.Handle("POST /users/{id}/"+string(a), h.administer(a))
	}
	// One GET route reads every relation, so that GET /users/state/{zip}
	// (internal/masterdata) does not overlap a relation's route.
	srv.Handle("GET /users/{id}/{relation}", h.relationByName)
	for _, rel := range userRelations {
		srv.Handle("POST /users/{id}/"+rel.name, h.addRelation(rel.name))
		srv.Handle("PUT /users/{id}/"+rel.name+"/{other}", h.changeRelation(rel.name))
		srv.Handle("DELETE /users/{id}/"+rel.name+"/{other}", h.endRelation(rel.name))
	}
	srv.Handle("GET /teams", h.teams)
	srv.Handle("GET /teams/{id}", h.team)
	srv.Handle("POST /teams", h.createTeam)
	srv.Handle("PUT /teams", h.updateTeam)
	srv.Handle("DELETE /teams", h.deleteTeams)
	srv.Handle("PUT /teams/users", h.setMembership)
	srv.Handle("DELETE /teams/users", h.removeMembership)
}

type handler struct{ s *Service }

// relationByName serves GET /users/{id}/{relation}: the relation rows of
// a user; a name that is no user relation answers 404.
func (h *handler) relationByName(w http.ResponseWriter, r *http.Request) error {
	name := r.PathValue("relation")
	for _, rel := range userRelations {
		if rel.name == name {
			return h.relations(name)(w, r)
		}
	}
	return errNotFound()
}

func pathID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, errNotFound()
	}
	return id, nil
}

// list serves GET /users, streamed row by row.
func (h *handler) list(w http.ResponseWriter, r *http.Request) error {
	q, err := tables.ParseCustomQuery(r.URL.Query())
	if err != nil {
		return err
	}
	q.OrderBy = "" // GET /users sorts by name only
	cur, err := h.s.List(r.Context(), q)
	if err != nil {
		return err
	}
	defer cur.Close()
	return tables.WriteCustomList(w, r, h.s.log, cur)
}

// get serves GET /users/{id}.
func (h *handler) get(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	u, err := h.s.Get(r.Context(), id)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": u})
	return nil
}

// create serves POST /users.
func (h *handler) create(w http.ResponseWriter, r *http.Request) error {
	var in Input
	if err := httpapi.DecodeJSON(r, &in, false); err != nil {
		return err
	}
	id, err := h.s.Create(r.Context(), in)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, map[string]any{"user_id": id, "detail": h.s.text(r.Context(), "server.auth.user_created")})
	return nil
}

// update serves PUT /users/{id}.
func (h *handler) update(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	var in Input
	if err := httpapi.DecodeJSON(r, &in, false); err != nil {
		return err
	}
	if err := h.s.Update(r.Context(), id, in); err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"user_id": id, "detail": h.s.text(r.Context(), "server.auth.user_updated")})
	return nil
}

// administer serves POST /users/{id}/{action}.
func (h *handler) administer(a Action) httpapi.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := pathID(r)
		if err != nil {
			return err
		}
		msg, err := h.s.Administer(r.Context(), id, a)
		if err != nil {
			return err
		}
		httpapi.WriteJSON(w, http.StatusOK, map[string]any{"user_id": id, "detail": msg})
		return nil
	}
}

// teams serves GET /teams.
func (h *handler) teams(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	q, err := tables.ParseCustomQuery(v)
	if err != nil {
		return err
	}
	company, err := tables.QueryID(v, "company_id")
	if err != nil {
		return err
	}
	p, err := h.s.Teams(r.Context(), TeamListQuery{Page: q.Page, PerPage: q.PerPage, Keyword: q.Keyword, Desc: q.Order == "DESC", CompanyID: company})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": p.Data,
		"links": map[string]any{"pagination": map[string]any{"current_page": p.CurrentPage, "last_page": p.LastPage, "total": p.Total}}})
	return nil
}

// team serves GET /teams/{id}.
func (h *handler) team(w http.ResponseWriter, r *http.Request) error {
	id, err := pathID(r)
	if err != nil {
		return err
	}
	t, err := h.s.GetTeam(r.Context(), id)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": t})
	return nil
}

// createTeam serves POST /teams.
func (h *handler) createTeam(w http.ResponseWriter, r *http.Request) error {
	var in TeamInput
	if err := httpapi.DecodeJSON(r, &in, false); err != nil {
		return err
	}
	id, err := h.s.CreateTeam(r.Context(), in)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, map[string]any{"team_id": id, "detail": h.s.text(r.Context(), "server.teams.created")})
	return nil
}

// updateTeam serves PUT /teams.
func (h *handler) updateTeam(w http.ResponseWriter, r *http.Request) error {
	var in TeamInput
	if err := httpapi.DecodeJSON(r, &in, false); err != nil {
		return err
	}
	if err := h.s.UpdateTeam(r.Context(), in); err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"team_id": in.ID, "detail": h.s.text(r.Context(), "server.teams.updated")})
	return nil
}

// deleteTeams serves DELETE /teams.
func (h *handler) deleteTeams(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		TeamIDs []int64 `json:"team_ids"`
	}
	if err := httpapi.DecodeJSON(r, &in, true); err != nil {
		return err
	}
	if err := h.s.DeleteTeams(r.Context(), in.TeamIDs); err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"detail": h.s.text(r.Context(), "server.teams.deleted")})
	return nil
}

// setMembership serves PUT /teams/users.
func (h *handler) setMembership(w http.ResponseWriter, r *http.Request) error {
	var in MembershipInput
	if err := httpapi.DecodeJSON(r, &in, true); err != nil {
		return err
	}
	if err := h.s.SetMembership(r.Context(), in); err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"detail": h.s.text(r.Context(), "server.teams.member_saved")})
	return nil
}

// removeMembership serves DELETE /teams/users.
func (h *handler) removeMembership(w http.ResponseWriter, r *http.Request) error {
	var in MembershipInput
	if err := httpapi.DecodeJSON(r, &in, true); err != nil {
		return err
	}
	if err := h.s.RemoveMembership(r.Context(), in); err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"detail": h.s.text(r.Context(), "server.teams.member_removed")})
	return nil
}

// relations serves GET /users/{id}/{relation}: a custom list of the
// user's dated relation rows.
func (h *handler) relations(rel string) httpapi.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := pathID(r)
		if err != nil {
			return err
		}
		q, err := tables.ParseCustomQuery(r.URL.Query())
		if err != nil {
			return err
		}
		cur, err := h.s.Relations(r.Context(), id, rel, q)
		if err != nil {
			return err
		}
		defer cur.Close()
		return tables.WriteCustomList(w, r, h.s.log, cur)
	}
}

// addRelation serves POST /users/{id}/{relation}.
func (h *handler) addRelation(rel string) httpapi.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := pathID(r)
		if err != nil {
			return err
		}
		var data map[string]any
		if err := httpapi.DecodeJSON(r, &data, false); err != nil {
			return err
		}
		row, err := h.s.AddRelation(r.Context(), id, rel, data)
		if err != nil {
			return err
		}
		httpapi.WriteJSON(w, http.StatusCreated, map[string]any{"data": row, "detail": h.s.text(r.Context(), "server.users.relation_added")})
		return nil
	}
}

// changeRelation serves PUT /users/{id}/{relation}/{other}.
func (h *handler) changeRelation(rel string) httpapi.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, other, err := relationIDs(r)
		if err != nil {
			return err
		}
		var data map[string]any
		if err := httpapi.DecodeJSON(r, &data, false); err != nil {
			return err
		}
		row, err := h.s.ChangeRelation(r.Context(), id, rel, other, data)
		if err != nil {
			return err
		}
		httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": row, "detail": h.s.text(r.Context(), "server.users.relation_changed")})
		return nil
	}
}

// endRelation serves DELETE /users/{id}/{relation}/{other}.
func (h *handler) endRelation(rel string) httpapi.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, other, err := relationIDs(r)
		if err != nil {
			return err
		}
		if err := h.s.EndRelation(r.Context(), id, rel, other); err != nil {
			return err
		}
		httpapi.WriteJSON(w, http.StatusOK, map[string]any{"detail": h.s.text(r.Context(), "server.users.relation_ended")})
		return nil
	}
}

// relationIDs reads the user id and the related row's id of the path.
func relationIDs(r *http.Request) (int64, int64, error) {
	id, err := pathID(r)
	if err != nil {
		return 0, 0, err
	}
	other, err := strconv.ParseInt(r.PathValue("other"), 10, 64)
	if err != nil || other <= 0 {
		return 0, 0, errNotFound()
	}
	return id, other, nil
}
