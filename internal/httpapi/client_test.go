package httpapi

import (
	"net/http/httptest"
	"testing"
)

func TestClientAddr(t *testing.T) {
	proxies, err := ParseProxies("10.0.0.0/8, 127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, remote, xff string
		proxies           bool
		want              string
	}{
		{"no proxy configured: the header is ignored", "203.0.113.7:5000", "198.51.100.1", false, "203.0.113.7"},
		{"untrusted peer: the header is ignored", "203.0.113.7:5000", "198.51.100.1", true, "203.0.113.7"},
		{"trusted proxy: its client", "127.0.0.1:5000", "198.51.100.1", true, "198.51.100.1"},
		{"a forged first hop is skipped", "127.0.0.1:5000", "1.2.3.4, 198.51.100.1", true, "198.51.100.1"},
		{"a chain of trusted proxies", "127.0.0.1:5000", "198.51.100.1, 10.1.2.3", true, "198.51.100.1"},
		{"only proxies: the farthest one", "127.0.0.1:5000", "10.1.2.3", true, "10.1.2.3"},
		{"a malformed hop stops the walk", "127.0.0.1:5000", "198.51.100.1, bogus", true, "127.0.0.1"},
		{"IPv4 mapped in IPv6", "[::ffff:203.0.113.9]:80", "", false, "203.0.113.9"},
		{"IPv6", "[2001:db8::1]:80", "", true, "2001:db8::1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = c.remote
			if c.xff != "" {
				r.Header.Set("X-Forwarded-For", c.xff)
			}
			p := proxies
			if !c.proxies {
				p = nil
			}
			if got := clientAddr(r, p); got != c.want {
				t.Fatalf("clientAddr = %q, want %q", got, c.want)
			}
		})
	}
	if _, err := ParseProxies("10.0.0.0/8, nonsense"); err == nil {
		t.Fatal("a malformed proxy list was accepted")
	}
}
