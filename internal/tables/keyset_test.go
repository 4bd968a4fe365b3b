package tables_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

// keysetIDs walks a list with "after" tokens and returns its keys in order.
func keysetIDs(t *testing.T, e *env, as string, body obj, perPage int) []int64 {
	t.Helper()
	var ids []int64
	after := ""
	for page := 1; ; page++ {
		b := obj{"per_page": perPage}
		for k, v := range body {
			b[k] = v
		}
		if after != "" {
			b["after"] = after
		}
		a := e.list(as, b)
		pk := body["pk"].(string)
		for _, r := range a.Data.Data {
			ids = append(ids, id(r, pk))
		}
		if want := (page-1)*perPage + 1; len(a.Data.Data) > 0 && (a.Data.From == nil || *a.Data.From != want) {
			t.Fatalf("%v page %d: from %v, want %d", body, page, a.Data.From, want)
		}
		next := nextToken(t, e, as, b)
		if !a.Data.HasMore {
			if next != "" {
				t.Fatalf("%v: a next token on the last page", body)
			}
			return ids
		}
		if next == "" {
			t.Fatalf("%v page %d: has_more without a next token", body, page)
		}
		after = next
	}
}

// nextToken repeats the request and reads its "next" member.
func nextToken(t *testing.T, e *env, as string, body obj) string {
	t.Helper()
	body["action"] = "read-rich"
	res := e.api(as, body)
	var a struct {
		Data struct {
			Next string `json:"next"`
		} `json:"data"`
	}
	res.JSON(t, &a)
	return a.Data.Next
}

// offsetIDs reads the whole list in one page.
func offsetIDs(t *testing.T, e *env, as string, body obj) []int64 {
	t.Helper()
	b := obj{"per_page": 100000}
	for k, v := range body {
		b[k] = v
	}
	var ids []int64
	for _, r := range e.list(as, b).Data.Data {
		ids = append(ids, id(r, body["pk"].(string)))
	}
	return ids
}

// TestKeysetPagesEqualOffsetPages: walking a list page by page with the
// "next" tokens gives the rows of the list in one piece, in the same order,
// for every sort direction, with ties and NULLs (NULLs sort first ascending
// on SQLite and last on PostgreSQL), as the administrator and both
// customer groups' leads; a token after writes continues after its row in
// the new order; a token shows nothing outside the caller's scope, and a
// token of another list or order is refused.
func TestKeysetPagesEqualOffsetPages(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		model := e.list(admin, obj{"entity": "pos", "per_page": 1, "order_by": "pos_id"}).Data.Data[0]
		mk := func(name string, ext any, year int) int64 {
			data := obj{"company_id": model["company_id"], "pos_name": name, "pos_name_external": ext, "pos_first_year": year}
			for _, f := range []string{"pos_branchnumber", "contactperson_id", "pos_opening_date"} {
				data[f] = model[f]
			}
			return id(e.create("pos", data), "pos_id")
		}
		// Ties and NULLs in the sort columns.
		for i := range 7 {
			var ext any
			if i%2 == 0 {
				ext = "Keyset gleich"
			}
			mk(fmt.Sprintf("Keyset %d", i), ext, 1999)
		}
		lists := []obj{}
		for _, order := range []string{"pos_id", "pos_name", "pos_name_external", "pos_first_year", "pos_opening_date", "pos_internal_id", "company_id"} {
			for _, dir := range []string{"ASC", "DESC"} {
				lists = append(lists, obj{"entity": "pos", "pk": "pos_id", "order_by": order, "order_dir": dir})
			}
		}
		for _, dir := range []string{"ASC", "DESC"} {
			lists = append(lists,
				obj{"entity": "contract", "pk": "contract_id", "order_by": "contract_end_date", "order_dir": dir},
				obj{"entity": "contractaction", "pk": "contractaction_id", "order_by": "contractaction_notice_period_unit", "order_dir": dir},
				obj{"entity": "pos", "pk": "pos_id", "order_by": "pos_first_year", "order_dir": dir, "filter_all": "keyset"})
		}
		for _, as := range []string{admin, lead, leadB} {
			for _, l := range lists {
				want := offsetIDs(t, e, as, l)
				for _, per := range []int{1, 4} {
					if got := keysetIDs(t, e, as, l, per); !slices.Equal(got, want) {
						t.Errorf("%s %v per_page %d: keyset pages %v, offset %v", as, l, per, got, want)
					}
				}
			}
		}

		// Writes between pages: the next page starts after the token's row
		// in the new order (an offset would repeat or skip rows).
		for _, dir := range []string{"ASC", "DESC"} {
			l := obj{"entity": "pos", "pk": "pos_id", "order_by": "pos_first_year", "order_dir": dir}
			first := e.list(admin, obj{"entity": "pos", "order_by": "pos_first_year", "order_dir": dir, "per_page": 5})
			token := nextToken(t, e, admin, obj{"entity": "pos", "order_by": "pos_first_year", "order_dir": dir, "per_page": 5})
			last := id(first.Data.Data[4], "pos_id")
			mk("Keyset davor", nil, 1999)
			mk("Keyset danach", nil, 1999)
			mk("Keyset früh", nil, 1900)
			mk("Keyset spät", nil, 2100)
			all := offsetIDs(t, e, admin, l)
			at := slices.Index(all, last)
			want := all[at+1 : at+6]
			var got []int64
			for _, r := range e.list(admin, obj{"entity": "pos", "order_by": "pos_first_year", "order_dir": dir, "per_page": 5, "after": token}).Data.Data {
				got = append(got, id(r, "pos_id"))
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s after writes: %v, want %v", dir, got, want)
			}
			// The last page read from a token still tells the true total
			// (the token's position is from before the writes).
			rest := e.list(admin, obj{"entity": "pos", "order_by": "pos_first_year", "order_dir": dir, "per_page": 100000, "after": token, "count": true})
			if rest.Data.HasMore || rest.Data.Total == nil || *rest.Data.Total != int64(len(all)) {
				t.Errorf("%s after writes: the last page's total is %v, want %d", dir, rest.Data.Total, len(all))
			}
		}

		// A token of the lead, used by the other group's lead: nothing of
		// the first group.
		body := obj{"entity": "pos", "order_by": "pos_first_year", "per_page": 1}
		token := nextToken(t, e, lead, body)
		mine := offsetIDs(t, e, leadB, obj{"entity": "pos", "pk": "pos_id"})
		for _, r := range e.list(leadB, obj{"entity": "pos", "order_by": "pos_first_year", "per_page": 1000, "after": token}).Data.Data {
			if !slices.Contains(mine, id(r, "pos_id")) {
				t.Errorf("lead.b sees point of sale %v through the lead's token", r["pos_id"])
			}
		}
		// Refused: another order, another list, a forged token.
		for _, bad := range []obj{
			{"entity": "pos", "order_by": "pos_name", "after": token},
			{"entity": "pos", "order_by": "pos_first_year", "order_dir": "DESC", "after": token},
			{"entity": "contract", "order_by": "pos_first_year", "after": token},
			{"entity": "pos", "order_by": "pos_first_year", "after": "bm90IGEgdG9rZW4"},
			{"entity": "pos", "order_by": "pos_first_year", "after": "%%%"},
		} {
			bad["action"] = "read-rich"
			if res := e.api(lead, bad); res.Status != http.StatusUnprocessableEntity {
				t.Errorf("%v: %d %s, want 422", bad, res.Status, res.Body)
			}
		}
		// Orders without keyset paging (a reference's label) answer no token.
		if next := nextToken(t, e, admin, obj{"entity": "pos", "order_by": "company_id__label", "per_page": 1}); next != "" {
			t.Errorf("a token for a label order: %s", next)
		}
	})
}
