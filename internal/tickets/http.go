package tickets

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/reqbody"
	"portfolio/internal/tables"
)

type handler struct {
	s   *Service
	log *slog.Logger
}

// slimColumns are the columns of GET /tickets/slims: what a point of
// sale's Tickets tab shows.
var slimColumns = []string{"ticket_name", "ticket_description", "pos_id", "contract_id", "board_id", "board_name", "columnx_id", "column_name", "priority_id", "priority_name",
	"user_id", "team_id", "ticket_yellow_deadline", "ticket_red_deadline", "ticket_deadline_status", "ticket_progress",
	"ticket_closed", "ticket_creation_time"}

// slims serves GET /tickets/slims: with pos_id, the tickets of that
// point of sale the caller sees (404 for a point of sale outside the
// tenant), where a non-director external user sees only the tickets of
// internal teams and their own (section 6); without it, the caller's own
// tickets (assigned to or created by them) in every point of sale they
// see. Newest first, paged, only tickets of the boards the caller sees
// (decision 0027).
func (h *handler) slims(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	q, err := tables.ParseCustomQuery(v)
	if err != nil {
		return err
	}
	pos, err := tables.QueryID(v, "pos_id")
	if err != nil {
		return err
	}
	ctx := r.Context()
	p, _ := auth.PrincipalFrom(ctx)
	var conds []any
	switch {
	case pos != 0:
		if err := h.s.engine.MustSeeIn(ctx, h.s.db, "pos", pos); err != nil {
			return err
		}
		conds = append(conds, cond("pos_id", "eq", pos))
	case p != nil:
		conds = append(conds, map[string]any{"or": []any{cond("user_id", "eq", p.UserID), cond("ticket_created_by", "eq", p.UserID)}})
	}
	seen, err := h.s.boardsOf(ctx, h.s.db)
	if err != nil {
		return err
	}
	if c := seen.cond(); c != nil {
		conds = append(conds, c)
	}
	if pos != 0 && p != nil && limited(p) {
		own, err := h.s.sectionSix(ctx, p)
		if err != nil {
			return err
		}
		conds = append(conds, own)
	}
	perPage := q.PerPage
	if perPage == 0 {
		perPage = tables.DefaultCustomPerPage
	}
	return h.s.writeList(ctx, w, r, h.log, tables.ListQuery{Entity: entity, Search: q.Keyword, OrderBy: "ticket_creation_time",
		OrderDir: "DESC", Page: max(q.Page, 1), PerPage: perPage, Count: true, Columns: slimColumns}, conds)
}

// sectionSix is the condition of section 6 on the tickets a non-director
// external user sees in a point of sale's tab: a ticket of an internal
// team, or one assigned to or created by the user.
func (s *Service) sectionSix(ctx context.Context, p *auth.Principal) (any, error) {
	teams, err := s.rows(system(ctx), s.db, tables.ListQuery{Entity: "team", Data: map[string]any{"team_type": internTeam},
		Columns: []string{"team_id"}})
	if err != nil {
		return nil, err
	}
	ids := make([]any, 0, len(teams))
	for _, t := range teams {
		ids = append(ids, idOf(t["team_id"]))
	}
	or := []any{cond("user_id", "eq", p.UserID), cond("ticket_created_by", "eq", p.UserID)}
	if len(ids) > 0 {
		or = append(or, cond("team_id", "in", ids))
	}
	return map[string]any{"or": or}, nil
}

// cond is one condition of the filter language.
func cond(field, op string, value any) map[string]any {
	return map[string]any{"field": field, "op": op, "value": value}
}

// writeList answers lq, narrowed by conds, as a custom list.
func (s *Service) writeList(ctx context.Context, w http.ResponseWriter, r *http.Request, log *slog.Logger, lq tables.ListQuery, conds []any) error {
	if len(conds) > 0 {
		raw, err := json.Marshal(conds)
		if err != nil {
			return err
		}
		lq.Filter = raw
	}
	cur, err := s.engine.ListIn(ctx, s.db, lq)
	if err != nil {
		return err
	}
	defer cur.Close()
	return tables.WriteCustomList(w, r, log, cur)
}

// create serves POST /tickets: a ticket from its fields, with the rules of
// every ticket write; answers 201 with the ticket as read back.
func (h *handler) create(w http.ResponseWriter, r *http.Request) error {
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	var id int64
	var out json.RawMessage
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		if id, err = h.s.engine.CreateIn(ctx, tx, entity, b); err != nil {
			return err
		}
		out, err = h.s.engine.ReadIn(ctx, tx, entity, id)
		return err
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, map[string]any{"data": out})
	return nil
}

// update serves PUT /tickets/update: the changed fields of ticket
// ticket_id with the row_version read (409 stale when someone changed it
// meanwhile); moving a ticket is changing its columnx_id. With
// before_ticket_id the ticket is placed right before that ticket of its
// (new) column, with before_ticket_id null at the column's end (decision
// 0027); without it, a ticket entering a column goes to the end and one
// staying keeps its place.
func (h *handler) update(w http.ResponseWriter, r *http.Request) error {
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	_, place := b[fieldBefore]
	var id, version, before int64
	if err := b.TakeKeys(reqbody.Required("ticket_id", &id), reqbody.Required("row_version", &version),
		reqbody.Optional(fieldBefore, &before)); err != nil {
		return err
	}
	ctx := r.Context()
	// A move needs the update right before its place is looked up, so a
	// caller who may only read the board hears 403, as the board shows.
	if err := h.s.engine.Require(ctx, access.ActionUpdate, entity); err != nil {
		return err
	}
	var out json.RawMessage
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		var opts []tables.WriteOption
		if place {
			stored, _, err := h.s.engine.GetIn(ctx, tx, entity, id) // 404 for a ticket the caller does not see
			if err != nil {
				return err
			}
			column := idOf(stored[fieldColumn])
			if c, ok := b[fieldColumn]; ok {
				column = idOf(c)
			}
			rank, err := h.s.rankBefore(ctx, tx, column, id, before)
			if err != nil {
				return err
			}
			opts = append(opts, tables.WithValues(map[string]any{fieldRank: rank}))
			ctx = placed(ctx)
		}
		if err := h.s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: entity, ID: id, RowVersion: version, Data: b}, opts...); err != nil {
			return err
		}
		out, err = h.s.engine.ReadIn(ctx, tx, entity, id)
		return err
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": out})
	return nil
}

// kanbanBoard is one board of GET /tickets/kanban/user.
type kanbanBoard struct {
	ID          int64    `json:"board_id"`
	Name        string   `json:"board_name"`
	Description string   `json:"board_description"`
	Columns     []column `json:"columns"`
}

// kanban serves GET /tickets/kanban/user: the boards the caller may read
// and sees (decision 0027: a column of the board is one of their teams'),
// each with its columns in rank order (403 for a caller who may read no
// boards).
func (h *handler) kanban(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	boards, err := h.s.rows(ctx, h.s.db, tables.ListQuery{Entity: "board", OrderBy: "board_name", OrderDir: "ASC",
		Columns: []string{"board_name", "board_description"}})
	if err != nil {
		return err
	}
	out := make([]kanbanBoard, 0, len(boards))
	seen, err := h.s.boardsOf(ctx, h.s.db)
	if err != nil {
		return err
	}
	for _, b := range boards {
		id := idOf(b["board_id"])
		if !seen.sees(id) {
			continue
		}
		cols, err := h.s.columns(ctx, h.s.db, id)
		if err != nil {
			return err
		}
		out = append(out, kanbanBoard{ID: id, Name: textOf(b["board_name"]), Description: textOf(b["board_description"]), Columns: cols})
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": out})
	return nil
}

func textOf(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return ""
}

// errFilter is a 422 on a query parameter that takes one of values.
func errFilter(name, values string) error {
	return apperr.Validation(apperr.FieldError{Field: name, Key: "validation.one_of", Type: "enum",
		Args: map[string]string{"field": name, "values": values}})
}
