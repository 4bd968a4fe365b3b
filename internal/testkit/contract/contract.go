// Package contract checks answers of the server against the OpenAPI
// document docs/api/openapi.yaml, the API's contract: the status is one the
// operation lists, the body is valid against the answer's schema (nullable
// fields declared nullable, oneOf matching exactly one shape). The API test
// harness (testkit/apptest) records every exchange of the scenario tests and
// checks them here when PORTFOLIO_CONTRACT=1 (scripts/test.sh sets it).
package contract

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"
)

// Env turns the check of every scenario test's answers on ("1").
const Env = "PORTFOLIO_CONTRACT"

// Enabled reports whether the scenario tests check their answers.
func Enabled() bool { return os.Getenv(Env) == "1" }

// Contract is the loaded document with its router.
type Contract struct {
	doc    *openapi3.T
	router routers.Router
}

var (
	loadOnce sync.Once
	loaded   *Contract
	loadErr  error
)

// Load reads docs/api/openapi.yaml of the module the working directory is
// in (once per process).
func Load() (*Contract, error) {
	loadOnce.Do(func() { loaded, loadErr = load() })
	return loaded, loadErr
}

func load() (*Contract, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, errors.New("contract: no go.mod above the working directory")
		}
		dir = parent
	}
	path := filepath.Join(dir, "docs", "api", "openapi.yaml")
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(path)
	if err != nil {
		return nil, fmt.Errorf("contract: load %s: %w", path, err)
	}
	doc.Servers = nil // match any host
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("contract: %s: %w", path, err)
	}
	return &Contract{doc: doc, router: router}, nil
}

// Exchange is one request and its answer.
type Exchange struct {
	Method, Path string // Path with its query
	Status       int
	Header       http.Header
	Body         []byte
	// Truncated: the answer was too long to keep (a streamed list or an
	// export); its status is checked, not its body.
	Truncated bool
}

// Check validates an answer against the operation of its request. It
// answers "" when the answer follows the contract, or one readable line
// naming the operation, the status and what is wrong (with the JSON
// pointer of the offending value). Requests to paths the document does not
// describe (the web app, unknown API paths) are not checked here:
// TestEveryRouteIsDocumented proves every served route is described.
func (c *Contract) Check(e Exchange) string {
	u, err := url.Parse(e.Path)
	if err != nil {
		return fmt.Sprintf("%s %s: %v", e.Method, e.Path, err)
	}
	req, err := http.NewRequest(e.Method, "http://localhost"+u.RequestURI(), nil)
	if err != nil {
		return fmt.Sprintf("%s %s: %v", e.Method, e.Path, err)
	}
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		return ""
	}
	op := e.Method + " " + route.Path
	if route.Operation != nil && route.Operation.OperationID != "" {
		op += " (" + route.Operation.OperationID + ")"
	}
	if e.Status == http.StatusServiceUnavailable || e.Status == http.StatusNotModified || e.Status == http.StatusInternalServerError {
		// Overload (documented once for all), caching, and the generic
		// failure any operation may answer (tests that provoke one check
		// its body themselves; the error dashboard records every one).
		return ""
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 e.Status,
		Header:                 e.Header,
		Options:                &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	if e.Truncated || !strings.HasPrefix(e.Header.Get("Content-Type"), "application/json") {
		in.Options.ExcludeResponseBody = true // files, exports, event streams
	}
	body := e.Body
	if e.Header.Get("Content-Encoding") == "gzip" && !e.Truncated {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err == nil {
			body, err = io.ReadAll(zr)
		}
		if err != nil {
			return fmt.Sprintf("%s: status %d: gzip: %v", op, e.Status, err)
		}
	}
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return fmt.Sprintf("%s: status %d: %s", op, e.Status, describe(err, body))
	}
	return ""
}

// describe makes a validation error short and readable: each schema
// failure as "at <JSON pointer>: <reason>".
func describe(err error, body []byte) string {
	var lines []string
	var walk func(error)
	walk = func(err error) {
		var multi openapi3.MultiError
		var se *openapi3.SchemaError
		var re *openapi3filter.ResponseError
		switch {
		case errors.As(err, &multi):
			for _, e := range multi {
				walk(e)
			}
		case errors.As(err, &se):
			ptr := "/" + strings.Join(se.JSONPointer(), "/")
			lines = append(lines, fmt.Sprintf("at %s: %s", ptr, se.Reason))
		case errors.As(err, &re) && re.Err != nil:
			walk(re.Err)
		case errors.As(err, &re):
			lines = append(lines, re.Reason)
		default:
			lines = append(lines, err.Error())
		}
	}
	walk(err)
	sort.Strings(lines)
	lines = compact(lines)
	if len(lines) > 5 {
		lines = append(lines[:5], fmt.Sprintf("(and %d more)", len(lines)-5))
	}
	b := bytes.TrimSpace(body)
	if len(b) > 200 {
		b = append(b[:200:200], "…"...)
	}
	return strings.Join(lines, "; ") + " — answer: " + string(b)
}

func compact(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// Recorder wraps a handler and keeps its exchanges.
type Recorder struct {
	mu        sync.Mutex
	exchanges []Exchange
}

// Wrap records every exchange of next (bodies up to 1 MiB; longer answers
// are streamed lists and exports, kept without their body).
func (r *Recorder) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		cw := &captureWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(cw, req)
		r.mu.Lock()
		r.exchanges = append(r.exchanges, Exchange{Method: req.Method, Path: req.URL.RequestURI(), Status: cw.status,
			Header: w.Header().Clone(), Body: cw.body.Bytes(), Truncated: cw.overflow})
		r.mu.Unlock()
	})
}

// Problems checks every recorded exchange and answers the distinct
// problems found, each once.
func (r *Recorder) Problems(c *Contract) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for _, e := range r.exchanges {
		if p := c.Check(e); p != "" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

const maxCapture = 1 << 20

type captureWriter struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
	body        bytes.Buffer
	overflow    bool
}

func (w *captureWriter) WriteHeader(code int) {
	if !w.wroteHeader {
		w.status, w.wroteHeader = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *captureWriter) Write(b []byte) (int, error) {
	w.wroteHeader = true
	if !w.overflow {
		if w.body.Len()+len(b) > maxCapture {
			w.overflow = true
		} else {
			w.body.Write(b)
		}
	}
	return w.ResponseWriter.Write(b)
}

// Flush passes flushes on (streamed answers, event streams).
func (w *captureWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the real writer.
func (w *captureWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
