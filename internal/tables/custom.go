package tables

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
)

// DefaultCustomPerPage is the page size of custom lists when the query
// names none (the specification's team list takes 30).
const DefaultCustomPerPage = 30

// CustomListQuery is a module's list answered by the engine, with the
// same rights, tenant scope, search and sort as read-rich: GET routes with
// the query parameters page, per_page, keyword and order (asc or desc).
// /teams and /users (a later issue) are meant to use it too.
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

// customQuery reads page, per_page, keyword, order and order_by.
func customQuery(v url.Values) (CustomListQuery, error) {
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
		return q, apperr.Validation(apperr.FieldError{Field: "order", Key: "validation.one_of", Type: "enum",
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
		return 0, apperr.Validation(apperr.FieldError{Field: name, Key: "validation.type.int", Type: "type_error",
			Args: map[string]string{"field": name}})
	}
	return n, nil
}

func queryID(v url.Values, name string) (int64, error) {
	n, err := queryInt(v, name)
	return int64(n), err
}

// partnerBankdata serves GET /partners/{id}/bankdata: the bank accounts
// of a partner company (its bankdata relation).
func (h *handler) partnerBankdata(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return errNotFound()
	}
	q, err := customQuery(r.URL.Query())
	if err != nil {
		return err
	}
	q.Entity, q.Data = "partnercompany_bankdata_rel", map[string]any{"partnercompany_id": id}
	return h.customList(w, r, q)
}

// taxRates serves GET /contracts/tax-rates: the tax rates of the company
// of contract_id, or of company_id, or every tax rate the caller sees.
func (h *handler) taxRates(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	q, err := customQuery(v)
	if err != nil {
		return err
	}
	contract, err := queryID(v, "contract_id")
	if err != nil {
		return err
	}
	company, err := queryID(v, "company_id")
	if err != nil {
		return err
	}
	if contract > 0 {
		if company, err = h.e.contractCompany(r.Context(), contract); err != nil {
			return err
		}
	}
	q.Entity = "taxrate"
	if company > 0 {
		q.Data = map[string]any{"company_id": company}
	}
	return h.customList(w, r, q)
}

// contractCompany returns the company of a contract the caller may read.
func (e *Engine) contractCompany(ctx context.Context, id int64) (int64, error) {
	c, err := e.callerOf(ctx)
	if err != nil {
		return 0, err
	}
	ent, _ := e.reg.Entity("contract")
	if err := c.require(access.ActionRead, ent); err != nil {
		return 0, err
	}
	if err := e.mustSee(ctx, e.db, c, ent, id); err != nil {
		return 0, err
	}
	var company int64
	if err := e.db.QueryRowContext(ctx, `SELECT company_id FROM contract WHERE contract_id = ?`, id).Scan(&company); err != nil {
		return 0, fmt.Errorf("tables: company of contract %d: %w", id, err)
	}
	return company, nil
}

// customList answers a custom list as
// {"data": [rows], "links": {"pagination": {"current_page", "last_page", "total"}}},
// streamed like read-rich.
func (h *handler) customList(w http.ResponseWriter, r *http.Request, q CustomListQuery) error {
	cur, err := h.e.CustomList(r.Context(), q)
	if err != nil {
		return err
	}
	defer cur.Close()
	return WriteCustomList(w, r, h.log, cur)
}

// WriteCustomList streams cur as a custom list answer, {"data": [...],
// "links": {"pagination": {current_page, last_page, total}}}, for the
// modules whose custom lists run through the engine (users).
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
