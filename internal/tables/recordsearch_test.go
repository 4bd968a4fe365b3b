package tables_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

const (
	searchMember = "team_member@demo.test"
	searchLead   = "lead@demo.test"
	searchLeadB  = "lead.b@demo.test"
	searchStore  = "store_manager@demo.test"
)

type recordSearch struct {
	Q      string
	Groups []struct {
		Entity string
		Hits   []struct {
			ID      int64
			Label   string
			Detail  string
			BoardID *int64 `json:"board_id"`
		}
		HasMore bool `json:"has_more"`
	}
}

func (r recordSearch) entities() []string {
	var out []string
	for _, g := range r.Groups {
		out = append(out, g.Entity)
	}
	return out
}

func (r recordSearch) ids(entity string) []int64 {
	var out []int64
	for _, g := range r.Groups {
		if g.Entity == entity {
			for _, h := range g.Hits {
				out = append(out, h.ID)
			}
		}
	}
	return out
}

func searchAs(t *testing.T, ta *apptest.TestApp, user, q string) recordSearch {
	t.Helper()
	r := ta.Do("GET", "/search/records?q="+url.QueryEscape(q), ta.Token(user), nil)
	if r.Status != 200 {
		t.Fatalf("%s searches %q: %d %s", user, q, r.Status, r.Body)
	}
	var out recordSearch
	r.JSON(t, &out)
	return out
}

// listIDs are the keys of the first rows of the list of entity that the
// list screen shows for keyword q in the search's order: what the search
// must answer.
func listIDs(t *testing.T, ta *apptest.TestApp, user, entity, q, orderBy, dir string, n int) []int64 {
	t.Helper()
	r := ta.Do("POST", "/api/?"+entity, ta.Token(user), map[string]any{"action": "read-rich", "entity": entity, "filter_all": q,
		"order_by": orderBy, "order_dir": dir, "per_page": n, "current_page": 1, "columns": []string{entity + "_id"}})
	if r.Status != 200 {
		t.Fatalf("%s lists %s by %q: %d %s", user, entity, q, r.Status, r.Body)
	}
	var page struct {
		Data struct {
			Data []map[string]any
		}
	}
	r.JSON(t, &page)
	var out []int64
	for _, row := range page.Data.Data {
		out = append(out, int64(row[entity+"_id"].(float64)))
	}
	return out
}

// TestRecordSearch: the header's record search answers, per entity the
// caller may list, the first rows the list's own keyword search shows, at
// most five, in a fixed order of groups; no group (and no search) for an
// entity the caller may not list; nothing of another customer group; a
// number finds a ticket or invoice by its key; on both databases.
func TestRecordSearch(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		order := map[string][2]string{"pos": {"pos_name", "ASC"}, "contract": {"contract_name", "ASC"}, "invoice": {"invoice_date", "DESC"}, "ticket": {"ticket_id", "DESC"}}

		// A team member may list all four: each group is the list's first five.
		all := searchAs(t, ta, searchMember, "Nordhandel")
		if got := all.entities(); !slices.Equal(got, []string{"pos", "contract", "invoice", "ticket"}) {
			t.Fatalf("team member's groups = %v", got)
		}
		for _, g := range all.Groups {
			o := order[g.Entity]
			want := listIDs(t, ta, searchMember, g.Entity, "Nordhandel", o[0], o[1], 5)
			if got := all.ids(g.Entity); !slices.Equal(got, want) {
				t.Errorf("%s: hits %v, the list shows %v", g.Entity, got, want)
			}
			if len(g.Hits) != 5 || !g.HasMore {
				t.Errorf("%s: %d hits, has_more %v; the demo has more than five", g.Entity, len(g.Hits), g.HasMore)
			}
			for _, h := range g.Hits {
				if h.Label == "" {
					t.Errorf("%s %d: no label", g.Entity, h.ID)
				}
				if g.Entity == "ticket" && h.BoardID == nil {
					t.Errorf("ticket %d: no board", h.ID)
				}
			}
		}
		if h := all.Groups[0].Hits[0]; !strings.Contains(h.Label, "Nordhandel") || h.Detail == "" {
			t.Errorf("first point of sale = %+v, want its name and branch number", h)
		}

		// A lead of one customer group finds nothing of the other's, and
		// no invoices at all (no list right on them).
		var posB string
		if err := d.QueryRowContext(t.Context(), `SELECT p.pos_name FROM pos p JOIN company c ON c.company_id = p.company_id
			WHERE c.customergroup_id = 2 ORDER BY p.pos_id LIMIT 1`).Scan(&posB); err != nil {
			t.Fatal(err)
		}
		if got := searchAs(t, ta, searchLead, posB); len(got.Groups) != 0 {
			t.Errorf("lead of Nordhandel finds %q of Südmarkt: %+v", posB, got.Groups)
		}
		if got := searchAs(t, ta, searchLeadB, "Nordhandel"); len(got.Groups) != 0 {
			t.Errorf("lead of Südmarkt finds Nordhandel: %+v", got.Groups)
		}
		own := searchAs(t, ta, searchLeadB, posB)
		if got := own.entities(); len(got) == 0 || got[0] != "pos" || slices.Contains(got, "invoice") {
			t.Errorf("lead of Südmarkt searching %q: groups %v, want its point of sale first and no invoices", posB, got)
		}
		for _, g := range own.Groups {
			o := order[g.Entity]
			if want := listIDs(t, ta, searchLeadB, g.Entity, posB, o[0], o[1], 5); !slices.Equal(own.ids(g.Entity), want) {
				t.Errorf("lead.b %s: hits %v, the list shows %v", g.Entity, own.ids(g.Entity), want)
			}
		}
		// A store manager lists points of sale and tickets, no contracts.
		if got := searchAs(t, ta, searchStore, "Nordhandel").entities(); slices.Contains(got, "contract") || slices.Contains(got, "invoice") {
			t.Errorf("store manager's groups = %v", got)
		}

		// A number finds a ticket by its key, first, within the caller's tenant.
		var ticketA, ticketB int64
		if err := d.QueryRowContext(t.Context(), `SELECT
			(SELECT MAX(t.ticket_id) FROM ticket t JOIN pos p ON p.pos_id = t.pos_id JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 1),
			(SELECT MAX(t.ticket_id) FROM ticket t JOIN pos p ON p.pos_id = t.pos_id JOIN company c ON c.company_id = p.company_id WHERE c.customergroup_id = 2)`).
			Scan(&ticketA, &ticketB); err != nil {
			t.Fatal(err)
		}
		if ids := searchAs(t, ta, searchMember, fmt.Sprintf("#%d", ticketA)).ids("ticket"); len(ids) == 0 || ids[0] != ticketA {
			t.Errorf("#%d finds tickets %v", ticketA, ids)
		}
		if ids := searchAs(t, ta, searchLead, fmt.Sprint(ticketB)).ids("ticket"); slices.Contains(ids, ticketB) {
			t.Errorf("lead of Nordhandel finds Südmarkt's ticket %d", ticketB)
		}

		ta.Run(t, []apptest.Scenario{
			{Name: "one letter finds nothing", Method: "GET", Path: "/search/records?q=N", As: searchMember, Status: 200,
				Contains: []string{`"groups":[]`}},
			{Name: "a word that finds nothing", Method: "GET", Path: "/search/records?q=zzqxy", As: searchMember, Status: 200,
				Contains: []string{`"groups":[]`}},
			{Name: "limit", Method: "GET", Path: "/search/records?q=Nordhandel&limit=2", As: searchMember, Status: 200,
				Check: func(t *testing.T, r apptest.Response) {
					var out recordSearch
					r.JSON(t, &out)
					for _, g := range out.Groups {
						if len(g.Hits) != 2 {
							t.Errorf("%s: %d hits", g.Entity, len(g.Hits))
						}
					}
				}},
			{Name: "a word too long", Method: "GET", Path: "/search/records?q=" + strings.Repeat("x", 501), As: searchMember, Status: 422,
				Contains: []string{`"q"`}},
			{Name: "only the entities asked for", Method: "GET", Path: "/search/records?q=Nordhandel&entities=pos,ticket", As: searchMember, Status: 200,
				Contains: []string{`"entity":"pos"`, `"entity":"ticket"`}, Absent: []string{`"entity":"contract"`, `"entity":"invoice"`}},
			{Name: "an entity the search does not look through", Method: "GET", Path: "/search/records?q=Nordhandel&entities=pos,user", As: searchMember,
				Status: 422, Contains: []string{`"entities"`}},
			{Name: "an entity asked for that the caller may not list", Method: "GET", Path: "/search/records?q=Nordhandel&entities=invoice", As: searchLead,
				Status: 200, Contains: []string{`"groups":[]`}},
			{Name: "a limit that is no number", Method: "GET", Path: "/search/records?q=Nord&limit=many", As: searchMember, Status: 422},
			{Name: "anonymous", Method: "GET", Path: "/search/records?q=Nordhandel", Status: 401},
		})
	})
}
