package tables_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// BenchmarkCreatePos measures the generic create of a point of sale as the
// load tool's create-pos scenario sends it (administrator; company 1,
// contact person 1001 of the demo data; validation, rights, tenant scope,
// reference checks, history, keyword index, count invalidation), on the
// demo data, on SQLite and, when configured, PostgreSQL. Besides ns/op it
// reports cpu-ms/create: the process's user+system CPU over the run
// divided by the creates (server and the in-process HTTP client), which the
// shared machine disturbs less than the wall time; on SQLite also
// writer-ms/create, the time each create held the single writer (its
// inverse bounds the rate), and members/group.
//
//   - seq: one client;
//   - c8: 8 concurrent clients (the load scenario).
//
// Run: nice -n 19 go test ./internal/tables -run '^$' -bench CreatePos
func BenchmarkCreatePos(b *testing.B) {
	testkit.ForEachDBBench(b, func(b *testing.B, d *db.DB) {
		e := newEnv(b, d)
		token := e.token(admin)
		var seq atomic.Int64
		b.Run("seq", func(b *testing.B) { benchCreates(b, e, token, &seq, 1) })
		b.Run("c8", func(b *testing.B) { benchCreates(b, e, token, &seq, 8) })
	})
}

// benchCreates posts creates of distinct points of sale from clients
// goroutines and reports the CPU per create.
func benchCreates(b *testing.B, e *env, token string, seq *atomic.Int64, clients int) {
	client := &http.Client{Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: clients}}
	post := func() error {
		n := seq.Add(1)
		body := fmt.Sprintf(`{"action":"create","entity":"pos","data":{"company_id":1,"contactperson_id":1001,"pos_name":"Bench %d","pos_branchnumber":"BENCH-%d","pos_first_year":2020,"pos_opening_date":"2020-01-01"}}`, n, n)
		req, _ := http.NewRequest("POST", e.URL+"/api/?pos", bytes.NewReader([]byte(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		msg, err := io.ReadAll(res.Body)
		if err != nil {
			return err
		}
		if res.StatusCode != http.StatusCreated {
			return fmt.Errorf("status %d: %s", res.StatusCode, msg)
		}
		return nil
	}
	b.ReportAllocs()
	cpu0, w0 := processCPU(b), e.DB.WriterStats()
	b.ResetTimer()
	if clients == 1 {
		for b.Loop() {
			if err := post(); err != nil {
				b.Fatal(err)
			}
		}
	} else {
		b.SetParallelism((clients + 1) / 2) // GOMAXPROCS is 2 on the benchmark machine
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := post(); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU(b)-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/create")
	if w := e.DB.WriterStats(); w.Members > w0.Members {
		b.ReportMetric(float64(w.Busy-w0.Busy)/float64(time.Millisecond)/float64(b.N), "writer-ms/create")
		b.ReportMetric(float64(w.Members-w0.Members)/float64(max(w.Groups-w0.Groups, 1)), "members/group")
	}
}

// processCPU is the user and system CPU the process used so far.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
