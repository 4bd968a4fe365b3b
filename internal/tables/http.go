package tables

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
)

// Bind registers the engine's routes (docs/api/tables.openapi.yaml).
func Bind(srv *httpapi.Server, e *Engine) {
	h := &handler{e: e, log: srv.Logger()}
	srv.Handle("POST /api/{$}", h.api)
	srv.Handle("GET /api/definitions/{entity}", h.definitions)
	srv.Handle("GET /api/views", h.listViews)
	srv.Handle("POST /api/views", h.createView)
	srv.Handle("PUT /api/views/{id}", h.updateView)
	srv.Handle("DELETE /api/views/{id}", h.deleteView)
	srv.Handle("GET /search/records", h.searchRecords)
}

// handler decodes requests for the engine and encodes its answers.
type handler struct {
	e   *Engine
	log *slog.Logger
}

// flexInt is a number the browser may send as a JSON number, a numeric
// string or null.
type flexInt struct {
	n int64
}

// UnmarshalJSON accepts a number, a numeric string or null.
func (f *flexInt) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(bytes.TrimSpace(b)), `"`)
	if s == "" || s == "null" {
		*f = flexInt{}
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("not a whole number: %s", s)
	}
	*f = flexInt{n: n}
	return nil
}

func (f flexInt) int() int {
	if f.n > 1<<40 {
		return 1 << 40
	}
	return int(f.n)
}

// apiRequest is the body of POST /api/ for every action.
type apiRequest struct {
	Action      string          `json:"action"`
	Entity      string          `json:"entity"`
	OrderBy     string          `json:"order_by"`
	OrderDir    string          `json:"order_dir"`
	PerPage     flexInt         `json:"per_page"`
	From        flexInt         `json:"from"`
	CurrentPage flexInt         `json:"current_page"`
	After       string          `json:"after"`
	Filter      json.RawMessage `json:"filter"`
	Data        json.RawMessage `json:"data"`
	FilterAll   string          `json:"filter_all"`
	Lang        string          `json:"lang"`
	Count       bool            `json:"count"`
	Columns     []string        `json:"columns"`
	ID          json.RawMessage `json:"id"`
	IDs         json.RawMessage `json:"ids"`
	RowVersion  flexInt         `json:"row_version"`
	Field       string          `json:"field"`
	Value       json.RawMessage `json:"value"`
	Format      string          `json:"format"`
}

// actions maps the action names to their handlers.
var actions = map[string]func(h *handler, w http.ResponseWriter, r *http.Request, req *apiRequest) error{
	"read-rich":    (*handler).readRich,
	"read":         (*handler).read,
	"create":       (*handler).create,
	"update":       (*handler).update,
	"update-field": (*handler).updateField,
	"delete":       (*handler).delete,
	"bulk-delete":  (*handler).bulkDelete,
	"link":         (*handler).link,
	"unlink":       (*handler).unlink,
	"update-link":  (*handler).updateLink,
	"history":      (*handler).history,
	"export":       (*handler).export,
	"options":      (*handler).options,
}

const actionNames = "read-rich, read, create, update, update-field, delete, bulk-delete, link, unlink, update-link, history, export, options"

// api serves POST /api/?{entity}: decode, pick the entity (body or query
// string, which must agree), dispatch on the action.
func (h *handler) api(w http.ResponseWriter, r *http.Request) error {
	var req apiRequest
	if err := httpapi.DecodeJSON(r, &req, false); err != nil {
		return err
	}
	if err := req.entityFrom(r.URL); err != nil {
		return err
	}
	fn, ok := actions[req.Action]
	if !ok {
		return apperr.Validation(apperr.FieldError{Field: "action", Key: "validation.one_of", Type: "enum",
			Args: map[string]string{"field": "action", "values": actionNames}})
	}
	if req.Lang == "" || !i18n.Supported(req.Lang) {
		req.Lang = i18n.LangFrom(r.Context())
	}
	return fn(h, w, r, &req)
}

// entityFrom takes the entity from the query string ("/api/?pos" or
// "/api/?entity=pos") when the body names none, and refuses a mismatch.
func (req *apiRequest) entityFrom(u *url.URL) error {
	fromQuery := ""
	if raw := u.RawQuery; raw != "" {
		if strings.Contains(raw, "=") {
			q, _ := url.ParseQuery(raw)
			fromQuery = q.Get("entity")
		} else if s, err := url.QueryUnescape(raw); err == nil {
			fromQuery = s
		}
	}
	switch {
	case req.Entity == "" && fromQuery == "":
		return apperr.Validation(apperr.FieldError{Field: "entity", Key: "validation.required", Type: "missing",
			Args: map[string]string{"field": "entity"}})
	case req.Entity == "":
		req.Entity = fromQuery
	case fromQuery != "" && fromQuery != req.Entity:
		return apperr.Validation(apperr.FieldError{Field: "entity", Key: "server.tables.entity_mismatch", Type: "value_error",
			Args: map[string]string{"field": "entity"}})
	}
	return nil
}

// decodeObject decodes a JSON object member (data) with numbers kept
// exact; null or absent is nil.
func decodeObject(raw json.RawMessage, field string) (map[string]any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, apperr.Validation(apperr.FieldError{Field: field, Key: "server.tables.not_an_object", Type: "type_error",
			Args: map[string]string{"field": field}})
	}
	return m, nil
}

// decodeValue decodes one JSON value with numbers kept exact.
func decodeValue(raw json.RawMessage) (any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// requestID reads the id member.
func (req *apiRequest) requestID() (int64, error) {
	v, err := decodeValue(req.ID)
	if err == nil {
		var id int64
		if id, err = idValue(v); err == nil {
			return id, nil
		}
	}
	return 0, apperr.Validation(apperr.FieldError{Field: "id", Key: "validation.required", Type: "missing",
		Args: map[string]string{"field": "id"}})
}

func (req *apiRequest) listQuery() (ListQuery, error) {
	data, err := decodeObject(req.Data, "data")
	if err != nil {
		return ListQuery{}, err
	}
	return ListQuery{
		Entity: req.Entity, Filter: req.Filter, Search: req.FilterAll, Data: data,
		OrderBy: req.OrderBy, OrderDir: req.OrderDir,
		Page: req.CurrentPage.int(), From: req.From.int(), PerPage: req.PerPage.int(), After: req.After,
		Count: req.Count, Columns: req.Columns, Lang: req.Lang,
	}, nil
}

func (h *handler) readRich(w http.ResponseWriter, r *http.Request, req *apiRequest) error {
	q, err := req.listQuery()
	if err != nil {
		return err
	}
	cur, err := h.e.List(r.Context(), q)
	if err != nil {
		return err
	}
	defer cur.Close()
	return h.streamList(w, r, cur)
}

// flushEvery is how many rows are encoded between pushes to the client.
const flushEvery = 2000

// streamList writes {"data": {"data": [rows], page...}, "attributes": [...]}.
func (h *handler) streamList(w http.ResponseWriter, r *http.Request, cur *Cursor) error {
	attrs := cur.attributesJSON
	if attrs == nil {
		var err error
		if attrs, err = json.Marshal(cur.Attributes); err != nil {
			return fmt.Errorf("tables: encode attributes: %w", err)
		}
	}
	return h.stream(w, r, cur, `{"data":{"data":[`, func(p Page) string {
		meta, _ := json.Marshal(p) // a Page always encodes
		return "]," + string(meta[1:len(meta)-1]) + `},"attributes":` + string(attrs) + "}\n"
	})
}

// streamBuffer is the scratch space of one streamed answer: the response
// buffer and the encoding buffer of one row.
type streamBuffer struct {
	w   *bufio.Writer
	row []byte
}

// streamBuffers recycles stream buffers between answers: a page of 50 rows
// would otherwise allocate a 32 KiB buffer per request, most of what a
// list request allocates. Only scratch memory lives here.
var streamBuffers = sync.Pool{New: func() any {
	return newStreamBuffer()
}}

// maxPooledRow bounds the row buffer kept for the next answer (a row with a
// long HTML text should not pin its buffer).
const maxPooledRow = 64 << 10

func newStreamBuffer() *streamBuffer {
	return &streamBuffer{w: bufio.NewWriterSize(nil, 32<<10), row: make([]byte, 0, 2048)}
}

// stream writes head, the cursor's rows as JSON objects separated by
// commas, and tail(page), row by row as the cursor reads them, flushing
// every flushEvery rows: memory stays flat whatever the page size. Once
// the first byte is out the status is 200; a database failure after that
// is logged and ends the answer early (the client sees truncated JSON,
// never a wrong page).
func (h *handler) stream(w http.ResponseWriter, r *http.Request, cur *Cursor, head string, tail func(Page) string) error {
	return stream(w, r, h.log, cur, head, tail)
}

func stream(w http.ResponseWriter, r *http.Request, log *slog.Logger, cur *Cursor, head string, tail func(Page) string) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	sb := streamBuffers.Get().(*streamBuffer)
	defer streamBuffers.Put(sb)
	bw, buf := sb.w, sb.row[:0]
	bw.Reset(w)
	defer bw.Reset(nil) // the pooled writer must not keep the response alive
	defer func() {
		if cap(buf) <= maxPooledRow {
			sb.row = buf[:0]
		}
	}()
	bw.WriteString(head)
	for cur.Next() {
		if cur.Rows() > 1 {
			bw.WriteByte(',')
		}
		buf = cur.AppendJSON(buf[:0])
		if _, err := bw.Write(buf); err != nil {
			return nil // the client went away
		}
		if cur.Rows()%flushEvery == 0 {
			if bw.Flush() != nil {
				return nil
			}
			_ = rc.Flush() // not every writer flushes; the rows still arrive
		}
	}
	if err := cur.Err(); err != nil {
		log.Error("list stream failed", "error", err, "request", httpapi.RequestID(r.Context()))
		_ = bw.Flush()
		return nil
	}
	bw.WriteString(tail(cur.Page()))
	return bw.Flush()
}

func (h *handler) read(w http.ResponseWriter, r *http.Request, req *apiRequest) error {
	id, err := req.requestID()
	if err != nil {
		return err
	}
	ans, err := h.e.Read(r.Context(), ReadQuery{Entity: req.Entity, ID: id, Lang: req.Lang})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, ans)
	return nil
}

// options answers the choices of a list field (Engine.Options).
func (h *handler) options(w http.ResponseWriter, r *http.Request, req *apiRequest) error {
	data, err := decodeObject(req.Data, "data")
	if err != nil {
		return err
	}
	ans, err := h.e.Options(r.Context(), OptionsQuery{Entity: req.Entity, Field: req.Field, Record: data,
		Keyword: req.FilterAll, PerPage: req.PerPage.int(), Page: req.CurrentPage.int()})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, ans)
	return nil
}

// definitions serves GET /api/definitions/{entity}?lang=.
func (h *handler) definitions(w http.ResponseWriter, r *http.Request) error {
	ent, ok := h.e.reg.Entity(r.PathValue("entity"))
	if !ok {
		return errUnknownEntity(r.PathValue("entity"))
	}
	lang := r.URL.Query().Get("lang")
	if !i18n.Supported(lang) {
		lang = i18n.LangFrom(r.Context())
	}
	def, err := h.e.definition(r.Context(), ent, lang)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Language", lang)
	httpapi.WriteJSON(w, http.StatusOK, def)
	return nil
}
