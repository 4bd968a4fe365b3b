package contracts_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"portfolio/internal/contracts"
	"portfolio/internal/db"
	platformclock "portfolio/internal/platform/clock"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

const (
	admin      = "admin@demo.test"
	teamMember = "team_member@demo.test"
	lead       = "lead@demo.test"
	leadB      = "lead.b@demo.test"
)

type obj = map[string]any

// contractOf returns a demo contract of company and its row_version.
func contractOf(t *testing.T, d *db.DB, company int64) (id, version int64) {
	t.Helper()
	err := d.QueryRowContext(context.Background(), `SELECT contract_id, row_version FROM contract WHERE company_id = ? ORDER BY contract_id LIMIT 1`,
		company).Scan(&id, &version)
	if err != nil {
		t.Fatal(err)
	}
	return id, version
}

// written decodes the "data" of a create or update answer.
func written(t *testing.T, r apptest.Response) obj {
	t.Helper()
	var out struct{ Data obj }
	r.JSON(t, &out)
	return out.Data
}

// TestDeadlineNoticeDates: the server computes a deadline's notice date on
// every write of the deadline and of its contract's end date; nobody
// writes it; a deadline lacking what its type needs is refused.
func TestDeadlineNoticeDates(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		contract, version := contractOf(t, d, 1)
		foreign, _ := contractOf(t, d, 3)
		today := platformclock.Now().UTC()
		end := contracts.AddMonths(today, 30).Format(time.DateOnly)
		create := func(data obj) obj {
			return obj{"action": "create", "entity": "contractaction", "data": data}
		}
		option := obj{"contract_id": contract, "contractaction_acting_by": "mieter", "contractaction_type": "active_option",
			"contractaction_options_count": 2, "contractaction_extension_value": 5, "contractaction_extension_unit": "year",
			"contractaction_notice_period_value": 12, "contractaction_notice_period_unit": "month"}
		with := func(m obj, kv ...any) obj {
			out := obj{}
			for k, v := range m {
				out[k] = v
			}
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i+1] == "-" {
					delete(out, kv[i].(string))
					continue
				}
				out[kv[i].(string)] = kv[i+1]
			}
			return out
		}
		resiliation := with(option, "contractaction_type", "resiliation", "contractaction_options_count", "-",
			"contractaction_extension_value", "-", "contractaction_extension_unit", "-")
		// The contract ends in 30 months: the option's notice date is 12
		// months before that.
		ta.Run(t, []apptest.Scenario{{Name: "contract end", Method: "POST", Path: "/api/", As: admin, Status: 200,
			Body: obj{"action": "update", "entity": "contract", "id": contract, "row_version": version, "data": obj{"contract_end_date": end}}}})
		var deadline obj
		ta.Run(t, []apptest.Scenario{
			{Name: "option gets its notice date", Method: "POST", Path: "/api/", As: admin, Body: create(option), Status: 201,
				Contains: []string{`"contractaction_notice_date":"` + contracts.AddMonths(today, 18).Format(time.DateOnly) + `"`},
				Check:    func(t *testing.T, r apptest.Response) { deadline = written(t, r) }},
			{Name: "a sent notice date is refused", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body: create(with(option, "contractaction_notice_date", "2030-01-01")), Contains: []string{"contractaction_notice_date"}},
			{Name: "resiliation without its date", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body: create(resiliation), Contains: []string{`"loc":["body","contractaction_resiliation_date"]`}},
			{Name: "notice period without unit", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body: create(with(option, "contractaction_notice_period_unit", nil)), Contains: []string{`"loc":["body","contractaction_notice_period_unit"]`}},
			{Name: "option without extension unit", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body: create(with(option, "contractaction_extension_unit", nil)), Contains: []string{`"loc":["body","contractaction_extension_unit"]`}},
			{Name: "options count below 1", Method: "POST", Path: "/api/", As: admin, Status: 422,
				Body: create(with(option, "contractaction_options_count", 0)), Contains: []string{`"loc":["body","contractaction_options_count"]`}},
			{Name: "resiliation", Method: "POST", Path: "/api/", As: admin, Status: 201,
				Body:     create(with(resiliation, "contractaction_resiliation_date", "2031-03-31", "contractaction_notice_period_value", 1)),
				Contains: []string{`"contractaction_notice_date":"2031-02-28"`}},
			{Name: "a lead may not add deadlines", Method: "POST", Path: "/api/", As: lead, Status: 403,
				Body: create(with(option, "contract_id", foreign))},
		})
		id := int64(deadline["contractaction_id"].(float64))
		rowVersion := int64(deadline["row_version"].(float64))

		// Moving the contract's end moves the notice date, with history.
		_, version = contractOf(t, d, 1)
		ta.Run(t, []apptest.Scenario{{Name: "contract end moves", Method: "POST", Path: "/api/", As: admin, Status: 200,
			Body: obj{"action": "update", "entity": "contract", "id": contract, "row_version": version,
				"data": obj{"contract_end_date": contracts.AddMonths(today, 40).Format(time.DateOnly)}}}})
		var notice string
		var v int64
		if err := d.QueryRowContext(context.Background(), `SELECT contractaction_notice_date, row_version FROM contractaction WHERE contractaction_id = ?`, id).
			Scan(&notice, &v); err != nil {
			t.Fatal(err)
		}
		if want := contracts.AddMonths(today, 28).Format(time.DateOnly); notice[:10] != want || v != rowVersion+1 {
			t.Fatalf("after the end moved: notice %s v%d, want %s v%d", notice, v, want, rowVersion+1)
		}
		ta.Run(t, []apptest.Scenario{{Name: "history names the recomputation", Method: "POST", Path: "/api/", As: admin, Status: 200,
			Body: obj{"action": "history", "entity": "contractaction", "id": id}, Contains: []string{"contractaction_notice_date"}}})
	})
}

// TestDeadlineStatusLifecycle: active ⇄ inactive; active or inactive →
// cancelled; active → stopped; options only are pulled; reopening a
// closed deadline is an administrator's correction.
func TestDeadlineStatusLifecycle(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		contract, _ := contractOf(t, d, 1)
		// The team member may change deadlines (table group Contracts).
		if _, err := d.ExecContext(context.Background(), `INSERT INTO user_tablegroup (user_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
			SELECT user_id, 2, 1, 1, 1, 0 FROM users WHERE user_email = ?`, teamMember); err != nil {
			t.Fatal(err)
		}
		newDeadline := func(typ string) (int64, int64) {
			data := obj{"contract_id": contract, "contractaction_acting_by": "mieter", "contractaction_type": typ,
				"contractaction_notice_period_value": 3, "contractaction_notice_period_unit": "month"}
			if typ == contracts.TypeResiliation {
				data["contractaction_resiliation_date"] = "2031-03-31"
			} else {
				data["contractaction_options_count"], data["contractaction_extension_value"], data["contractaction_extension_unit"] = 1, 1, "year"
			}
			r := ta.Do("POST", "/api/", ta.Token(admin), obj{"action": "create", "entity": "contractaction", "data": data})
			if r.Status != http.StatusCreated {
				t.Fatalf("create %s: %d %s", typ, r.Status, r.Body)
			}
			w := written(t, r)
			return int64(w["contractaction_id"].(float64)), int64(w["row_version"].(float64))
		}
		set := func(as string, id int64, version *int64, status string, want int) {
			t.Helper()
			r := ta.Do("POST", "/api/", ta.Token(as), obj{"action": "update", "entity": "contractaction", "id": id,
				"row_version": *version, "data": obj{"contractaction_status": status}})
			if r.Status != want {
				t.Fatalf("%s sets %s: %d, want %d: %s", as, status, r.Status, want, r.Body)
			}
			if r.Status == http.StatusOK {
				*version = int64(written(t, r)["row_version"].(float64))
			}
		}
		res, rv := newDeadline("resiliation")
		set(teamMember, res, &rv, contracts.StatusInactive, 200)
		set(teamMember, res, &rv, contracts.StatusActive, 200)
		set(teamMember, res, &rv, contracts.StatusPulled, 422) // only options are pulled
		set(teamMember, res, &rv, contracts.StatusStopped, 200)
		set(teamMember, res, &rv, contracts.StatusActive, 422) // reopening is a correction
		set(admin, res, &rv, contracts.StatusActive, 200)

		opt, ov := newDeadline("active_option")
		set(teamMember, opt, &ov, contracts.StatusPulled, 200)
		set(teamMember, opt, &ov, contracts.StatusCancelled, 422)
		set(admin, opt, &ov, contracts.StatusCancelled, 200)

		r := ta.Do("POST", "/api/", ta.Token(admin), obj{"action": "create", "entity": "contractaction", "data": obj{
			"contract_id": contract, "contractaction_acting_by": "mieter", "contractaction_type": "resiliation",
			"contractaction_resiliation_date": "2031-03-31", "contractaction_status": "stopped",
			"contractaction_notice_period_value": 3, "contractaction_notice_period_unit": "month"}})
		if r.Status != http.StatusUnprocessableEntity {
			t.Fatalf("a new deadline starts active or inactive: %d %s", r.Status, r.Body)
		}
		var detail struct {
			Detail []struct{ Loc []string } `json:"detail"`
		}
		if err := json.Unmarshal(r.Body, &detail); err != nil || len(detail.Detail) == 0 ||
			fmt.Sprint(detail.Detail[0].Loc) != "[body contractaction_status]" {
			t.Fatalf("detail: %s", r.Body)
		}
	})
}

// TestGetContract: GET /contracts/{id} answers the contract with the
// relations the caller may read, the area links valid today and their
// sums; another tenant's contract answers like a missing one.
func TestGetContract(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		own, _ := contractOf(t, d, 1)
		foreign, _ := contractOf(t, d, 3)
		var area int64
		var rental float64
		if err := d.QueryRowContext(context.Background(), `SELECT COUNT(*), COALESCE(SUM(rentalspace_value), 0) FROM contract_area WHERE contract_id = ?`, own).
			Scan(&area, &rental); err != nil {
			t.Fatal(err)
		}
		if area == 0 {
			t.Fatal("the demo contract has no areas")
		}
		ended := ta.Do("POST", "/api/", ta.Token(admin), obj{"action": "link", "entity": "contract_area_rel", "id": own,
			"data": obj{"area_id": 1, "usagetype_id": 1, "rentalspace_value": 1000, "allocationspace_value": 5,
				"valid_from": "2020-01-01", "valid_to": "2020-12-31"}})
		if ended.Status != http.StatusCreated {
			t.Fatalf("link an ended area: %d %s", ended.Status, ended.Body)
		}
		path := func(id int64) string { return fmt.Sprintf("/contracts/%d", id) }
		ta.Run(t, []apptest.Scenario{
			{Name: "admin", Method: "GET", Path: path(own), As: admin, Status: 200,
				Contains: []string{`"areas":[`, `"owners":[`, `"managers":[`, `"deadlines":[`, `"recurringpayments":[`, `"criteria":[`,
					`"costtypes":[`, `"serviceobjects":[`, `"specialrights":[`, `"rentalspace_sum":`},
				Absent: []string{`"valid_to":"2020-12-31"`},
				Check: func(t *testing.T, r apptest.Response) {
					var got struct {
						Data struct {
							Areas  []obj   `json:"areas"`
							Rental float64 `json:"rentalspace_sum"`
							Next   string  `json:"contract_next_notice_date"`
						}
					}
					r.JSON(t, &got)
					// The next notice date is the earliest one not yet past; none
					// once every option of the contract is used up (a date the
					// date-shifted run reaches, decision 0008).
					if today := platformclock.Now().UTC().Format(time.DateOnly); got.Data.Next != "" && got.Data.Next < today {
						t.Errorf("next notice date %q is not today or later", got.Data.Next)
					}
					if int64(len(got.Data.Areas)) != area || got.Data.Rental != rental {
						t.Fatalf("areas %d sum %v, want %d and %v", len(got.Data.Areas), got.Data.Rental, area, rental)
					}
				}},
			{Name: "lead of the tenant", Method: "GET", Path: path(own), As: lead, Status: 200, Contains: []string{`"contract_id":`}},
			{Name: "another tenant's contract", Method: "GET", Path: path(foreign), As: lead, Status: 404},
			{Name: "missing contract", Method: "GET", Path: path(999999), As: lead, Status: 404},
			{Name: "not a number", Method: "GET", Path: "/contracts/x1", As: lead, Status: 404},
			{Name: "anonymous", Method: "GET", Path: path(own), Status: 401},
		})
		a, b := ta.Do("GET", path(foreign), ta.Token(lead), nil), ta.Do("GET", path(999999), ta.Token(lead), nil)
		if string(a.Body) != string(b.Body) {
			t.Fatalf("foreign and missing differ: %s / %s", a.Body, b.Body)
		}
		// Only active deadlines have a notice date to keep: with every
		// deadline of the contract inactive, it has no next notice date.
		if _, err := d.ExecContext(context.Background(), `UPDATE contractaction SET contractaction_status = 'unactive' WHERE contract_id = ?`, own); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Data struct {
				Next *string `json:"contract_next_notice_date"`
			}
		}
		ta.Do("GET", path(own), ta.Token(admin), nil).JSON(t, &got)
		if got.Data.Next != nil {
			t.Fatalf("next notice date %q from inactive deadlines", *got.Data.Next)
		}
	})
}

// TestRecomputeNoticeDates: the nightly recomputation moves the notice
// dates of active options whose date passed to their next use, as the
// system (history without a user), and a second run moves nothing.
func TestRecomputeNoticeDates(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		later := platformclock.Now().UTC().AddDate(3, 0, 0)
		svc := contracts.New(contracts.Deps{DB: d, Engine: ta.Engine, Outbox: ta.Outbox, Catalog: ta.Catalog, Principals: ta.Auth, Now: func() time.Time { return later }})
		ctx := context.Background()
		var stale int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM contractaction WHERE contractaction_type <> 'resiliation'
			AND contractaction_status = 'active' AND contractaction_notice_date < ?`, later.Format(time.DateOnly)).Scan(&stale); err != nil {
			t.Fatal(err)
		}
		if stale == 0 {
			t.Fatal("the demo data has no option whose notice date passes within three years")
		}
		versions := func() (sum int64) {
			t.Helper()
			if err := d.QueryRowContext(ctx, `SELECT COALESCE(SUM(row_version), 0) FROM contractaction`).Scan(&sum); err != nil {
				t.Fatal(err)
			}
			return sum
		}
		before := versions()
		moved, err := svc.RecomputeNoticeDates(ctx)
		if err != nil || moved == 0 {
			t.Fatalf("moved %d: %v", moved, err)
		}
		// Each moved deadline gets the next row_version, and only those.
		if after := versions(); after != before+int64(moved) {
			t.Fatalf("row versions grew by %d for %d moved deadlines", after-before, moved)
		}
		var unlimitedPast, history int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM contractaction WHERE contractaction_type = 'automatic_extension'
			AND contractaction_options_count IS NULL AND contractaction_notice_date < ?`, later.Format(time.DateOnly)).Scan(&unlimitedPast); err != nil {
			t.Fatal(err)
		}
		if unlimitedPast != 0 {
			t.Fatalf("%d unlimited extensions still have a past notice date", unlimitedPast)
		}
		// A moved deadline's history row names what moved: the notice
		// date, or what derives with it (the resulting end, the uses
		// counted, used up).
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'contractaction'
			AND user_id IS NULL AND (trackrecord_changes LIKE '%contractaction_notice_date%'
				OR trackrecord_changes LIKE '%contractaction_effective_date%' OR trackrecord_changes LIKE '%contractaction_uses%'
				OR trackrecord_changes LIKE '%contractaction_expired%')`).Scan(&history); err != nil {
			t.Fatal(err)
		}
		if history != moved {
			t.Fatalf("%d history rows for %d moved deadlines", history, moved)
		}
		if again, err := svc.RecomputeNoticeDates(ctx); err != nil || again != 0 {
			t.Fatalf("second run moved %d: %v", again, err)
		}
	})
}
