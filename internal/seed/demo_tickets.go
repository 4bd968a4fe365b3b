package seed

import (
	"context"
	"fmt"
	"time"

	"portfolio/internal/db"
)

// Demo boards: a facility-management board and a new-business board, each
// with five columns (one quality gate, one stamp), four priorities,
// default values and about 30 tickets across both customer groups, some
// of them late.
const (
	DemoBoardFM          int64 = 1
	DemoBoardNewBusiness int64 = 2
)

// demoColumn is one column of a demo board.
type demoColumn struct {
	id          int64
	board       int64
	name        string
	qualityGate bool
	stamp       bool
	team        int64
}

var demoColumns = []demoColumn{
	{1, DemoBoardFM, "Neu", false, false, 0},
	{2, DemoBoardFM, "In Bearbeitung", false, false, TeamFM},
	{3, DemoBoardFM, "Qualitätsprüfung", true, false, TeamFM},
	{4, DemoBoardFM, "Freigabe", false, true, TeamMVM},
	{5, DemoBoardFM, "Erledigt", false, false, 0},
	{6, DemoBoardNewBusiness, "Anfrage", false, false, 0},
	{7, DemoBoardNewBusiness, "Angebot", false, false, TeamBackOffice},
	{8, DemoBoardNewBusiness, "Vertragsprüfung", true, false, TeamMVM},
	{9, DemoBoardNewBusiness, "Unterschrift", false, true, TeamMVM},
	{10, DemoBoardNewBusiness, "Gewonnen", false, false, 0},
}

// DemoTickets seeds the demo boards and tickets once (nothing when a board
// exists), with deadlines relative to now.
func DemoTickets(ctx context.Context, d *db.DB, now time.Time) error {
	var n int
	if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM board`).Scan(&n); err != nil {
		return fmt.Errorf("seed demo tickets: %w", err)
	}
	if n > 0 {
		return nil
	}
	return d.InTx(ctx, func(tx *db.Tx) error {
		if err := demoBoards(ctx, tx); err != nil {
			return err
		}
		for _, seq := range [][2]string{{"board", "board_id"}, {"columnx", "columnx_id"}, {"priority", "priority_id"}} {
			if err := d.ResetSequences(ctx, tx, seq[0], seq[1]); err != nil {
				return err
			}
		}
		return demoTicketRows(ctx, tx, now.UTC().Truncate(time.Second))
	})
}

func demoBoards(ctx context.Context, tx *db.Tx) error {
	type stmt struct {
		sql  string
		args []any
	}
	stmts := []stmt{
		{`INSERT INTO board (board_id, board_name, board_description) VALUES (?, ?, ?)`,
			[]any{DemoBoardFM, "Facility Management", "Repairs and maintenance of the points of sale"}},
		{`INSERT INTO board (board_id, board_name, board_description) VALUES (?, ?, ?)`,
			[]any{DemoBoardNewBusiness, "New Business", "New customers from the first request to the signed contract"}},
	}
	for i, p := range []struct{ name, smiley, color string }{
		{"Niedrig", "🙂", "#40C057"}, {"Mittel", "😐", "#FAB005"}, {"Hoch", "😟", "#FD7E14"}, {"Dringend", "😱", "#FA5252"},
	} {
		stmts = append(stmts, stmt{`INSERT INTO priority (priority_id, priority_name, priority_order, priority_smiley, priority_color) VALUES (?, ?, ?, ?, ?)`,
			[]any{i + 1, p.name, i + 1, p.smiley, p.color}})
		for _, b := range []int64{DemoBoardFM, DemoBoardNewBusiness} {
			stmts = append(stmts, stmt{`INSERT INTO board_priority (board_id, priority_id, rank_order) VALUES (?, ?, ?)`, []any{b, i + 1, i + 1}})
		}
	}
	for i, c := range demoColumns {
		var team any
		if c.team != 0 {
			team = c.team
		}
		stmts = append(stmts,
			stmt{`INSERT INTO columnx (columnx_id, columnx_name, is_qualitygate, has_stamp, team_id) VALUES (?, ?, ?, ?, ?)`,
				[]any{c.id, c.name, b2i(c.qualityGate), b2i(c.stamp), team}},
			stmt{`INSERT INTO board_columnx (board_id, columnx_id, rank_order) VALUES (?, ?, ?)`, []any{c.board, c.id, i%5 + 1}})
	}
	// The FM board's quality gate needs a handover protocol; the new
	// business board's a lease contract.
	stmts = append(stmts,
		stmt{`INSERT INTO board_documenttype (board_id, documenttype_id) VALUES (?, ?)`, []any{DemoBoardFM, 2}},
		stmt{`INSERT INTO board_documenttype (board_id, documenttype_id) VALUES (?, ?)`, []any{DemoBoardNewBusiness, 1}},
		// Global defaults (24 h to yellow, 24 more to red) and the FM
		// board's faster ones (8 h, then 16).
		stmt{`INSERT INTO defaultvalue (board_id) VALUES (NULL)`, nil},
		stmt{`INSERT INTO defaultvalue (board_id, defaultvalue_yellow, defaultvalue_red) VALUES (?, 8, 16)`, []any{DemoBoardFM}},
	)
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s.sql, s.args...); err != nil {
			return fmt.Errorf("seed demo boards: %w", err)
		}
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// demoTicketTitles are the demo tickets' names, per board.
var demoTicketTitles = map[int64][]string{
	DemoBoardFM: {"Heizung ausgefallen", "Eingangstür klemmt", "Wasserschaden im Lager", "Beleuchtung Schaufenster defekt",
		"Klimaanlage wartet auf Ersatzteil", "Graffiti an der Fassade", "Rolltor schließt nicht", "Brandschutzprüfung fällig",
		"Aufzug außer Betrieb", "Parkplatzmarkierung erneuern"},
	DemoBoardNewBusiness: {"Anfrage Filiale Innenstadt", "Neue Fläche im Einkaufszentrum", "Pop-up-Store Sommer",
		"Übernahme Nachbarfläche", "Outlet am Stadtrand"},
}

// demoTicketRows writes the demo tickets: each board's titles for both
// customer groups' first points of sale, spread over the columns; every
// fourth one late (red deadline passed), every third critical.
func demoTicketRows(ctx context.Context, tx *db.Tx, now time.Time) error {
	var admin, leadA, leadB int64
	for _, u := range []struct {
		email string
		id    *int64
	}{{"admin@demo.test", &admin}, {"lead@demo.test", &leadA}, {"lead.b@demo.test", &leadB}} {
		if err := tx.QueryRowContext(ctx, `SELECT user_id FROM users WHERE user_email = ?`, u.email).Scan(u.id); err != nil {
			return fmt.Errorf("seed demo tickets: user %s: %w", u.email, err)
		}
	}
	groups := []struct {
		group, creator int64
	}{{demoGroupA, leadA}, {demoGroupB, leadB}}
	k := 0
	for _, g := range groups {
		rows, err := tx.QueryContext(ctx, `SELECT pos.pos_id FROM pos JOIN company ON company.company_id = pos.company_id
			WHERE company.customergroup_id = ? ORDER BY pos.pos_id LIMIT 5`, g.group)
		if err != nil {
			return fmt.Errorf("seed demo tickets: points of sale: %w", err)
		}
		var pos []int64
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			pos = append(pos, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(pos) == 0 {
			continue
		}
		for _, board := range []int64{DemoBoardFM, DemoBoardNewBusiness} {
			for i, title := range demoTicketTitles[board] {
				k++
				col := demoColumns[int(board-1)*5+i%5]
				yellow, red := now.Add(time.Duration(24+k)*time.Hour), now.Add(time.Duration(48+k)*time.Hour)
				switch {
				case k%4 == 0: // late
					yellow, red = now.Add(-time.Duration(72+k)*time.Hour), now.Add(-time.Duration(24+k)*time.Hour)
				case k%3 == 0: // critical
					yellow = now.Add(-time.Duration(k) * time.Hour)
				}
				creator := admin
				if k%2 == 0 {
					creator = g.creator // a customer's ticket
				}
				var team any
				if col.team != 0 {
					team = col.team
				}
				closed := 0
				if col.name == "Erledigt" || col.name == "Gewonnen" {
					closed = k % 2
				}
				_, err := tx.ExecContext(ctx, `INSERT INTO ticket (ticket_name, ticket_description, pos_id, priority_id, board_id, columnx_id,
					team_id, ticket_yellow_deadline, ticket_red_deadline, ticket_progress, ticket_closed, ticket_created_by, ticket_creation_time, ticket_updated,
					ticket_rank)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
					title, "Demo ticket", pos[i%len(pos)], int64(k%4+1), board, col.id, team, yellow, red, 10+20*(i%5), closed, creator,
					now.Add(-time.Duration(96+k)*time.Hour), k%3%2, int64(k)<<16) // the order within a column (decision 0027)
				if err != nil {
					return fmt.Errorf("seed demo ticket %q: %w", title, err)
				}
			}
		}
	}
	return nil
}
