package invoices_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// benchInvoices and benchPositions are the size of the benchmark
// (PORTFOLIO_BENCH_INVOICES, default 10,000 invoices; 30 positions each).
func benchInvoices() int {
	if n, err := strconv.Atoi(os.Getenv("PORTFOLIO_BENCH_INVOICES")); err == nil && n > 0 {
		return n
	}
	return 10000
}

const benchPositions = 30

// BenchmarkGenerate measures POST /contradiction_generators/start over
// benchInvoices() invoices of 30 positions each in one request, on SQLite,
// as the administrator, through HTTP. The invoices lie on the demo
// contracts (their cost types agreed by the demo seed); of every 30
// positions, 3 charge a cost type the contract does not agree on, 3 are
// not apportionable and 2 exceed their share: 8 points per invoice.
//
//   - First: every invoice gets its contradiction and points (removed,
//     untimed, after each run);
//   - Rerun: the same request again: nothing changes, nothing written.
//
// Each reports invoices/s, the request's wall and CPU time (the
// process's user and system time: the server runs in the benchmark's
// process), points written and the heap in use after the run. Run: go test ./internal/invoices -run '^$' -bench Generate -benchtime 1x
func BenchmarkGenerate(b *testing.B) {
	d := testkit.NewSQLite(b)
	ta := apptest.NewApp(b, d)
	ctx := context.Background()
	n := benchInvoices()
	start := time.Now()
	ids, err := fillInvoices(ctx, d, n)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("setup: %d invoices with %d positions in %s", n, n*benchPositions, time.Since(start).Round(time.Millisecond))
	body, err := json.Marshal(map[string]any{"invoice_ids": ids})
	if err != nil {
		b.Fatal(err)
	}
	token := ta.Token(admin)
	run := func(b *testing.B) genAnswer {
		cpu := cpuTime(b)
		start := time.Now()
		r := ta.Do("POST", "/contradiction_generators/start", token, string(body))
		if r.Status != 200 {
			b.Fatalf("generate: %d %.300s", r.Status, r.Body)
		}
		elapsed := time.Since(start)
		b.ReportMetric((cpuTime(b) - cpu).Seconds(), "cpu-s/request")
		var a genAnswer
		if err := json.Unmarshal(r.Body, &a); err != nil {
			b.Fatal(err)
		}
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		b.ReportMetric(float64(n)/elapsed.Seconds(), "invoices/s")
		b.ReportMetric(elapsed.Seconds(), "s/request")
		b.ReportMetric(float64(m.HeapInuse)/(1<<20), "heap-MiB")
		return a
	}
	b.Run("First", func(b *testing.B) {
		for b.Loop() {
			a := run(b)
			b.StopTimer()
			if a.Created != n*8 || len(a.Changed) != n {
				b.Fatalf("created %d points on %d invoices, want %d on %d", a.Created, len(a.Changed), n*8, n)
			}
			b.ReportMetric(float64(a.Created), "points")
			for _, stmt := range []string{`DELETE FROM contradiction`, `DELETE FROM trackrecord WHERE trackrecord_category IN ('contradiction', 'contradictionpoint')`} {
				if _, err := d.ExecContext(ctx, stmt); err != nil {
					b.Fatal(err)
				}
			}
			b.StartTimer()
		}
	})
	b.Run("Rerun", func(b *testing.B) {
		b.StopTimer()
		run(b)
		b.StartTimer()
		for b.Loop() {
			if a := run(b); a.Created != 0 || len(a.Changed) != 0 {
				b.Fatalf("a rerun changed %d invoices", len(a.Changed))
			}
		}
	})
}

// cpuTime is the CPU time (user and system) the process has used: on a
// machine shared with other work the wall clock of a request says little,
// its CPU time what it costs.
func cpuTime(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// fillInvoices writes n invoices with 30 positions each on the demo
// contracts of customer group 1, by multi-row SQL in one transaction (the
// setup, not the product's path), and answers their keys.
func fillInvoices(ctx context.Context, d *db.DB, n int) ([]int64, error) {
	var ids []int64
	err := d.InTx(ctx, func(tx *db.Tx) error {
		type contract struct{ id, company int64 }
		var contracts []contract
		rows, err := tx.QueryContext(ctx, `SELECT c.contract_id, c.company_id FROM contract c JOIN company co ON co.company_id = c.company_id
			WHERE co.customergroup_id = 1 AND EXISTS (SELECT 1 FROM contract_costtype x WHERE x.contract_id = c.contract_id) ORDER BY c.contract_id`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var c contract
			if err := rows.Scan(&c.id, &c.company); err != nil {
				return err
			}
			contracts = append(contracts, c)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		// The agreed cost types of each contract, and one it does not agree on.
		agreed := map[int64][]int64{}
		rows, err = tx.QueryContext(ctx, `SELECT contract_id, costtype_id FROM contract_costtype ORDER BY contract_id, costtype_id`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var c, ct int64
			if err := rows.Scan(&c, &ct); err != nil {
				return err
			}
			agreed[c] = append(agreed[c], ct)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		var foreign, ext, partnertype int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO costtype (costtype_name) VALUES ('Bench: nicht vereinbart') RETURNING costtype_id`).Scan(&foreign); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT MIN(externalcosttype_id) FROM externalcosttype`).Scan(&ext); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT MIN(partnertype_id) FROM partnertype`).Scan(&partnertype); err != nil {
			return err
		}
		var first int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(invoice_id), 0) + 1 FROM invoice`).Scan(&first); err != nil {
			return err
		}
		const invoiceRows = 50
		for start := 0; start < n; start += invoiceRows {
			var vals []string
			var args []any
			for i := start; i < min(start+invoiceRows, n); i++ {
				c := contracts[i%len(contracts)]
				id := first + int64(i)
				ids = append(ids, id)
				vals = append(vals, "(?, '2025-04-15', '2025-04-20', 2024, ?, 150, '2025-05-15', ?, ?, ?, '2024-01-01', '2024-12-31')")
				args = append(args, id, c.company, c.id, partnertype, fmt.Sprintf("BENCH-%07d", i))
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO invoice (invoice_id, invoice_date, invoice_date_of_order, invoice_contract_year, company_id,
				invoice_allocationarea, invoice_payment_date, contract_id, partnertype_id, invoice_number, invoice_billing_period_from,
				invoice_billing_period_to) VALUES `+strings.Join(vals, ", "), args...); err != nil {
				return err
			}
		}
		const positionRows = 60
		var vals []string
		var args []any
		flush := func() error {
			if len(vals) == 0 {
				return nil
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO invoiceposition (invoice_id, invoiceposition_name, externalcosttype_id, costtype_id, unit_id,
				total_units, units_customer, flat_rate, amount_total, amount_customer, apportionable) VALUES `+strings.Join(vals, ", "), args...)
			vals, args = vals[:0], args[:0]
			return err
		}
		for i := 0; i < n; i++ {
			c := contracts[i%len(contracts)]
			for k := 0; k < benchPositions; k++ {
				costtype, apportionable, amount := agreed[c.id][k%len(agreed[c.id])], 1, "150.00" // 150 of 1000 units of 1000.00
				switch {
				case k%10 == 0: // 0, 10, 20: not agreed
					costtype = foreign
				case k%10 == 1: // 1, 11, 21: not apportionable
					apportionable = 0
				case k == 2 || k == 12: // share exceeded by 12.34
					amount = "162.34"
				}
				vals = append(vals, "(?, ?, ?, ?, 1, 1000, 150, 0, 1000.00, ?, ?)")
				args = append(args, first+int64(i), fmt.Sprintf("Position %d", k+1), ext, costtype, amount, apportionable)
				if len(vals) == positionRows {
					if err := flush(); err != nil {
						return err
					}
				}
			}
		}
		return flush()
	})
	return ids, err
}
