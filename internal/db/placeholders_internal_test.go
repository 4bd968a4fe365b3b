package db

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// replacePlaceholders copies in runs; it answers what copying byte by
// byte answers, for any mix of placeholders and quotes, closed or not,
// and however many placeholders are replaced.
func TestReplacePlaceholdersEqualsBytewise(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var q strings.Builder
		for range r.IntN(24) {
			q.WriteByte(`?'"ab `[r.IntN(6)])
		}
		stop := r.IntN(5)
		write := func(b *strings.Builder, n int) bool {
			b.WriteString("$" + strconv.Itoa(n+1))
			return n+1 < stop
		}
		got, gotN := replacePlaceholders(q.String(), write)
		want, wantN := replaceBytewise(q.String(), write)
		if got != want || gotN != wantN {
			t.Fatalf("%q, stop %d: %q %d, byte by byte %q %d", q.String(), stop, got, gotN, want, wantN)
		}
	}
}

// replaceBytewise is replacePlaceholders as first written.
func replaceBytewise(query string, write func(b *strings.Builder, n int) bool) (string, int) {
	var b strings.Builder
	n := 0
	var quote byte
	replacing := true
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			b.WriteByte(c)
		case c == '\'' || c == '"':
			quote = c
			b.WriteByte(c)
		case c == '?' && replacing:
			replacing = write(&b, n)
			n++
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), n
}
