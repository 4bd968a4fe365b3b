package invoices_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"portfolio/internal/db"
	platformclock "portfolio/internal/platform/clock"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

type obj = map[string]any

const (
	admin      = "admin@demo.test"
	teamMember = "team_member@demo.test"
	lead       = "lead@demo.test"
	leadB      = "lead.b@demo.test"
)

// fixture is a test app with demo data and SQL helpers.
type fixture struct {
	t  *testing.T
	ta *apptest.TestApp
	d  *db.DB
}

func (f *fixture) one(query string, args ...any) int64 {
	f.t.Helper()
	var n int64
	if err := f.d.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		f.t.Fatalf("%s: %v", query, err)
	}
	return n
}

func (f *fixture) text(query string, args ...any) string {
	f.t.Helper()
	var s string
	if err := f.d.QueryRowContext(context.Background(), query, args...).Scan(&s); err != nil {
		f.t.Fatalf("%s: %v", query, err)
	}
	return s
}

func (f *fixture) exec(query string, args ...any) {
	f.t.Helper()
	if _, err := f.d.ExecContext(context.Background(), query, args...); err != nil {
		f.t.Fatalf("%s: %v", query, err)
	}
}

func (f *fixture) do(email, method, path string, body any) apptest.Response {
	f.t.Helper()
	return f.ta.Do(method, path, f.ta.Token(email), body)
}

// giveRights gives a user every table right (its tenant scope stays).
func (f *fixture) giveRights(email string) {
	f.exec(`DELETE FROM user_tablegroup WHERE user_id = (SELECT user_id FROM users WHERE user_email = ?)`, email)
	f.exec(`INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
		SELECT u.user_id, g.tablegroup_id, 1, 1, 1, 1 FROM users u, tablegroup g WHERE u.user_email = ?`, email)
}

// points answers rule → claim (as text with two places) of the points of
// invoice id's contradiction.
func (f *fixture) points(invoice int64) map[string]string {
	f.t.Helper()
	rows, err := f.d.QueryContext(context.Background(), `SELECT COALESCE(p.contradictionpoint_rule, ''), p.contradictionpoint_claim
		FROM contradictionpoint p JOIN contradiction c ON c.contradiction_id = p.contradiction_id WHERE c.invoice_id = ?`, invoice)
	if err != nil {
		f.t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var rule string
		var claim float64
		if err := rows.Scan(&rule, &claim); err != nil {
			f.t.Fatal(err)
		}
		out[rule] = fmt.Sprintf("%.2f", claim)
	}
	return out
}

type genAnswer struct {
	Invoices       int     `json:"invoices"`
	Changed        []int64 `json:"changed"`
	Contradictions []int64 `json:"contradictions"`
	Created        int     `json:"points_created"`
	Removed        int     `json:"points_removed"`
	Kept           int     `json:"points_kept"`
}

func (f *fixture) generate(email string, ids ...int64) genAnswer {
	f.t.Helper()
	r := f.do(email, "POST", "/contradiction_generators/start", obj{"invoice_ids": ids})
	if r.Status != 200 {
		f.t.Fatalf("generate %v: %d %s", ids, r.Status, r.Body)
	}
	var a genAnswer
	r.JSON(f.t, &a)
	return a
}

// TestGenerator: the demo invoice finds every rule once with its claim in
// the company's language; a re-run changes nothing; edited and added
// points stay while the generated ones follow the data; a request naming
// a missing or foreign invoice writes nothing; on both databases.
func TestGenerator(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := &fixture{t: t, ta: apptest.NewApp(t, d), d: d}
		cur := f.one(`SELECT invoice_id FROM invoice WHERE invoice_number = ?`, seed.DemoInvoiceNumbers[1])
		prev := f.one(`SELECT invoice_id FROM invoice WHERE invoice_number = ?`, seed.DemoInvoiceNumbers[0])
		other := f.one(`SELECT MIN(invoice_id) FROM invoice i JOIN company c ON c.company_id = i.company_id WHERE c.customergroup_id = 2`)
		// The demo's own objections (seed.DemoObjectionName) are not this
		// test's: it counts every contradiction.
		f.exec(`DELETE FROM contradiction`)
		f.exec(`DELETE FROM trackrecord WHERE trackrecord_category IN ('contradiction', 'contradictionpoint')`)

		// All or nothing: one bad id refuses the whole request.
		for _, c := range []struct {
			name string
			ids  []int64
			want string
		}{
			{"a missing invoice", []int64{cur, 999999}, `"loc":["body","invoice_ids",1]`},
			{"no invoices", []int64{}, `"invoice_ids"`},
			{"an invoice named twice", []int64{cur, cur}, `"loc":["body","invoice_ids",1]`},
		} {
			r := f.do(admin, "POST", "/contradiction_generators/start", obj{"invoice_ids": c.ids})
			if r.Status != 422 || !strings.Contains(string(r.Body), c.want) {
				t.Errorf("%s: %d %s, want 422 with %s", c.name, r.Status, r.Body, c.want)
			}
		}
		if n := f.one(`SELECT COUNT(*) FROM contradiction`); n != 0 {
			t.Fatalf("a refused request wrote %d contradictions", n)
		}
		// lead.b@ (customer group 2, every table right) names an invoice of
		// group 1 beside its own: 422 naming it, nothing written.
		f.giveRights(leadB)
		r := f.do(leadB, "POST", "/contradiction_generators/start", obj{"invoice_ids": []int64{other, cur}})
		if r.Status != 422 || !strings.Contains(string(r.Body), `"loc":["body","invoice_ids",1]`) || strings.Contains(string(r.Body), `"invoice_ids",0]`) {
			t.Errorf("a foreign invoice: %d %s", r.Status, r.Body)
		}
		if n := f.one(`SELECT COUNT(*) FROM contradiction`); n != 0 {
			t.Fatalf("a foreign invoice's request wrote %d contradictions", n)
		}
		if r := f.do(lead, "POST", "/contradiction_generators/start", obj{"invoice_ids": []int64{cur}}); r.Status != 403 {
			t.Errorf("an external lead without invoice rights: %d %s, want 403", r.Status, r.Body)
		}
		if r := f.do(teamMember, "POST", "/contradiction_generators/start", obj{"invoice_ids": []int64{cur}}); r.Status != 200 {
			t.Errorf("an internal team member: %d %s, want 200", r.Status, r.Body)
		}
		f.exec(`DELETE FROM contradiction`)
		f.exec(`DELETE FROM trackrecord WHERE trackrecord_category IN ('contradiction', 'contradictionpoint')`)

		// The first run: every rule once, in German (the company has no language).
		a := f.generate(admin, cur, prev)
		if len(a.Changed) != 1 || a.Changed[0] != cur || a.Created != 5 {
			t.Fatalf("first run = %+v, want invoice %d changed with 5 points", a, cur)
		}
		want := map[string]string{"flat_rate_changed": "180.00", "costtype_not_agreed": "2400.00", "not_apportionable": "640.00",
			"share_exceeded": "150.50", "billing_period_over_12_months": "0.00"}
		if got := f.points(cur); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("points = %v, want %v", got, want)
		}
		contra := f.one(`SELECT contradiction_id FROM contradiction WHERE invoice_id = ?`, cur)
		if name := f.text(`SELECT contradiction_name FROM contradiction WHERE contradiction_id = ?`, contra); name != seed.DemoInvoiceNumbers[1] {
			t.Errorf("contradiction name = %q", name)
		}
		if sum := f.text(`SELECT CAST(contradiction_sum AS TEXT) FROM contradiction WHERE contradiction_id = ?`, contra); !strings.HasPrefix(sum, "3370.5") {
			t.Errorf("contradiction sum = %s, want 3370.50 (the billing period's warning claims nothing)", sum)
		}
		if title := f.text(`SELECT contradictionpoint_title FROM contradictionpoint WHERE contradictionpoint_rule = 'share_exceeded'`); title != "Anteil überschritten: Reinigung Mall" {
			t.Errorf("title = %q", title)
		}
		text := f.text(`SELECT contradictionpoint_text FROM contradictionpoint WHERE contradictionpoint_rule = 'share_exceeded'`)
		if !strings.Contains(text, "1.800,00") || !strings.Contains(text, "150,50") {
			t.Errorf("text = %q, want the expected share 1.800,00 € and the claim 150,50 €", text)
		}
		if pos := f.one(`SELECT invoiceposition_id FROM contradictionpoint WHERE contradictionpoint_rule = 'share_exceeded'`); pos != f.one(`SELECT invoiceposition_id FROM invoiceposition WHERE invoice_id = ? AND invoiceposition_name = 'Reinigung Mall'`, cur) {
			t.Errorf("the point names position %d", pos)
		}
		if n := f.one(`SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'contradictionpoint' AND trackrecord_type = 'create'
			AND trackrecord_row_id IN (SELECT contradictionpoint_id FROM contradictionpoint)`); n != 5 {
			t.Errorf("%d history rows for the points, want 5", n)
		}

		// A re-run on unchanged data changes nothing.
		ids := f.one(`SELECT SUM(contradictionpoint_id) FROM contradictionpoint`)
		if a := f.generate(admin, cur); len(a.Changed) != 0 || a.Created != 0 || a.Removed != 0 {
			t.Errorf("re-run = %+v, want nothing changed", a)
		}
		if f.one(`SELECT SUM(contradictionpoint_id) FROM contradictionpoint`) != ids {
			t.Error("a re-run on unchanged data replaced points")
		}

		// A person records the landlord's answer on one point (an edit) and
		// adds a point; the data changes; the re-run replaces only the rest.
		edited := f.one(`SELECT contradictionpoint_id FROM contradictionpoint WHERE contradictionpoint_rule = 'costtype_not_agreed'`)
		ta := f.ta
		ta.Run(t, []apptest.Scenario{
			{Name: "the landlord accepts part of a point", Method: "POST", Path: "/api/", As: admin, Status: 200,
				Body: obj{"action": "update", "entity": "contradictionpoint", "id": edited, "row_version": 1,
					"data": obj{"contradictionpoint_accepted": 1000}}},
			{Name: "a person adds a point", Method: "POST", Path: "/api/", As: admin, Status: 201,
				Body: obj{"action": "create", "entity": "contradictionpoint", "data": obj{"contradiction_id": contra,
					"contradictionpoint_rank": 9, "contradictionpoint_title": "Belegeinsicht", "contradictionpoint_text": "<p>Bitte Belege vorlegen.</p>",
					"contradictionpoint_claim": 12.34}}},
		})
		f.exec(`UPDATE invoiceposition SET amount_customer = 2000.25 WHERE invoice_id = ? AND invoiceposition_name = 'Reinigung Mall'`, cur)
		f.exec(`UPDATE company SET company_language = 'fr' WHERE company_id = (SELECT company_id FROM invoice WHERE invoice_id = ?)`, cur)
		a = f.generate(admin, cur)
		if len(a.Changed) != 1 || a.Removed != 4 || a.Created != 4 || a.Kept != 2 {
			t.Errorf("re-run after edits = %+v, want 4 removed, 4 created, 2 kept", a)
		}
		want["share_exceeded"] = "200.25"
		want[""] = "12.34"
		got := f.points(cur)
		// The contract agrees no billing period: the period's point stays a
		// warning without a claim (decision 0061).
		want["billing_period_over_12_months"] = "0.00"
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("points after the re-run = %v, want %v", got, want)
		}
		if f.one(`SELECT COUNT(*) FROM contradictionpoint WHERE contradictionpoint_id = ?`, edited) != 1 {
			t.Error("the edited point was replaced")
		}
		if title := f.text(`SELECT contradictionpoint_title FROM contradictionpoint WHERE contradictionpoint_rule = 'share_exceeded'`); title != "Quote-part dépassée: Reinigung Mall" {
			t.Errorf("French title = %q", title)
		}
		if sum := f.text(`SELECT CAST(contradiction_sum AS TEXT) FROM contradiction WHERE contradiction_id = ?`, contra); !strings.HasPrefix(sum, "3432.59") {
			t.Errorf("contradiction sum = %s, want 3432.59 (180 + 2400 + 640 + 200.25 + 0 + 12.34)", sum)
		}
	})
}

// TestInvoicePage: GET /invoices/{id} answers the invoice whole with exact
// sums; positions keep units_customer at most total_units; the inline
// update; another tenant's invoice is missing; on both databases.
func TestInvoicePage(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := &fixture{t: t, ta: apptest.NewApp(t, d), d: d}
		cur := f.one(`SELECT invoice_id FROM invoice WHERE invoice_number = ?`, seed.DemoInvoiceNumbers[1])
		position := f.one(`SELECT invoiceposition_id FROM invoiceposition WHERE invoice_id = ? AND invoiceposition_name = 'Grundsteuer'`, cur)
		f.giveRights(leadB)
		path := fmt.Sprintf("/invoices/%d", cur)
		f.ta.Run(t, []apptest.Scenario{
			{Name: "the invoice whole", Method: "GET", Path: path, As: admin, Status: 200,
				Contains: []string{`"invoice_number":"NK-DEMO-2024"`, `"positions":[`, `"contradictions":[]`, `"value_types":[`, `"criteria":[`,
					`"deadlines":[`, `"documents":[`, `"service_objects":[`, `"inspection_results":[`, `"areas":[`, `"contract":{`,
					`"amount_total":"41380.00"`, `"amount_customer":"7170.50"`, `"positions":5`}},
			{Name: "another tenant's invoice is missing", Method: "GET", Path: path, As: leadB, Status: 404},
			{Name: "a missing invoice", Method: "GET", Path: "/invoices/999999", As: admin, Status: 404},
			{Name: "units above the total: 422", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body:     obj{"action": "update", "entity": "invoiceposition", "id": position, "row_version": 1, "data": obj{"units_customer": 1000.5}},
				Contains: []string{`"units_customer"`}},
			{Name: "units equal to the total: the whole building is the customer's", Method: "POST", Path: "/api/", As: admin, Status: 200,
				Body: obj{"action": "update", "entity": "invoiceposition", "id": position, "row_version": 1, "data": obj{"units_customer": 1000}}},
			{Name: "the inline switch of flat_rate (update-field)", Method: "POST", Path: "/api/", As: admin, Status: 200,
				Body: obj{"action": "update-field", "entity": "invoiceposition", "id": position, "field": "flat_rate", "value": true, "row_version": 2}},
			{Name: "the inline switch of apportionable (update-field)", Method: "POST", Path: "/api/", As: admin, Status: 200,
				Body: obj{"action": "update-field", "entity": "invoiceposition", "id": position, "field": "apportionable", "value": false, "row_version": 3}},
			{Name: "units above the total through the inline update: 422", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body: obj{"action": "update-field", "entity": "invoiceposition", "id": position, "field": "units_customer", "value": 1200, "row_version": 4}},
		})
		if n := f.one(`SELECT flat_rate * 10 + apportionable FROM invoiceposition WHERE invoiceposition_id = ?`, position); n != 10 {
			t.Errorf("flat_rate, apportionable = %02d after the inline updates, want 10", n)
		}
		// Another tenant's invoice answers exactly as a missing one.
		foreign, missing := f.do(leadB, "GET", path, nil), f.do(leadB, "GET", "/invoices/999999", nil)
		if foreign.Status != 404 || !bytes.Equal(foreign.Body, missing.Body) {
			t.Errorf("another tenant's invoice: %d %s; a missing one: %d %s", foreign.Status, foreign.Body, missing.Status, missing.Body)
		}
		// Sums in exact decimals: five positions of 0.10 add up to 0.50.
		f.exec(`UPDATE invoiceposition SET amount_customer = 0.1, amount_total = 0.1 WHERE invoice_id = ?`, cur)
		r := f.do(admin, "GET", path, nil)
		if !bytes.Contains(r.Body, []byte(`"amount_customer":"0.50"`)) {
			t.Errorf("sums of 0.1: %s", r.Body[bytes.Index(r.Body, []byte(`"sums"`)):])
		}
	})
}

// TestPackagesAndLetters: a package takes only contradictions of its
// point of sale; its letter is a PDF in German, French and English read
// back with pdftotext; an unknown language is 422; the savings; on both
// databases.
func TestPackagesAndLetters(t *testing.T) {
	pdftotext, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Fatal("pdftotext (poppler-utils) is needed to read the letters back")
	}
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := &fixture{t: t, ta: apptest.NewApp(t, d), d: d}
		cur := f.one(`SELECT invoice_id FROM invoice WHERE invoice_number = ?`, seed.DemoInvoiceNumbers[1])
		pos := f.one(`SELECT k.pos_id FROM invoice i JOIN contract k ON k.contract_id = i.contract_id WHERE i.invoice_id = ?`, cur)
		otherInvoice := f.one(`SELECT MIN(i.invoice_id) FROM invoice i JOIN contract k ON k.contract_id = i.contract_id
			JOIN company c ON c.company_id = i.company_id WHERE c.customergroup_id = 1 AND k.pos_id <> ?
			AND EXISTS (SELECT 1 FROM invoiceposition p WHERE p.invoice_id = i.invoice_id AND p.apportionable = 0)`, pos)
		f.generate(admin, cur, otherInvoice)
		contra := f.one(`SELECT contradiction_id FROM contradiction WHERE invoice_id = ?`, cur)
		foreign := f.one(`SELECT contradiction_id FROM contradiction WHERE invoice_id = ?`, otherInvoice)
		var pkg int64
		f.ta.Run(t, []apptest.Scenario{
			{Name: "a package of the point of sale", Method: "POST", Path: "/api/", As: admin, Status: 201,
				Body: obj{"action": "create", "entity": "contradictionpackage", "data": obj{"pos_id": pos, "contradictionpackage_name": "WP-2025-01"}},
				Check: func(t *testing.T, r apptest.Response) {
					var out struct{ Data obj }
					r.JSON(t, &out)
					pkg = int64(out.Data["contradictionpackage_id"].(float64))
				}},
		})
		f.ta.Run(t, []apptest.Scenario{
			{Name: "a contradiction of another point of sale: 422", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body:     obj{"action": "update", "entity": "contradiction", "id": foreign, "row_version": 1, "data": obj{"contradictionpackage_id": pkg}},
				Contains: []string{`"contradictionpackage_id"`, "point of sale"}},
			{Name: "the invoice's contradiction joins the package", Method: "POST", Path: "/api/", As: admin, Status: 200,
				Body: obj{"action": "update", "entity": "contradiction", "id": contra, "row_version": 1, "data": obj{"contradictionpackage_id": pkg}}},
			{Name: "an unknown language", Method: "GET", Path: fmt.Sprintf("/contradictionpackages/%d/letter.pdf?lang=it", pkg), As: admin, Status: 422,
				Contains: []string{`"lang"`}},
			{Name: "a missing package", Method: "GET", Path: "/contradictionpackages/999999/letter.pdf?lang=de", As: admin, Status: 404},
		})
		if f.one(`SELECT COUNT(*) FROM contradiction WHERE contradictionpackage_id = ?`, pkg) != 1 {
			t.Fatal("the package does not hold the contradiction")
		}
		for lang, want := range map[string][]string{
			"de": {"Widerspruch gegen die Nebenkostenabrechnungen", "Anteil überschritten: Reinigung Mall", "150,50 €", "3.370,50 €", "Beanstandet insgesamt", "Hinweis: kein Betrag gefordert", "Unser Zeichen: WP-2025-01", "Mit freundlichen Grüßen"},
			"fr": {"Contestation des décomptes de charges", "Montant contesté", "3 370,50 €", "Remarque : aucun montant réclamé", "Notre référence : WP-2025-01", "salutations distinguées"},
			"en": {"Objection to the service charge statements", "Amount objected to", "€3,370.50", "Remark: no amount claimed", "Our reference: WP-2025-01", "Yours faithfully"},
		} {
			r := f.do(admin, "GET", fmt.Sprintf("/contradictionpackages/%d/letter.pdf?lang=%s", pkg, lang), nil)
			if r.Status != 200 || r.Header.Get("Content-Type") != "application/pdf" {
				t.Fatalf("%s letter: %d %s", lang, r.Status, r.Body)
			}
			file := filepath.Join(t.TempDir(), "letter.pdf")
			if err := os.WriteFile(file, r.Body, 0o600); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(pdftotext, "-layout", file, "-").Output()
			if err != nil {
				t.Fatalf("pdftotext: %v", err)
			}
			text := strings.Join(strings.Fields(strings.ReplaceAll(string(out), "\u00a0", " ")), " ")
			for _, w := range want {
				if !strings.Contains(text, strings.ReplaceAll(w, "\u00a0", " ")) {
					t.Errorf("%s letter lacks %q:\n%s", lang, w, text)
				}
			}
		}
		f.giveRights(leadB)
		theirs, missing := f.do(leadB, "GET", fmt.Sprintf("/contradictionpackages/%d/letter.pdf?lang=de", pkg), nil),
			f.do(leadB, "GET", "/contradictionpackages/999999/letter.pdf?lang=de", nil)
		if theirs.Status != 404 || !bytes.Equal(theirs.Body, missing.Body) {
			t.Errorf("another tenant's letter: %d %s; a missing one: %d %s", theirs.Status, theirs.Body, missing.Status, missing.Body)
		}
		// lead.b@ cannot pack another tenant's contradiction into its own package.
		ownPos := f.one(`SELECT MIN(p.pos_id) FROM pos p JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 2`)
		var ownPkg int64
		f.ta.Run(t, []apptest.Scenario{{Name: "lead.b@ makes a package of its own point of sale", Method: "POST", Path: "/api/", As: leadB, Status: 201,
			Body: obj{"action": "create", "entity": "contradictionpackage", "data": obj{"pos_id": ownPos, "contradictionpackage_name": "B-1"}},
			Check: func(t *testing.T, r apptest.Response) {
				var out struct{ Data obj }
				r.JSON(t, &out)
				ownPkg = int64(out.Data["contradictionpackage_id"].(float64))
			}}})
		if r := f.do(leadB, "POST", "/api/", obj{"action": "update", "entity": "contradiction", "id": contra, "row_version": 2,
			"data": obj{"contradictionpackage_id": ownPkg}}); r.Status != 404 {
			t.Errorf("lead.b@ moves another tenant's contradiction: %d %s", r.Status, r.Body)
		}

		// Savings: the landlord accepts 1000.10 of one point, an inspection
		// result realises 333.33.
		point := f.one(`SELECT contradictionpoint_id FROM contradictionpoint WHERE contradictionpoint_rule = 'costtype_not_agreed' AND contradiction_id = ?`, contra)
		f.exec(`UPDATE contradictionpoint SET contradictionpoint_accepted = 1000.1 WHERE contradictionpoint_id = ?`, point)
		f.exec(`INSERT INTO claimtype (claimtype_name) VALUES ('Rückforderung')`)
		f.exec(`INSERT INTO savingtype (savingtype_name) VALUES ('Einmalig')`)
		f.exec(`INSERT INTO rating (rating_name) VALUES ('gut')`)
		f.exec(`INSERT INTO resultcategorization (resultcategorization_name) VALUES ('Nebenkosten')`)
		for _, v := range []string{"333.33", "0.1", "0.2"} {
			f.exec(`INSERT INTO inspectionresult (invoice_id, inspectionresult_value, inspectionresult_realised, unique_or_perennial, legally_clear,
				claimtype_id, savingtype_id, rating_id, resultcategorization_id)
				VALUES (?, ?, 1, 'unique', 1, (SELECT MAX(claimtype_id) FROM claimtype), (SELECT MAX(savingtype_id) FROM savingtype),
				(SELECT MAX(rating_id) FROM rating), (SELECT MAX(resultcategorization_id) FROM resultcategorization))`, cur, v)
		}
		f.exec(`INSERT INTO inspectionresult (invoice_id, inspectionresult_value, inspectionresult_realised, unique_or_perennial, legally_clear,
			claimtype_id, savingtype_id, rating_id, resultcategorization_id)
			VALUES (?, 99, 0, 'unique', 1, (SELECT MAX(claimtype_id) FROM claimtype), (SELECT MAX(savingtype_id) FROM savingtype),
			(SELECT MAX(rating_id) FROM rating), (SELECT MAX(resultcategorization_id) FROM resultcategorization))`, cur)
		// A claim counts in the year it was made (decision 0069): the
		// generator's points were made today, as their history says; the
		// results above have no history (as if carried over) and count on
		// the statement's day of receipt, 2025-04-20. The billing year,
		// 2024, counts nothing.
		now := fmt.Sprint(platformclock.Now().UTC().Year())
		f.ta.Run(t, []apptest.Scenario{
			{Name: "savings of this year by point of sale", Method: "GET", Path: "/invoices/savings?year=" + now + "&group_by=pos", As: admin, Status: 200,
				Contains: []string{fmt.Sprintf(`"key":%d`, pos), `"claimed":"3370.50"`, `"accepted":"1000.10"`}},
			{Name: "results without history count in the year the statement was received", Method: "GET", Path: "/invoices/savings?year=2025&group_by=pos",
				As: admin, Status: 200, Contains: []string{fmt.Sprintf(`"key":%d`, pos), `"realised":"333.63"`}},
			{Name: "the billing year counts nothing", Method: "GET", Path: "/invoices/savings?year=2024&group_by=pos", As: admin, Status: 200,
				Absent: []string{fmt.Sprintf(`"key":%d`, pos)}},
			{Name: "savings by customer group", Method: "GET", Path: "/invoices/savings?group_by=customergroup", As: admin, Status: 200,
				Contains: []string{`"label":"Nordhandel Gruppe"`}},
			{Name: "another tenant sees none of it", Method: "GET", Path: "/invoices/savings?group_by=customergroup", As: leadB, Status: 200,
				Absent: []string{"Nordhandel", "333.63"}},
			{Name: "an unknown grouping", Method: "GET", Path: "/invoices/savings?group_by=street", As: admin, Status: 422},
			{Name: "a year that is no year", Method: "GET", Path: "/invoices/savings?year=twenty", As: admin, Status: 422},
			{Name: "as CSV", Method: "GET", Path: "/invoices/savings?year=" + now + "&group_by=pos&format=csv", As: admin, Status: 200,
				Contains: []string{"Point of sale,Claimed,Accepted,Realised", "3370.50,1000.10,0.00"}},
		})
		r := f.do(admin, "GET", "/invoices/savings?year=2025&group_by=year&format=xlsx", nil)
		if r.Status != 200 {
			t.Fatalf("xlsx: %d %s", r.Status, r.Body)
		}
		book, err := excelize.OpenReader(bytes.NewReader(r.Body))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := book.GetRows(book.GetSheetName(0))
		if err != nil || len(rows) != 3 || rows[1][0] != "2025" || rows[1][3] != "333.63" {
			t.Errorf("xlsx rows = %v (%v)", rows, err)
		}
		var total struct {
			Total map[string]string `json:"total"`
		}
		json.Unmarshal(f.do(admin, "GET", "/invoices/savings?year=2025", nil).Body, &total)
		if total.Total["realised"] != "333.63" {
			t.Errorf("total = %v", total.Total)
		}
	})
}
