package imports_test

import (
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"portfolio/internal/testkit"
)

// BenchmarkImportPos measures the import of points of sale from one XLSX
// workbook on SQLite: upload (parse and store), validate and commit
// (PORTFOLIO_IMPORT_BENCH_ROWS rows, 100,000 by default). It reports the
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
		rows := [][]any{posHeadings}
		for i := range n {
			rows = append(rows, []any{"Nordhandel Retail GmbH", fmt.Sprintf("Bench %d", i), fmt.Sprintf("Q-%06d", i), 2000 + i%20, "Udo Unique", "2015-06-01"})
		}
		data := workbook(b, rows)
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
		f.ta.Imports.Wait()
		t3 := time.Now()
		if got := f.one(b, `SELECT import_created_count FROM data_import WHERE import_id = ?`, up.ImportID); got != int64(n) {
			b.Fatalf("created %d of %d", got, n)
		}
		b.ReportMetric(t1.Sub(t0).Seconds(), "upload-s")
		b.ReportMetric(t2.Sub(t1).Seconds(), "validate-s")
		b.ReportMetric(t3.Sub(t2).Seconds(), "commit-s")
		b.ReportMetric(float64(n), "rows")
		b.ReportMetric(peakRSS(b), "peak-MB")
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
