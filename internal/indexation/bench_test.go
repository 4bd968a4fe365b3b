package indexation_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"portfolio/internal/db"
	"portfolio/internal/indexation"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// benchPayments is the size of the benchmark portfolio
// (PORTFOLIO_BENCH_PAYMENTS, default 100,000 recurring payments, each with
// its own index clause).
func benchPayments() int {
	if n, err := strconv.Atoi(os.Getenv("PORTFOLIO_BENCH_PAYMENTS")); err == nil && n > 0 {
		return n
	}
	return 100000
}

// BenchmarkRun measures the index clause run on SQLite over
// benchPayments() payments with value deposit and an index clause on the
// shipped series (January 1991 to October 2024): clauses begin in a month
// between 1995 and 2024 (so a walk covers up to 30 years), in base year 2020
// or every seventh in 2015 (rebased for point clauses), with percent (3, 5 or 10 %) or point
// (3) thresholds and transmissions of 60 to 100 %. Each payment's chain of
// proposals up to October 2024 is stored by the setup (computed with
// Evaluate, written by SQL), as after earlier runs.
//
//   - Rerun: the monthly case with nothing new: every payment evaluated
//     over its whole walk, every proposal found stored;
//   - NewMonth: November 2024 is published (121.0, +0.7 %), the run
//     stores the proposals it triggers through the engine (undone,
//     untimed, after each run).
//
// Each reports payments/s and the heap in use after the run (the run
// streams the payments by key in batches: memory stays flat).
// Run: go test ./internal/indexation -run '^$' -bench Run -benchtime 1x
func BenchmarkRun(b *testing.B) {
	d := testkit.NewSQLite(b)
	ta := apptest.NewApp(b, d)
	ctx := context.Background()
	n := benchPayments()
	start := time.Now()
	if err := fillPortfolio(ctx, d, n); err != nil {
		b.Fatal(err)
	}
	b.Logf("setup: %d payments with their chains in %s", n, time.Since(start).Round(time.Millisecond))
	system := tables.AsSystem(ctx)
	run := func(b *testing.B) int {
		start := time.Now()
		res, err := ta.Indexation.Run(system, nil, false)
		if err != nil {
			b.Fatal(err)
		}
		if res.Evaluated != n || len(res.Errors) != 0 {
			b.Fatalf("evaluated %d of %d, %d errors (%v)", res.Evaluated, n, len(res.Errors), res.Errors[:min(3, len(res.Errors))])
		}
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		b.ReportMetric(float64(n)/time.Since(start).Seconds(), "payments/s")
		b.ReportMetric(float64(m.HeapInuse)/(1<<20), "heap-MiB")
		return res.Created
	}
	b.Run("Rerun", func(b *testing.B) {
		for b.Loop() {
			if created := run(b); created != 0 {
				b.Fatalf("a rerun created %d proposals", created)
			}
		}
	})
	b.Run("NewMonth", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			var before int64
			if err := d.QueryRowContext(ctx, `SELECT MAX(indexadjustment_id) FROM indexadjustment`).Scan(&before); err != nil {
				b.Fatal(err)
			}
			if _, err := d.ExecContext(ctx, `INSERT INTO priceindexvalue (priceindex_id, priceindexvalue_month, priceindexvalue_value) VALUES (1, '2024-11', 121.0)`); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			created := run(b)
			b.StopTimer()
			b.ReportMetric(float64(created), "proposals")
			for _, stmt := range []string{`DELETE FROM indexadjustment WHERE indexadjustment_id > ?`, `DELETE FROM priceindexvalue WHERE priceindexvalue_month = '2024-11' AND ? > 0`} {
				if _, err := d.ExecContext(ctx, stmt, before); err != nil {
					b.Fatal(err)
				}
			}
			b.StartTimer()
		}
	})
}

// dateOf reads a DATE column (text on SQLite).
func dateOf(v any) (time.Time, error) {
	switch d := v.(type) {
	case time.Time:
		return d, nil
	case string:
		return time.Parse(time.DateOnly, d[:min(len(d), 10)])
	}
	return time.Time{}, fmt.Errorf("bench: %T is not a date", v)
}

// fillPortfolio writes n index clauses and n recurring payments on the
// demo contracts, by SQL (setup, not the product's path).
func fillPortfolio(ctx context.Context, d *db.DB, n int) error {
	return d.InTx(ctx, func(tx *db.Tx) error {
		var contract, company int64
		if err := tx.QueryRowContext(ctx, `SELECT MIN(contract_id), MIN(company_id) FROM contract`).Scan(&contract, &company); err != nil {
			return err
		}
		var contractBegin any
		if err := tx.QueryRowContext(ctx, `SELECT contract_begin_date FROM contract WHERE contract_id = ?`, contract).Scan(&contractBegin); err != nil {
			return err
		}
		contractDay, err := dateOf(contractBegin)
		if err != nil {
			return err
		}
		payEnd := time.Date(2040, 12, 31, 0, 0, 0, 0, time.UTC)
		for _, stmt := range []string{
			fmt.Sprintf(`INSERT INTO taxrate (company_id, taxrate_code, taxrate_value) VALUES (%d, 'BENCH', 19)`, company),
			`INSERT INTO sachkonto (sachkonto_number, sachkonto_name) VALUES ('BENCH', 'Rent')`,
			`INSERT INTO recurringpaymenttype (recurringpaymenttype_name) VALUES ('Bench rent')`,
			`INSERT INTO maturitytype (maturitytype_name) VALUES ('Bench monthly')`,
		} {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return err
			}
		}
		var tax, account, typ, maturity int64
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT MAX(taxrate_id) FROM taxrate), (SELECT MAX(sachkonto_id) FROM sachkonto),
			(SELECT MAX(recurringpaymenttype_id) FROM recurringpaymenttype), (SELECT MAX(maturitytype_id) FROM maturitytype)`).
			Scan(&tax, &account, &typ, &maturity); err != nil {
			return err
		}
		var first int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(indexclause_id), 0) FROM indexclause`).Scan(&first); err != nil {
			return err
		}
		rebased := map[int]*indexation.Series{}
		series := func(year int) (*indexation.Series, error) {
			if s, ok := rebased[year]; ok {
				return s, nil
			}
			data, err := os.ReadFile("data/61111-0002_de.csv")
			if err != nil {
				return nil, err
			}
			p, err := indexation.Parse(data)
			if err != nil {
				return nil, err
			}
			values := map[indexation.Month]decimal.Decimal{}
			for _, pt := range p.Points {
				values[pt.Month] = pt.Value
			}
			s, err := indexation.Rebase(indexation.NewSeries(2020, values), year)
			rebased[year] = s
			return s, err
		}
		const rows = 500
		for done := 0; done < n; done += rows {
			var clauses, payments, adjustments []string
			var cargs, pargs, aargs []any
			for i := done; i < min(n, done+rows); i++ {
				id := first + int64(i) + 1
				begin := fmt.Sprintf("%04d-%02d-01", 1995+i%30, 1+(i/30)%10) // published months only
				base := 2020
				if i%7 == 0 {
					base = 2015
				}
				inPercent := i%4 != 0
				var pct, pts any
				if inPercent {
					pct = []int{3, 5, 10}[i%3]
				} else {
					pts = 3
				}
				clauses = append(clauses, "(?, ?, 'rule', 'description', ?, ?, ?, ?, ?, ?, 1)")
				cargs = append(cargs, id, fmt.Sprintf("Clause %d", i), base, begin, []int{100, 80, 60}[i%3], map[bool]int{true: 1, false: 0}[inPercent], pct, pts)
				payments = append(payments, "(?, ?, ?, ?, ?, ?, ?, ?, '2040-12-31', ?, 1, ?)")
				amount := decimal.NewFromInt(int64(500 + i%5000))
				pargs = append(pargs, id, fmt.Sprintf("Rent %d", i), contract, tax, typ, account, amount.String(), begin, maturity, id)
				clause := indexation.Clause{Transmission: decimal.NewFromInt(int64([]int{100, 80, 60}[i%3])), InPercent: inPercent}
				if inPercent {
					t := decimal.NewFromInt(int64(pct.(int)))
					clause.MinPercent = &t
				} else {
					t := decimal.NewFromInt(3)
					clause.MinPoints = &t
				}
				s, err := series(indexation.ComparedBaseYear(inPercent, base, 2020))
				if err != nil {
					return err
				}
				ref, _ := indexation.ParseMonth(begin[:7])
				clause.Begin = ref
				day, _ := time.Parse(time.DateOnly, begin)
				bounds := indexation.PaymentBounds(day, day, payEnd, contractDay, ref, false)
				chain, err := indexation.EvaluateWithin(s, clause, ref, amount, bounds, nil)
				if err != nil {
					return err
				}
				for _, a := range chain {
					adjustments = append(adjustments, "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
					aargs = append(aargs, id, id, a.Reference.String(), a.Current.String(), a.ReferenceValue.String(), a.CurrentValue.String(),
						a.ChangePoints.String(), a.ChangePercent.String(), a.OldAmount.String(), a.NewAmount.String(), a.Effective.Format(time.DateOnly),
						clause.RuleOf(a).JSON())
				}
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO indexclause (indexclause_id, indexclause_name, indexclause_adjustment_rule,
				indexclause_description, indexclause_baseyear, indexclause_begin_date, indextransmission_percent, change_in_percent,
				indexclause_minimal_percent_change, indexclause_minimal_point_change, priceindex_id) VALUES `+strings.Join(clauses, ", "), cargs...); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO recurringpayment (recurringpayment_id, recurringpayment_name, contract_id, taxrate_id,
				recurringpaymenttype_id, sachkonto_id, recurringpayment_sum_per_month, recurringpayment_begin_date, recurringpayment_end_date,
				maturitytype_id, recurringpayment_value_deposit, indexclause_id) VALUES `+strings.Join(payments, ", "), pargs...); err != nil {
				return err
			}
			for len(adjustments) > 0 {
				k := min(len(adjustments), 2000)
				if _, err := tx.ExecContext(ctx, `INSERT INTO indexadjustment (recurringpayment_id, indexclause_id, indexadjustment_reference_month,
					indexadjustment_current_month, indexadjustment_reference_value, indexadjustment_current_value, indexadjustment_change_points,
					indexadjustment_change_percent, indexadjustment_old_amount, indexadjustment_new_amount, indexadjustment_effective_date,
					indexadjustment_rule) VALUES `+strings.Join(adjustments[:k], ", "), aargs[:k*12]...); err != nil {
					return err
				}
				adjustments, aargs = adjustments[k:], aargs[k*12:]
			}
		}
		return nil
	})
}
