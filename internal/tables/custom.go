package tables

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"portfolio/internal/apperr"
)

// DefaultCustomPerPage is the page size of custom lists when the query
// names none (the specification's team list takes 30).
const DefaultCustomPerPage = 30

// CustomListQuery is a module's list answered by the engine, with the
// same rights, tenant scope, search and sort as read-rich: GET routes with
// the query parameters page, per_page, keyword and order (asc or desc),
// read by ParseCustomQuery.
type CustomListQuery struct {
	// Entity is an entity name or a relation's API name.
	Entity string
	// Data are fixed equality conditions (a relation's owner key, ...).
	Data    map[string]any
	Page    int
	PerPage int
	Keyword string
	// OrderBy is a sortable column (default: the first label field);
	// Order is asc or desc.
	OrderBy string
	Order   string
}

// CustomList opens a counted cursor for a custom list.
func (e *Engine) CustomList(ctx context.Context, q CustomListQuery) (*Cursor, error) {
	t, err := e.resolveTarget(q.Entity)
	if err != nil {
		return nil, err
	}
	orderBy := q.OrderBy
	if orderBy == "" {
		orderBy = t.ent.PK
		if len(t.ent.Label) > 0 {
			if _, ok := t.cat.lookup(t.ent.Label[0]); ok {
				orderBy = t.ent.Label[0]
			}
		}
	}
	perPage := q.PerPage
	if perPage <= 0 {
		perPage = DefaultCustomPerPage
	}
	return e.List(ctx, ListQuery{Entity: q.Entity, Data: q.Data, Search: q.Keyword, OrderBy: orderBy, OrderDir: q.Order,
		Page: max(q.Page, 1), PerPage: perPage, Count: true})
}

// ParseCustomQuery reads the query parameters of a custom list: page,
// per_page, keyword, order (asc or desc) and order_by; 422 on a malformed
// one.
func ParseCustomQuery(v url.Values) (CustomListQuery, error) {
	var q CustomListQuery
	var err error
	if q.Page, err = queryInt(v, "page"); err != nil {
		return q, err
	}
	if q.PerPage, err = queryInt(v, "per_page"); err != nil {
		return q, err
	}
	q.Keyword, q.OrderBy = v.Get("keyword"), v.Get("order_by")
	switch strings.ToLower(v.Get("order")) {
	case "", "asc":
		q.Order = "ASC"
	case "desc":
		q.Order = "DESC"
	default:
		return q, apperr.Validation(apperr.FieldError{Field: "order", Loc: []any{"query", "order"}, Key: "validation.one_of", Type: "enum",
			Args: map[string]string{"field": "order", "values": "asc, desc"}})
	}
	return q, nil
}

func queryInt(v url.Values, name string) (int, error) {
	s := v.Get(name)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, apperr.Validation(apperr.FieldError{Field: name, Loc: []any{"query", name}, Key: "validation.type.int", Type: "type_error",
			Args: map[string]string{"field": name}})
	}
	return n, nil
}

// QueryID reads an optional id parameter of a custom list (0: absent);
// 422 when it is not a whole number.
func QueryID(v url.Values, name string) (int64, error) {
	n, err := queryInt(v, name)
	return int64(n), err
}

// WriteCustomList streams cur as a custom list answer, {"data": [...],
// "links": {"pagination": {current_page, last_page, total}}}, for the
// modules' custom lists (CustomList).
func WriteCustomList(w http.ResponseWriter, r *http.Request, log *slog.Logger, cur *Cursor) error {
	return stream(w, r, log, cur, `{"data":[`, func(p Page) string {
		total := int64(0)
		if p.Total != nil {
			total = *p.Total
		}
		last := max((total+int64(p.PerPage)-1)/int64(max(p.PerPage, 1)), 1)
		return fmt.Sprintf(`],"links":{"pagination":{"current_page":%d,"last_page":%d,"total":%d}}}`, p.CurrentPage, last, total) + "\n"
	})
}
