package imports_test

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"portfolio/internal/testkit"
)

// BenchmarkImportPos measures the import of points of sale from one XLSX
// workbook on SQLite: upload (parse and store), validate and commit
// (PORTFOLIO_IMPORT_BENCH_ROWS rows, 100,000 by default; the commit is a
// job of the queue, so its time includes up to one poll of the queue, one
// second on SQLite, and of the import, 0.1 s). It reports the
// seconds of each step and the process's peak resident memory (VmHWM).
//
//	go test ./internal/imports -run '^$' -bench ImportPos -benchtime 1x
func BenchmarkImportPos(b *testing.B) {
	n := 100000
	if s := os.Getenv("PORTFOLIO_IMPORT_BENCH_ROWS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			b.Fatal(err)
		}
	}
	for range b.N {
		b.StopTimer()
		f := newFixture(b, testkit.NewSQLite(b))
		startQueue(b, f)
		data := streamedWorkbook(b, n)
		runtime.GC()
		debug.FreeOSMemory()
		peak := sampleMemory()
		b.StartTimer()
		t0 := time.Now()
		up := f.mustUpload(b, admin, "pos", data)
		t1 := time.Now()
		if status, v, body := f.validate(b, admin, up.ImportID, posMapping); status != 200 || v.Valid != n {
			b.Fatalf("validate: %d %.300s", status, body)
		}
		t2 := time.Now()
		res := f.post(b, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID))
		if res.Status != http.StatusAccepted && res.Status != http.StatusOK {
			b.Fatalf("commit: %d %s", res.Status, res.Body)
		}
		if res.Status == http.StatusAccepted {
			f.waitState(b, up.ImportID, "committed")
		}
		t3 := time.Now()
		if got := f.one(b, `SELECT import_created_count FROM data_import WHERE import_id = ?`, up.ImportID); got != int64(n) {
			b.Fatalf("created %d of %d", got, n)
		}
		b.ReportMetric(t1.Sub(t0).Seconds(), "upload-s")
		b.ReportMetric(t2.Sub(t1).Seconds(), "validate-s")
		b.ReportMetric(t3.Sub(t2).Seconds(), "commit-s")
		b.ReportMetric(float64(n), "rows")
		b.ReportMetric(peak()/(1<<20), "go-peak-MB")
		b.ReportMetric(peakRSS(b), "process-peak-MB")
		// Undo, once the commit's progress has ended (409 running until then).
		waited := time.Now()
		t4 := waited
		for {
			res := f.post(b, admin, fmt.Sprintf("/imports/%d/undo", up.ImportID))
			if res.Status == http.StatusOK {
				break
			}
			if res.Status != http.StatusConflict || time.Since(waited) > time.Minute {
				b.Fatalf("undo: %d %.300s", res.Status, res.Body)
			}
			time.Sleep(50 * time.Millisecond)
			t4 = time.Now()
		}
		b.ReportMetric(time.Since(t4).Seconds(), "undo-s")
	}
}

// streamedWorkbook writes n points of sale with excelize's stream writer
// (the way a large file is made without holding it in memory).
func streamedWorkbook(b *testing.B, n int) []byte {
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter(f.GetSheetName(0))
	if err != nil {
		b.Fatal(err)
	}
	if err := sw.SetRow("A1", posHeadings); err != nil {
		b.Fatal(err)
	}
	for i := range n {
		cell, _ := excelize.CoordinatesToCellName(1, i+2)
		row := []any{"Nordhandel Retail GmbH", fmt.Sprintf("Bench %d", i), fmt.Sprintf("Q-%06d", i), 2000 + i%20, "Udo Unique", "2015-06-01"}
		if err := sw.SetRow(cell, row); err != nil {
			b.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// sampleMemory samples the memory the Go runtime holds from the OS (all
// classes but heap released back) every 10 ms until the returned function
// is called, which answers the peak in bytes. The test's own data is gone
// before the import starts, so this is the server's memory (the test
// client's buffers included).
func sampleMemory() func() float64 {
	samples := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	var peak uint64
	done := make(chan struct{})
	stopped := make(chan struct{})
	read := func() {
		metrics.Read(samples)
		if v := samples[0].Value.Uint64() - samples[1].Value.Uint64(); v > peak {
			peak = v
		}
	}
	go func() {
		defer close(stopped)
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				read()
				return
			case <-t.C:
				read()
			}
		}
	}()
	return func() float64 {
		close(done)
		<-stopped
		return float64(peak)
	}
}

// peakRSS is the process's peak resident set size in MB (Linux).
func peakRSS(b *testing.B) float64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			return kb / 1024
		}
	}
	return 0
}
