package main

import (
	"runtime"
	"runtime/metrics"
	"testing"
)

// TestGCBallastRaisesTheGoal: holding the ballast raises the heap goal
// after a collection by twice the ballast (the goal is twice the live
// heap, and the ballast counts as live).
func TestGCBallastRaisesTheGoal(t *testing.T) {
	goal := func() int64 {
		runtime.GC()
		s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
		metrics.Read(s)
		return int64(s[0].Value.Uint64())
	}
	without := goal()
	ballast := gcBallast(func(string) string { return "" })
	with := goal()
	runtime.KeepAlive(ballast)
	if len(ballast) != gcBallastBytes {
		t.Fatalf("ballast of %d bytes, want %d", len(ballast), gcBallastBytes)
	}
	// Twice the ballast, give or take what the test binary's own garbage
	// moves the live heap between the two collections (once 2 MiB).
	if with < without+2*gcBallastBytes-(4<<20) {
		t.Errorf("heap goal %d MiB with the ballast, %d MiB without: want it %d MiB higher", with>>20, without>>20, 2*gcBallastBytes>>20)
	}
}

// TestGCBallastYieldsToGOGC: an operator's GOGC gets no ballast.
func TestGCBallastYieldsToGOGC(t *testing.T) {
	env := map[string]string{"GOGC": "150"}
	if b := gcBallast(func(k string) string { return env[k] }); b != nil {
		t.Errorf("ballast of %d bytes although GOGC is set", len(b))
	}
}
