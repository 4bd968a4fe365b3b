package httpapi

import (
	"net/http"
	"sync"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/turn"
)

// limiter bounds the requests served at once. Beyond the bound a request
// waits a short while for a turn and is then turned away with 503 and
// Retry-After: under overload the server answers some requests quickly
// instead of every request slowly, and its memory stays bounded by the
// requests it serves, not by the ones that arrive.
type limiter struct {
	slots chan struct{}
	wait  time.Duration
}

// overloadRetryAfter is what a turned-away client is told to wait.
const overloadRetryAfter = 2 * time.Second

func newLimiter(max int, wait time.Duration) *limiter {
	if max <= 0 {
		return nil
	}
	return &limiter{slots: make(chan struct{}, max), wait: wait}
}

// acquire takes a slot, waiting at most l.wait; false: none came free.
func (l *limiter) acquire(r *http.Request) bool {
	select {
	case l.slots <- struct{}{}:
		return true
	default:
	}
	if l.wait <= 0 {
		return false
	}
	t := time.NewTimer(l.wait)
	defer t.Stop()
	select {
	case l.slots <- struct{}{}:
		return true
	case <-t.C:
		return false
	case <-r.Context().Done():
		return false
	}
}

func (l *limiter) release() { <-l.slots }

// turns hands the cores to requests in the order they came. Without it
// the runtime shares the cores among every request in flight: with 32
// clients on two cores each request gets a sixteenth of a core and the
// slowest wait two to three times as long as the median. With a few
// turns (about two per core) the others wait in line, served first come
// first served (Go hands a full channel's slots to waiting senders in
// order), so every request takes about as long and the rate stays the
// same (docs/performance.md). A request that waited spill without a turn
// goes ahead beside the line: a few long requests (an export, a letter)
// holding every turn delay the short ones by at most spill, and never
// turn them away.
type turns struct {
	slots chan struct{}
	spill time.Duration
}

func newTurns(n int, spill time.Duration) *turns {
	if n <= 0 {
		return nil
	}
	return &turns{slots: make(chan struct{}, n), spill: spill}
}

// take waits for a turn, at most t.spill, and answers the request's hold
// on it (holding nothing when the request went ahead without one); nil
// when the request was cancelled while it waited.
func (t *turns) take(r *http.Request) *held {
	got, ok := t.wait(r)
	if !ok {
		return nil
	}
	return &held{t: t, r: r, has: got}
}

// wait takes a slot, waiting at most t.spill: got says whether it did, ok
// is false when the request was cancelled meanwhile.
func (t *turns) wait(r *http.Request) (got, ok bool) {
	select {
	case t.slots <- struct{}{}:
		return true, true
	default:
	}
	timer := time.NewTimer(t.spill)
	defer timer.Stop()
	select {
	case t.slots <- struct{}{}:
		return true, true
	case <-timer.C:
		return false, true
	case <-r.Context().Done():
		return false, false
	}
}

// held is a request's turn (turn.Holder): code that waits for a shared
// resource gives it back meanwhile (turn.Release). Its methods may run on
// the request's goroutines at once, hence the mutex.
type held struct {
	t   *turns
	r   *http.Request
	mu  sync.Mutex
	has bool
}

// Release gives the turn back and answers the function that takes one
// again (waiting in line like a new request, at most the spill).
func (h *held) Release() func() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.has {
		return func() {}
	}
	<-h.t.slots
	h.has = false
	return h.retake
}

func (h *held) retake() {
	got, _ := h.t.wait(h.r)
	h.mu.Lock()
	defer h.mu.Unlock()
	if got && h.has {
		<-h.t.slots // a second retake: keep one turn
		return
	}
	h.has = h.has || got
}

// end gives the turn back when the request is done.
func (h *held) end() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.has {
		<-h.t.slots
		h.has = false
	}
}

// limitMiddleware applies the bound to every request but the health
// probes and the live event streams (long-lived, cheap while idle, and
// bounded by their own lifetime).
func (s *Server) limitMiddleware(next http.Handler) http.Handler {
	if s.limit == nil && s.turns == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/events", "/healthz", "/readyz":
			next.ServeHTTP(w, r)
			return
		}
		if s.limit != nil {
			if !s.limit.acquire(r) {
				s.WriteError(w, r, apperr.New(apperr.KindUnavailable, "server.error.overloaded").After(overloadRetryAfter))
				return
			}
			defer s.limit.release()
		}
		if s.turns != nil {
			h := s.turns.take(r)
			if h == nil {
				return // the client left while it waited: nobody to answer
			}
			defer h.end()
			held := r.WithContext(turn.With(r.Context(), h))
			next.ServeHTTP(w, held)
			r.Pattern = held.Pattern // the mux names the route on the request it got; the observer reads it on r
			return
		}
		next.ServeHTTP(w, r)
	})
}
