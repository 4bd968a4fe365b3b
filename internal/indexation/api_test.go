package indexation_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"mime/multipart"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/indexation"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

type obj = map[string]any

const (
	admin      = "admin@demo.test"
	teamLead   = "team_lead@demo.test"
	teamMember = "team_member@demo.test"
	lead       = "lead@demo.test"
	leadB      = "lead.b@demo.test"
)

// upload is a multipart body with the field "file".
func upload(t *testing.T, data []byte) (string, map[string]string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	part, err := w.CreateFormFile("file", "index.csv")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := part.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String(), map[string]string{"Content-Type": w.FormDataContentType()}
}

func one(t *testing.T, d *db.DB, query string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := d.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// indexedPayment creates, as the administrator, an index clause and a
// recurring payment of 1000.00 with value deposit on the first contract of
// company; answers the payment's id.
func indexedPayment(t *testing.T, d *db.DB, ta *apptest.TestApp, company int64, begin string, percent string) int64 {
	t.Helper()
	return indexedPaymentWith(t, d, ta, company, begin, obj{"indexclause_minimal_percent_change": percent}, nil)
}

// indexedPaymentWith is indexedPayment with the clause's and the payment's
// fields set from clause and payment (over the defaults: base year 2020,
// the clause's begin date as the payment's, 100 % passed on).
func indexedPaymentWith(t *testing.T, d *db.DB, ta *apptest.TestApp, company int64, begin string, clause, payment obj) int64 {
	t.Helper()
	tag := begin + fmt.Sprint(len(clause), clause["indexclause_name"])
	contract := one(t, d, `SELECT MIN(contract_id) FROM contract WHERE company_id = ?`, company)
	ids := map[string]int64{}
	create := func(name, entity string, data obj) {
		ta.Run(t, []apptest.Scenario{{Name: name, Method: "POST", Path: "/api/", As: admin, Status: 201,
			Body: obj{"action": "create", "entity": entity, "data": data},
			Check: func(t *testing.T, r apptest.Response) {
				var out struct{ Data obj }
				r.JSON(t, &out)
				ids[entity] = int64(out.Data[entity+"_id"].(float64))
			}}})
	}
	create("a tax rate", "taxrate", obj{"company_id": company, "taxrate_code": "S" + tag, "taxrate_value": 19})
	create("an account", "sachkonto", obj{"sachkonto_number": "47" + strings.ReplaceAll(tag, "-", "") + fmt.Sprint(company), "sachkonto_name": "Rent"})
	create("a payment type", "recurringpaymenttype", obj{"recurringpaymenttype_name": "Rent " + tag})
	create("a maturity type", "maturitytype", obj{"maturitytype_name": "Monthly " + tag})
	clauseRow := obj{"indexclause_name": "VPI " + begin, "indexclause_adjustment_rule": "5 %",
		"indexclause_description": "Rent follows the VPI", "indexclause_baseyear": 2020, "indexclause_begin_date": begin,
		"indextransmission_percent": 100, "change_in_percent": 1}
	for k, v := range clause {
		clauseRow[k] = v
	}
	create("an index clause", "indexclause", clauseRow)
	payType := ids["recurringpaymenttype"]
	if payType != 1 {
		// Only types 1 and 3-9 show a sum per month; use type 1 if it exists.
		payType = one(t, d, `SELECT MIN(recurringpaymenttype_id) FROM recurringpaymenttype`)
	}
	row := obj{"recurringpayment_name": "Rent " + begin, "contract_id": contract,
		"taxrate_id": ids["taxrate"], "recurringpaymenttype_id": payType, "sachkonto_id": ids["sachkonto"],
		"recurringpayment_sum_per_month": 1000, "recurringpayment_begin_date": begin, "recurringpayment_end_date": "2030-12-31",
		"maturitytype_id": ids["maturitytype"], "recurringpayment_value_deposit": 1, "indexclause_id": ids["indexclause"]}
	for k, v := range payment {
		row[k] = v
	}
	switch ids["maturitytype"] {
	case 1:
		row["recurringpayment_maturity_date"] = row["recurringpayment_begin_date"]
	case 2:
		row["recurringpayment_maturity_daily_range"], row["recurringpayment_maturity_monthly_range"] = 1, 1
	}
	create("a payment", "recurringpayment", row)
	return ids["recurringpayment"]
}

// TestIndexation: import, run, approve, reject and the schedule, with
// rights and tenant scope, on both databases.
func TestIndexation(t *testing.T) {
	table, err := os.ReadFile("data/61111-0002_de.csv")
	if err != nil {
		t.Fatal(err)
	}
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		if n := one(t, d, `SELECT COUNT(*) FROM priceindexvalue WHERE priceindex_id = 1`); n != 406 {
			t.Fatalf("the seed imported %d values, want 406", n)
		}
		same, sameHeader := upload(t, table)
		revised, revisedHeader := upload(t, []byte("month;value\n2024-10;120,3\n2024-11;120,5\n"))
		broken, brokenHeader := upload(t, bytes.Replace(table, []byte(";Februar;60,8;e"), []byte(";Februar;-60,8;e"), 1))
		ta.Run(t, []apptest.Scenario{
			{Name: "import the same file: nothing changes", Method: "POST", Path: "/priceindexes/1/import", As: admin, Status: 200,
				Header: sameHeader, Body: same, Contains: []string{`"inserted":0`, `"updated":0`, `"unchanged":406`, `"month":"2024-11"`}},
			{Name: "a broken file: 422 naming the line", Method: "POST", Path: "/priceindexes/1/import", As: admin, Status: 422,
				Header: brokenHeader, Body: broken, Contains: []string{"8", "positive"}},
			{Name: "a team lead may not import", Method: "POST", Path: "/priceindexes/1/import", As: teamLead, Status: 403,
				Header: sameHeader, Body: same},
			{Name: "a missing series", Method: "POST", Path: "/priceindexes/999/import", As: admin, Status: 404,
				Header: sameHeader, Body: same},
			{Name: "every user reads the series", Method: "POST", Path: "/api/", As: lead, Status: 200,
				Body: obj{"action": "read-rich", "entity": "priceindexvalue", "page": 1, "per_page": 1}, Contains: []string{"priceindexvalue_month"}},
		})
		ta.Run(t, []apptest.Scenario{
			{Name: "a revised value and a new month", Method: "POST", Path: "/priceindexes/1/import", As: admin, Status: 200,
				Header: revisedHeader, Body: revised, Contains: []string{`"inserted":1`, `"updated":1`, `"unchanged":0`}},
		})
		if n := one(t, d, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'priceindexvalue'`); n == 0 {
			t.Errorf("the revision wrote no history")
		}
		// Restore the published values for the chains below.
		restore, restoreHeader := upload(t, []byte("2024-10;120,2\n"))
		ta.Run(t, []apptest.Scenario{{Name: "restore", Method: "POST", Path: "/priceindexes/1/import", As: admin, Status: 200,
			Header: restoreHeader, Body: restore}})
		if _, err := d.ExecContext(context.Background(), `DELETE FROM priceindexvalue WHERE priceindexvalue_month = '2024-11'`); err != nil {
			t.Fatal(err)
		}

		pay := indexedPayment(t, d, ta, 1, "2021-01-15", "5")
		missing := indexedPayment(t, d, ta, 1, "2030-01-01", "5")
		foreign := indexedPayment(t, d, ta, 3, "2021-01-01", "5")
		run := func(ids ...int64) obj { return obj{"recurringpayment_ids": ids} }
		ta.Run(t, []apptest.Scenario{
			{Name: "run one payment: its chain", Method: "POST", Path: "/indexadjustments/run", As: teamLead, Status: 200, Body: run(pay),
				Contains: []string{`"created":3`, `"indexadjustment_current_month":"2022-03"`, `"indexadjustment_new_amount":1070.3`,
					`"indexadjustment_current_month":"2024-06"`, `"indexadjustment_new_amount":1182.19`}},
			{Name: "run again: no duplicates", Method: "POST", Path: "/indexadjustments/run", As: teamLead, Status: 200, Body: run(pay),
				Contains: []string{`"created":0`, `"indexadjustment_current_month":"2022-03"`}},
			{Name: "a reference month without value, alone: 422", Method: "POST", Path: "/indexadjustments/run", As: admin, Status: 422,
				Body: run(missing), Contains: []string{"2030-01"}},
			{Name: "with another payment: reported, the other runs", Method: "POST", Path: "/indexadjustments/run", As: admin, Status: 200,
				Body: run(pay, missing), Contains: []string{fmt.Sprintf(`"recurringpayment_id":%d,"month":"2030-01"`, missing)}},
			{Name: "a team member may not run", Method: "POST", Path: "/indexadjustments/run", As: teamMember, Status: 403, Body: run(pay)},
			{Name: "an external lead may not run: 403", Method: "POST", Path: "/indexadjustments/run", As: lead, Status: 403, Body: run(foreign)},
		})
		if n := one(t, d, `SELECT COUNT(*) FROM indexadjustment WHERE recurringpayment_id = ?`, pay); n != 3 {
			t.Fatalf("%d adjustments stored, want 3", n)
		}
		chain := func(month string) int64 {
			return one(t, d, `SELECT indexadjustment_id FROM indexadjustment WHERE recurringpayment_id = ? AND indexadjustment_current_month = ?`, pay, month)
		}
		first, second, third := chain("2022-03"), chain("2022-11"), chain("2024-06")
		path := func(id int64, action string) string { return fmt.Sprintf("/indexadjustments/%d/%s", id, action) }
		ta.Run(t, []apptest.Scenario{
			{Name: "out of order: 409", Method: "POST", Path: path(second, "approve"), As: teamLead, Status: 409},
			{Name: "a team member may not approve", Method: "POST", Path: path(first, "approve"), As: teamMember, Status: 403},
			{Name: "an external lead of another tenant: 404", Method: "POST", Path: path(first, "approve"), As: leadB, Status: 404},
			{Name: "approve the first", Method: "POST", Path: path(first, "approve"), As: teamLead, Status: 200,
				Contains: []string{`"indexadjustment_status":"approved"`}},
			{Name: "approve it again: 409", Method: "POST", Path: path(first, "approve"), As: teamLead, Status: 409},
			{Name: "the schedule shows both periods", Method: "GET", Path: fmt.Sprintf("/contracts/%d/schedule?from=2022-03&to=2022-04",
				one(t, d, `SELECT contract_id FROM recurringpayment WHERE recurringpayment_id = ?`, pay)), As: teamLead, Status: 200,
				Contains: []string{`"month":"2022-03"`, `"amount":1000.00`, `"amount":1070.30`, `"year":2022`}},
			{Name: "the letter of another tenant's adjustment: 404", Method: "GET", Path: path(first, "letter.pdf?lang=de"), As: leadB, Status: 404},
			{Name: "a letter in an unknown language: 422", Method: "GET", Path: path(first, "letter.pdf?lang=xx"), As: teamLead, Status: 422},
			{Name: "a team member may not reject", Method: "POST", Path: path(second, "reject"), As: teamMember, Status: 403},
			{Name: "another tenant may not see it to reject", Method: "POST", Path: path(second, "reject"), As: leadB, Status: 404},
			{Name: "a missing adjustment", Method: "POST", Path: path(99999999, "reject"), As: admin, Status: 404},
			{Name: "an area manager may not read schedules", Method: "GET", Path: fmt.Sprintf("/contracts/%d/schedule?from=2022-03&to=2022-04",
				one(t, d, `SELECT contract_id FROM recurringpayment WHERE recurringpayment_id = ?`, pay)), As: "area_manager@demo.test", Status: 403},
			{Name: "reject the second: the third is discarded", Method: "POST", Path: path(second, "reject"), As: admin, Status: 200,
				Contains: []string{`"indexadjustment_status":"rejected"`}},
			{Name: "the third is gone", Method: "POST", Path: path(third, "approve"), As: admin, Status: 404},
			{Name: "a schedule of another tenant's contract: 404", Method: "GET", Path: fmt.Sprintf("/contracts/%d/schedule?from=2022-01&to=2022-02",
				one(t, d, `SELECT contract_id FROM recurringpayment WHERE recurringpayment_id = ?`, foreign)), As: lead, Status: 404},
			{Name: "a bad range: 422", Method: "GET", Path: "/contracts/1/schedule?from=2022-05&to=2022-01", As: admin, Status: 422},
			{Name: "the adjustments are listed in the tenant", Method: "POST", Path: "/api/", As: teamLead, Status: 200,
				Body: obj{"action": "read-rich", "entity": "indexadjustment", "page": 1, "per_page": 10}, Contains: []string{`"indexadjustment_status"`}},
			{Name: "the generic API writes no adjustment", Method: "POST", Path: "/api/", As: admin, Status: 405,
				Body: obj{"action": "create", "entity": "indexadjustment", "data": obj{}}},
		})
		for lang, want := range map[string][]string{
			"de": {"Anpassung der Zahlung „Rent 2021-01-15“", "Wertsicherungsklausel", "VPI 2021-01-15", "Januar 2021", "März 2022",
				"1.000,00 €", "1.070,30 €", "01.04.2022", "Neuer Monatsbetrag", "Seite 1 von 1", "Destatis"},
			"fr": {"mars 2022", "1 000,00 €", "1 070,30 €", "01/04/2022", "Nouveau montant mensuel"},
			"en": {"Adjustment of the payment “Rent 2021-01-15”", "January 2021", "March 2022", "€1,000.00", "€1,070.30", "1 April 2022",
				"New monthly amount", "Page 1 of 1"},
		} {
			text := letterText(t, ta, teamLead, first, lang)
			for _, w := range want {
				if !strings.Contains(text, w) {
					t.Errorf("the %s letter lacks %q:\n%s", lang, w, text)
				}
			}
			if strings.Contains(text, "{{") {
				t.Errorf("the %s letter shows a placeholder:\n%s", lang, text)
			}
		}
		// The template is read-only; its wording is the text module of the
		// same code and language, which the letter follows.
		template := one(t, d, `SELECT texttemplate_id FROM texttemplate WHERE texttemplate_code = 'index_adjustment_letter'`)
		module := one(t, d, `SELECT textmodule_id FROM textmodule WHERE textmodule_code = 'index_adjustment_letter' AND textmodule_language = 'en'`)
		ta.Run(t, []apptest.Scenario{
			{Name: "the letter's template allows no update", Method: "POST", Path: "/api/", As: admin, Status: 405,
				Body: obj{"action": "update", "entity": "texttemplate", "id": template, "row_version": 1, "data": obj{"texttemplate_name": "x"}}},
			{Name: "its text module is changed instead", Method: "POST", Path: "/api/", As: admin, Status: 200,
				Body: obj{"action": "update", "entity": "textmodule", "id": module, "row_version": 1,
					"data": obj{"textmodule_templatetext": "<p>Dear landlord, the payment {{payment_name}} is now {{new_amount}}.</p>"}}},
		})
		if text := letterText(t, ta, teamLead, first, "en"); !strings.Contains(text, "Dear landlord, the payment Rent 2021-01-15 is now €1,070.30.") {
			t.Errorf("the letter does not follow its text module:\n%s", text)
		}
		if text := letterText(t, ta, teamLead, first, "de"); !strings.Contains(text, "Wertsicherungsklausel") {
			t.Errorf("the German letter lost its own wording:\n%s", text)
		}
		ta.Run(t, []apptest.Scenario{
			{Name: "a placeholder the letter does not fill, in the text module", Method: "POST", Path: "/api/", As: admin, Status: 200,
				Body: obj{"action": "update", "entity": "textmodule", "id": module, "row_version": 2, "data": obj{"textmodule_templatetext": "<p>{{nope}}</p>"}}},
			{Name: "the letter names the text module's field", Method: "GET", Path: path(first, "letter.pdf?lang=en"), As: teamLead, Status: 422,
				Contains: []string{`"loc":["body","textmodule_templatetext"]`, "nope"}},
		})
		if _, err := d.ExecContext(context.Background(), `UPDATE recurringpayment SET recurringpayment_value_deposit = 0 WHERE recurringpayment_id = ?`, missing); err != nil {
			t.Fatal(err)
		}
		ta.Run(t, []apptest.Scenario{
			{Name: "a payment without value deposit, alone: 422", Method: "POST", Path: "/indexadjustments/run", As: admin, Status: 422,
				Body: run(missing), Contains: []string{"value deposit"}},
			{Name: "a missing payment: 404", Method: "POST", Path: "/indexadjustments/run", As: admin, Status: 404, Body: run(99999999)},
			{Name: "run everything the team lead sees", Method: "POST", Path: "/indexadjustments/run", As: teamLead, Status: 200,
				Body: obj{}, Contains: []string{`"created":`, `"errors":[]`}},
		})
		if n := one(t, d, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'recurringpayment' AND trackrecord_row_id = ?
			AND trackrecord_type = 'update'`, pay); n != 1 {
			t.Errorf("%d history rows of the payment's new amount, want 1", n)
		}
		if got := one(t, d, `SELECT CAST(recurringpayment_sum_per_month * 100 AS INTEGER) FROM recurringpayment WHERE recurringpayment_id = ?`, pay); got != 107030 {
			t.Errorf("payment amount ×100 = %d, want 107030", got)
		}
	})
}

// letterText fetches an adjustment's letter as who and reads it back with
// poppler's pdftotext, as the other party's program would.
func letterText(t *testing.T, ta *apptest.TestApp, who string, id int64, lang string) string {
	t.Helper()
	res := ta.Client().Do(t, "GET", fmt.Sprintf("/indexadjustments/%d/letter.pdf?lang=%s", id, lang), map[string]string{
		"Authorization": "Bearer " + ta.Token(who)}, nil)
	if res.Status != 200 || res.Header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("letter %s: %d %s", lang, res.Status, res.Body)
	}
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Fatal("pdftotext is missing: install Debian's poppler-utils")
	}
	path := filepath.Join(t.TempDir(), "letter.pdf")
	if err := os.WriteFile(path, res.Body, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v %s", err, out)
	}
	return strings.ReplaceAll(string(out), "\u00a0", " ")
}

// TestProposalsFollowTheirClause: an edit of what a clause's evaluation
// reads queues one run, and the next run replaces the proposals that no
// longer follow (approved adjustments stay); a payment whose value deposit
// is switched off keeps no proposal. Both databases.
func TestProposalsFollowTheirClause(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		pay := indexedPayment(t, d, ta, 1, "2021-01-15", "5")
		run := func(name string, body obj, contains ...string) {
			ta.Run(t, []apptest.Scenario{{Name: name, Method: "POST", Path: "/indexadjustments/run", As: admin, Status: 200,
				Body: body, Contains: contains}})
		}
		run("the first run", obj{"recurringpayment_ids": []int64{pay}}, `"created":3`, `"dropped":0`)
		adjustment := func(month string) (id int64, change float64) {
			var oldAmount, newAmount float64
			if err := d.QueryRowContext(context.Background(), `SELECT indexadjustment_id, indexadjustment_old_amount, indexadjustment_new_amount
				FROM indexadjustment WHERE recurringpayment_id = ? AND indexadjustment_current_month = ?`, pay, month).Scan(&id, &oldAmount, &newAmount); err != nil {
				t.Fatalf("adjustment %s: %v", month, err)
			}
			return id, newAmount - oldAmount
		}
		first, _ := adjustment("2022-03")
		second, fullChange := adjustment("2022-11")
		ta.Run(t, []apptest.Scenario{{Name: "approve the first", Method: "POST", Path: fmt.Sprintf("/indexadjustments/%d/approve", first),
			As: admin, Status: 200}})
		waiting := func() int64 {
			return one(t, d, `SELECT COUNT(*) FROM river_job WHERE kind = ? AND state = 'available'`, indexation.JobName)
		}
		// The payment's creation queued a run; a worker took it (nobody
		// works the queue here).
		if waiting() != 1 {
			t.Fatalf("the new payment with value deposit queued %d runs, want 1", waiting())
		}
		if _, err := d.ExecContext(context.Background(), `DELETE FROM river_job WHERE kind = ?`, indexation.JobName); err != nil {
			t.Fatal(err)
		}
		before := waiting()
		clause := one(t, d, `SELECT indexclause_id FROM recurringpayment WHERE recurringpayment_id = ?`, pay)
		update := func(name, entity string, id int64, data obj) {
			version := one(t, d, fmt.Sprintf(`SELECT row_version FROM %s WHERE %s_id = ?`, entity, entity), id)
			ta.Run(t, []apptest.Scenario{{Name: name, Method: "POST", Path: "/api/", As: admin, Status: 200,
				Body: obj{"action": "update", "entity": entity, "id": id, "row_version": version, "data": data}}})
		}
		update("the clause's name: nothing to evaluate", "indexclause", clause, obj{"indexclause_name": "VPI renamed"})
		if got := waiting(); got != before {
			t.Fatalf("a name change queued a run: %d waiting, %d before", got, before)
		}
		update("half of the change is passed on", "indexclause", clause, obj{"indextransmission_percent": 50})
		update("and the threshold stays", "indexclause", clause, obj{"indexclause_minimal_percent_change": 5})
		if got := waiting(); got != before+1 {
			t.Fatalf("%d runs waiting after two edits, want %d (one)", got, before+1)
		}
		run("the next run replaces what no longer follows", obj{"recurringpayment_ids": []int64{pay}}, `"created":2`, `"dropped":2`)
		if got := one(t, d, `SELECT COUNT(*) FROM indexadjustment WHERE indexadjustment_id = ? AND indexadjustment_status = 'approved'`, first); got != 1 {
			t.Fatalf("the approved adjustment changed")
		}
		again, halfChange := adjustment("2022-11")
		if again == second || math.Abs(halfChange-fullChange/2) > 0.02 {
			t.Fatalf("2022-11: id %d (was %d), change %.2f, want about half of %.2f", again, second, halfChange, fullChange)
		}
		run("a run with nothing changed keeps them", obj{"recurringpayment_ids": []int64{pay}}, `"created":0`, `"dropped":0`)

		update("the value deposit is switched off", "recurringpayment", pay, obj{"recurringpayment_value_deposit": 0})
		run("the full run drops its proposals", obj{}, `"dropped":2`)
		if got := one(t, d, `SELECT COUNT(*) FROM indexadjustment WHERE recurringpayment_id = ? AND indexadjustment_status = 'proposed'`, pay); got != 0 {
			t.Fatalf("%d proposals left on a payment without value deposit", got)
		}
		if got := one(t, d, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'indexadjustment' AND trackrecord_type = 'delete'`); got < 4 {
			t.Fatalf("%d history rows of dropped proposals, want 4 or more", got)
		}
	})
}
