package seed

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

func scalarInt(t *testing.T, d *db.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := d.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// fingerprint lists what a run generated, in id order, so runs can be
// compared across databases.
func fingerprint(t *testing.T, d *db.DB) string {
	t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT customergroup_id || '|' || customergroup_name FROM customergroup ORDER BY customergroup_id`,
		`SELECT company_id || '|' || customergroup_id || '|' || company_name || '|' || company_shortname FROM company ORDER BY company_id`,
		`SELECT contactperson_id || '|' || contactperson_firstname || ' ' || contactperson_lastname FROM contactperson ORDER BY contactperson_id`,
		`SELECT p.pos_id || '|' || p.pos_name || '|' || p.pos_branchnumber || '|' || p.pos_opening_date || '|' || c.city_zip || ' ' || c.city_name
			FROM pos p JOIN pos_location pl ON pl.pos_id = p.pos_id JOIN location l ON l.location_id = pl.location_id
			JOIN address a ON a.address_id = l.address_id JOIN city c ON c.city_id = a.city_id ORDER BY p.pos_id`,
		`SELECT area_id || '|' || area_name || '|' || CAST(ROUND(area_space_value) AS INTEGER) FROM area ORDER BY area_id`,
		`SELECT contract_id || '|' || contract_name || '|' || contract_begin_date || '|' || contract_end_date FROM contract ORDER BY contract_id`,
		`SELECT invoice_id || '|' || invoice_number || '|' || invoice_date FROM invoice ORDER BY invoice_id`,
		`SELECT invoiceposition_id || '|' || invoiceposition_name || '|' || CAST(ROUND(amount_total) AS INTEGER) FROM invoiceposition ORDER BY invoiceposition_id`,
	} {
		rows, err := d.QueryContext(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			b.WriteString(s)
			b.WriteByte('\n')
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return b.String()
}

func TestScale(t *testing.T) {
	const n = 200
	prints := map[string]string{}
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		var calls, lastDone, lastTotal int
		err := Scale(ctx, d, n, func(done, total int) {
			if done < lastDone || done > total {
				t.Errorf("progress went from %d to %d of %d", lastDone, done, total)
			}
			calls++
			lastDone, lastTotal = done, total
		})
		if err != nil {
			t.Fatalf("scale: %v", err)
		}
		if calls < 2 || lastDone != lastTotal {
			t.Errorf("progress: %d calls, ended at %d of %d", calls, lastDone, lastTotal)
		}

		count := func(table string) int { return scalarInt(t, d, `SELECT COUNT(*) FROM `+db.QuoteIdent(table)) }
		for table, want := range map[string]int{"pos": n, "location": n, "address": n, "contract": n, "pos_location": n,
			"contractaction": n * scaleDeadlines, "customergroup": 2, "invoice": n / 10, "invoiceposition": n / 10 * scalePositions} {
			if got := count(table); got != want {
				t.Errorf("%s: %d rows, want %d", table, got, want)
			}
		}
		if c := count("company"); c < 6 || c > 12 {
			t.Errorf("company: %d rows, want 3-6 per group", c)
		}
		areas := count("area")
		if areas < n || areas > 3*n {
			t.Errorf("area: %d rows for %d locations", areas, n)
		}
		for _, table := range []string{"pos_area", "contract_area"} {
			if got := count(table); got != areas {
				t.Errorf("%s: %d rows, want one per area (%d)", table, got, areas)
			}
		}
		if got := scalarInt(t, d, `SELECT COUNT(*) FROM unit WHERE unit_id = 1`); got != 1 {
			t.Errorf("default unit 1 missing")
		}
		if lastTotal != scalarInt(t, d, `SELECT
			(SELECT COUNT(*) FROM city) + (SELECT COUNT(*) FROM customergroup) + (SELECT COUNT(*) FROM company) +
			(SELECT COUNT(*) FROM contactperson) + (SELECT COUNT(*) FROM address) + (SELECT COUNT(*) FROM location) +
			(SELECT COUNT(*) FROM pos) + (SELECT COUNT(*) FROM pos_location) + (SELECT COUNT(*) FROM area) +
			(SELECT COUNT(*) FROM pos_area) + (SELECT COUNT(*) FROM contract) + (SELECT COUNT(*) FROM contract_area) + (SELECT COUNT(*) FROM contractaction) +
			(SELECT COUNT(*) FROM invoice) + (SELECT COUNT(*) FROM invoice_area) + (SELECT COUNT(*) FROM invoiceposition)`) {
			t.Errorf("progress total %d differs from the rows written", lastTotal)
		}

		checkScaleInvariants(t, d)

		// New rows get ids after the generated ones (sequences moved on).
		if _, err := d.ExecContext(ctx, `INSERT INTO customergroup (customergroup_name) VALUES ('after scale')`); err != nil {
			t.Errorf("insert after scale: %v", err)
		}

		prints[string(d.Dialect())] = fingerprint(t, d)
	})
	if len(prints) == 2 && prints["sqlite"] != prints["postgres"] {
		t.Errorf("SQLite and PostgreSQL runs generated different data")
	}
}

// checkScaleInvariants checks that references agree with each other, as
// the schema's option filters and tenant paths expect, and that dates and
// amounts are consistent.
func checkScaleInvariants(t *testing.T, d *db.DB) {
	t.Helper()
	for name, q := range map[string]string{
		"pos contact of another company": `SELECT COUNT(*) FROM pos p JOIN contactperson c ON c.contactperson_id = p.contactperson_id
			WHERE c.company_id <> p.company_id`,
		"location of another company": `SELECT COUNT(*) FROM pos p JOIN pos_location pl ON pl.pos_id = p.pos_id
			JOIN location l ON l.location_id = pl.location_id WHERE l.company_id <> p.company_id`,
		"contract not of its pos": `SELECT COUNT(*) FROM contract c JOIN pos p ON p.pos_id = c.pos_id
			JOIN pos_location pl ON pl.pos_id = p.pos_id WHERE c.company_id <> p.company_id OR c.location_id <> pl.location_id`,
		"area of another location": `SELECT COUNT(*) FROM contract_area ca JOIN contract c ON c.contract_id = ca.contract_id
			JOIN area a ON a.area_id = ca.area_id WHERE a.location_id <> c.location_id`,
		"invoice of another company": `SELECT COUNT(*) FROM invoice i JOIN contract c ON c.contract_id = i.contract_id
			WHERE i.company_id <> c.company_id`,
		"invoice without area":         `SELECT COUNT(*) FROM invoice i WHERE NOT EXISTS (SELECT 1 FROM invoice_area ia WHERE ia.invoice_id = i.invoice_id)`,
		"customer units above total":   `SELECT COUNT(*) FROM invoiceposition WHERE units_customer > total_units`,
		"contract ends before begin":   `SELECT COUNT(*) FROM contract WHERE contract_end_date < contract_begin_date OR contract_first_possible_end_date < contract_begin_date`,
		"contract already ended":       `SELECT COUNT(*) FROM contract WHERE contract_end_date < '2025-01-01'`,
		"billing period reversed":      `SELECT COUNT(*) FROM invoice WHERE invoice_billing_period_to < invoice_billing_period_from`,
		"invoice before its period":    `SELECT COUNT(*) FROM invoice WHERE invoice_date <= invoice_billing_period_to OR invoice_payment_date < invoice_date`,
		"dangling city":                `SELECT COUNT(*) FROM address a LEFT JOIN city c ON c.city_id = a.city_id WHERE c.city_id IS NULL`,
		"dangling contact":             `SELECT COUNT(*) FROM pos p LEFT JOIN contactperson c ON c.contactperson_id = p.contactperson_id WHERE c.contactperson_id IS NULL`,
		"deadline without notice date": `SELECT COUNT(*) FROM contractaction WHERE contractaction_notice_date IS NULL`,
		"resiliation notice after its date": `SELECT COUNT(*) FROM contractaction WHERE contractaction_type = 'resiliation'
			AND contractaction_notice_date > contractaction_resiliation_date`,
		"duplicate branch number": `SELECT COUNT(*) FROM (SELECT company_id, pos_branchnumber FROM pos GROUP BY company_id, pos_branchnumber HAVING COUNT(*) > 1) x`,
	} {
		if got := scalarInt(t, d, q); got != 0 {
			t.Errorf("%s: %d rows", name, got)
		}
	}
}

func TestScaleInvariantsAtSize(t *testing.T) {
	d := testkit.NewSQLite(t)
	if err := Scale(context.Background(), d, 3000, nil, WithScaleInvoices(1)); err != nil {
		t.Fatal(err)
	}
	checkScaleInvariants(t, d)
	if got := scalarInt(t, d, `SELECT COUNT(*) FROM invoice`); got != 3000 {
		t.Errorf("invoices: %d, want one per contract", got)
	}
}

func TestScaleIsReproducibleAndAdditive(t *testing.T) {
	ctx := context.Background()
	a, b := testkit.NewSQLite(t), testkit.NewSQLite(t)
	for _, d := range []*db.DB{a, b} {
		if err := Scale(ctx, d, 60, nil, WithScaleInvoices(0.5)); err != nil {
			t.Fatal(err)
		}
	}
	first := fingerprint(t, a)
	if first != fingerprint(t, b) {
		t.Fatal("two runs on fresh databases differ")
	}
	if got := scalarInt(t, a, `SELECT COUNT(*) FROM invoice`); got != 30 {
		t.Errorf("invoices: %d, want 30 for 0.5 per contract", got)
	}

	// A second run adds another 60 points of sale with other names.
	if err := Scale(ctx, a, 60, nil, WithScaleInvoices(0)); err != nil {
		t.Fatal(err)
	}
	if got := scalarInt(t, a, `SELECT COUNT(*) FROM pos`); got != 120 {
		t.Errorf("after a second run: %d points of sale, want 120", got)
	}
	if got := scalarInt(t, a, `SELECT COUNT(*) FROM invoice`); got != 30 {
		t.Errorf("a run without invoices added some: %d", got)
	}
	if got := scalarInt(t, a, `SELECT COUNT(*) FROM city`); got != scalarInt(t, b, `SELECT COUNT(*) FROM city`) {
		t.Errorf("the second run duplicated cities: %d", got)
	}
	if got := scalarInt(t, a, `SELECT COUNT(DISTINCT pos_name) FROM pos`); got < 100 {
		t.Errorf("the second run repeated the first run's names: %d distinct of 120", got)
	}
}

func TestScaleIntoExistingGroup(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if _, err := d.ExecContext(ctx, `INSERT INTO customergroup (customergroup_id, customergroup_name) VALUES (1, 'Nordhandel Gruppe')`); err != nil {
			t.Fatal(err)
		}
		if err := d.ResetSequences(ctx, d, "customergroup", "customergroup_id"); err != nil {
			t.Fatal(err)
		}
		if err := Scale(ctx, d, 120, nil, WithScaleGroup(1)); err != nil {
			t.Fatal(err)
		}
		if got := scalarInt(t, d, `SELECT COUNT(*) FROM customergroup`); got != 1 {
			t.Errorf("customer groups: %d, want only the existing one", got)
		}
		if got := scalarInt(t, d, `SELECT COUNT(*) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 1`); got != 120 {
			t.Errorf("points of sale in group 1: %d, want 120", got)
		}
		if err := Scale(ctx, d, 10, nil, WithScaleGroup(99)); err == nil || !strings.Contains(err.Error(), "does not exist") {
			t.Errorf("unknown group: got %v", err)
		}
	})
}

func TestScaleRejectsBadInput(t *testing.T) {
	d := testkit.NewSQLite(t)
	for _, c := range []struct {
		n    int
		opts []ScaleOption
	}{{0, nil}, {-5, nil}, {10, []ScaleOption{WithScaleInvoices(-1)}}, {10, []ScaleOption{WithScaleInvoices(1000)}}} {
		if err := Scale(context.Background(), d, c.n, nil, c.opts...); err == nil {
			t.Errorf("Scale(%d, %v) accepted", c.n, fmt.Sprint(c.opts))
		}
	}
}
