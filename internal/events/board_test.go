package events_test

import (
	"context"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

const (
	fm        = "fm@demo.test"              // FM extern, customer group 1: the FM board only
	extMember = "ext_team_member@demo.test" // MVM extern, customer group 1: both boards
)

// TestEventsKeepToBoards: the board rule of decision 0027 holds in the
// event stream too. Two watchers of one customer group with different
// teams: fm (FM extern) never receives an event about a ticket of the
// new-business board, which only MVM's teams see, while the MVM extern
// member receives it; a ticket fm was told about that moves onto that
// board arrives for fm as a delete.
func TestEventsKeepToBoards(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		bearer := func(email string) map[string]string {
			return map[string]string{"Authorization": "Bearer " + ta.Token(email)}
		}
		var nb, nbVersion int64
		if err := d.QueryRowContext(context.Background(), `SELECT ticket.ticket_id, ticket.row_version FROM ticket
			JOIN pos ON pos.pos_id = ticket.pos_id JOIN company ON company.company_id = pos.company_id
			WHERE company.customergroup_id = 1 AND ticket.board_id = ? ORDER BY ticket.ticket_id LIMIT 1`,
			seed.DemoBoardNewBusiness).Scan(&nb, &nbVersion); err != nil {
			t.Fatal(err)
		}
		fmID, fmVersion := ticketOf(t, d, 1)
		team, _ := connect(t, ta, "", bearer(fm))
		other, _ := connect(t, ta, "", bearer(extMember))
		update := func(id, version int64, data obj) {
			t.Helper()
			body := obj{"ticket_id": id, "row_version": version}
			for k, v := range data {
				body[k] = v
			}
			if r := ta.Do("PUT", "/tickets/update", ta.Token(admin), body); r.Status != 200 {
				t.Fatalf("update %d: %d %s", id, r.Status, r.Body)
			}
		}
		update(nb, nbVersion, obj{"ticket_name": "Neukunde angefragt"})
		other.expect("MVM extern watcher", nb, "update")
		update(fmID, fmVersion, obj{"ticket_name": "Tür klemmt wieder"})
		// fm's first event is of its own board: the other never reached it.
		team.expect("FM extern watcher", fmID, "update")
		other.expect("MVM extern watcher", fmID, "update")
		// A ticket fm was told about leaves for the new-business board:
		// gone for fm, an update for who sees that board.
		update(fmID, fmVersion+1, obj{"board_id": seed.DemoBoardNewBusiness, "columnx_id": 6})
		team.expect("FM extern watcher", fmID, "delete")
		other.expect("MVM extern watcher", fmID, "update")
		// And nothing further of it reaches fm: the next event fm gets is
		// the one of its board again.
		update(fmID, fmVersion+2, obj{"ticket_name": "Jetzt Neugeschäft"})
		other.expect("MVM extern watcher", fmID, "update")
		id2, v2 := ticketOf(t, d, 1)
		update(id2, v2, obj{"ticket_name": "Wieder FM"})
		team.expect("FM extern watcher", id2, "update")
		other.expect("MVM extern watcher", id2, "update")
	})
}
