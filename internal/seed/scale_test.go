package seed

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"portfolio/internal/access"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/i18n"
	"portfolio/internal/tables"
	"portfolio/internal/testkit"
	"portfolio/internal/tickets"
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
		`SELECT board_id || '|' || board_name FROM board ORDER BY board_id`,
		`SELECT ticket_id || '|' || ticket_name || '|' || pos_id || '|' || board_id || '|' || columnx_id || '|' || ticket_closed || '|' || priority_id
			FROM ticket ORDER BY ticket_id`,
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
			"contractaction": n * scaleDeadlines, "customergroup": 2, "invoice": n / 10, "invoiceposition": n / 10 * scalePositions,
			"ticket": n, "board": 1, "columnx": len(scaleBoardColumns), "priority": len(scalePriorities)} {
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
			(SELECT COUNT(*) FROM invoice) + (SELECT COUNT(*) FROM invoice_area) + (SELECT COUNT(*) FROM invoiceposition) +
			(SELECT COUNT(*) FROM board) + (SELECT COUNT(*) FROM columnx) + (SELECT COUNT(*) FROM board_columnx) +
			(SELECT COUNT(*) FROM board_priority) + (SELECT COUNT(*) FROM ticket)`) {
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
		// The current end as internal/contracts derives it: never before the
		// agreed end, and at least what each deadline's uses reached.
		"current end before the agreed end": `SELECT COUNT(*) FROM contract WHERE contract_current_end_date IS NULL
			OR contract_current_end_date < contract_end_date`,
		"current end before a term an option or extension reached": `SELECT COUNT(*) FROM contract c JOIN contractaction d
			ON d.contract_id = c.contract_id WHERE d.contractaction_uses > 0 AND d.contractaction_type <> 'resiliation'
			AND d.contractaction_effective_date > c.contract_current_end_date`,
		"duplicate branch number":        `SELECT COUNT(*) FROM (SELECT company_id, pos_branchnumber FROM pos GROUP BY company_id, pos_branchnumber HAVING COUNT(*) > 1) x`,
		"pos without exactly one ticket": `SELECT COUNT(*) FROM pos p WHERE (SELECT COUNT(*) FROM ticket t WHERE t.pos_id = p.pos_id) <> 1`,
		"ticket contract of another pos": `SELECT COUNT(*) FROM ticket t JOIN contract c ON c.contract_id = t.contract_id WHERE c.pos_id <> t.pos_id`,
		"ticket column not on its board": `SELECT COUNT(*) FROM ticket t WHERE NOT EXISTS (SELECT 1 FROM board_columnx bc
			WHERE bc.board_id = t.board_id AND bc.columnx_id = t.columnx_id)`,
		"ticket priority not on its board": `SELECT COUNT(*) FROM ticket t WHERE NOT EXISTS (SELECT 1 FROM board_priority bp
			WHERE bp.board_id = t.board_id AND bp.priority_id = t.priority_id)`,
		// Closed tickets, and only they, are in the last column.
		"ticket closed elsewhere than in Erledigt": `SELECT COUNT(*) FROM ticket t JOIN columnx c ON c.columnx_id = t.columnx_id
			WHERE (t.ticket_closed = 1) <> (c.columnx_name = 'Erledigt')`,
		"closed ticket with a future deadline": `SELECT COUNT(*) FROM ticket WHERE ticket_closed = 1 AND ticket_red_deadline > CURRENT_TIMESTAMP`,
		"ticket deadline before its creation":  `SELECT COUNT(*) FROM ticket WHERE ticket_yellow_deadline < ticket_creation_time`,
		"ticket rank out of id order":          `SELECT COUNT(*) FROM ticket WHERE ticket_rank <> ticket_id * 65536`,
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
	if got := scalarInt(t, a, `SELECT COUNT(*) FROM ticket`); got != 120 {
		t.Errorf("after a second run: %d tickets, want 120", got)
	}
	if got := scalarInt(t, a, `SELECT COUNT(*) FROM board WHERE board_name IN ('Filialverwaltung 1', 'Filialverwaltung 2')`); got != 2 {
		t.Errorf("the second run's board: %d boards named Filialverwaltung 1 and 2, want 2", got)
	}
	if got := scalarInt(t, a, `SELECT COUNT(*) FROM priority`); got != len(scalePriorities) {
		t.Errorf("the second run duplicated priorities: %d", got)
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

// TestScaleTickets: the generated tickets belong to the scale group, so
// its external lead (team MVM extern) sees every one through the table
// engine with the ticket module's board rule, and finds them by a title
// word through the keyword index (FTS5 on SQLite, pf_search on
// PostgreSQL); another group's lead sees none; one ticket in
// scaleOpenEvery is open; the demo portfolio gets no tickets.
func TestScaleTickets(t *testing.T) {
	const n = 300
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if err := Base(ctx, d); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			`INSERT INTO customergroup (customergroup_id, customergroup_name) VALUES (1, 'Nordhandel Gruppe'), (2, 'Südmarkt Holding')`,
			`INSERT INTO users (user_id, usertype_id, user_firstname, user_lastname, user_email, user_email_normalized)
				VALUES (1, 1, 'Tina', 'Mitglied', 'tina@test', 'tina@test')`,
			`INSERT INTO user_team (user_id, team_id) VALUES (1, 1)`, // MVM
		} {
			if _, err := d.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
		if err := Scale(ctx, d, n, nil, WithScaleGroup(1)); err != nil {
			t.Fatal(err)
		}
		if got, want := scalarInt(t, d, `SELECT COUNT(*) FROM ticket WHERE ticket_closed = 0`), (n+scaleOpenEvery-1)/scaleOpenEvery; got != want {
			t.Errorf("open tickets: %d, want %d", got, want)
		}
		if got := scalarInt(t, d, `SELECT COUNT(*) FROM ticket t JOIN pos p ON p.pos_id = t.pos_id
			JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 1`); got != n {
			t.Errorf("tickets of customer group 1: %d, want %d", got, n)
		}
		if got := scalarInt(t, d, `SELECT COUNT(*) FROM ticket WHERE user_id = 1 AND ticket_created_by = 1`); got < n/2 {
			t.Errorf("%d tickets assigned to and created by the only internal user, want most", got)
		}
		if got := scalarInt(t, d, `SELECT COUNT(DISTINCT ticket_name) FROM ticket`); got < n*9/10 {
			t.Errorf("ticket titles: %d distinct of %d", got, n)
		}
		checkScaleInvariants(t, d)

		eng := tables.MustNew(tables.Deps{DB: d, Catalog: i18n.MustLoad()})
		tickets.New(tickets.Deps{DB: d, Engine: eng})
		mvmExtern := []access.Team{{ID: TeamExtMVM, Name: "MVM extern", Type: "extern_client"}}
		leadOf := func(group int64, teams []access.Team) context.Context {
			return auth.WithPrincipal(ctx, &auth.Principal{UserID: 1, External: true, CustomergroupID: group,
				Roles: []access.Role{{ID: 5, Code: "lead", Name: "Lead"}}, Teams: teams})
		}
		lead := func(group int64) context.Context { return leadOf(group, mvmExtern) }
		listed := func(ctx context.Context, search string) int {
			t.Helper()
			cur, err := eng.List(ctx, tables.ListQuery{Entity: "ticket", Count: true, PerPage: 1, Search: search})
			if err != nil {
				t.Fatalf("list tickets %q: %v", search, err)
			}
			defer cur.Close()
			for cur.Next() {
			}
			if err := cur.Err(); err != nil || cur.Page().Total == nil {
				t.Fatalf("list tickets %q: %v, total %v", search, err, cur.Page().Total)
			}
			return int(*cur.Page().Total)
		}
		if got := listed(lead(1), ""); got != n {
			t.Errorf("the scale group's lead sees %d tickets, want %d", got, n)
		}
		word := "Nebenkostenabrechnung"
		want := scalarInt(t, d, `SELECT COUNT(*) FROM ticket WHERE ticket_name LIKE ?`, "%"+word+"%")
		if got := listed(lead(1), word); want == 0 || got != want {
			t.Errorf("keyword %q: %d tickets, want %d", word, got, want)
		}
		if got := listed(lead(2), ""); got != 0 {
			t.Errorf("another group's lead sees %d tickets", got)
		}
		if got := listed(leadOf(1, nil), ""); got != 0 {
			t.Errorf("a lead without a team sees %d tickets: the board rule did not hold", got)
		}

		if err := Scale(ctx, d, 10, nil, WithScaleCompanies("Nordhandel", 1001)); err != nil {
			t.Fatal(err)
		}
		if got := scalarInt(t, d, `SELECT COUNT(*) FROM ticket`); got != n {
			t.Errorf("the demo portfolio added tickets: %d, want %d", got, n)
		}
	})
}
