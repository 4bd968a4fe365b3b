package httpapi_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
)

func newTestServer(t *testing.T) *httptest.Server {
	t.Helper()
	spa := fstest.MapFS{
		"index.html":      {Data: []byte("<!doctype html><title>app</title>")},
		"assets/app-1.js": {Data: []byte("console.log('x')")},
		"favicon.svg":     {Data: []byte("<svg/>")},
	}
	s := httpapi.New(httpapi.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Catalog: i18n.MustLoad(), MaxBodyBytes: 1024, SPA: spa})
	type payload struct {
		Name string `json:"name"`
	}
	s.Handle("POST /api/echo", func(w http.ResponseWriter, r *http.Request) error {
		var p payload
		if err := httpapi.DecodeJSON(r, &p, true); err != nil {
			return err
		}
		httpapi.WriteJSON(w, http.StatusOK, p)
		return nil
	}, httpapi.Public())
	s.Handle("GET /api/panic", func(w http.ResponseWriter, r *http.Request) error { panic("boom") }, httpapi.Public())
	s.Handle("GET /api/private", func(w http.ResponseWriter, r *http.Request) error { return nil })
	s.Handle("GET /api/invalid", func(w http.ResponseWriter, r *http.Request) error {
		return apperr.Validation(apperr.FieldError{Field: "user_email", Key: "validation.required", Type: "missing"})
	}, httpapi.Public())
	s.Handle("GET /api/labels", func(w http.ResponseWriter, r *http.Request) error {
		return apperr.Validation(apperr.FieldError{Field: "city_name", Key: "validation.required", Type: "missing"},
			apperr.FieldError{Field: "valid_to", Key: "validation.date_after", Type: "value_error", Args: map[string]string{"attribute": "valid_from"}},
			apperr.FieldError{Field: "no_such_field", Key: "validation.required", Type: "missing"})
	}, httpapi.Public())
	s.Handle("GET /api/big", func(w http.ResponseWriter, r *http.Request) error {
		httpapi.WriteJSON(w, http.StatusOK, map[string]string{"text": strings.Repeat("portfolio ", 2000)})
		return nil
	}, httpapi.Public())
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return srv
}

func TestServerScenarios(t *testing.T) {
	srv := newTestServer(t)
	cases := []struct {
		name, method, path, contentType, lang, body string
		status                                      int
		want, forbid                                []string
		header                                      map[string]string
	}{
		{name: "unknown API path is a JSON 404", method: "GET", path: "/api/nothing", status: 404, want: []string{`"detail":"This address does not exist."`}},
		{name: "wrong method on API path is 405", method: "GET", path: "/api/echo", status: 405, header: map[string]string{"Allow": "POST"}},
		{name: "SPA route answers index.html", method: "GET", path: "/app/table/pos/view/3", status: 200, want: []string{"<title>app</title>"}, header: map[string]string{"Cache-Control": "no-cache"}},
		{name: "the reset page of a mailed link is the SPA", method: "GET", path: "/auth/reset-password/abc123", status: 200, want: []string{"<title>app</title>"}},
		{name: "an unknown path below an API prefix is a JSON 404", method: "GET", path: "/users/5/nothing", status: 404, want: []string{`"detail"`}},
		{name: "unknown non-API path is the SPA (its 404 page)", method: "GET", path: "/no/such/page", status: 200, want: []string{"<title>app</title>"}},
		{name: "hashed asset is immutable", method: "GET", path: "/assets/app-1.js", status: 200, want: []string{"console.log"}, header: map[string]string{"Cache-Control": "public, max-age=31536000, immutable"}},
		{name: "missing asset is a real 404", method: "GET", path: "/assets/old-2.js", status: 404, forbid: []string{"<title>"}},
		{name: "security headers", method: "GET", path: "/login", status: 200, header: map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "SAMEORIGIN"}},
		{name: "panic becomes a 500 JSON", method: "GET", path: "/api/panic", status: 500, want: []string{`"detail":"An unexpected error occurred`}, forbid: []string{"boom"}},
		{name: "panic message in German", method: "GET", path: "/api/panic", lang: "de-DE,de;q=0.9", status: 500, want: []string{"Ein unerwarteter Fehler"}},
		{name: "private route without authenticator is 401", method: "GET", path: "/api/private", status: 401, header: map[string]string{"WWW-Authenticate": "Bearer"}},
		{name: "valid JSON echoes", method: "POST", path: "/api/echo", contentType: "application/json", body: `{"name":"x"}`, status: 200, want: []string{`{"name":"x"}`}},
		{name: "malformed JSON", method: "POST", path: "/api/echo", contentType: "application/json", body: `{"name":`, status: 400, want: []string{"not valid JSON"}},
		{name: "empty body", method: "POST", path: "/api/echo", contentType: "application/json", body: ``, status: 400, want: []string{"the body is empty"}},
		{name: "trailing data", method: "POST", path: "/api/echo", contentType: "application/json", body: `{"name":"x"} {}`, status: 400, want: []string{"unexpected data"}},
		{name: "unknown field refused", method: "POST", path: "/api/echo", contentType: "application/json", body: `{"name":"x","admin":true}`, status: 400, want: []string{"Unknown field: admin"}},
		{name: "wrong type is 422", method: "POST", path: "/api/echo", contentType: "application/json", body: `{"name":5}`, status: 422, want: []string{`"loc":["body","name"]`}},
		{name: "wrong content type", method: "POST", path: "/api/echo", contentType: "text/plain", body: `{"name":"x"}`, status: 415, want: []string{"application/json"}},
		{name: "oversized body", method: "POST", path: "/api/echo", contentType: "application/json", body: `{"name":"` + strings.Repeat("x", 2000) + `"}`, status: 413, want: []string{"at most 1 KB"}},
		{name: "validation error shape", method: "GET", path: "/api/invalid", status: 422, want: []string{`"detail":[{"loc":["body","user_email"],"msg":"Email is required","type":"missing"}]`}},
		{name: "validation error in French", method: "GET", path: "/api/invalid", lang: "fr", status: 422, want: []string{"est obligatoire"}},
		// A module's field without a server text is named by its shipped label.
		{name: "fields named by their labels", method: "GET", path: "/api/labels", lang: "de", status: 422,
			want:   []string{`"msg":"Ort ist erforderlich"`, `"msg":"Dieses Datum muss nach Gültig ab liegen"`, `"msg":"no_such_field ist erforderlich"`},
			forbid: []string{"city_name ist", "nach valid_from"}},
		{name: "fields named by their labels in French", method: "GET", path: "/api/labels", lang: "fr", status: 422,
			want: []string{`"msg":"Ville est obligatoire"`, "postérieure à Valable du"}, forbid: []string{`"msg":"city_name`, "à valid_from"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(c.body))
			if c.contentType != "" {
				req.Header.Set("Content-Type", c.contentType)
			}
			if c.lang != "" {
				req.Header.Set("Accept-Language", c.lang)
			}
			res, err := http.DefaultTransport.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != c.status {
				t.Fatalf("status %d, want %d; body %s", res.StatusCode, c.status, body)
			}
			for _, w := range c.want {
				if !strings.Contains(string(body), w) {
					t.Errorf("body %s lacks %q", body, w)
				}
			}
			for _, f := range c.forbid {
				if strings.Contains(string(body), f) {
					t.Errorf("body %s contains %q", body, f)
				}
			}
			for k, v := range c.header {
				if got := res.Header.Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
			if res.Header.Get("X-Request-Id") == "" {
				t.Error("no request id")
			}
			if c.status >= 400 && (c.status != 404 || strings.HasPrefix(c.path, "/api/")) {
				var m map[string]any
				if err := json.Unmarshal(body, &m); err != nil || m["detail"] == nil {
					t.Errorf("error answer is not {\"detail\"}: %s", body)
				}
			}
		})
	}
}

func TestGzip(t *testing.T) {
	srv := newTestServer(t)
	req, _ := http.NewRequest("GET", srv.URL+"/api/big", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("not compressed: %v", res.Header)
	}
	zr, err := gzip.NewReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !bytes.Contains(plain, []byte("portfolio portfolio")) {
		t.Fatal("bad gzip content")
	}
}

func TestNegotiate(t *testing.T) {
	for in, want := range map[string]string{
		"": "en", "de": "de", "de-DE,de;q=0.9,en;q=0.8": "de", "fr-CH, fr;q=0.9, en;q=0.8": "fr",
		"es,en;q=0.5": "en", "en;q=0.1,de;q=0.9": "de", "xx": "en",
	} {
		if got := i18n.Negotiate(in); got != want {
			t.Errorf("Negotiate(%q) = %q, want %q", in, got, want)
		}
	}
}
