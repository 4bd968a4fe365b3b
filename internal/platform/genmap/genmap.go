// Package genmap holds values computed from data that carries a generation
// counter: a value is served only to a reader of the generation it was
// computed for, so a bump of the counter retires every value at once.
package genmap

import "sync"

// Map is a bounded map of values valid for one generation. It is safe for
// concurrent use; make one with New.
type Map[V any] struct {
	mu         sync.Mutex
	generation int64
	values     map[string]V
	limit      int
}

// New returns an empty map that holds at most limit values; a full map
// starts over (values are cheap to recompute, and the map must not grow
// with every key ever seen).
func New[V any](limit int) *Map[V] {
	return &Map[V]{values: map[string]V{}, limit: max(limit, 1)}
}

// Get returns the value of key computed for generation. Generation 0 (or
// less) means unknown and is never served.
func (m *Map[V]) Get(key string, generation int64) (V, bool) {
	if generation <= 0 {
		var zero V
		return zero, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	v, ok := m.values[key]
	if !ok || m.generation != generation {
		var zero V
		return zero, false
	}
	return v, true
}

// Put stores v for key at generation. A newer generation empties the map;
// a value of an older one (a reader that saw the counter just before a
// change) is not stored, so it cannot hide the change from later readers.
// Generation 0 (unknown) is never stored.
func (m *Map[V]) Put(key string, generation int64, v V) {
	if generation <= 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case generation < m.generation:
		return
	case generation > m.generation || len(m.values) >= m.limit:
		clear(m.values)
		m.generation = generation
	}
	m.values[key] = v
}

// Len reports how many values the map holds.
func (m *Map[V]) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.values)
}
