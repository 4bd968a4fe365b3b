package main

import (
	"runtime/debug"
)

// The garbage collector's defaults suit a program whose live heap is large
// next to what it allocates; the server's is the opposite: about 5 MB live,
// while every list page of tickets allocates about 60 KB, so at GOGC=100
// the heap goal stays near 10 MB and a collection starts every 40 ms under
// load, each with its write barriers, assists and pauses (decision 0058).
// Unless the operator sets them, the collector lets the heap grow to five
// times the live heap (GOGC=400) and holds it under a soft limit of 1 GiB
// (GOMEMLIMIT), above which it collects as often as it must.
const (
	defaultGCPercent   = 400
	defaultMemoryLimit = 1 << 30
)

// gcSettings answers the GC percent and soft memory limit to set, each
// -1 where the environment already sets it (the runtime reads GOGC and
// GOMEMLIMIT itself).
func gcSettings(getenv func(string) string) (percent int, limit int64) {
	percent, limit = defaultGCPercent, defaultMemoryLimit
	if getenv("GOGC") != "" {
		percent = -1
	}
	if getenv("GOMEMLIMIT") != "" {
		limit = -1
	}
	return percent, limit
}

// tuneGC applies gcSettings.
func tuneGC(getenv func(string) string) {
	percent, limit := gcSettings(getenv)
	if percent >= 0 {
		debug.SetGCPercent(percent)
	}
	if limit >= 0 {
		debug.SetMemoryLimit(limit)
	}
}
