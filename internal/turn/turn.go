// Package turn lets a request that must wait for a shared resource give
// back its turn of the cores meanwhile.
//
// The HTTP server runs a few requests at once and lines up the others
// (httpapi's turns). A request that waits for SQLite's single writer, or
// for the commit of the group it joined, uses no core, yet it held its
// turn: the requests behind it in line could not even reach the writer, so
// the writer's groups stayed small and its commits many (docs/performance.md,
// "Generic creates, session 16"). The server puts its turn into the
// request's context (With); the waiting code gives it back (Release) and
// takes one again when it goes on.
package turn

import "context"

type key struct{}

// Holder is a request's turn: Release gives it back and answers the
// function that takes one again.
type Holder interface {
	Release() (retake func())
}

// With returns ctx carrying h.
func With(ctx context.Context, h Holder) context.Context {
	return context.WithValue(ctx, key{}, h)
}

// Release gives back the turn ctx's request holds, if any, and answers the
// function that takes one again (a no-op when nothing was given back).
func Release(ctx context.Context) (retake func()) {
	if h, ok := ctx.Value(key{}).(Holder); ok {
		return h.Release()
	}
	return func() {}
}
