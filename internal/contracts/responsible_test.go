package contracts_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestResponsibleUsersMayReadTheirContract (issue 42): a deadline's
// responsible user is someone who may read the deadline: the choices
// offered to the administrator for a contract of customer group 1 are the
// staff and group 1's users with the right, never group 2's lead or a
// partner; exactly those are accepted, another answers 422 not_available
// at the field and writes nothing; moving the deadline to group 2's
// contract re-checks the user it keeps. The same for an invoice.
func TestResponsibleUsersMayReadTheirContract(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		userID := func(email string) int64 {
			var id int64
			if err := d.QueryRowContext(ctx, `SELECT user_id FROM users WHERE user_email = ?`, email).Scan(&id); err != nil {
				t.Fatal(err)
			}
			return id
		}
		contractA, _ := contractOf(t, d, 1)
		var contractB int64
		if err := d.QueryRowContext(ctx, `SELECT MIN(k.contract_id) FROM contract k JOIN company c ON c.company_id = k.company_id
			WHERE c.customergroup_id = 2`).Scan(&contractB); err != nil {
			t.Fatal(err)
		}
		options := func(entity, field string, data obj) map[int64]bool {
			r := ta.Do("POST", "/api/", ta.Token(admin), obj{"action": "options", "entity": entity, "field": field, "data": data, "per_page": 500})
			var a struct {
				Data []struct {
					Value int64 `json:"value"`
				} `json:"data"`
				HasMore bool `json:"has_more"`
			}
			r.JSON(t, &a)
			if r.Status != http.StatusOK || a.HasMore {
				t.Fatalf("options of %s: %d %s", field, r.Status, r.Body)
			}
			out := map[int64]bool{}
			for _, o := range a.Data {
				out[o.Value] = true
			}
			return out
		}
		staff, inA, inB, partner := userID(teamMember), userID(lead), userID(leadB), userID("partner@demo.test")
		offered := options("contractaction", "contractaction_responsible_user_id", obj{"contract_id": contractA})
		for _, want := range []int64{staff, inA, userID(admin)} {
			if !offered[want] {
				t.Errorf("user %d, who may read the contract, is not offered: %v", want, offered)
			}
		}
		for _, not := range []int64{inB, partner} {
			if offered[not] {
				t.Errorf("user %d, who may not read the contract, is offered", not)
			}
		}
		if paged := ta.Do("POST", "/api/", ta.Token(admin), obj{"action": "options", "entity": "contractaction",
			"field": "contractaction_responsible_user_id", "data": obj{"contract_id": contractA}, "per_page": 1, "current_page": 2}); paged.Status != http.StatusOK {
			t.Fatalf("second page: %d %s", paged.Status, paged.Body)
		}
		if b := options("contractaction", "contractaction_responsible_user_id", obj{"contract_id": contractB}); !b[inB] || b[inA] {
			t.Errorf("for group 2's contract lead.b@ must be offered and lead@ not: %v", b)
		}

		count := func() (n int64) {
			if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM contractaction`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		before := count()
		deadline := func(user int64) obj {
			return obj{"action": "create", "entity": "contractaction", "data": obj{"contract_id": contractA, "contractaction_acting_by": "mieter",
				"contractaction_type": "resiliation", "contractaction_resiliation_date": "2031-12-31",
				"contractaction_notice_period_value": 3, "contractaction_notice_period_unit": "month", "contractaction_responsible_user_id": user}}
		}
		ta.Run(t, []apptest.Scenario{
			{Name: "group 2's lead", Method: "POST", Path: "/api/", As: admin, Body: deadline(inB), Status: 422,
				Contains: []string{`"contractaction_responsible_user_id"`, "not_available"}},
			{Name: "a partner", Method: "POST", Path: "/api/", As: admin, Body: deadline(partner), Status: 422,
				Contains: []string{`"contractaction_responsible_user_id"`, "not_available"}},
		})
		if n := count(); n != before {
			t.Fatalf("refused deadlines wrote %d rows", n-before)
		}
		r := ta.Do("POST", "/api/", ta.Token(admin), deadline(inA))
		if r.Status != http.StatusCreated {
			t.Fatalf("group 1's lead: %d %s", r.Status, r.Body)
		}
		created := written(t, r)
		r = ta.Do("POST", "/api/", ta.Token(admin), obj{"action": "update", "entity": "contractaction", "id": created["contractaction_id"],
			"row_version": created["row_version"], "data": obj{"contract_id": contractB}})
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), `"contractaction_responsible_user_id"`) {
			t.Errorf("moving the deadline to group 2 with group 1's lead responsible: %d %s", r.Status, r.Body)
		}

		var invoice int64
		if err := d.QueryRowContext(ctx, `SELECT MIN(i.invoice_id) FROM invoice i JOIN company c ON c.company_id = i.company_id
			WHERE c.customergroup_id = 1`).Scan(&invoice); err != nil {
			t.Fatal(err)
		}
		if o := options("invoice", "invoice_responsible_user_id", obj{"company_id": 1}); o[inB] || !o[staff] {
			t.Errorf("invoice options: %v", o)
		}
		var version int64
		if err := d.QueryRowContext(ctx, `SELECT row_version FROM invoice WHERE invoice_id = ?`, invoice).Scan(&version); err != nil {
			t.Fatal(err)
		}
		ta.Run(t, []apptest.Scenario{{Name: "an invoice's responsible of another group", Method: "POST", Path: "/api/", As: admin, Status: 422,
			Body:     obj{"action": "update", "entity": "invoice", "id": invoice, "row_version": version, "data": obj{"invoice_responsible_user_id": inB}},
			Contains: []string{`"invoice_responsible_user_id"`, "not_available"}}})
	})
}
