package main

// The garbage collector's default (GOGC=100) starts a collection when the
// heap has doubled since the last one. The server's live heap is small,
// about 5 MB, while every list page of tickets allocates about 60 KB: the
// heap goal stays near 10 MB and a collection starts every 40 ms under
// load, each with its write barriers, assists and pauses. A larger GOGC
// helps pages but multiplies every live heap, also the large one of a
// 100,000-row answer or of a server holding hundreds of connections under
// overload. A ballast adds a constant instead (decision 0058): 16 MiB
// that the collector counts as live but never scans (it holds no
// pointers), so the heap may grow by the live heap plus 32 MiB between
// collections, whatever the live heap is, and the runtime computes that
// goal itself at the end of every cycle. Nothing reads or writes the
// ballast; the kernel backs it with memory only when the runtime lays it
// over pages used before and zeroes it (15 of 40 starts measured), so it
// costs at most 16 MiB of resident memory.
const gcBallastBytes = 16 << 20

// gcBallast allocates the ballast unless the operator set GOGC (the
// runtime reads GOGC and GOMEMLIMIT itself). The caller keeps it reachable
// for as long as the server runs.
func gcBallast(getenv func(string) string) []byte {
	if getenv("GOGC") != "" {
		return nil
	}
	return make([]byte, gcBallastBytes)
}
