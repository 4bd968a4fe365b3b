package masterdata

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"portfolio/internal/access"

	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
	"portfolio/internal/tables"
)

// Page sizes the screens ask for when the query names none: the
// specification's 100000 for areas and companies (the whole list in one
// page), 10 for locations.
const (
	wholeListPerPage = 100000
	locationsPerPage = 10
)

// list answers GET custom list q (page, per_page, keyword, order and
// order_by from the query) as {"data": [...], "links": {"pagination"}}.
func (h *handler) list(w http.ResponseWriter, r *http.Request, q tables.CustomListQuery, perPage int) error {
	parsed, err := tables.ParseCustomQuery(r.URL.Query())
	if err != nil {
		return err
	}
	parsed.Entity, parsed.Data = q.Entity, q.Data
	if parsed.PerPage == 0 {
		parsed.PerPage = perPage
	}
	cur, err := h.s.engine.CustomList(r.Context(), parsed)
	if err != nil {
		return err
	}
	defer cur.Close()
	return tables.WriteCustomList(w, r, h.log, cur)
}

// queryID reads an optional id query parameter (0: absent); 422 when it
// is not a record key.
func queryID(v url.Values, name string) (int64, error) {
	id, err := tables.QueryID(v, name)
	if err != nil {
		return 0, apperr.Validation(apperr.FieldError{Field: name, Loc: []any{"query", name}, Key: "validation.type.id", Type: "type_error",
			Args: map[string]string{"field": name}})
	}
	return id, nil
}

// listCompanies serves GET /companies: the companies the caller sees.
func (h *handler) listCompanies(w http.ResponseWriter, r *http.Request) error {
	return h.list(w, r, tables.CustomListQuery{Entity: "company"}, wholeListPerPage)
}

// listContacts serves GET /contacts: the contact persons the caller sees,
// those of one partner company when partnercompany_id is given (a partner
// company the caller does not see answers 404).
func (h *handler) listContacts(w http.ResponseWriter, r *http.Request) error {
	partner, err := queryID(r.URL.Query(), "partnercompany_id")
	if err != nil {
		return err
	}
	q := tables.CustomListQuery{Entity: "contactperson"}
	if partner > 0 {
		if _, _, err := h.s.engine.GetIn(r.Context(), h.s.db, "partnercompany", partner); err != nil {
			return err
		}
		q.Data = map[string]any{"partnercompany_id": partner}
	}
	return h.list(w, r, q, tables.DefaultCustomPerPage)
}

// listAreas serves GET /areas: the areas the caller sees.
func (h *handler) listAreas(w http.ResponseWriter, r *http.Request) error {
	return h.list(w, r, tables.CustomListQuery{Entity: "area"}, wholeListPerPage)
}

// listLocations serves GET /locations: the locations the caller sees,
// ten to a page unless per_page says otherwise.
func (h *handler) listLocations(w http.ResponseWriter, r *http.Request) error {
	return h.list(w, r, tables.CustomListQuery{Entity: "location"}, locationsPerPage)
}

// listAreaServiceObjects serves GET /areas/serviceobjects/list: the
// service objects linked to at least one area the caller sees, by name,
// {"data": [{serviceobject_id, serviceobject_name,
// serviceobject_name_external, serviceobjecttype_id, row_version}],
// "links": {"pagination"}}; keyword narrows by name. The engine's lists
// cannot say "linked to a visible area", so this is a statement of its
// own over the scoped sources.
func (h *handler) listAreaServiceObjects(w http.ResponseWriter, r *http.Request) error {
	parsed, err := tables.ParseCustomQuery(r.URL.Query())
	if err != nil {
		return err
	}
	ctx := r.Context()
	if err := h.s.engine.Require(ctx, access.ActionRead, "serviceobject"); err != nil {
		return err
	}
	page, err := h.s.areaServiceObjects(ctx, parsed)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, page)
	return nil
}

// serviceObjectRow is one row of GET /areas/serviceobjects/list.
type serviceObjectRow struct {
	ID         int64   `json:"serviceobject_id"`
	Name       string  `json:"serviceobject_name"`
	External   *string `json:"serviceobject_name_external"`
	Type       int64   `json:"serviceobjecttype_id"`
	RowVersion int64   `json:"row_version"`
}

// areaServiceObjects reads one page of the service objects of the
// caller's areas.
func (s *Service) areaServiceObjects(ctx context.Context, q tables.CustomListQuery) (map[string]any, error) {
	so, err := s.engine.Scoped(ctx, "serviceobject", "so")
	if err != nil {
		return nil, err
	}
	ar, err := s.engine.Scoped(ctx, "area", "a")
	if err != nil {
		return nil, err
	}
	where := ` WHERE EXISTS (SELECT 1 FROM area_serviceobject x JOIN ` + ar.SQL + ` ON a.area_id = x.area_id
		WHERE x.serviceobject_id = so.serviceobject_id)`
	args := append(append([]any{}, so.Args...), ar.Args...)
	if q.Keyword != "" {
		where += ` AND LOWER(so.serviceobject_name) LIKE ?`
		args = append(args, "%"+strings.ToLower(q.Keyword)+"%")
	}
	var total int64
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+so.SQL+where, args...).Scan(&total); err != nil {
		return nil, fmt.Errorf("masterdata: count service objects of areas: %w", err)
	}
	perPage := q.PerPage
	if perPage <= 0 {
		perPage = wholeListPerPage
	}
	pageNo := max(q.Page, 1)
	rows, err := s.db.QueryContext(ctx, `SELECT so.serviceobject_id, so.serviceobject_name, so.serviceobject_name_external,
		so.serviceobjecttype_id, so.row_version FROM `+so.SQL+where+` ORDER BY so.serviceobject_name `+q.Order+`, so.serviceobject_id LIMIT ? OFFSET ?`,
		append(args, perPage, (pageNo-1)*perPage)...)
	if err != nil {
		return nil, fmt.Errorf("masterdata: service objects of areas: %w", err)
	}
	defer rows.Close()
	out := []serviceObjectRow{}
	for rows.Next() {
		var o serviceObjectRow
		if err := rows.Scan(&o.ID, &o.Name, &o.External, &o.Type, &o.RowVersion); err != nil {
			return nil, fmt.Errorf("masterdata: service objects of areas: %w", err)
		}
		out = append(out, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("masterdata: service objects of areas: %w", err)
	}
	last := max((total+int64(perPage)-1)/int64(perPage), 1)
	return map[string]any{"data": out, "links": map[string]any{"pagination": map[string]any{"current_page": pageNo, "last_page": last, "total": total}}}, nil
}
