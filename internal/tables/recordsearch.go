package tables

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// The record search (GET /search/records, decision 0069): the header's
// search finds points of sale, contracts, invoices and tickets by a word of
// their name or number. It runs, one after the other in one request, the
// lists' own keyword search (filter_all) over each searched entity the
// caller may list, a few rows each: the same rights, tenant scope, row
// rules and text indexes as the list screens, and no SQL of its own. One
// request per keystroke instead of one per entity keeps a search to one
// of the server's turns (two per core) and one session check.

// Record search limits: hits per entity by default and at most.
const (
	DefaultSearchHits = 5
	MaxSearchHits     = 20
)

// RecordSearchQuery asks the record search for up to Limit hits per entity
// matching Q, among Entities (empty: every searched entity). The browser
// names only the entities its abilities let it list, so it asks for no
// group it would not show.
type RecordSearchQuery struct {
	Q        string
	Limit    int
	Entities []string
}

// RecordHit is one record found: its key, its label (the entity's label
// fields, as references show it), a detail that tells hits of the same
// name apart (a branch number, the point of sale, the company) and the
// values of its entity's Extra columns, answered beside the others (a
// ticket's board_id).
type RecordHit struct {
	ID     int64
	Label  string
	Detail string
	Extra  map[string]any
}

// MarshalJSON writes the hit as one object: id, label, detail when there
// is one, and each extra column by its name.
func (h RecordHit) MarshalJSON() ([]byte, error) {
	out := make(map[string]any, 3+len(h.Extra))
	for k, v := range h.Extra {
		out[k] = v
	}
	out["id"], out["label"] = h.ID, h.Label
	if h.Detail != "" {
		out["detail"] = h.Detail
	}
	return json.Marshal(out)
}

// RecordGroup are the hits of one entity; HasMore says that its list
// holds more matches than the hits.
type RecordGroup struct {
	Entity  string      `json:"entity"`
	Hits    []RecordHit `json:"hits"`
	HasMore bool        `json:"has_more"`
}

// RecordSearchAnswer answers GET /search/records: the groups of the
// entities with hits, in a fixed order. An entity the caller may not list
// has no group and is not searched.
type RecordSearchAnswer struct {
	Q      string        `json:"q"`
	Groups []RecordGroup `json:"groups"`
}

// searchRecords serves GET /search/records?q=&limit=&entities=.
func (h *handler) searchRecords(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	limit, err := queryInt(v, "limit")
	if err != nil {
		return err
	}
	var entities []string
	if list := strings.TrimSpace(v.Get("entities")); list != "" {
		entities = strings.Split(list, ",")
	}
	ans, err := h.e.SearchRecords(r.Context(), RecordSearchQuery{Q: v.Get("q"), Limit: limit, Entities: entities})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, ans)
	return nil
}

// SearchRecords runs the record search for the caller of ctx. A word
// shorter than MinSearchLen finds nothing (unless it is a number: a key);
// one longer than MaxFilterValueLen is refused (422).
func (e *Engine) SearchRecords(ctx context.Context, q RecordSearchQuery) (*RecordSearchAnswer, error) {
	word := strings.TrimSpace(q.Q)
	if utf8.RuneCountInString(word) > MaxFilterValueLen {
		return nil, apperr.Validation(apperr.FieldError{Field: "q", Loc: []any{"query", "q"}, Key: "server.tables.filter.too_long", Type: "value_error",
			Args: map[string]string{"max": strconv.Itoa(MaxFilterValueLen)}})
	}
	asked, err := askedEntities(q.Entities)
	if err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultSearchHits
	}
	limit = min(limit, MaxSearchHits)
	out := &RecordSearchAnswer{Q: word, Groups: []RecordGroup{}}
	key, isKey := searchKey(word)
	if !isKey && utf8.RuneCountInString(word) < MinSearchLen {
		return out, nil
	}
	for _, se := range schema.RecordSearches {
		if asked != nil && !asked[se.Entity] {
			continue
		}
		err := e.Require(ctx, access.ActionList, se.Entity)
		if apperr.IsKind(err, apperr.KindForbidden) {
			continue
		}
		if err != nil {
			return nil, err
		}
		g, err := e.searchEntity(ctx, se, word, key, isKey && se.ByKey, limit)
		if apperr.IsKind(err, apperr.KindForbidden) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if len(g.Hits) > 0 {
			out.Groups = append(out.Groups, *g)
		}
	}
	return out, nil
}

// askedEntities checks the entities a search names (nil: all).
func askedEntities(names []string) (map[string]bool, error) {
	if len(names) == 0 {
		return nil, nil
	}
	out := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if !slices.ContainsFunc(schema.RecordSearches, func(se schema.RecordSearch) bool { return se.Entity == n }) {
			values := make([]string, len(schema.RecordSearches))
			for i, se := range schema.RecordSearches {
				values[i] = se.Entity
			}
			return nil, apperr.Validation(apperr.FieldError{Field: "entities", Loc: []any{"query", "entities"}, Key: "validation.one_of", Type: "enum",
				Args: map[string]string{"field": "entities", "values": strings.Join(values, ", ")}})
		}
		out[n] = true
	}
	return out, nil
}

// searchKey reads word as a key: digits, perhaps after a "#".
func searchKey(word string) (int64, bool) {
	digits := strings.TrimPrefix(word, "#")
	if digits == "" || len(digits) > 18 {
		return 0, false
	}
	for _, r := range digits {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	return n, err == nil && n > 0
}

// searchEntity finds up to limit rows of se: the row whose key is key
// first (byKey), then the list's keyword matches in se's order.
func (e *Engine) searchEntity(ctx context.Context, se schema.RecordSearch, word string, key int64, byKey bool, limit int) (*RecordGroup, error) {
	ent, err := e.entity(se.Entity)
	if err != nil {
		return nil, err
	}
	t, _ := e.resolveTarget(se.Entity)
	cols := []string{}
	add := func(name string) {
		if _, ok := t.cat.lookup(name); ok {
			cols = append(cols, name)
		}
	}
	labels := make([]string, 0, len(ent.Label))
	for _, l := range ent.Label {
		name := l
		if f, ok := ent.Field(l); ok && f.Ref != "" {
			name = l + "__label"
		}
		labels = append(labels, name)
		add(name)
	}
	add(se.Detail)
	for _, x := range se.Extra {
		add(x)
	}
	dir := "ASC"
	if se.Desc {
		dir = "DESC"
	}
	g := &RecordGroup{Entity: se.Entity, Hits: []RecordHit{}}
	seen := map[int64]bool{}
	read := func(lq ListQuery) error {
		cur, err := e.ListIn(ctx, e.db, lq)
		if err != nil {
			return err
		}
		defer cur.Close()
		pk := cur.Index(ent.PK)
		for cur.Next() {
			id, _ := cur.Value(pk).(int64)
			switch {
			case seen[id]:
			case len(g.Hits) == limit:
				g.HasMore = true
			default:
				seen[id] = true
				g.Hits = append(g.Hits, hitOf(cur, id, labels, se))
			}
		}
		if err := cur.Err(); err != nil {
			return err
		}
		if cur.Page().HasMore {
			g.HasMore = true
		}
		return nil
	}
	if byKey {
		filter, err := json.Marshal([]map[string]any{{"field": ent.PK, "op": "eq", "value": key}})
		if err != nil {
			return nil, fmt.Errorf("tables: record search: %w", err)
		}
		if err := read(ListQuery{Entity: se.Entity, Filter: filter, Columns: cols, PerPage: 1, Page: 1}); err != nil {
			return nil, err
		}
	}
	if utf8.RuneCountInString(word) >= MinSearchLen {
		if err := read(ListQuery{Entity: se.Entity, Search: word, Columns: cols, OrderBy: se.OrderBy, OrderDir: dir, PerPage: limit, Page: 1}); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// hitOf reads the current row of cur as a hit.
func hitOf(cur *Cursor, id int64, labels []string, se schema.RecordSearch) RecordHit {
	h := RecordHit{ID: id}
	parts := make([]string, 0, len(labels))
	for _, l := range labels {
		if s := validate.Text(cur.Value(cur.Index(l))); s != "" {
			parts = append(parts, s)
		}
	}
	h.Label = strings.Join(parts, " ")
	if se.Detail != "" {
		h.Detail = validate.Text(cur.Value(cur.Index(se.Detail)))
	}
	for _, x := range se.Extra {
		if v := cur.Value(cur.Index(x)); v != nil {
			if h.Extra == nil {
				h.Extra = map[string]any{}
			}
			h.Extra[x] = v
		}
	}
	return h
}
