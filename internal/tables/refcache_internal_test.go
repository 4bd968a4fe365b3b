package tables

import "testing"

// TestParseKey: keys as the databases answer them, without allocating;
// big ones through strconv, anything else refused.
func TestParseKey(t *testing.T) {
	for in, want := range map[string]int64{"12": 12, "12.0": 12, "-7": -7, "9223372036854775807": 9223372036854775807, "0": 0} {
		if got, ok := parseKey([]byte(in)); !ok || got != want {
			t.Errorf("parseKey(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "-", "1a", "12.5", "99999999999999999999"} {
		if _, ok := parseKey([]byte(in)); ok {
			t.Errorf("parseKey(%q) accepted", in)
		}
	}
}
