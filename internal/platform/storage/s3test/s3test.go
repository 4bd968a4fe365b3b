// Package s3test runs a real S3-compatible server in a test: gofakes3's
// implementation of the S3 protocol over HTTP on a loopback port, keeping
// its objects in a temporary directory (not in memory), behind a check of
// every request's AWS signature V4 against the one key pair it knows. The
// client under test is the real S3 client speaking HTTP to it.
package s3test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3afero"
	"github.com/spf13/afero"

	"portfolio/internal/platform/storage"
)

// Credentials the server accepts.
const (
	AccessKey = "portfolio-test"
	SecretKey = "portfolio-test-secret-0123456789"
	Region    = "us-east-1"
	Bucket    = "portfolio"
)

// Server is a running test server.
type Server struct {
	// Config reaches Bucket under the prefix "docs" with the right keys.
	Config storage.S3Config
	// Refused counts requests refused for a missing or wrong signature.
	Refused atomic.Int64
	// Requests counts the requests that passed the signature check.
	Requests atomic.Int64
	// Dir holds the objects on disk.
	Dir string
}

// Start runs a server with an empty bucket Bucket until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{Dir: t.TempDir()}
	backend, err := s3afero.MultiBucket(afero.NewBasePathFs(afero.NewOsFs(), s.Dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := backend.CreateBucket(Bucket); err != nil {
		t.Fatal(err)
	}
	faker := gofakes3.New(backend, gofakes3.WithoutVersioning())
	srv := httptest.NewServer(s.verify(faker.Server()))
	t.Cleanup(srv.Close)
	s.Config = storage.S3Config{
		URL:       "s3://" + Bucket + "/docs",
		Endpoint:  strings.TrimPrefix(srv.URL, "http://"),
		Region:    Region,
		AccessKey: AccessKey,
		SecretKey: SecretKey,
		PathStyle: true,
	}
	return s
}

// ObjectPath is where the server keeps the object of key (under the
// prefix "docs" of Bucket) on disk.
func (s *Server) ObjectPath(key string) string {
	return filepath.Join(s.Dir, "buckets", Bucket, "docs", key)
}

// verify refuses (403 SignatureDoesNotMatch) a request whose
// Authorization header is not a valid signature V4 by SecretKey.
func (s *Server) verify(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !signedBy(r, AccessKey, SecretKey) {
			s.Refused.Add(1)
			w.Header().Set("Content-Type", "application/xml")
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>SignatureDoesNotMatch</Code>` +
				`<Message>The request signature we calculated does not match the signature you provided.</Message></Error>`))
			return
		}
		s.Requests.Add(1)
		next.ServeHTTP(w, r)
	})
}

// signedBy checks r's "AWS4-HMAC-SHA256 Credential=..., SignedHeaders=...,
// Signature=..." header: the canonical request of the signed headers, the
// X-Amz-Content-Sha256 payload hash as sent (a streamed upload's chunk
// signatures are not checked), and the key derived from secret.
func signedBy(r *http.Request, access, secret string) bool {
	auth := r.Header.Get("Authorization")
	const algo = "AWS4-HMAC-SHA256 "
	if !strings.HasPrefix(auth, algo) {
		return false
	}
	fields := map[string]string{}
	for _, part := range strings.Split(strings.TrimPrefix(auth, algo), ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if ok {
			fields[k] = v
		}
	}
	scope := strings.Split(fields["Credential"], "/") // access/date/region/s3/aws4_request
	if len(scope) != 5 || scope[0] != access || scope[3] != "s3" || scope[4] != "aws4_request" {
		return false
	}
	date := r.Header.Get("X-Amz-Date")
	if len(date) < 8 || date[:8] != scope[1] {
		return false
	}
	signed := strings.Split(fields["SignedHeaders"], ";")
	var canon strings.Builder
	for _, h := range signed {
		var v string
		switch h {
		case "host":
			v = r.Host
		case "content-length":
			v = strconv.FormatInt(r.ContentLength, 10)
		default:
			v = strings.Join(r.Header.Values(h), ",")
		}
		canon.WriteString(h + ":" + strings.Join(strings.Fields(v), " ") + "\n")
	}
	request := strings.Join([]string{
		r.Method, r.URL.EscapedPath(), canonicalQuery(r.URL.Query()), canon.String(),
		fields["SignedHeaders"], r.Header.Get("X-Amz-Content-Sha256"),
	}, "\n")
	sum := sha256.Sum256([]byte(request))
	toSign := strings.Join([]string{"AWS4-HMAC-SHA256", date, strings.Join(scope[1:], "/"), hex.EncodeToString(sum[:])}, "\n")
	key := []byte("AWS4" + secret)
	for _, p := range scope[1:] {
		key = hmacSum(key, p)
	}
	want := hex.EncodeToString(hmacSum(key, toSign))
	return hmac.Equal([]byte(want), []byte(fields["Signature"]))
}

func hmacSum(key []byte, s string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(s))
	return m.Sum(nil)
}

// canonicalQuery sorts and encodes q as signature V4 wants (%20, not +).
func canonicalQuery(q url.Values) string {
	var parts []string
	for k, vs := range q {
		for _, v := range vs {
			parts = append(parts, escape(k)+"="+escape(v))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, "&")
}

func escape(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}
