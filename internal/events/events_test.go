package events_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

type obj = map[string]any

const (
	admin = "admin@demo.test"
	lead  = "lead@demo.test"   // customer group 1
	leadB = "lead.b@demo.test" // customer group 2
)

// sse is one real client of GET /events.
type sse struct {
	t      *testing.T
	resp   *http.Response
	events chan message
	cancel context.CancelFunc
}

// message is one SSE message as the client parsed it.
type message struct {
	id, event string
	data      map[string]any
}

// connect opens the stream with the given query and headers.
func connect(t *testing.T, ta *apptest.TestApp, query string, header map[string]string) (*sse, int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", ta.URL+"/events"+query, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		cancel()
		return nil, resp.StatusCode
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	s := &sse{t: t, resp: resp, events: make(chan message, 100), cancel: cancel}
	go s.read()
	t.Cleanup(s.close)
	return s, resp.StatusCode
}

func (s *sse) close() {
	s.cancel()
	s.resp.Body.Close()
}

func (s *sse) read() {
	defer close(s.events)
	sc := bufio.NewScanner(s.resp.Body)
	var m message
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if m.data != nil || m.event != "" {
				s.events <- m
			}
			m = message{}
		case strings.HasPrefix(line, "id: "):
			m.id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "event: "):
			m.event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &m.data); err != nil {
				m.data = map[string]any{"bad": line}
			}
		}
	}
}

// next is the next message, failing after a few seconds.
func (s *sse) next() message {
	s.t.Helper()
	select {
	case m, ok := <-s.events:
		if !ok {
			s.t.Fatal("the stream ended")
		}
		return m
	case <-time.After(5 * time.Second):
		s.t.Fatal("no event within 5 s")
	}
	return message{}
}

// expect checks the next message is about ticket id with action.
func (s *sse) expect(who string, id int64, action string) message {
	s.t.Helper()
	m := s.next()
	if m.data["entity"] != "ticket" || int64(m.data["id"].(float64)) != id || m.data["action"] != action || m.id == "" {
		s.t.Fatalf("%s: got %+v, want ticket %d %s", who, m, id, action)
	}
	return m
}

// ticketOf is a ticket of customer group g with its row_version.
func ticketOf(t *testing.T, d *db.DB, g int64) (int64, int64) {
	t.Helper()
	var id, v int64
	if err := d.QueryRowContext(context.Background(), `SELECT ticket.ticket_id, ticket.row_version FROM ticket
		JOIN pos ON pos.pos_id = ticket.pos_id JOIN company ON company.company_id = pos.company_id
		WHERE company.customergroup_id = ? AND ticket.board_id = 1 AND ticket.columnx_id = 1 ORDER BY ticket.ticket_id LIMIT 1`, g).Scan(&id, &v); err != nil {
		t.Fatal(err)
	}
	return id, v
}

// TestEventStream: two customer groups' watchers over real HTTP streams
// each receive exactly the events of their own tickets, in order; a
// refused write sends nothing; stream tickets open the stream once;
// Last-Event-ID resumes.
func TestEventStream(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		bearer := func(email string) map[string]string {
			return map[string]string{"Authorization": "Bearer " + ta.Token(email)}
		}
		a, _ := connect(t, ta, "", bearer(lead))
		// lead.b opens the stream as a browser would: with a stream ticket.
		var tk struct {
			Ticket string `json:"ticket"`
		}
		r := ta.Do("POST", "/events/ticket", ta.Token(leadB), nil)
		if r.Status != http.StatusOK {
			t.Fatalf("stream ticket: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &tk)
		b, _ := connect(t, ta, "?ticket="+tk.Ticket, nil)
		if _, status := connect(t, ta, "?ticket="+tk.Ticket, nil); status != http.StatusUnauthorized {
			t.Errorf("a used stream ticket: %d, want 401", status)
		}
		if _, status := connect(t, ta, "?authorization="+ta.Token(lead), nil); status != http.StatusUnauthorized {
			t.Errorf("an access token in the URL: %d, want 401", status)
		}
		if _, status := connect(t, ta, "", nil); status != http.StatusUnauthorized {
			t.Errorf("no credentials: %d, want 401", status)
		}
		all, _ := connect(t, ta, "", bearer(admin))

		idA, vA := ticketOf(t, d, 1)
		idB, vB := ticketOf(t, d, 2)
		update := func(id, version int64, data obj) apptest.Response {
			body := obj{"ticket_id": id, "row_version": version}
			for k, v := range data {
				body[k] = v
			}
			return ta.Do("PUT", "/tickets/update", ta.Token(admin), body)
		}
		// A refused write (a column of another board) publishes nothing.
		if r := update(idA, vA, obj{"columnx_id": 7}); r.Status != 422 {
			t.Fatalf("refused move: %d %s", r.Status, r.Body)
		}
		if r := update(idA, vA, obj{"columnx_id": 2}); r.Status != 200 {
			t.Fatalf("move A: %d %s", r.Status, r.Body)
		}
		first := a.expect("group 1 watcher", idA, "update")
		firstAll := all.expect("admin", idA, "update")
		// The ids a stream shows tell nothing of the hub's sequence (which
		// counts every tenant's writes, issue 42): sealed, different for
		// each watcher of one event, no counter in them.
		for _, id := range []string{first.id, firstAll.id} {
			if regexp.MustCompile(`^[0-9a-z]*-?[0-9]+$`).MatchString(id) || len(id) < 30 {
				t.Fatalf("stream id %q looks like a counter", id)
			}
		}
		if first.id == firstAll.id {
			t.Fatalf("two watchers got the same id %q for one event", first.id)
		}
		if r := update(idB, vB, obj{"ticket_name": "Geändert"}); r.Status != 200 {
			t.Fatalf("change B: %d %s", r.Status, r.Body)
		}
		// Group 2's first event is its own: group 1's never reached it.
		b.expect("group 2 watcher", idB, "update")
		all.expect("admin", idB, "update")
		// A new ticket of group 1 via the generic API is published too.
		r = ta.Do("POST", "/api/", ta.Token(admin), obj{"action": "create", "entity": "ticket", "data": obj{"ticket_name": "Neu",
			"pos_id": posOf(t, d, 1), "priority_id": 1, "board_id": 1, "columnx_id": 1}})
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		var created struct {
			Data struct {
				ID int64 `json:"ticket_id"`
			} `json:"data"`
		}
		r.JSON(t, &created)
		a.expect("group 1 watcher", created.Data.ID, "create")
		all.expect("admin", created.Data.ID, "create")

		// Resume: lead comes back with the id of its first event and gets
		// what it missed (the create), nothing of group 2.
		a.close()
		a2, _ := connect(t, ta, "", map[string]string{"Authorization": "Bearer " + ta.Token(lead), "Last-Event-ID": first.id})
		a2.expect("resumed group 1 watcher", created.Data.ID, "create")
		// A browser resumes with a new stream ticket and the id as a
		// query parameter.
		r = ta.Do("POST", "/events/ticket", ta.Token(lead), nil)
		r.JSON(t, &tk)
		a4, _ := connect(t, ta, "?ticket="+tk.Ticket+"&last_event_id="+first.id, nil)
		a4.expect("resumed browser watcher", created.Data.ID, "create")
		a4.close()
		// An id no longer kept: the stream says reset.
		a3, _ := connect(t, ta, "", map[string]string{"Authorization": "Bearer " + ta.Token(lead), "Last-Event-ID": "nope-1"})
		if m := a3.next(); m.event != "reset" {
			t.Errorf("unknown Last-Event-ID: got %+v, want a reset event", m)
		}
		// Deletes reach who saw the record.
		r = ta.Do("POST", "/api/", ta.Token(admin), obj{"action": "delete", "entity": "ticket", "id": created.Data.ID, "row_version": 1})
		if r.Status != 200 && r.Status != 204 {
			t.Fatalf("delete: %d %s", r.Status, r.Body)
		}
		a2.expect("group 1 watcher", created.Data.ID, "delete")
		all.expect("admin", created.Data.ID, "delete")
		if r := update(idB, vB+1, obj{"ticket_name": "Wieder"}); r.Status != 200 {
			t.Fatalf("change B: %d %s", r.Status, r.Body)
		}
		b.expect("group 2 watcher", idB, "update") // and not the delete of group 1's ticket
		// A ticket moved to the other customer group's point of sale: gone
		// for the watcher who saw it, new for the other group.
		r = ta.Do("POST", "/tickets", ta.Token(admin), obj{"ticket_name": "Wandert", "pos_id": posOf(t, d, 1), "priority_id": 1,
			"board_id": 1, "columnx_id": 1})
		if r.Status != 201 {
			t.Fatalf("create: %d %s", r.Status, r.Body)
		}
		r.JSON(t, &created)
		a2.expect("group 1 watcher", created.Data.ID, "create")
		if r := update(created.Data.ID, 1, obj{"pos_id": posOf(t, d, 2)}); r.Status != 200 {
			t.Fatalf("move to group 2: %d %s", r.Status, r.Body)
		}
		a2.expect("group 1 watcher", created.Data.ID, "delete")
		b.expect("group 2 watcher", created.Data.ID, "update")
	})
}

func posOf(t *testing.T, d *db.DB, g int64) int64 {
	t.Helper()
	var id int64
	if err := d.QueryRowContext(context.Background(), `SELECT MIN(pos.pos_id) FROM pos JOIN company ON company.company_id = pos.company_id
		WHERE company.customergroup_id = ?`, g).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestEventsAcrossInstances: with two server instances on one PostgreSQL,
// a write on one reaches the watchers of the other (LISTEN/NOTIFY), and a
// stream resumes on either instance with an id the other showed (both
// seal ids with the key of the server's shared secret).
func TestEventsAcrossInstances(t *testing.T) {
	d := testkit.NewPostgres(t)
	one, two := apptest.NewApp(t, d), apptest.NewApp(t, d)
	w1, _ := connect(t, one, "", map[string]string{"Authorization": "Bearer " + one.Token(lead)})
	w2, _ := connect(t, two, "", map[string]string{"Authorization": "Bearer " + two.Token(lead)})
	id, v := ticketOf(t, d, 1)
	r := one.Do("PUT", "/tickets/update", one.Token(admin), obj{"ticket_id": id, "row_version": v, "ticket_name": "Über zwei Instanzen"})
	if r.Status != 200 {
		t.Fatalf("update: %d %s", r.Status, r.Body)
	}
	m1 := w1.expect("instance one", id, "update")
	w2.expect("instance two", id, "update")
	w2.close()
	r = one.Do("PUT", "/tickets/update", one.Token(admin), obj{"ticket_id": id, "row_version": v + 1, "ticket_name": "Verpasst"})
	if r.Status != 200 {
		t.Fatalf("second update: %d %s", r.Status, r.Body)
	}
	w1.expect("instance one", id, "update")
	resumed, _ := connect(t, two, "", map[string]string{"Authorization": "Bearer " + two.Token(lead), "Last-Event-ID": m1.id})
	resumed.expect("resumed on instance two from instance one's id", id, "update")
}
