package invoices_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"portfolio/internal/contracts"
	"portfolio/internal/db"
	"portfolio/internal/seed"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestStatementDeadlinesAlertTheirRecipient (decision 0063): a statement's
// objection deadline reaches its responsible user in the daily digest and
// the calendar feed, beside their contract deadlines, once per horizon;
// each recipient's items are read as that recipient, so a user named
// responsible for another customer group's deadline hears nothing of it
// (issue 42: the job read as the system and mailed it). On both
// databases, through a real SMTP exchange.
func TestStatementDeadlinesAlertTheirRecipient(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := &fixture{t: t, ta: apptest.NewApp(t, d), d: d}
		f.exec(`UPDATE users SET user_language = 'de' WHERE user_email IN (?, ?)`, teamMember, leadB)
		member := f.one(`SELECT user_id FROM users WHERE user_email = ?`, teamMember)
		lb := f.one(`SELECT user_id FROM users WHERE user_email = ?`, leadB)
		adminID := f.one(`SELECT user_id FROM users WHERE user_email = ?`, admin)

		// NK-DEMO-2025 was received on 2026-04-20: objections by 2027-04-20.
		inv := f.one(`SELECT invoice_id FROM invoice WHERE invoice_number = ?`, seed.DemoInvoiceNumbers[2])
		if got := f.one(`SELECT COALESCE(invoice_responsible_user_id, 0) FROM invoice WHERE invoice_id = ?`, inv); got != member {
			t.Errorf("the demo statement's responsible user is %d, want the MVM team member %d", got, member)
		}
		version := f.one(`SELECT row_version FROM invoice WHERE invoice_id = ?`, inv)
		if r := f.do(admin, "POST", "/api/?invoice", obj{"action": "update", "entity": "invoice", "id": inv, "row_version": version,
			"data": obj{"invoice_responsible_user_id": member}}); r.Status != 200 {
			t.Fatalf("name the team member responsible: %d %s", r.Status, r.Body)
		}
		invoiceTenant := f.one(`SELECT co.customergroup_id FROM invoice i JOIN company co ON co.company_id = i.company_id WHERE i.invoice_id = ?`, inv)
		ownTenant := f.one(`SELECT customergroup_id FROM users WHERE user_id = ?`, lb)
		if invoiceTenant == ownTenant {
			t.Fatalf("the demo statement is in lead.b's customer group %d: the test needs another", ownTenant)
		}
		// lead.b answers for a deadline of their own group, and is named for
		// one of the statement's group, as rows stored before the write
		// check kept references in the record's tenant may be.
		contractOf := func(tenant int64) int64 {
			return f.one(`SELECT MIN(c.contract_id) FROM contract c JOIN company co ON co.company_id = c.company_id
				WHERE co.customergroup_id = ?`, tenant)
		}
		deadline := func(contract int64, name string) int64 {
			f.exec(`UPDATE contract SET contract_name = ? WHERE contract_id = ?`, name, contract)
			r := f.do(admin, "POST", "/api/", obj{"action": "create", "entity": "contractaction", "data": obj{
				"contract_id": contract, "contractaction_acting_by": "mieter", "contractaction_type": "resiliation",
				"contractaction_resiliation_date":    "2027-07-15",
				"contractaction_notice_period_value": 3, "contractaction_notice_period_unit": "month",
				"contractaction_responsible_user_id": adminID}})
			if r.Status != 201 {
				t.Fatalf("create deadline: %d %s", r.Status, r.Body)
			}
			var out struct {
				Data struct {
					ID int64 `json:"contractaction_id"`
				} `json:"data"`
			}
			r.JSON(t, &out)
			f.exec(`UPDATE contractaction SET contractaction_responsible_user_id = ? WHERE contractaction_id = ?`, lb, out.Data.ID)
			return out.Data.ID
		}
		deadline(contractOf(ownTenant), "Eigener Vertrag Süd")
		deadline(contractOf(invoiceTenant), "Fremder Vertrag Nord")

		now := time.Date(2027, 4, 1, 6, 0, 0, 0, time.UTC) // 19 days before the objection deadline
		svc := contracts.New(contracts.Deps{DB: d, Engine: f.ta.Engine, Outbox: f.ta.Outbox, Catalog: f.ta.Catalog, Principals: f.ta.Auth,
			PublicURL: "http://portfolio.test", Now: func() time.Time { return now }})
		svc.AddDueSource(f.ta.Invoices)
		if sent, err := svc.SendDeadlineDigests(t.Context()); err != nil || sent != 2 {
			t.Fatalf("digests: %d mails, %v; want 2", sent, err)
		}
		mailTo := func(email string) testkit.Mail {
			return f.ta.SMTP.WaitFor(t, 10*time.Second, func(m testkit.Mail) bool { return slices.Contains(m.To, email) })
		}
		m := mailTo(teamMember)
		for _, want := range []string{"1 Frist braucht", "20. April 2027 (19 Tage): Einwendungsfrist der Abrechnung " + seed.DemoInvoiceNumbers[2],
			"Einwendungen bis 20. April 2027: 12 Monate nach Zugang am 20. April 2026",
			fmt.Sprintf("http://portfolio.test/app/table/invoice/view/%d", inv)} {
			if !strings.Contains(m.Subject+"\n"+m.Text, want) {
				t.Errorf("the team member's digest lacks %q:\n%s\n%s", want, m.Subject, m.Text)
			}
		}
		m = mailTo(leadB)
		if !strings.Contains(m.Text, "Eigener Vertrag Süd") || strings.Contains(m.Text, "Fremder Vertrag Nord") ||
			strings.Contains(m.Text, seed.DemoInvoiceNumbers[2]) {
			t.Errorf("lead.b's digest must show their own group's deadline only:\n%s", m.Text)
		}
		if again, err := svc.SendDeadlineDigests(t.Context()); err != nil || again != 0 {
			t.Fatalf("second run: %d mails, %v", again, err)
		}

		// The calendar feed carries the statement's deadline with its rule.
		var link struct{ URL string }
		f.ta.Run(t, []apptest.Scenario{{Name: "calendar link", Method: "POST", Path: "/user/calendar", As: teamMember, Status: 200,
			Check: func(t *testing.T, r apptest.Response) { r.JSON(t, &link) }}})
		u, err := url.Parse(link.URL)
		if err != nil {
			t.Fatal(err)
		}
		feed := f.ta.Do("GET", u.Path, "", nil)
		unfolded := strings.ReplaceAll(string(feed.Body), "\r\n ", "")
		for _, want := range []string{fmt.Sprintf("UID:statement-%d-objection-20270420@", inv), "DTSTART;VALUE=DATE:20270420",
			"SUMMARY:Einwendungsfrist der Abrechnung " + seed.DemoInvoiceNumbers[2], "Einwendungen bis 20. April 2027"} {
			if feed.Status != 200 || !strings.Contains(unfolded, want) {
				t.Fatalf("the feed lacks %q: %d\n%s", want, feed.Status, feed.Body)
			}
		}
	})
}
