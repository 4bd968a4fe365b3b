package masterdata

import (
	"net/http"
	"net/url"

	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
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

// listRecords answers a custom list like list, each row passed through
// edit first (a masked IBAN). For the short lists of one owner only: the
// page is held in memory.
func (h *handler) listRecords(w http.ResponseWriter, r *http.Request, q tables.CustomListQuery, edit func(validate.Record)) error {
	parsed, err := tables.ParseCustomQuery(r.URL.Query())
	if err != nil {
		return err
	}
	parsed.Entity, parsed.Data = q.Entity, q.Data
	cur, err := h.s.engine.CustomList(r.Context(), parsed)
	if err != nil {
		return err
	}
	defer cur.Close()
	rows := []validate.Record{}
	for cur.Next() {
		rec := cur.Record()
		edit(rec)
		rows = append(rows, rec)
	}
	if err := cur.Err(); err != nil {
		return err
	}
	p := cur.Page()
	total := int64(0)
	if p.Total != nil {
		total = *p.Total
	}
	last := max((total+int64(p.PerPage)-1)/int64(max(p.PerPage, 1)), 1)
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": rows, "links": map[string]any{
		"pagination": map[string]any{"current_page": p.CurrentPage, "last_page": last, "total": total}}})
	return nil
}

// queryID reads an optional id query parameter (0: absent); 422 when it
// is not a record key.
func queryID(v url.Values, name string) (int64, error) {
	id, err := tables.QueryID(v, name)
	if err != nil {
		return 0, apperr.Validation(apperr.FieldError{Field: name, Key: "validation.type.id", Type: "type_error",
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
// service objects linked to at least one area the caller sees (the
// derived area count counts only those).
func (h *handler) listAreaServiceObjects(w http.ResponseWriter, r *http.Request) error {
	parsed, err := tables.ParseCustomQuery(r.URL.Query())
	if err != nil {
		return err
	}
	if parsed.PerPage == 0 {
		parsed.PerPage = wholeListPerPage
	}
	orderBy := parsed.OrderBy
	if orderBy == "" {
		orderBy = "serviceobject_name"
	}
	cur, err := h.s.engine.ListIn(r.Context(), h.s.db, tables.ListQuery{Entity: "serviceobject",
		Filter: []byte(`[{"field":"serviceobject_area_count","op":"gt","value":0}]`), Search: parsed.Keyword,
		OrderBy: orderBy, OrderDir: parsed.Order, Page: max(parsed.Page, 1), PerPage: parsed.PerPage, Count: true})
	if err != nil {
		return err
	}
	defer cur.Close()
	return tables.WriteCustomList(w, r, h.log, cur)
}
