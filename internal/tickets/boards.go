package tickets

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// column is one column of a board as the ticket rules see it.
type column struct {
	ID          int64  `json:"columnx_id"`
	Name        string `json:"columnx_name"`
	Rank        int64  `json:"rank_order"`
	QualityGate bool   `json:"is_qualitygate"`
	Stamp       bool   `json:"has_stamp"`
	// Team is the team that becomes responsible for a ticket entering the
	// column (0: none).
	Team int64 `json:"team_id"`
}

// maxRows bounds the configuration lists read at once (columns of a board,
// its document types); a board has a handful.
const maxRows = 1000

// rows reads every row of lq (as the context's caller) through q.
func (s *Service) rows(ctx context.Context, q db.Querier, lq tables.ListQuery) ([]validate.Record, error) {
	if lq.PerPage == 0 {
		lq.PerPage, lq.Page = maxRows, 1
	}
	cur, err := s.engine.ListIn(ctx, q, lq)
	if err != nil {
		return nil, err
	}
	defer cur.Close()
	var out []validate.Record
	for cur.Next() {
		out = append(out, cur.Record())
	}
	return out, cur.Err()
}

// columns are the columns of board in their rank order, read as the system.
func (s *Service) columns(ctx context.Context, q db.Querier, board int64) ([]column, error) {
	recs, err := s.rows(system(ctx), q, tables.ListQuery{Entity: "board_columnx_rel", Data: map[string]any{"board_id": board},
		OrderBy: "rank_order", OrderDir: "ASC"})
	if err != nil {
		return nil, fmt.Errorf("tickets: columns of board %d: %w", board, err)
	}
	out := make([]column, 0, len(recs))
	for _, r := range recs {
		out = append(out, column{ID: idOf(r["columnx_id"]), Name: validate.Text(r["columnx_name"]), Rank: idOf(r["rank_order"]),
			QualityGate: idOf(r["is_qualitygate"]) == 1, Stamp: idOf(r["has_stamp"]) == 1, Team: idOf(r["team_id"])})
	}
	return out, nil
}

// docType is a document type a board requires at its quality gates.
type docType struct {
	ID   int64
	Name string
}

// requiredTypes are the document types of board.
func (s *Service) requiredTypes(ctx context.Context, q db.Querier, board int64) ([]docType, error) {
	recs, err := s.rows(system(ctx), q, tables.ListQuery{Entity: "board_documenttype_rel", Data: map[string]any{"board_id": board},
		OrderBy: "documenttype_name", OrderDir: "ASC"})
	if err != nil {
		return nil, fmt.Errorf("tickets: document types of board %d: %w", board, err)
	}
	out := make([]docType, 0, len(recs))
	for _, r := range recs {
		out = append(out, docType{ID: idOf(r["documenttype_id"]), Name: validate.Text(r["documenttype_name"])})
	}
	return out, nil
}

// documentTypes are the document types of the documents linked to ticket.
func (s *Service) documentTypes(ctx context.Context, q db.Querier, ticket int64) (map[int64]bool, error) {
	recs, err := s.rows(system(ctx), q, tables.ListQuery{Entity: "ticket_document_rel", Data: map[string]any{"ticket_id": ticket},
		Columns: []string{"documenttype_id"}})
	if err != nil {
		return nil, fmt.Errorf("tickets: documents of ticket %d: %w", ticket, err)
	}
	out := map[int64]bool{}
	for _, r := range recs {
		out[idOf(r["documenttype_id"])] = true
	}
	return out, nil
}

// hours are a board's default deadline values (decision 0013).
type hours struct {
	Yellow, Red int64
}

// builtinHours are the default values when neither the board nor the
// global row says otherwise (the specification's default 24).
var builtinHours = hours{Yellow: 24, Red: 24}

// defaultHours are the default values of board: its own row, else the
// global row (no board), else builtinHours.
func (s *Service) defaultHours(ctx context.Context, q db.Querier, board int64) (hours, error) {
	for _, key := range []any{board, nil} {
		recs, err := s.rows(system(ctx), q, tables.ListQuery{Entity: "defaultvalue", Data: map[string]any{"board_id": key}, PerPage: 1, Page: 1})
		if err != nil {
			return hours{}, fmt.Errorf("tickets: default values of board %d: %w", board, err)
		}
		if len(recs) > 0 {
			return hours{Yellow: idOf(recs[0]["defaultvalue_yellow"]), Red: idOf(recs[0]["defaultvalue_red"])}, nil
		}
	}
	return builtinHours, nil
}

// idOf reads a whole number of a record (0 when empty or not a number).
func idOf(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case int:
		return int64(x)
	case float64:
		return int64(x)
	case bool:
		if x {
			return 1
		}
	case json.Number:
		n, _ := x.Int64()
		return n
	case string:
		n, _ := strconv.ParseInt(x, 10, 64)
		return n
	}
	return 0
}

// timeOf reads a date-time of a record.
func timeOf(v any) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		return x.UTC(), true
	case string:
		t, err := validate.ParseDateTime(x)
		return t, err == nil
	}
	return time.Time{}, false
}

// boardAccess is which boards a caller sees (decision 0027): every board,
// or those in ids.
type boardAccess struct {
	all bool
	ids map[int64]bool
}

// sees reports whether the caller sees board id.
func (a boardAccess) sees(id int64) bool { return a.all || a.ids[id] }

// cond is the condition on a ticket's board_id limiting a list to the
// boards seen (nil: no limit).
func (a boardAccess) cond() any {
	if a.all {
		return nil
	}
	if len(a.ids) == 0 {
		return cond("ticket_id", "is_null", nil) // no board: no ticket
	}
	ids := make([]any, 0, len(a.ids))
	for id := range a.ids {
		ids = append(ids, id)
	}
	return cond(fieldBoard, "in", ids)
}

// boardsOf is which boards the caller of ctx sees (decision 0027): the
// system and administrators see every board; anyone else the boards with
// a column whose responsible team is one of the caller's teams, or the
// internal team one of the caller's external teams belongs to (parent).
func (s *Service) boardsOf(ctx context.Context, q db.Querier) (boardAccess, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok || p == nil || p.IsAdmin() {
		return boardAccess{all: true}, nil
	}
	// The boards the engine's scope lets the caller see: the row rule
	// boardRows, so the ticket calls and the generic reads cannot drift.
	src, err := s.engine.Scoped(ctx, "board", "b")
	if err != nil {
		return boardAccess{}, err
	}
	rows, err := q.QueryContext(ctx, "SELECT b.board_id FROM "+src.SQL, src.Args...)
	if err != nil {
		return boardAccess{}, fmt.Errorf("tickets: boards of user %d: %w", p.UserID, err)
	}
	defer rows.Close()
	out := boardAccess{ids: map[int64]bool{}}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return boardAccess{}, fmt.Errorf("tickets: boards of user %d: %w", p.UserID, err)
		}
		out.ids[id] = true
	}
	return out, rows.Err()
}

// mustSeeBoard answers 404 when the caller of ctx does not see board id,
// as for a board that does not exist.
func (s *Service) mustSeeBoard(ctx context.Context, q db.Querier, id int64) error {
	a, err := s.boardsOf(ctx, q)
	if err != nil {
		return err
	}
	if !a.sees(id) {
		return apperr.NotFound("server.error.not_found")
	}
	return nil
}

func keys(m map[int64]bool) []any {
	out := make([]any, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// boardRows is the board rule of decision 0027 as the engine's row rule
// (tables.Engine.OnRows): the boards the principal sees are those with a
// column whose team is one of the principal's teams valid today, or the
// internal team one of them belongs to (team.parent_id); administrators
// see every board (the system has no principal and no rule). It is an
// SQL condition (sub-selects over board_columnx, columnx and team), so
// lists stay one statement and their counts are cached per team set.
func boardRows(p *auth.Principal) tables.RowLimit {
	if p == nil || p.IsAdmin() {
		return tables.RowLimit{}
	}
	teams := make([]any, 0, len(p.Teams))
	for _, id := range p.TeamIDs() {
		teams = append(teams, id)
	}
	if len(teams) == 0 {
		return tables.RowLimit{Limited: true} // no team: no board
	}
	columns := &tables.RowSelect{From: "columnx", Column: "columnx_id", Any: []tables.RowCond{
		{Column: "team_id", Values: teams},
		{Column: "team_id", In: &tables.RowSelect{From: "team", Column: "parent_id",
			Any: []tables.RowCond{{Column: "team_id", Values: teams}}}},
	}}
	boards := &tables.RowSelect{From: "board_columnx", Column: "board_id",
		Any: []tables.RowCond{{Column: "columnx_id", In: columns}}}
	return tables.RowLimit{Limited: true, Any: []tables.RowCond{{Column: fieldBoard, In: boards}}}
}
