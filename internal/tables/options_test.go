package tables_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// optionsAnswer is the answer of the options action.
type optionsAnswer struct {
	Data []struct {
		Value int64  `json:"value"`
		Label string `json:"label"`
	} `json:"data"`
	HasMore bool `json:"has_more"`
}

// options asks for the choices of entity.field as the user and checks the
// status; the answer is decoded on 200.
func (e *env) options(as, entity, field string, data obj, extra obj, status int) optionsAnswer {
	e.t.Helper()
	body := obj{"action": "options", "entity": entity, "field": field, "data": data}
	for k, v := range extra {
		body[k] = v
	}
	res := e.api(as, body)
	if res.Status != status {
		e.t.Fatalf("options %s.%s as %s: %d %s, want %d", entity, field, as, res.Status, res.Body, status)
	}
	var a optionsAnswer
	if status == http.StatusOK {
		res.JSON(e.t, &a)
	}
	return a
}

// TestOptions: the choices of a list field are the referenced rows the
// caller can see that the field's narrowing and the caller's limits allow,
// the very values a write accepts; a user who may edit the entity gets
// them without rights on the referenced table.
func TestOptions(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		ctx := context.Background()
		ids := func(a optionsAnswer) map[int64]bool {
			out := map[int64]bool{}
			for _, o := range a.Data {
				out[o.Value] = true
			}
			return out
		}
		sqlIDs := func(query string, args ...any) map[int64]bool {
			t.Helper()
			rows, err := d.QueryContext(ctx, query, args...)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			out := map[int64]bool{}
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					t.Fatal(err)
				}
				out[id] = true
			}
			return out
		}
		same := func(name string, got, want map[int64]bool) {
			t.Helper()
			if len(want) == 0 {
				t.Fatalf("%s: the fixture has no rows to compare", name)
			}
			if len(got) != len(want) {
				t.Fatalf("%s: got %v, want %v", name, got, want)
			}
			for id := range want {
				if !got[id] {
					t.Fatalf("%s: got %v, want %v", name, got, want)
				}
			}
		}
		all := obj{"per_page": 500}

		// The narrowing by a sibling: a point of sale's contact persons are
		// those of its company; without a company there is none.
		same("contact persons of company 1",
			ids(e.options(admin, "pos", "contactperson_id", obj{"company_id": 1}, all, http.StatusOK)),
			sqlIDs(`SELECT contactperson_id FROM contactperson WHERE company_id = 1`))
		if got := e.options(admin, "pos", "contactperson_id", obj{}, all, http.StatusOK); len(got.Data) != 0 {
			t.Fatalf("contact persons without a company: %v", got.Data)
		}

		// A narrowing that holds only while its sibling is filled: an
		// internal user (no partner group) may get any partner company.
		same("partner companies of a user without a partner group",
			ids(e.options(admin, "user", "partnercompany_id", obj{}, all, http.StatusOK)),
			sqlIDs(`SELECT partnercompany_id FROM partnercompany`))
		same("partner companies of partner group 1",
			ids(e.options(admin, "user", "partnercompany_id", obj{"partnergroup_id": 1}, all, http.StatusOK)),
			sqlIDs(`SELECT partnercompany_id FROM partnercompany WHERE partnergroup_id = 1`))

		// The tenant: an external lead is offered only the companies of
		// customer group 1.
		same("companies for lead@", ids(e.options(lead, "pos", "company_id", nil, all, http.StatusOK)),
			sqlIDs(`SELECT company_id FROM company WHERE customergroup_id = 1`))

		// A non-director external client user editing tickets gets internal
		// teams and only themselves, though the teams and users tables are
		// not theirs to list.
		grant(t, d, extMember, 4) // Tickets
		if res := e.api(extMember, obj{"action": "read-rich", "entity": "team"}); res.Status != http.StatusForbidden {
			t.Fatalf("the fixture expects ext_team_member not to list teams, got %d", res.Status)
		}
		same("ticket teams for ext_team_member@", ids(e.options(extMember, "ticket", "team_id", nil, all, http.StatusOK)),
			sqlIDs(`SELECT team_id FROM team WHERE team_type = 'intern'`))
		same("ticket users for ext_team_member@", ids(e.options(extMember, "ticket", "user_id", nil, all, http.StatusOK)),
			sqlIDs(`SELECT user_id FROM users WHERE user_email = ?`, extMember))

		// Keyword and pages: labels are searched whatever their case, and
		// a page says whether another follows.
		found := e.options(admin, "pos", "company_id", nil, obj{"filter_all": "SÜDMARKT"}, http.StatusOK)
		if len(found.Data) == 0 {
			t.Fatal("the keyword found no company")
		}
		for _, o := range found.Data {
			if !containsFold(o.Label, "südmarkt") {
				t.Fatalf("keyword SÜDMARKT answered %q", o.Label)
			}
		}
		first := e.options(admin, "pos", "company_id", nil, obj{"per_page": 1}, http.StatusOK)
		second := e.options(admin, "pos", "company_id", nil, obj{"per_page": 1, "current_page": 2}, http.StatusOK)
		if len(first.Data) != 1 || !first.HasMore || len(second.Data) != 1 || first.Data[0].Value == second.Data[0].Value {
			t.Fatalf("pages: %+v then %+v", first, second)
		}

		// Who may not touch the entity gets nothing; a field that is no
		// list is refused.
		e.options(lead, "user", "usertype_id", nil, nil, http.StatusForbidden)
		e.options(admin, "pos", "pos_name", nil, nil, http.StatusUnprocessableEntity)
		e.options(admin, "pos", "company_id", obj{"company_id": "x"}, nil, http.StatusUnprocessableEntity)
	})
}

// containsFold reports whether s contains sub, ignoring case.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// TestLockedFieldsServed: the definitions tell an external client that
// the customer group of a company is theirs and locked, and nobody else.
func TestLockedFieldsServed(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		customerGroup := func(as string) map[string]any {
			t.Helper()
			res := e.Do("GET", "/api/definitions/company", e.token(as), nil)
			if res.Status != http.StatusOK {
				t.Fatalf("definitions as %s: %d %s", as, res.Status, res.Body)
			}
			var def struct {
				Attributes []map[string]any `json:"attributes"`
			}
			res.JSON(t, &def)
			for _, a := range def.Attributes {
				if a["attribute"] == "customergroup_id" {
					return a
				}
			}
			t.Fatal("company has no customergroup_id attribute")
			return nil
		}
		if a := customerGroup(lead); a["read_only"] != true || a["default"] != float64(1) {
			t.Fatalf("lead@ (customer group 1): customergroup_id served as %v", a)
		}
		if a := customerGroup(admin); a["read_only"] == true || a["default"] != nil {
			t.Fatalf("admin: customergroup_id served as %v", a)
		}
	})
}
