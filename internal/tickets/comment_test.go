package tickets_test

import (
	"context"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestTicketComment: POST /tickets/comment writes a comment row on the
// ticket's timeline, for a caller with the "note" right on tickets (the
// specification's table access action; not the update right) who sees the
// ticket (tenant and board); anything else writes nothing.
func TestTicketComment(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		// Every demo role has "note" on tickets; the lawyer loses it here,
		// to be the caller without it.
		if res, err := d.ExecContext(ctx, `DELETE FROM access WHERE access_subject = 'ticket' AND access_action = 'note'
			AND role_code = 'lawyer'`); err != nil {
			t.Fatal(err)
		} else if n, _ := res.RowsAffected(); n == 0 {
			t.Fatal("the seed gives the lawyer no note right on tickets")
		}
		idA, vA := ticketOf(t, d, 1, seed.DemoBoardFM)
		idB, _ := ticketOf(t, d, 2, seed.DemoBoardFM)
		nbA, _ := ticketOf(t, d, 1, seed.DemoBoardNewBusiness)
		comments := func() int64 {
			t.Helper()
			var n int64
			if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_type = 'comment'`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		say := func(name, as string, id int64, text any, status int, contains ...string) apptest.Scenario {
			return apptest.Scenario{Name: name, Method: "POST", Path: "/tickets/comment", As: as, Status: status,
				Body: obj{"ticket_id": id, "comment": text}, Contains: contains}
		}
		ta.Run(t, []apptest.Scenario{
			say("empty", admin, idA, "   ", 422, `"loc":["body","comment"]`),
			say("no text", admin, idA, nil, 422, `"loc":["body","comment"]`),
			say("too long", admin, idA, strings.Repeat("x", 4001), 422, `"loc":["body","comment"]`),
			say("missing ticket", admin, 99999999, "Hallo", 404),
			say("another tenant's ticket", lead, idB, "Hallo", 404),
			say("a ticket of a board fm does not see", fm, nbA, "Hallo", 404),
			say("needs the note right", "lawyer@demo.test", idA, "Hallo", 403),
			// lead and fm have "note" but not "update" on tickets.
			{Name: "the lead may not update tickets", Method: "PUT", Path: "/tickets/update", As: lead, Status: 403,
				Body: obj{"ticket_id": idA, "row_version": vA, "ticket_name": "x"}},
			{Name: "needs a login", Method: "POST", Path: "/tickets/comment", Status: 401, Body: obj{"ticket_id": idA, "comment": "x"}},
		})
		if n := comments(); n != 0 {
			t.Fatalf("%d comments written by refused calls", n)
		}
		ta.Run(t, []apptest.Scenario{
			say("a comment", lead, idA, "  Techniker kommt am Montag  ", 201, `"trackrecord_comment":"Techniker kommt am Montag"`),
			say("fm on their board", fm, idA, "Schlüssel liegt beim Pförtner", 201),
			{Name: "on the timeline, with its author", Method: "POST", Path: "/api/", As: admin, Status: 200,
				Body: obj{"action": "history", "entity": "ticket", "id": idA},
				Contains: []string{`"trackrecord_type":"comment"`, `"trackrecord_comment":"Techniker kommt am Montag"`, "Lea Leiter",
					"Schlüssel liegt beim Pförtner"}},
		})
		var v int64
		if err := d.QueryRowContext(ctx, `SELECT row_version FROM ticket WHERE ticket_id = ?`, idA).Scan(&v); err != nil || v != vA {
			t.Errorf("a comment changed the ticket: version %d, was %d (%v)", v, vA, err)
		}
	})
}
