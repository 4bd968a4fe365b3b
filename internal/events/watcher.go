package events

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"portfolio/internal/auth"
)

// seenMax bounds the records a watcher remembers having been told about
// (for deletes).
const seenMax = 4096

// watcher is one connected stream.
type watcher struct {
	p  *auth.Principal
	ch chan Event
	// ended is closed when the stream must end (hub closing, watcher too
	// slow).
	ended   chan struct{}
	endOnce sync.Once

	// rights and seen are only touched by the hub's dispatcher and, before
	// the watcher is live, by watch.
	mu     sync.Mutex
	rights map[string]bool
	// scopes are the scope keys by entity (Hub.scopeKey): watchers with
	// the same one see the same rows of that entity.
	scopes map[string]string
	seen   map[string]struct{}
	order  []string
}

func newWatcher(p *auth.Principal, buffer int) *watcher {
	return &watcher{p: p, ch: make(chan Event, buffer), ended: make(chan struct{}),
		rights: map[string]bool{}, scopes: map[string]string{}, seen: map[string]struct{}{}}
}

// scopeOf is the watcher's scope key for entity, asked once per stream
// (a stream lasts minutes; its principal, teams included, is the one it
// opened with).
func (w *watcher) scopeOf(h *Hub, entity string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	k, known := w.scopes[entity]
	if !known {
		k = h.scopeKey(w.p, entity)
		w.scopes[entity] = k
	}
	return k
}

// send queues ev; a watcher too slow to keep up is ended (it resumes with
// Last-Event-ID).
func (w *watcher) send(ev Event) {
	select {
	case w.ch <- ev:
	default:
		w.end()
	}
}

func (w *watcher) end() { w.endOnce.Do(func() { close(w.ended) }) }

// mayRead is the watcher's read right on entity, asked once per stream.
func (w *watcher) mayRead(ctx context.Context, h *Hub, entity string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	ok, known := w.rights[entity]
	if !known {
		ok = h.canRead(ctx, w.p, entity)
		w.rights[entity] = ok
	}
	return ok
}

func key(ev Event) string { return fmt.Sprintf("%s:%d", ev.Entity, ev.RecordID) }

// remember notes that the watcher was told about ev's record.
func (w *watcher) remember(ev Event) {
	k := key(ev)
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.seen[k]; ok {
		return
	}
	if len(w.order) >= seenMax {
		delete(w.seen, w.order[0])
		w.order = w.order[1:]
	}
	w.seen[k] = struct{}{}
	w.order = append(w.order, k)
}

// forget reports whether the watcher was told about ev's record, and
// forgets it (the record is gone from the watcher's view).
func (w *watcher) forget(ev Event) bool {
	k := key(ev)
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.seen[k]; !ok {
		return false
	}
	delete(w.seen, k)
	w.order = slices.DeleteFunc(w.order, func(x string) bool { return x == k })
	return true
}
