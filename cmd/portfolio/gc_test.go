package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"testing"
)

// ballastProbeEnv makes the test binary report, as a fresh process, what
// the ballast does to its heap goal and its resident memory (see TestMain).
const ballastProbeEnv = "PORTFOLIO_BALLAST_PROBE"

// TestGCBallastRaisesTheGoal: in a fresh process that allocates the
// ballast first, as main does, the heap goal after a collection is twice
// the ballast higher than without it. Whether the kernel backs the ballast
// with memory is the runtime's choice (it zeroes the ballast, touching it,
// when it lays it over pages used before): the probe's resident memory is
// logged, not asserted.
func TestGCBallastRaisesTheGoal(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), ballastProbeEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("probe: %v: %s", err, out)
	}
	var goalWithout, goalWith, anonBefore, anonAfter int64
	if _, err := fmt.Sscanf(string(out), "%d %d %d %d", &goalWithout, &goalWith, &anonBefore, &anonAfter); err != nil {
		t.Fatalf("probe answered %q: %v", out, err)
	}
	if goalWith < goalWithout+2*gcBallastBytes-(1<<20) {
		t.Errorf("heap goal %d MiB with the ballast, %d MiB without: want it %d MiB higher", goalWith>>20, goalWithout>>20, 2*gcBallastBytes>>20)
	}
	t.Logf("heap goal %d → %d MiB; anonymous resident memory %d → %d MiB", goalWithout>>20, goalWith>>20, anonBefore>>20, anonAfter>>20)
}

// probeBallast is the probe's side, allocating the ballast first as main
// does: the heap goals after a collection with and without the ballast,
// then RssAnon before and after allocating it, on one line.
func probeBallast() error {
	anonBefore, err := rssAnon()
	if err != nil {
		return err
	}
	ballast := gcBallast(func(string) string { return "" })
	anonAfter, err := rssAnon()
	if err != nil {
		return err
	}
	goal := func() int64 {
		runtime.GC()
		s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
		metrics.Read(s)
		return int64(s[0].Value.Uint64())
	}
	goalWith := goal()
	runtime.KeepAlive(ballast)
	goalWithout := goal()
	_, err = fmt.Println(goalWithout, goalWith, anonBefore, anonAfter)
	return err
}

// TestGCBallastYieldsToGOGC: an operator's GOGC gets no ballast.
func TestGCBallastYieldsToGOGC(t *testing.T) {
	env := map[string]string{"GOGC": "150"}
	if b := gcBallast(func(k string) string { return env[k] }); b != nil {
		t.Errorf("ballast of %d bytes although GOGC is set", len(b))
	}
}

// rssAnon reads RssAnon of this process in bytes.
func rssAnon() (int64, error) { return procStatusBytes("/proc/self/status", "RssAnon") }
