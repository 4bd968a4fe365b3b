package genmap

import "testing"

func TestValuesLiveForOneGeneration(t *testing.T) {
	m := New[string](10)
	m.Put("a", 1, "one")
	if v, ok := m.Get("a", 1); !ok || v != "one" {
		t.Fatalf("Get(a, 1) = %q, %v", v, ok)
	}
	if _, ok := m.Get("a", 2); ok {
		t.Fatal("a value of generation 1 served to a reader of generation 2")
	}
	m.Put("b", 2, "two")
	if _, ok := m.Get("a", 1); ok {
		t.Fatal("generation 2 did not retire the values of generation 1")
	}
	// A reader that saw generation 1 after 2 was stored must not store.
	m.Put("a", 1, "stale")
	if _, ok := m.Get("a", 2); ok {
		t.Fatal("a stale value was stored for the newer generation")
	}
	if v, ok := m.Get("b", 2); !ok || v != "two" {
		t.Fatalf("Get(b, 2) = %q, %v", v, ok)
	}
}

func TestFullMapStartsOver(t *testing.T) {
	m := New[int](2)
	m.Put("a", 1, 1)
	m.Put("b", 1, 2)
	m.Put("c", 1, 3)
	if m.Len() != 1 {
		t.Fatalf("Len = %d after overflow, want 1", m.Len())
	}
	if v, ok := m.Get("c", 1); !ok || v != 3 {
		t.Fatalf("Get(c) = %d, %v", v, ok)
	}
}

func TestUnknownGenerationIsNeverCached(t *testing.T) {
	m := New[int](2)
	m.Put("a", 0, 1)
	if _, ok := m.Get("a", 0); ok {
		t.Fatal("generation 0 was cached")
	}
}
