package httpapi

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"portfolio/internal/i18n"
)

type requestIDKey struct{}

// RequestID returns the id of the request in ctx ("" outside requests).
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// requestIDMiddleware gives every request an id (kept from a well-formed
// X-Request-Id header, otherwise random) and echoes it in the answer.
func requestIDMiddleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !validRequestID(id) {
			var b [8]byte
			_, _ = rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id)))
	})
}

func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// LogAttrs lets inner layers (authentication) add attributes to the request
// log line, such as the user id.
type LogAttrs struct {
	mu    sync.Mutex
	attrs []slog.Attr
	// failure is the cause of a 5xx answer (for the observer: the error
	// dashboard shows it to administrators, never to the caller).
	failure string
}

type logAttrsKey struct{}

// AddLogAttr records an attribute for the request's log line.
func AddLogAttr(ctx context.Context, a slog.Attr) {
	if la, ok := ctx.Value(logAttrsKey{}).(*LogAttrs); ok {
		la.mu.Lock()
		la.attrs = append(la.attrs, a)
		la.mu.Unlock()
	}
}

// noteFailure records the cause of the request's 5xx answer.
func noteFailure(ctx context.Context, cause string) {
	if la, ok := ctx.Value(logAttrsKey{}).(*LogAttrs); ok {
		la.mu.Lock()
		la.failure = cause
		la.mu.Unlock()
	}
}

// statusWriter records the status and size of an answer.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *Server) logMiddleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		la := &LogAttrs{}
		sw := &statusWriter{ResponseWriter: w}
		inner := r.WithContext(context.WithValue(r.Context(), logAttrsKey{}, la))
		next.ServeHTTP(sw, inner)
		elapsed := time.Since(start)
		if s.observe != nil {
			la.mu.Lock()
			failure := la.failure
			la.mu.Unlock()
			// The mux names the route on the request it was given.
			s.observe(Observation{Pattern: inner.Pattern, Status: sw.status, Duration: elapsed,
				RequestID: RequestID(r.Context()), Method: r.Method, Path: r.URL.Path, Failure: failure})
		}
		attrs := []slog.Attr{
			slog.String("request_id", RequestID(r.Context())),
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.String("client", ClientAddr(r.Context())),
			slog.Int("status", sw.status),
			slog.Int64("bytes", sw.bytes),
			slog.Duration("duration", elapsed),
		}
		la.mu.Lock()
		attrs = append(attrs, la.attrs...)
		la.mu.Unlock()
		level := slog.LevelInfo
		if sw.status >= 500 {
			level = slog.LevelError
		} else if strings.HasPrefix(r.URL.Path, "/assets/") || r.URL.Path == "/healthz" || r.URL.Path == "/readyz" {
			level = slog.LevelDebug
		}
		s.log.LogAttrs(r.Context(), level, "request", attrs...)
	})
}

// recoverMiddleware turns a panic into a logged 500 JSON answer, so no panic
// reaches a user as a dropped connection or a stack trace.
func (s *Server) recoverMiddleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.log.ErrorContext(r.Context(), "panic", "request_id", RequestID(r.Context()), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			s.WriteError(w, r, errors.New("panic: "+fmt.Sprint(p)))
		}()
		next.ServeHTTP(w, r)
	})
}

// contentSecurityPolicy fits the SPA: own scripts only, inline styles for the
// component library, blob workers and images for the PDF preview.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; " +
	"frame-src 'self' blob:; frame-ancestors 'self'; object-src 'none'; base-uri 'self'; form-action 'self'"

func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "SAMEORIGIN")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		h.Set("Cross-Origin-Opener-Policy", "same-origin-allow-popups")
		next.ServeHTTP(w, r)
	})
}

// languageMiddleware puts the request language (Accept-Language; en, de or
// fr; default en) into the context.
func languageMiddleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lang := i18n.Negotiate(r.Header.Get("Accept-Language"))
		w.Header().Add("Vary", "Accept-Language")
		next.ServeHTTP(w, r.WithContext(i18n.WithLang(r.Context(), lang)))
	})
}

var gzipPool = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	return zw
}}

// gzipWriter compresses JSON, text, JavaScript, CSS and SVG answers; it
// decides at the first write, once the content type is known.
type gzipWriter struct {
	http.ResponseWriter
	zw      *gzip.Writer
	decided bool
	status  int
}

func (g *gzipWriter) WriteHeader(code int) {
	if !g.decided {
		g.status = code
		g.decide()
	}
	g.ResponseWriter.WriteHeader(code)
}

func (g *gzipWriter) decide() {
	g.decided = true
	h := g.ResponseWriter.Header()
	if h.Get("Content-Encoding") != "" || g.status == http.StatusNoContent || g.status == http.StatusNotModified {
		return
	}
	ct := h.Get("Content-Type")
	if !compressible(ct) {
		return
	}
	h.Del("Content-Length")
	h.Set("Content-Encoding", "gzip")
	zw := gzipPool.Get().(*gzip.Writer)
	zw.Reset(g.ResponseWriter)
	g.zw = zw
}

func compressible(ct string) bool {
	if strings.HasPrefix(ct, "text/event-stream") {
		return false // a live stream is flushed event by event
	}
	for _, p := range []string{"application/json", "text/", "application/javascript", "image/svg+xml", "application/xml", "application/problem+json"} {
		if strings.HasPrefix(ct, p) {
			return true
		}
	}
	return false
}

func (g *gzipWriter) Write(b []byte) (int, error) {
	if !g.decided {
		if g.ResponseWriter.Header().Get("Content-Type") == "" {
			g.ResponseWriter.Header().Set("Content-Type", http.DetectContentType(b))
		}
		g.decide()
	}
	if g.zw != nil {
		return g.zw.Write(b)
	}
	return g.ResponseWriter.Write(b)
}

func (g *gzipWriter) Flush() {
	if g.zw != nil {
		_ = g.zw.Flush()
	}
	if f, ok := g.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (g *gzipWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if hj, ok := g.ResponseWriter.(http.Hijacker); ok {
		return hj.Hijack()
	}
	return nil, nil, errors.New("httpapi: hijacking not supported")
}

func (g *gzipWriter) close() {
	if g.zw != nil {
		_ = g.zw.Close()
		gzipPool.Put(g.zw)
		g.zw = nil
	}
}

func gzipMiddleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") || r.Method == http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		gw := &gzipWriter{ResponseWriter: w}
		defer gw.close()
		next.ServeHTTP(gw, r)
	})
}
