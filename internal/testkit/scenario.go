package testkit

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Scenario is one API request and what its answer must show: the shape of
// every module's API tests (request in, status and body out), run on each
// database by the caller's testkit.ForEachDB.
type Scenario struct {
	Name   string
	Method string
	Path   string
	// As logs in as this user and sends the access token as a bearer
	// header ("" sends none).
	As string
	// Header adds request headers (it wins over the bearer header).
	Header map[string]string
	// Body is sent as is when it is a string (as JSON unless Header names
	// a Content-Type), as a form when it is url.Values, JSON-encoded
	// otherwise; nil sends no body.
	Body any
	// Prepare computes what depends on the running test (a fresh token, a
	// record's id): it may change the scenario before it is sent.
	Prepare func(t *testing.T, s *Scenario)
	// Status is the expected status.
	Status int
	// Contains and Absent are fragments the answer's body must and must
	// not contain.
	Contains []string
	Absent   []string
	// Check inspects the answer further.
	Check func(t *testing.T, r Response)
}

// Response is an answer read completely.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v, failing the test when it cannot.
func (r Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode answer %d: %v\n%s", r.Status, err, r.Body)
	}
}

// Client sends requests to one test server.
type Client struct {
	// URL is the server's base URL.
	URL string
	// Token logs email in and returns its access token (tests cache it).
	Token func(t testing.TB, email string) string
}

// Do sends one request (body as in Scenario.Body) and reads its answer.
func (c *Client) Do(t testing.TB, method, path string, header map[string]string, body any) Response {
	t.Helper()
	var rdr io.Reader
	contentType := ""
	switch b := body.(type) {
	case nil:
	case string:
		rdr, contentType = strings.NewReader(b), "application/json"
	case []byte:
		rdr, contentType = bytes.NewReader(b), "application/json"
	case url.Values:
		rdr, contentType = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("encode body: %v", err)
		}
		rdr, contentType = bytes.NewReader(buf), "application/json"
	}
	req, err := http.NewRequest(method, c.URL+path, rdr)
	if err != nil {
		t.Fatalf("request %s %s: %v", method, path, err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("read answer of %s %s: %v", method, path, err)
	}
	return Response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// Run runs each scenario as a subtest, in order (scenarios may build on
// what earlier ones wrote).
func (c *Client) Run(t *testing.T, scenarios []Scenario) {
	t.Helper()
	for _, s := range scenarios {
		t.Run(s.Name, func(t *testing.T) { c.Check(t, s) })
	}
}

// Check sends one scenario and checks its answer; it returns the answer.
func (c *Client) Check(t *testing.T, s Scenario) Response {
	t.Helper()
	if s.Prepare != nil {
		s.Prepare(t, &s)
	}
	header := map[string]string{}
	if s.As != "" {
		if c.Token == nil {
			t.Fatalf("scenario %q logs in as %s, but the client cannot log in", s.Name, s.As)
		}
		header["Authorization"] = "Bearer " + c.Token(t, s.As)
	}
	for k, v := range s.Header {
		header[k] = v
	}
	r := c.Do(t, s.Method, s.Path, header, s.Body)
	body := string(r.Body)
	if r.Status != s.Status {
		t.Fatalf("%s %s: status %d, want %d\n%s", s.Method, s.Path, r.Status, s.Status, body)
	}
	for _, want := range s.Contains {
		if !strings.Contains(body, want) {
			t.Errorf("%s %s: answer lacks %s\n%s", s.Method, s.Path, want, body)
		}
	}
	for _, not := range s.Absent {
		if strings.Contains(body, not) {
			t.Errorf("%s %s: answer contains %s\n%s", s.Method, s.Path, not, body)
		}
	}
	if s.Check != nil {
		s.Check(t, r)
	}
	return r
}
