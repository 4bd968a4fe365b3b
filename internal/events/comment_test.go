package events_test

import (
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestCommentEvent: a comment on a ticket reaches the ticket's watchers as
// an update of the ticket (their timelines reload), and no watcher of
// another customer group.
func TestCommentEvent(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		idA, _ := ticketOf(t, d, 1)
		idB, _ := ticketOf(t, d, 2)
		a, _ := connect(t, ta, "", map[string]string{"Authorization": "Bearer " + ta.Token(lead)})
		b, _ := connect(t, ta, "", map[string]string{"Authorization": "Bearer " + ta.Token(leadB)})
		for _, id := range []int64{idA, idB} {
			if r := ta.Do("POST", "/tickets/comment", ta.Token(admin), map[string]any{"ticket_id": id, "comment": "Bitte prüfen"}); r.Status != 201 {
				t.Fatalf("comment on %d: %d %s", id, r.Status, r.Body)
			}
		}
		// Then one more on A: the next thing lead receives is that one, so
		// the comment on B never reached lead.
		if r := ta.Do("POST", "/tickets/comment", ta.Token(admin), map[string]any{"ticket_id": idA, "comment": "Erledigt?"}); r.Status != 201 {
			t.Fatalf("comment on %d: %d %s", idA, r.Status, r.Body)
		}
		first := a.expect("lead", idA, "update")
		if second := a.expect("lead", idA, "update"); second.id == first.id {
			t.Errorf("lead got event %s twice", first.id)
		}
		b.expect("lead.b", idB, "update")
	})
}
