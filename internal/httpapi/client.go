package httpapi

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// The client address is what rate limits and logs name a caller by. A
// request that comes from a trusted proxy (Options.TrustedProxies) names its
// client in X-Forwarded-For; the address taken is the rightmost one that is
// not itself a trusted proxy, so a client cannot choose its own address by
// sending the header. Without trusted proxies the header is ignored.

type clientAddrKey struct{}

// ClientAddr is the address of the client of the request in ctx ("" outside
// a request served by Server.Handler).
func ClientAddr(ctx context.Context) string {
	a, _ := ctx.Value(clientAddrKey{}).(string)
	return a
}

// ParseProxies reads a comma-separated list of addresses and CIDR prefixes
// ("10.0.0.0/8, 127.0.0.1").
func ParseProxies(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if p, err := netip.ParsePrefix(item); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(item)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q is neither an address nor a prefix", item)
		}
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// clientAddrMiddleware finds the client's address once per request.
func (s *Server) clientAddrMiddleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr := clientAddr(r, s.proxies)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientAddrKey{}, addr)))
	})
}

func clientAddr(r *http.Request, proxies []netip.Prefix) string {
	peer := remoteAddr(r.RemoteAddr)
	if !peer.IsValid() {
		return r.RemoteAddr
	}
	if !trusted(peer, proxies) {
		return peer.String()
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break // a malformed hop: stop at the last address we can vouch for
		}
		a = a.Unmap()
		if !trusted(a, proxies) {
			return a.String()
		}
		peer = a
	}
	return peer.String()
}

func remoteAddr(s string) netip.Addr {
	host, _, err := net.SplitHostPort(s)
	if err != nil {
		host = s
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	return a.Unmap()
}

func trusted(a netip.Addr, proxies []netip.Prefix) bool {
	for _, p := range proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
