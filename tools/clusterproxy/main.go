// Command clusterproxy is the small reverse proxy of scripts/cluster.sh: it
// spreads requests round-robin over several Portfolio instances and skips
// an instance whose health check (GET /readyz) fails or that refuses a
// connection. It stands in for nginx or haproxy, which the development
// machines do not have; in production use the load balancer you run.
//
//	clusterproxy -listen 127.0.0.1:8080 -backend http://127.0.0.1:8081 -backend http://127.0.0.1:8082
//
// A request whose backend cannot be reached (connection refused: it never
// arrived) is sent to the next healthy backend when its body is at most 1
// MiB (kept to be sent again); any other failure answers 502 with the header
// X-Proxy-Error, so a client can tell "no answer from any server" from an
// answer. Event streams (text/event-stream) are passed on unbuffered.
// GET /_proxy/status lists the backends and their state as JSON.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// ErrorHeader marks an answer the proxy made itself because no backend
// answered (internal/crashtest reads it as "no answer").
const ErrorHeader = "X-Proxy-Error"

// maxReplay is the largest request body kept to be sent to another backend.
const maxReplay = 1 << 20

type backends []string

func (b *backends) String() string     { return strings.Join(*b, ",") }
func (b *backends) Set(v string) error { *b = append(*b, v); return nil }

func main() {
	var list backends
	listen := flag.String("listen", "127.0.0.1:8080", "address to listen on")
	flag.Var(&list, "backend", "base URL of an instance (repeat; at least one)")
	interval := flag.Duration("check-interval", 500*time.Millisecond, "time between health checks of each backend")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if len(list) == 0 {
		fmt.Fprintln(os.Stderr, "clusterproxy: give at least one -backend")
		os.Exit(2)
	}
	p, err := newProxy(list, log)
	if err != nil {
		fmt.Fprintln(os.Stderr, "clusterproxy:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go p.check(ctx, *interval)
	srv := &http.Server{Addr: *listen, Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	log.Info("clusterproxy listening", "addr", *listen, "backends", list.String())
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, "clusterproxy:", err)
		os.Exit(1)
	}
}

// backend is one instance and whether it is taken to be up.
type backend struct {
	url   *url.URL
	up    atomic.Bool
	proxy *httputil.ReverseProxy
}

type proxy struct {
	log      *slog.Logger
	backends []*backend
	next     atomic.Uint64
	mu       sync.Mutex // serializes state-change log lines
}

// failure carries a backend's transport error out of ReverseProxy.
type failure struct{ err error }

type failureKey struct{}

func newProxy(list []string, log *slog.Logger) (*proxy, error) {
	p := &proxy{log: log}
	transport := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 2 * time.Second}).DialContext,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     30 * time.Second,
	}
	for _, raw := range list {
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("backend %q: want a URL such as http://127.0.0.1:8081", raw)
		}
		b := &backend{url: u}
		b.up.Store(true) // until a check says otherwise
		b.proxy = &httputil.ReverseProxy{
			Rewrite: func(r *httputil.ProxyRequest) {
				r.SetURL(u)
				r.Out.Host = r.In.Host
				r.SetXForwarded()
			},
			Transport: transport,
			ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
				if f, ok := r.Context().Value(failureKey{}).(*failure); ok {
					f.err = err
				}
			},
		}
		p.backends = append(p.backends, b)
	}
	return p, nil
}

// check asks every backend's /readyz every interval until ctx ends.
func (p *proxy) check(ctx context.Context, interval time.Duration) {
	hc := &http.Client{Timeout: 2 * time.Second}
	for {
		var wg sync.WaitGroup
		for _, b := range p.backends {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := hc.Get(b.url.String() + "/readyz")
				ok := err == nil && res.StatusCode == http.StatusOK
				if res != nil {
					_, _ = io.Copy(io.Discard, res.Body)
					res.Body.Close()
				}
				p.mark(b, ok, err)
			}()
		}
		wg.Wait()
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}

func (p *proxy) mark(b *backend, ok bool, err error) {
	if b.up.Swap(ok) == ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if ok {
		p.log.Info("backend up", "backend", b.url.String())
	} else {
		p.log.Warn("backend down", "backend", b.url.String(), "error", err)
	}
}

// order is the backends to try for one request: the healthy ones from the
// next in turn on, then (should none be up) the others.
func (p *proxy) order() []*backend {
	n := len(p.backends)
	start := int(p.next.Add(1) % uint64(n))
	var up, down []*backend
	for i := 0; i < n; i++ {
		b := p.backends[(start+i)%n]
		if b.up.Load() {
			up = append(up, b)
		} else {
			down = append(down, b)
		}
	}
	return append(up, down...)
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/_proxy/status" {
		p.status(w)
		return
	}
	// Keep a small body so that it can go to another backend when the
	// first refuses the connection.
	var body []byte
	replay := r.Body == nil || r.Body == http.NoBody || (r.ContentLength >= 0 && r.ContentLength <= maxReplay)
	if replay && r.Body != nil && r.Body != http.NoBody {
		b, err := io.ReadAll(io.LimitReader(r.Body, maxReplay+1))
		if err != nil {
			p.fail(w, "read request body: "+err.Error())
			return
		}
		body = b
	}
	var last error
	for i, b := range p.order() {
		if i > 0 && !replay {
			break
		}
		f := &failure{}
		req := r.WithContext(context.WithValue(r.Context(), failureKey{}, f))
		if replay {
			req.Body = io.NopCloser(bytes.NewReader(body))
			req.ContentLength = int64(len(body))
		}
		rec := &watchWriter{ResponseWriter: w}
		b.proxy.ServeHTTP(rec, req)
		if f.err == nil {
			return
		}
		last = f.err
		if rec.wrote || !refused(f.err) || r.Context().Err() != nil {
			break // the request may have arrived: never send it twice
		}
		p.mark(b, false, f.err)
	}
	p.fail(w, fmt.Sprint(last))
}

// refused reports whether err means the connection was never made.
func refused(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

func (p *proxy) fail(w http.ResponseWriter, reason string) {
	w.Header().Set(ErrorHeader, reason)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadGateway)
	_ = json.NewEncoder(w).Encode(map[string]string{"detail": "No server answered the request."})
}

func (p *proxy) status(w http.ResponseWriter) {
	type state struct {
		URL string `json:"url"`
		Up  bool   `json:"up"`
	}
	var out []state
	for _, b := range p.backends {
		out = append(out, state{URL: b.url.String(), Up: b.up.Load()})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"backends": out})
}

// watchWriter notes whether anything was written to the client.
type watchWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *watchWriter) WriteHeader(code int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *watchWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

// Flush passes flushes on (event streams).
func (w *watchWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *watchWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
