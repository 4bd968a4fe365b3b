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

// limitMiddleware applies the bound to every request but the health
// probes and the live event streams (long-lived, cheap while idle, and
// bounded by their own lifetime).
func (s *Server) limitMiddleware(next http.Handler) http.Handler {
	if s.limit == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/events", "/healthz", "/readyz":
			next.ServeHTTP(w, r)
			return
		}
		if !s.limit.acquire(r) {
			s.WriteError(w, r, apperr.New(apperr.KindUnavailable, "server.error.overloaded").After(overloadRetryAfter))
			return
		}
		defer s.limit.release()
		next.ServeHTTP(w, r)
	})
}
