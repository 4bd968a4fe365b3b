package seed

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"portfolio/internal/db"
)

// The tickets of seed --scale: one per generated point of sale on generated
// boards (Scale).

// ensureTicketLookups finds or creates the priorities, finds the internal
// teams and their members the tickets are given (none on a database
// without the base data: the tickets then have no team and nobody
// assigned) and counts the boards earlier runs generated.
func (g *scaleGen) ensureTicketLookups(ctx context.Context, tx *db.Tx) error {
	g.lk.team, g.lk.members = map[string]int64{}, map[int64][]int64{}
	for i, p := range scalePriorities {
		id, err := ensurePriority(ctx, tx, p.name, i+1, p.smiley, p.color)
		if err != nil {
			return err
		}
		g.lk.priority = append(g.lk.priority, id)
	}
	err := eachRow(ctx, tx, `SELECT team_id, team_name FROM team WHERE team_type = 'intern' ORDER BY team_id`, func(rows *sql.Rows) error {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return err
		}
		if _, ok := g.lk.team[name]; !ok {
			g.lk.team[name] = id
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("seed: scale: teams: %w", err)
	}
	err = eachRow(ctx, tx, `SELECT ut.user_id, ut.team_id FROM user_team ut JOIN users u ON u.user_id = ut.user_id
		JOIN team t ON t.team_id = ut.team_id WHERE t.team_type = 'intern' AND u.user_locked = 0 ORDER BY ut.user_id, ut.team_id`,
		func(rows *sql.Rows) error {
			var user, team int64
			if err := rows.Scan(&user, &team); err != nil {
				return err
			}
			g.lk.members[team] = append(g.lk.members[team], user)
			if len(g.lk.staff) == 0 || g.lk.staff[len(g.lk.staff)-1] != user {
				g.lk.staff = append(g.lk.staff, user)
			}
			return nil
		})
	if err != nil {
		return fmt.Errorf("seed: scale: team members: %w", err)
	}
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM board WHERE board_description = ?`, scaleBoardDescription).Scan(&g.oldBoards); err != nil {
		return fmt.Errorf("seed: scale: generated boards: %w", err)
	}
	return nil
}

// ensurePriority returns the id of the priority named name, creating it
// when missing.
func ensurePriority(ctx context.Context, tx *db.Tx, name string, order int, smiley, color string) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT priority_id FROM priority WHERE priority_name = ? ORDER BY priority_id LIMIT 1`, name).Scan(&id)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("seed: find priority %q: %w", name, err)
	}
	err = tx.QueryRowContext(ctx, `INSERT INTO priority (priority_name, priority_order, priority_smiley, priority_color)
		VALUES (?, ?, ?, ?) RETURNING priority_id`, name, order, smiley, color).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("seed: create priority %q: %w", name, err)
	}
	return id, nil
}

// eachRow runs query in tx and calls fn on every row.
func eachRow(ctx context.Context, tx *db.Tx, query string, fn func(*sql.Rows) error) error {
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// planBoards creates the boards the run's tickets go to, one per
// scaleTicketsPerBoard points of sale, each with the columns of
// scaleBoardColumns and every priority, numbered after the boards of
// earlier runs.
func (g *scaleGen) planBoards() {
	if !g.cfg.tickets() {
		return
	}
	for k := range (g.n + scaleTicketsPerBoard - 1) / scaleTicketsPerBoard {
		b := scaleBoard{id: g.id("board")}
		g.boardRows.add(b.id, fmt.Sprintf("%s %d", scaleBoardName, g.oldBoards+k+1), scaleBoardDescription)
		for rank, c := range scaleBoardColumns {
			id := g.id("columnx")
			g.columnRows.add(id, c.name, nullID(g.lk.team[c.team]))
			g.boardColumns.add(b.id, id, int64(rank+1))
			b.columns = append(b.columns, id)
		}
		for rank, p := range g.lk.priority {
			g.boardPriorities.add(b.id, p, int64(rank+1))
		}
		g.boards = append(g.boards, b)
	}
}

// ticketsOf is the number of tickets of each point of sale of the run.
func (g *scaleGen) ticketsOf() int {
	if g.cfg.tickets() {
		return 1
	}
	return 0
}

// addTicket buffers the ticket of the i-th point of sale of the run on
// board i / scaleTicketsPerBoard: every scaleOpenEvery-th one open in one
// of the working columns, with deadlines around today (some already
// passed), the others closed in the last column months or years ago.
func (g *scaleGen) addTicket(r *rand.Rand, i int, posID, contractID int64, posName, city string) {
	topic := &scaleTicketTopics[weighted(r, len(scaleTicketTopics), func(k int) int { return scaleTicketTopics[k].weight })]
	name := fmt.Sprintf(topic.title, posName, 2021+r.IntN(4), city)
	priority := g.lk.priority[weighted(r, len(scalePriorities), func(k int) int { return scalePriorities[k].weight })]
	board := &g.boards[i/scaleTicketsPerBoard]
	open := i%scaleOpenEvery == 0
	col := len(scaleBoardColumns) - 1
	now := g.today.Truncate(time.Second)
	created := now.Add(-time.Duration(24*(60+r.IntN(840))+r.IntN(24)) * time.Hour)
	if open {
		col = weighted(r, col, func(k int) int { return scaleBoardColumns[k].weight })
		created = now.Add(-time.Duration(1+r.IntN(45*24)) * time.Hour)
	}
	yellow := created.Add(time.Duration(24*(2+r.IntN(28))) * time.Hour)
	red := yellow.Add(time.Duration(24*(1+r.IntN(14))) * time.Hour)
	team := g.lk.team[topic.team]
	if t := g.lk.team[scaleBoardColumns[col].team]; t != 0 {
		team = t // a ticket entering a column with a team gets it (the ticket rules)
	}
	var assignee any
	if col > 0 || r.IntN(2) == 0 { // half the new tickets wait for someone to take them
		assignee = pick(r, g.lk.members[team], g.lk.staff)
	}
	var contract any
	if topic.contract {
		contract = contractID
	}
	id := g.id("ticket")
	g.ticket.add(id, name, topic.description, posID, contract, priority, board.id, board.columns[col], assignee, nullID(team),
		yellow, red, scaleBoardColumns[col].progress, boolInt(!open), pick(r, g.lk.staff, nil), created, boolInt(col > 0),
		id<<16) // the order within the column: the id order, as migration 0033 numbered it
}

// pick is a random id of ids, else of fallback, else nil (no such user).
func pick(r *rand.Rand, ids, fallback []int64) any {
	if len(ids) == 0 {
		ids = fallback
	}
	if len(ids) == 0 {
		return nil
	}
	return ids[r.IntN(len(ids))]
}

// nullID is id, or nil (NULL) for 0.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}
