// Package events is the live event stream: GET /events sends every
// watcher, as Server-Sent Events, the committed writes of the published
// entities that the watcher may see ({"entity", "id", "action"}). Writes
// reach the hub through the engine's commit listener (never before the
// COMMIT, never for a rolled-back write); with several instances on one
// PostgreSQL they travel over LISTEN/NOTIFY, on SQLite within the process.
// The hub keeps the events of the last minutes for Last-Event-ID resumes.
package events

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/tables"
)

// Event is one committed write as watchers receive it.
type Event struct {
	// ID orders the events of the stream (the SSE id): the same on every
	// instance.
	ID       string `json:"event_id"`
	Entity   string `json:"entity"`
	RecordID int64  `json:"id"`
	// Action is create, update or delete.
	Action string `json:"action"`
	at     time.Time
}

// Options tune a hub; zero values take the defaults.
type Options struct {
	// Entities are the entities whose writes are published (default:
	// ticket).
	Entities []string
	// Keep is how long events stay for resumes (default 5 minutes) and
	// KeepMax how many at most (default 20,000).
	Keep    time.Duration
	KeepMax int
	// Heartbeat is the interval of the keep-alive comments (default 15 s).
	Heartbeat time.Duration
	// Lifetime ends a stream after this long (default 5 minutes); the
	// client reconnects with Last-Event-ID and rights are read afresh.
	Lifetime time.Duration
	// Buffer is the number of events a slow watcher may lag behind before
	// its stream is ended (default 1,024).
	Buffer int
	// SessionCheck is how often the streams' sessions are checked (default
	// 1 s): a stream ends within it once its session ended.
	SessionCheck time.Duration
	// IDKey is the secret the ids a stream shows are sealed with
	// (idSealer; the server's secret, shared by its instances); empty
	// takes a random key.
	IDKey []byte
}

func (o *Options) defaults() {
	if len(o.Entities) == 0 {
		o.Entities = []string{"ticket"}
	}
	if o.Keep == 0 {
		o.Keep = 5 * time.Minute
	}
	if o.KeepMax == 0 {
		o.KeepMax = 20000
	}
	if o.Heartbeat == 0 {
		o.Heartbeat = 15 * time.Second
	}
	if o.Lifetime == 0 {
		o.Lifetime = 5 * time.Minute
	}
	if o.Buffer == 0 {
		o.Buffer = 1024
	}
	if o.SessionCheck == 0 {
		o.SessionCheck = time.Second
	}
}

// visibility decides whether record id of entity is within the tenant and
// the row rules of principal p (the engine's VisibleTo). The read right is
// checked apart, once per watcher and entity.
type visibility func(ctx context.Context, p *auth.Principal, entity string, id int64) (bool, error)

// scopeKeys names the rows of entity p sees (the engine's ScopeKey):
// watchers with the same key share one visibility check per event; "all"
// is a watcher who sees every row.
type scopeKeys func(p *auth.Principal, entity string) string

// rights decides whether p may read rows of entity (the engine's Require).
type rights func(ctx context.Context, p *auth.Principal, entity string) bool

// Hub fans events out to the watchers of this instance.
type Hub struct {
	opts      Options
	db        *db.DB
	log       *slog.Logger
	visible   visibility
	scopeKey  scopeKeys
	canRead   rights
	published map[string]bool
	ids       *idSealer
	broker    broker
	in        chan Event
	ctx       context.Context // ends when the hub closes
	stop      context.CancelFunc
	done      sync.WaitGroup

	mu       sync.Mutex
	ring     []Event // oldest first
	watchers map[*watcher]struct{}
	closed   bool
}

// broker carries published events to every instance's hub.
type broker interface {
	publish(ctx context.Context, ev Event) error
}

// New builds the hub on the engine's commit listener and starts its
// dispatcher (and, on PostgreSQL, its listener). Close stops them.
func New(d *db.DB, engine *tables.Engine, log *slog.Logger, opts Options) (*Hub, error) {
	opts.defaults()
	ids, err := newIDSealer(opts.IDKey)
	if err != nil {
		return nil, err
	}
	ctx, stop := context.WithCancel(context.Background())
	h := &Hub{opts: opts, db: d, log: log, published: map[string]bool{}, ids: ids, in: make(chan Event, 4096), ctx: ctx, stop: stop,
		watchers: map[*watcher]struct{}{}}
	h.visible = func(ctx context.Context, p *auth.Principal, entity string, id int64) (bool, error) {
		return engine.VisibleTo(ctx, d, p, entity, id)
	}
	h.scopeKey = engine.ScopeKey
	h.canRead = func(ctx context.Context, p *auth.Principal, entity string) bool {
		return engine.Require(auth.WithPrincipal(ctx, p), "read", entity) == nil
	}
	for _, e := range opts.Entities {
		h.published[e] = true
	}
	if d.Dialect() == db.Postgres {
		pg := &pgBroker{db: d, log: log, hub: h, forget: engine.ForgetLabels}
		h.broker = pg
		h.done.Go(func() { pg.listen(ctx) })
	} else {
		h.broker = &localBroker{hub: h, epoch: strconv.FormatInt(time.Now().UnixMilli(), 36)}
	}
	h.done.Go(func() { h.dispatch(ctx) })
	engine.OnCommitted(h.committed)
	return h, nil
}

// committed is the engine's commit listener: it publishes the writes of
// the published entities.
func (h *Hub) committed(c tables.Committed) {
	// A label edit empties the label cache of every instance on the
	// same PostgreSQL (pgBroker.listenOnce); the writing one already has.
	_, pg := h.broker.(*pgBroker)
	if !h.published[c.Entity] && !(pg && c.Entity == tables.LabelEntity) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.broker.publish(ctx, Event{Entity: c.Entity, RecordID: c.ID, Action: c.Action}); err != nil {
		h.log.Error("events: publish", "entity", c.Entity, "id", c.ID, "error", err)
	}
}

// Publish publishes ev as a committed write (modules that write outside
// the engine, tests).
func (h *Hub) Publish(ctx context.Context, entity string, id int64, action string) error {
	return h.broker.publish(ctx, Event{Entity: entity, RecordID: id, Action: action})
}

// accept takes an event that has its id into the hub (from the broker).
func (h *Hub) accept(ev Event) {
	select {
	case h.in <- ev:
	case <-h.ctx.Done():
	}
}

// dispatch appends events to the ring and delivers them, one at a time,
// in the order the broker gave them.
func (h *Hub) dispatch(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev := <-h.in:
			ev.at = time.Now()
			h.mu.Lock()
			h.ring = append(h.ring, ev)
			h.trim(ev.at)
			ws := make([]*watcher, 0, len(h.watchers))
			for w := range h.watchers {
				ws = append(ws, w)
			}
			h.mu.Unlock()
			h.deliver(ctx, ev, ws)
		}
	}
}

// trim drops events older than Keep or beyond KeepMax (h.mu held).
func (h *Hub) trim(now time.Time) {
	drop := 0
	for drop < len(h.ring) && (len(h.ring)-drop > h.opts.KeepMax || now.Sub(h.ring[drop].at) > h.opts.Keep) {
		drop++
	}
	if drop > 0 {
		h.ring = append(h.ring[:0:0], h.ring[drop:]...)
	}
}

// answer is one visibility check's result, shared by the watchers of one
// scope key (tenant and row rules) for one event.
type answer struct {
	ok  bool
	err error
}

// deliver sends ev to the watchers who may see it. Watchers of one scope
// key (the same tenant and the same answer of the entity's row rule: a
// ticket's board rule depends on the watcher's teams) share one
// visibility check per event (the check is the engine's and made anew for
// every event, so a ticket moved to another tenant or board is seen by
// who sees it there only).
func (h *Hub) deliver(ctx context.Context, ev Event, ws []*watcher) {
	byScope := map[string]answer{}
	for _, w := range ws {
		out, ok, err := h.mayWatch(ctx, w, ev, byScope)
		if err != nil {
			h.log.Error("events: visibility", "entity", ev.Entity, "id", ev.RecordID, "user_id", w.p.UserID, "error", err)
			continue
		}
		if ok {
			w.send(out)
		}
	}
}

// mayWatch decides whether w receives ev, and as what, with the answers
// per scope of this event so far. A record the watcher was told about
// that left its view (a ticket moved to another point of sale) arrives as
// a delete: gone from what the watcher may see.
func (h *Hub) mayWatch(ctx context.Context, w *watcher, ev Event, byScope map[string]answer) (Event, bool, error) {
	if !w.mayRead(ctx, h, ev.Entity) {
		return ev, false, nil
	}
	scope := w.scopeOf(h, ev.Entity)
	if ev.Action == "delete" {
		// A deleted row can no longer be checked: its delete goes to who
		// was told about the row, and to watchers who see every row of
		// the entity (no tenant, no row rule).
		return ev, w.forget(ev) || scope == "all", nil
	}
	a, ok := byScope[scope]
	if !ok {
		a.ok, a.err = h.visible(ctx, w.p, ev.Entity, ev.RecordID)
		byScope[scope] = a
	}
	if a.err != nil {
		return ev, false, a.err
	}
	if a.ok {
		w.remember(ev)
		return ev, true, nil
	}
	if w.forget(ev) {
		ev.Action = "delete"
		return ev, true, nil
	}
	return ev, false, nil
}

// ErrClosed is the answer of a hub that has shut down.
var ErrClosed = errors.New("events: hub closed")

// watch registers a watcher for p and returns it with the events after
// lastID that it may see (resumed is false when lastID is no longer
// kept: the client must reload).
func (h *Hub) watch(ctx context.Context, p *auth.Principal, lastID string) (*watcher, []Event, bool, error) {
	w := newWatcher(p, h.opts.Buffer)
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, nil, false, ErrClosed
	}
	var missed []Event
	resumed := true
	if lastID != "" {
		at := -1
		for i := len(h.ring) - 1; i >= 0; i-- {
			if h.ring[i].ID == lastID {
				at = i
				break
			}
		}
		if at < 0 {
			resumed = false
		} else {
			missed = append(missed, h.ring[at+1:]...)
		}
	}
	h.watchers[w] = struct{}{}
	h.mu.Unlock()
	out := missed[:0:0]
	for _, ev := range missed {
		sent, ok, err := h.mayWatch(ctx, w, ev, map[string]answer{})
		if err != nil {
			h.unwatch(w)
			return nil, nil, false, fmt.Errorf("events: resume: %w", err)
		}
		if ok {
			out = append(out, sent)
		}
	}
	return w, out, resumed, nil
}

// unwatch removes w.
func (h *Hub) unwatch(w *watcher) {
	h.mu.Lock()
	delete(h.watchers, w)
	h.mu.Unlock()
}

// Watchers is the number of connected watchers of this instance.
func (h *Hub) Watchers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.watchers)
}

// Close ends every stream and stops the dispatcher and the listener.
func (h *Hub) Close() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.closed = true
	for w := range h.watchers {
		w.end()
	}
	h.mu.Unlock()
	h.stop()
	h.done.Wait()
}

// livePrincipals reads the principals of the sessions that may still be
// used, as their requests would be answered now (Principals.LivePrincipals).
type livePrincipals func(ctx context.Context, sessions []string) (map[string]*auth.Principal, error)

// watchSessions ends, every SessionCheck until the hub closes, the streams
// whose session ended (a logout, a lock, a password change on any
// instance) or whose user no longer sees what the stream was opened with
// (a role, team, right or customer group changed: auth.Principal.SeesAs),
// within a second (issue 42). A stream ended for a change is opened again
// by the client with its new principal, from its last event on. One query
// per check, whatever the number of streams.
func (h *Hub) watchSessions(live livePrincipals) {
	h.done.Go(func() {
		tick := time.NewTicker(h.opts.SessionCheck)
		defer tick.Stop()
		for {
			select {
			case <-h.ctx.Done():
				return
			case <-tick.C:
				if err := h.endStaleStreams(live); err != nil && h.ctx.Err() == nil {
					h.log.Error("events: check the streams' sessions", "error", err)
				}
			}
		}
	})
}

// endStaleStreams checks the sessions of the open streams once.
func (h *Hub) endStaleStreams(live livePrincipals) error {
	h.mu.Lock()
	bySession := map[string][]*watcher{}
	for w := range h.watchers {
		bySession[w.p.SessionID] = append(bySession[w.p.SessionID], w)
	}
	h.mu.Unlock()
	sessions := make([]string, 0, len(bySession))
	for id := range bySession {
		if id != "" {
			sessions = append(sessions, id)
		}
	}
	if len(sessions) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(h.ctx, h.opts.SessionCheck)
	defer cancel()
	now, err := live(ctx, sessions)
	if err != nil {
		return err
	}
	for id, ws := range bySession {
		if id == "" {
			continue
		}
		for _, w := range ws {
			if cur := now[id]; cur == nil || !w.p.SeesAs(cur) {
				w.end()
			}
		}
	}
	return nil
}
