package httpapi

import (
	"net/http"
	"time"

	"portfolio/internal/apperr"
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

// take waits for a turn, at most t.spill, and answers the function that
// gives it back (a no-op when the request went ahead without one); nil
// when the request was cancelled while it waited.
func (t *turns) take(r *http.Request) func() {
	give := func() { <-t.slots }
	select {
	case t.slots <- struct{}{}:
		return give
	default:
	}
	timer := time.NewTimer(t.spill)
	defer timer.Stop()
	select {
	case t.slots <- struct{}{}:
		return give
	case <-timer.C:
		return func() {}
	case <-r.Context().Done():
		return nil
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
			give := s.turns.take(r)
			if give == nil {
				return // the client left while it waited: nobody to answer
			}
			defer give()
		}
		next.ServeHTTP(w, r)
	})
}
