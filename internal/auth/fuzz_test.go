package auth

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"portfolio/internal/i18n"
	"portfolio/internal/platform/mailer"
	"portfolio/internal/testkit"
)

// fuzzService is a service on a fresh SQLite database with no sessions, so
// nothing can authenticate.
func fuzzService(f *testing.F) *Service {
	f.Helper()
	s, err := NewService(Deps{DB: testkit.NewSQLite(f), Outbox: mailer.NewOutbox("p@x.test"), Catalog: i18n.MustLoad(),
		Secret: []byte(strings.Repeat("k", 32)), PublicURL: "http://x.test"})
	if err != nil {
		f.Fatal(err)
	}
	return s
}

// FuzzAuthenticate feeds arbitrary Authorization headers and query values:
// Authenticate must never panic and never accept one.
func FuzzAuthenticate(f *testing.F) {
	s := fuzzService(f)
	now := time.Now()
	forged := func(m jwt.SigningMethod, key any) string {
		tok, err := jwt.NewWithClaims(m, jwt.MapClaims{"sub": "1", "sid": "s", "typ": "access", "iss": "portfolio",
			"iat": now.Unix(), "exp": now.Add(time.Hour).Unix()}).SignedString(key)
		if err != nil {
			f.Fatal(err)
		}
		return tok
	}
	valid, err := s.issueAccessToken(1, "no-such-session", now)
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		"", "Bearer", "Bearer ", "bearer x", "Basic YTpi", "Bearer a.b.c", "Bearer ....", "Bearer eyJ.eyJ.",
		"Bearer " + forged(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType),
		"Bearer " + forged(jwt.SigningMethodHS512, s.secret),
		"Bearer " + forged(jwt.SigningMethodHS256, []byte("another-secret-another-secret-!!")),
		"Bearer " + valid, valid + "x", "Bearer " + RandomToken(), "Bearer \x00\xff",
	} {
		f.Add(seed, seed)
	}
	f.Fuzz(func(t *testing.T, header, query string) {
		r := httptest.NewRequest(http.MethodGet, "/user/", nil)
		r.Header.Set("Authorization", header)
		q := r.URL.Query()
		q.Set("authorization", query)
		r.URL.RawQuery = q.Encode()
		if ctx, err := s.Authenticate(r); err == nil || ctx != nil {
			t.Fatalf("authenticated %q / %q", header, query)
		}
		r.Header.Del("Authorization")
		if ctx, err := s.Authenticate(r); err == nil || ctx != nil {
			t.Fatalf("authenticated query %q", query)
		}
	})
}

// FuzzLoginForm feeds arbitrary bodies and content types to the login form
// parser: it must never panic, and what it accepts has every field.
func FuzzLoginForm(f *testing.F) {
	for _, seed := range []struct{ ct, body string }{
		{"application/x-www-form-urlencoded", "username=a%40b.c&password=x&user_browser_hash=h"},
		{"application/x-www-form-urlencoded", "username=&password"},
		{"application/x-www-form-urlencoded", "%zz=1&;;"},
		{"application/json", `{"username":"a","password":"b","user_browser_hash":"c"}`},
		{"application/json", `{"username":1,"password":[1],"user_browser_hash":{"a":null}}`},
		{"application/json", `{"username":"a"`},
		{"application/json", `[]`},
		{"application/json; charset=utf-8", `{"username":"a","password":"b","user_browser_hash":"c"} {}`},
		{"multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"username\"\r\n\r\na\r\n--x--\r\n"},
		{"text/plain", "username=a"},
		{"", ""},
	} {
		f.Add(seed.ct, seed.body)
	}
	f.Fuzz(func(t *testing.T, contentType, body string) {
		r := httptest.NewRequest(http.MethodPost, "/token", strings.NewReader(body))
		r.Header.Set("Content-Type", contentType)
		r.Body = http.MaxBytesReader(httptest.NewRecorder(), r.Body, 1<<16)
		in, err := parseLogin(r)
		if err != nil {
			return
		}
		if strings.TrimSpace(in.Username) == "" || in.Password == "" || strings.TrimSpace(in.BrowserHash) == "" {
			t.Fatalf("accepted incomplete input %+v", in)
		}
	})
}
