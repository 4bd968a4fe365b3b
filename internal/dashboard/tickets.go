package dashboard

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/platform/deadline"
)

// weeks is how many weeks the opened/closed chart shows.
const weeks = 12

// TicketDashboard is GET /dashboard/tickets: the caller's open tickets
// per board and column, per deadline status and per team, and the tickets
// opened and closed in each of the last 12 weeks (Monday to Sunday, UTC,
// the current week last).
type TicketDashboard struct {
	Open     int64        `json:"open"`
	Boards   []BoardCount `json:"boards"`
	Statuses TicketCounts `json:"statuses"`
	Teams    []TeamCount  `json:"teams"`
	Weeks    []WeekCount  `json:"weeks"`
	Now      time.Time    `json:"now"`
}

// BoardCount counts a board's open tickets, and per column in the
// board's order.
type BoardCount struct {
	BoardID   int64         `json:"board_id"`
	BoardName string        `json:"board_name"`
	Count     int64         `json:"count"`
	Columns   []ColumnCount `json:"columns"`
}

// ColumnCount counts the open tickets of one column of a board.
type ColumnCount struct {
	ColumnxID   int64  `json:"columnx_id"`
	ColumnxName string `json:"columnx_name"`
	Count       int64  `json:"count"`
	rank        int64
}

// TeamCount counts the open tickets of a team (team_id null: no team).
type TeamCount struct {
	TeamID   *int64 `json:"team_id"`
	TeamName string `json:"team_name"`
	Count    int64  `json:"count"`
}

// WeekCount is one week's opened (created) and closed tickets; from and
// to are the week's first and last day.
type WeekCount struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Opened int64  `json:"opened"`
	Closed int64  `json:"closed"`
}

// Tickets computes the ticket dashboard (403 without the read right on
// tickets).
func (s *Service) Tickets(ctx context.Context) (*TicketDashboard, error) {
	if err := s.engine.Require(ctx, access.ActionRead, entityTicket); err != nil {
		return nil, err
	}
	now := s.now().UTC().Truncate(time.Second)
	out := &TicketDashboard{Boards: []BoardCount{}, Teams: []TeamCount{}, Now: now}
	if err := s.openTicketGroups(ctx, now, out); err != nil {
		return nil, err
	}
	if err := s.ticketWeeks(ctx, now, out); err != nil {
		return nil, err
	}
	return out, nil
}

// openTicketGroups counts the open tickets by board, column, team and
// deadline status in one statement and folds the groups in Go.
func (s *Service) openTicketGroups(ctx context.Context, now time.Time, out *TicketDashboard) error {
	status, sargs := deadline.TicketStatusSQL("t.ticket_yellow_deadline", "t.ticket_red_deadline", "", now)
	from, args, err := s.scoped(ctx, entityTicket, "t")
	if err != nil {
		return err
	}
	names, nargs, err := s.scoped(ctx, entityBoard, "b", entityColumn, "cx", entityTeam, "tm")
	if err != nil {
		return err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT x.board_id, b.board_name, x.columnx_id, cx.columnx_name,
		COALESCE(bc.rank_order, 0), x.team_id, tm.team_name, x.s, x.n
		FROM (SELECT y.board_id, y.columnx_id, y.team_id, y.s, COUNT(*) AS n FROM
			(SELECT t.board_id, t.columnx_id, t.team_id, `+status+` AS s FROM `+from[0]+` WHERE t.ticket_closed = 0) y
			GROUP BY y.board_id, y.columnx_id, y.team_id, y.s) x
		JOIN `+names[0]+` ON b.board_id = x.board_id
		JOIN `+names[1]+` ON cx.columnx_id = x.columnx_id
		LEFT JOIN board_columnx bc ON bc.board_id = x.board_id AND bc.columnx_id = x.columnx_id
		LEFT JOIN `+names[2]+` ON tm.team_id = x.team_id`,
		append(append(append([]any{}, sargs...), args...), nargs...)...)
	if err != nil {
		return fmt.Errorf("dashboard: ticket groups: %w", err)
	}
	defer rows.Close()
	boards := map[int64]*BoardCount{}
	columns := map[[2]int64]*ColumnCount{}
	teams := map[int64]*TeamCount{}
	var noTeam *TeamCount
	for rows.Next() {
		var boardID, columnID, rank, n int64
		var boardName, columnName, st string
		var teamID *int64
		var teamName *string
		if err := rows.Scan(&boardID, &boardName, &columnID, &columnName, &rank, &teamID, &teamName, &st, &n); err != nil {
			return fmt.Errorf("dashboard: ticket groups: %w", err)
		}
		out.Open += n
		b := boards[boardID]
		if b == nil {
			b = &BoardCount{BoardID: boardID, BoardName: boardName}
			boards[boardID] = b
		}
		b.Count += n
		c := columns[[2]int64{boardID, columnID}]
		if c == nil {
			c = &ColumnCount{ColumnxID: columnID, ColumnxName: columnName, rank: rank}
			columns[[2]int64{boardID, columnID}] = c
		}
		c.Count += n
		switch st {
		case deadline.BeforeDeadline:
			out.Statuses.BeforeDeadline += n
		case deadline.CriticalYellow:
			out.Statuses.CriticalYellow += n
		case deadline.OverDueRed:
			out.Statuses.OverDueRed += n
		}
		if teamID == nil {
			if noTeam == nil {
				noTeam = &TeamCount{}
			}
			noTeam.Count += n
			continue
		}
		tc := teams[*teamID]
		if tc == nil {
			tc = &TeamCount{TeamID: teamID}
			if teamName != nil {
				tc.TeamName = *teamName
			}
			teams[*teamID] = tc
		}
		tc.Count += n
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("dashboard: ticket groups: %w", err)
	}
	for key, c := range columns {
		boards[key[0]].Columns = append(boards[key[0]].Columns, *c)
	}
	for _, b := range boards {
		sort.Slice(b.Columns, func(i, j int) bool {
			if b.Columns[i].rank != b.Columns[j].rank {
				return b.Columns[i].rank < b.Columns[j].rank
			}
			return b.Columns[i].ColumnxID < b.Columns[j].ColumnxID
		})
		out.Boards = append(out.Boards, *b)
	}
	sort.Slice(out.Boards, func(i, j int) bool { return out.Boards[i].BoardID < out.Boards[j].BoardID })
	for _, t := range teams {
		out.Teams = append(out.Teams, *t)
	}
	sort.Slice(out.Teams, func(i, j int) bool {
		if out.Teams[i].Count != out.Teams[j].Count {
			return out.Teams[i].Count > out.Teams[j].Count
		}
		return strings.ToLower(out.Teams[i].TeamName) < strings.ToLower(out.Teams[j].TeamName)
	})
	if noTeam != nil {
		out.Teams = append(out.Teams, *noTeam)
	}
	return nil
}

// ticketWeeks counts per week the tickets created and the closings: the
// history rows of ticket writes that set ticket_closed to 1 (the engine
// records every write's changed fields as {"field": [old, new]}), of the
// caller's tickets only.
func (s *Service) ticketWeeks(ctx context.Context, now time.Time, out *TicketDashboard) error {
	today := deadline.Day(now)
	monday := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
	first := monday.AddDate(0, 0, -7*(weeks-1))
	var cols []string
	var bounds []any
	for i := range weeks {
		from := first.AddDate(0, 0, 7*i)
		out.Weeks = append(out.Weeks, WeekCount{From: from.Format(time.DateOnly), To: from.AddDate(0, 0, 6).Format(time.DateOnly)})
		cols = append(cols, "COUNT(CASE WHEN %[1]s >= ? AND %[1]s < ? THEN 1 END)")
		bounds = append(bounds, from, from.AddDate(0, 0, 7))
	}
	counts := func(query, col string, args []any) ([]int64, error) {
		vals := make([]int64, weeks)
		ptrs := make([]any, weeks)
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		sel := fmt.Sprintf(strings.Join(cols, ", "), col)
		err := s.db.QueryRowContext(ctx, "SELECT "+sel+" "+query, append(append([]any{}, bounds...), args...)...).Scan(ptrs...)
		if err != nil {
			return nil, fmt.Errorf("dashboard: ticket weeks: %w", err)
		}
		return vals, nil
	}
	from, args, err := s.scoped(ctx, entityTicket, "t")
	if err != nil {
		return err
	}
	opened, err := counts(`FROM `+from[0]+` WHERE t.ticket_creation_time >= ?`, "t.ticket_creation_time", append(args, first))
	if err != nil {
		return err
	}
	tracks, targs, err := s.scoped(ctx, entityTrack, "tr", entityTicket, "t")
	if err != nil {
		return err
	}
	closed, err := counts(`FROM `+tracks[0]+` JOIN `+tracks[1]+` ON t.ticket_id = tr.trackrecord_row_id
		WHERE tr.trackrecord_category = 'ticket' AND tr.trackrecord_timestamp >= ?
		AND tr.trackrecord_changes LIKE ?`, "tr.trackrecord_timestamp", append(targs, first, `%"ticket_closed":[%,1]%`))
	if err != nil {
		return err
	}
	for i := range out.Weeks {
		out.Weeks[i].Opened, out.Weeks[i].Closed = opened[i], closed[i]
	}
	return nil
}
