// Package httpapi is the HTTP layer: the router, the middleware every request
// passes, JSON reading and writing, the mapping of errors to {"detail"}
// answers and the single-page app fallback. Each module binds its own routes
// through Router; nothing here knows a module.
package httpapi

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/i18n"
)

// HandlerFunc is an HTTP handler that returns its failure instead of writing
// it; the server maps it to a {"detail"} answer.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// Authenticator resolves the caller of a request. It returns a context that
// carries the caller, or an *apperr.Error (401 when the token must be
// refreshed).
type Authenticator interface {
	Authenticate(r *http.Request) (context.Context, error)
}

// Server owns the mux and the shared pieces handlers need to answer.
type Server struct {
	mux     *http.ServeMux
	log     *slog.Logger
	catalog *i18n.Catalog
	// labels are the shipped field labels, which name a field in a
	// message when its module gave none.
	labels   *i18n.Catalog
	auth     Authenticator
	maxBody  int64
	prefixes []string
	spa      http.Handler
	patterns []string
	proxies  []netip.Prefix
	observe  func(Observation)
	limit    *limiter
	turns    *turns
}

// Observation is what the server tells its observer (the metrics) about
// each answered request.
type Observation struct {
	// Pattern is the route that answered ("GET /tickets/{id}"), empty for
	// the single-page app and unknown paths.
	Pattern  string
	Status   int
	Duration time.Duration
	// RequestID, Method and Path name the request; Failure is the cause
	// of a 5xx answer ("" otherwise, and for a 503 the request bound
	// gave).
	RequestID string
	Method    string
	Path      string
	Failure   string
}

// Options configure a Server.
type Options struct {
	Logger  *slog.Logger
	Catalog *i18n.Catalog
	// MaxBodyBytes limits request bodies unless a route says otherwise.
	MaxBodyBytes int64
	// SPA is the built single-page app (index.html at its root); nil serves a
	// short notice that the frontend is not built.
	SPA fs.FS
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client (see ClientAddr).
	TrustedProxies []netip.Prefix
	// Observe, when set, is told about every answered request.
	Observe func(Observation)
	// MaxInFlight bounds the requests served at once (0: no bound); a
	// request waits at most QueueWait for a turn, then answers 503 with
	// Retry-After. Live event streams do not count.
	MaxInFlight int
	QueueWait   time.Duration
	// Turns are the requests that run at once while others wait in line in
	// the order they came (0: every admitted request runs at once); a
	// request that waited TurnSpill goes ahead without a turn (limit.go).
	Turns     int
	TurnSpill time.Duration
}

// APIPaths are the paths the API owns: an entry ending in "/" owns every
// path below it, any other entry only itself. An unknown path the API owns
// answers a JSON 404; everything else is the single-page app (which has its
// own /auth/reset-password/{token} and /auth/verification/{token} pages).
var APIPaths = []string{
	"/token", "/jwt/", "/auth/refresh/", "/auth/forgot-password", "/auth/reset-password",
	"/auth/verify", "/auth/change-password", "/logout", "/user/", "/users", "/users/", "/specific-api",
	"/api/", "/teams", "/teams/", "/tickets", "/tickets/", "/documents", "/documents/", "/document/",
	"/documents-sign/", "/uploadxlsx/", "/emails", "/emails/", "/areas", "/areas/", "/companies", "/companies/",
	"/contacts", "/contacts/", "/contracts", "/contracts/", "/invoices", "/invoices/",
	"/contradiction_generators/", "/locations", "/locations/", "/partners", "/partners/", "/pos", "/pos/",
	"/priceindexes/", "/indexadjustments/", "/imports", "/imports/", "/events", "/events/", "/calendar/",
	"/dashboard/", "/backoffice/", "/healthz", "/readyz", "/metrics",
}

// New builds a server with no routes but the SPA fallback.
func New(o Options) *Server {
	s := &Server{
		mux:      http.NewServeMux(),
		log:      o.Logger,
		catalog:  o.Catalog,
		labels:   i18n.MustLoadAttributes(),
		maxBody:  o.MaxBodyBytes,
		prefixes: APIPaths,
		proxies:  o.TrustedProxies,
		observe:  o.Observe,
		limit:    newLimiter(o.MaxInFlight, o.QueueWait),
		turns:    newTurns(o.Turns, o.TurnSpill),
	}
	s.spa = newSPAHandler(o.SPA)
	s.mux.HandleFunc("/", s.fallback)
	return s
}

// SetAuthenticator installs the caller resolution used by private routes.
func (s *Server) SetAuthenticator(a Authenticator) { s.auth = a }

// RouteOption changes how one route is served.
type RouteOption func(*route)

type route struct {
	public  bool
	maxBody int64
}

// Public marks a route that needs no logged-in caller.
func Public() RouteOption { return func(r *route) { r.public = true } }

// MaxBody overrides the request body limit of a route (uploads).
func MaxBody(n int64) RouteOption { return func(r *route) { r.maxBody = n } }

// Handle registers h for a Go 1.22 pattern ("POST /token"). Routes are
// private (a valid access token is required) unless Public is given, so no
// route can forget authentication.
func (s *Server) Handle(pattern string, h HandlerFunc, opts ...RouteOption) {
	s.patterns = append(s.patterns, pattern)
	rt := route{maxBody: s.maxBody}
	for _, o := range opts {
		o(&rt)
	}
	s.mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && rt.maxBody > 0 {
			r.Body = http.MaxBytesReader(w, r.Body, rt.maxBody)
		}
		if !rt.public {
			if s.auth == nil {
				s.WriteError(w, r, apperr.Unauthorized("server.auth.not_authenticated"))
				return
			}
			ctx, err := s.auth.Authenticate(r)
			if err != nil {
				s.WriteError(w, r, err)
				return
			}
			r = r.WithContext(ctx)
		}
		if err := h(w, r); err != nil {
			s.WriteError(w, r, err)
		}
	}))
}

// Patterns lists the registered route patterns ("POST /token"), for the
// test that every route is documented.
func (s *Server) Patterns() []string { return append([]string(nil), s.patterns...) }

// fallback answers every path no route matched: a JSON 404 (or 405) under
// the API prefixes, the single-page app elsewhere.
func (s *Server) fallback(w http.ResponseWriter, r *http.Request) {
	if s.isAPIPath(r.URL.Path) {
		if allowed := s.allowedMethods(r); len(allowed) > 0 {
			w.Header().Set("Allow", strings.Join(allowed, ", "))
			s.WriteError(w, r, apperr.New(apperr.KindMethodNotAllowed, "server.error.method_not_allowed"))
			return
		}
		s.WriteError(w, r, apperr.NotFound("server.error.route_not_found"))
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.WriteError(w, r, apperr.New(apperr.KindMethodNotAllowed, "server.error.method_not_allowed"))
		return
	}
	s.spa.ServeHTTP(w, r)
}

// allowedMethods lists the methods some route serves for r's path.
func (s *Server) allowedMethods(r *http.Request) []string {
	var out []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := s.mux.Handler(probe); pattern != "/" && pattern != "" {
			out = append(out, m)
		}
	}
	return out
}

func (s *Server) isAPIPath(p string) bool {
	for _, owned := range s.prefixes {
		if p == owned || strings.HasSuffix(owned, "/") && strings.HasPrefix(p, owned) {
			return true
		}
	}
	return false
}

// Handler returns the server wrapped in the middleware every request passes.
func (s *Server) Handler() http.Handler {
	var h http.Handler = s.mux
	h = gzipMiddleware(h)
	h = securityHeaders(h)
	h = s.recoverMiddleware(h)
	h = s.limitMiddleware(h)
	h = s.logMiddleware(h)
	h = languageMiddleware(h)
	h = s.clientAddrMiddleware(h)
	h = requestIDMiddleware(h)
	return h
}
