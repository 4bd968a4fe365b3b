package tickets

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/tables"
)

// The filters of GET /tickets (docs/decisions/0013-ticket-deadlines.md
// says what each means where the specification is silent).
var (
	statusFilters   = "not_assigned, opened, closed, my_tickets, done"
	deadlineFilters = "before_deadline, critical_yellow, over_due_red"
	updateFilters   = "update_ticket, not_update_ticket"
	sourceFilters   = "own, customer"
)

// doneProgress is the progress of a ticket whose work is done.
const doneProgress = 100

// list serves GET /tickets: the tickets the caller sees, a page at a time
// (page, per_page, keyword, order_by, order), narrowed by the filters
// status, deadline_status, update_type, source, board_id and pos_id; only
// tickets of the boards the caller sees (decision 0027).
func (h *handler) list(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	q, err := tables.ParseCustomQuery(v)
	if err != nil {
		return err
	}
	ctx := r.Context()
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return h.s.engine.Require(ctx, "list", entity) // answers 401
	}
	var conds []any
	switch v.Get("status") {
	case "":
	case "not_assigned": // open and nobody assigned
		conds = append(conds, cond("ticket_closed", "eq", 0), cond("user_id", "is_null", nil))
	case "opened":
		conds = append(conds, cond("ticket_closed", "eq", 0))
	case "closed":
		conds = append(conds, cond("ticket_closed", "eq", 1))
	case "my_tickets": // assigned to the caller or created by them
		conds = append(conds, map[string]any{"or": []any{cond("user_id", "eq", p.UserID), cond("ticket_created_by", "eq", p.UserID)}})
	case "done": // the work is done (progress 100), closed or not yet
		conds = append(conds, cond("ticket_progress", "gte", doneProgress))
	default:
		return errFilter("status", statusFilters)
	}
	switch s := v.Get("deadline_status"); s {
	case "":
	case "before_deadline", "critical_yellow", "over_due_red":
		conds = append(conds, deadlineCond(s, h.s.now()))
	default:
		return errFilter("deadline_status", deadlineFilters)
	}
	switch v.Get("update_type") {
	case "":
	case "update_ticket": // changed since it was created
		conds = append(conds, cond("ticket_updated", "eq", 1))
	case "not_update_ticket": // never changed since it was created
		conds = append(conds, cond("ticket_updated", "eq", 0))
	default:
		return errFilter("update_type", updateFilters)
	}
	if src := v.Get("source"); src != "" {
		c, err := h.s.sourceCond(ctx, src)
		if err != nil {
			return err
		}
		if c != nil {
			conds = append(conds, c)
		}
	}
	for _, name := range []string{"board_id", "pos_id"} {
		id, err := tables.QueryID(v, name)
		if err != nil {
			return err
		}
		if id > 0 {
			conds = append(conds, cond(name, "eq", id))
		}
	}
	seen, err := h.s.boardsOf(ctx, h.s.db)
	if err != nil {
		return err
	}
	if id, _ := tables.QueryID(v, "board_id"); id > 0 && !seen.sees(id) {
		return apperr.NotFound("server.error.not_found") // a board not seen is one that does not exist
	}
	if c := seen.cond(); c != nil {
		conds = append(conds, c)
	}
	orderBy, order := q.OrderBy, q.Order
	if orderBy == "" {
		orderBy, order = "ticket_creation_time", "DESC"
	}
	perPage := q.PerPage
	if perPage == 0 {
		perPage = tables.DefaultCustomPerPage
	}
	return h.s.writeList(ctx, w, r, h.log, tables.ListQuery{Entity: entity, Search: q.Keyword, OrderBy: orderBy, OrderDir: order,
		Page: max(q.Page, 1), PerPage: perPage, Count: true}, conds)
}

// sourceCond is the source filter: own tickets were created by the
// provider's internal users (or by the system), customer tickets by
// external users.
func (s *Service) sourceCond(ctx context.Context, source string) (any, error) {
	if source != "own" && source != "customer" {
		return nil, errFilter("source", sourceFilters)
	}
	sys := system(ctx)
	types, err := s.rows(sys, s.db, tables.ListQuery{Entity: "usertype", Data: map[string]any{"usertype_external": 1},
		Columns: []string{"usertype_id"}})
	if err != nil {
		return nil, err
	}
	typeIDs := make([]any, 0, len(types))
	for _, t := range types {
		typeIDs = append(typeIDs, idOf(t["usertype_id"]))
	}
	var external []any
	if len(typeIDs) > 0 {
		users, err := s.rows(sys, s.db, tables.ListQuery{Entity: "user", Data: map[string]any{"usertype_id": typeIDs},
			Columns: []string{"user_id"}, PerPage: tables.MaxInValues + 1, Page: 1})
		if err != nil {
			return nil, err
		}
		if len(users) > tables.MaxInValues {
			return nil, fmt.Errorf("tickets: source filter: more than %d external users", tables.MaxInValues)
		}
		for _, u := range users {
			external = append(external, idOf(u["user_id"]))
		}
	}
	if source == "customer" {
		if len(external) == 0 {
			return cond("ticket_id", "eq", 0), nil // nobody external: no customer tickets
		}
		return cond("ticket_created_by", "in", external), nil
	}
	if len(external) == 0 {
		return nil, nil // nobody external: every ticket is the provider's
	}
	return map[string]any{"or": []any{cond("ticket_created_by", "is_null", nil), cond("ticket_created_by", "not_in", external)}}, nil
}

// deadlineCond is the deadline status filter as conditions on the
// deadlines, as the derived ticket_deadline_status computes it: open
// tickets only; over_due_red from the red deadline, critical_yellow from
// the yellow one.
func deadlineCond(status string, now time.Time) any {
	at := now.UTC().Truncate(time.Second).Format(time.RFC3339)
	open := cond("ticket_closed", "eq", 0)
	switch status {
	case "over_due_red":
		return []any{open, cond(fieldRed, "lte", at)}
	case "critical_yellow":
		return []any{open, cond(fieldYellow, "lte", at), cond(fieldRed, "gt", at)}
	}
	return []any{open, cond(fieldYellow, "gt", at)}
}
