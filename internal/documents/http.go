package documents

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"portfolio/internal/reqbody"
	"portfolio/internal/tables"
	"strconv"
	"strings"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
	"portfolio/internal/schema"
)

// maxUploadBody bounds an upload request: the largest document and its
// form fields.
const maxUploadBody = schema.MaxDocumentKB*1024 + 1<<20

// Bind registers the routes of the documents module.
func Bind(srv *httpapi.Server, s *Service) {
	h := &handler{s: s}
	srv.Handle("POST /documents/uploadfiles", h.upload, httpapi.MaxBody(maxUploadBody))
	srv.Handle("POST /document/uploadfiles", h.upload, httpapi.MaxBody(maxUploadBody))
	srv.Handle("PUT /documents/update", h.update)
	srv.Handle("POST /documents/pos", h.linkPos)
	srv.Handle("GET /documents/pos", h.listPos)
	srv.Handle("GET /pos/emails", h.posEmails)
	srv.Handle("GET /documents/links/{id}", h.links)
	srv.Handle("POST /emails/send", h.sendMail, httpapi.MaxBody(maxMailBody+1<<20))
	srv.Handle("POST /documents/{id}/sign", h.sign, httpapi.MaxBody(maxSignBody))
	srv.Handle("GET /emails/incoming", h.incoming)
	srv.Handle("GET /emails/{id}", h.mail)
	srv.Handle("POST /emails/{id}/confirm", h.classify(false))
	srv.Handle("POST /emails/{id}/archive", h.classify(true))
	srv.Handle("POST /emails/{id}/ticket", h.ticketFromMail)
	// The five link URLs: no session, a link token in ?authorization=.
	for pattern, kind := range map[string]linkKind{
		"GET /document/download/{id}":       {kindOriginal, "attachment"},
		"GET /document/download/stamp/{id}": {kindStamped, "attachment"},
		"GET /documents/preview/{id}":       {kindOriginal, "inline"},
		"GET /documents/preview/stamp/{id}": {kindStamped, "inline"},
		"GET /documents-sign/image/{id}":    {kindSignature, "inline"},
	} {
		srv.Handle(pattern, h.serveLink(kind), httpapi.Public())
	}
}

// maxSignBody bounds a signature request (the image as a data URL).
const maxSignBody = 8 << 20

type handler struct{ s *Service }

// upload serves POST /documents/uploadfiles: multipart with exactly one
// PDF in "files" and the document's fields; answers {"data":
// [{"document_id": n}]}. The file is stored while it arrives and named by
// the document row only once the whole form is read and checked.
func (h *handler) upload(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	if err := h.s.Authorize(ctx); err != nil {
		return err
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return fileError("server.documents.one_file", nil)
	}
	up := Upload{Fields: map[string]string{}}
	var files []Stored
	discard := func() {
		for _, f := range files {
			h.s.Discard(ctx, f)
		}
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			discard()
			return uploadError(err)
		}
		if part.FormName() != "files" {
			v, err := readField(part, part.FormName())
			if err != nil {
				discard()
				return err
			}
			up.Fields[part.FormName()] = v
			continue
		}
		name, err := fileName(part)
		if err != nil {
			discard()
			return err
		}
		f, err := h.s.Put(ctx, part)
		if err != nil {
			discard()
			return err
		}
		files = append(files, f)
		up.FileName = name
	}
	if len(files) != 1 {
		discard()
		return fileError("server.documents.one_file", nil)
	}
	up.File = files[0]
	id, err := h.s.Create(ctx, up)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, map[string]any{"data": []map[string]int64{{"document_id": id}}})
	return nil
}

// fileName answers the name the browser gave a file part, as sent: a
// name with a directory in it (a path, "..") or control characters is
// refused (multipart's FileName would quietly drop the directory).
func fileName(part *multipart.Part) (string, error) {
	_, params, err := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
	name := params["filename"]
	if err != nil || name == "" || len(name) > 255 || strings.ContainsAny(name, "/\\\x00") || name == "." || name == ".." ||
		strings.IndexFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return "", fileError("server.documents.bad_name", nil)
	}
	return name, nil
}

// maxField bounds a form field of an upload (a name, an id).
const maxField = 4096

// readField reads a small form field.
func readField(part io.Reader, name string) (string, error) {
	b, err := io.ReadAll(io.LimitReader(part, maxField+1))
	if err != nil {
		return "", uploadError(err)
	}
	if len(b) > maxField {
		return "", apperr.Validation(apperr.FieldError{Field: name, Key: "validation.max", Type: "max",
			Args: map[string]string{"field": name, "length": strconv.Itoa(maxField)}})
	}
	return string(b), nil
}

// uploadError answers a failure to read the request: too large, or not
// the multipart form expected.
func uploadError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return fileError("server.documents.too_large", map[string]string{"size": strconv.FormatInt(schema.MaxDocumentKB, 10)})
	}
	return fileError("server.documents.one_file", nil)
}

// linkKind is what a link URL serves and how.
type linkKind struct{ kind, disposition string }

// serveLink serves one of the five link URLs: the file, with ranges, to
// whoever holds a valid link token for it.
func (h *handler) serveLink(k linkKind) httpapi.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := httpapi.PathID(r, "id")
		if err != nil {
			return err
		}
		f, err := h.s.ServeLink(r.Context(), r.URL.Query().Get("authorization"), id, k.kind, k.disposition == "attachment")
		if err != nil {
			return err
		}
		defer f.Close()
		w.Header().Set("Content-Type", f.ContentType)
		w.Header().Set("Content-Disposition", mime.FormatMediaType(k.disposition, map[string]string{"filename": f.Name}))
		w.Header().Set("Cache-Control", "private, no-store")
		w.Header().Set("Referrer-Policy", "no-referrer")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		http.ServeContent(w, r, "", time.Time{}, f.Content)
		return nil
	}
}

// links serves GET /documents/links/{id}: the document's five URLs with a
// link token for the caller, valid 5 minutes.
func (h *handler) links(w http.ResponseWriter, r *http.Request) error {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	l, err := h.s.Links(r.Context(), id)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	httpapi.WriteJSON(w, http.StatusOK, l)
	return nil
}

// update serves PUT /documents/update: the values in the query (as the
// specification says) or in a form body.
func (h *handler) update(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	if r.Header.Get("Content-Type") != "" && r.ContentLength != 0 {
		form, err := httpapi.DecodeForm(r)
		if err == nil {
			for k, vals := range form {
				v[k] = vals
			}
		}
	}
	id, err := queryID(v, "document_id", true)
	if err != nil {
		return err
	}
	cmd := UpdateCommand{ID: id}
	if v.Has("document_name") {
		name := v.Get("document_name")
		cmd.Name = &name
	}
	for _, f := range []struct {
		name string
		dst  **int64
	}{{"documenttype_id", &cmd.TypeID}, {"subdocumenttype_id", &cmd.SubtypeID}, {"documentcontracttype_id", &cmd.ContractTypeID}} {
		if !v.Has(f.name) {
			continue
		}
		if v.Get(f.name) == "" || v.Get(f.name) == "null" {
			if f.name == "subdocumenttype_id" {
				cmd.ClearSubtype = true
			}
			continue
		}
		n, err := queryID(v, f.name, true)
		if err != nil {
			return err
		}
		*f.dst = &n
	}
	out, err := h.s.Update(r.Context(), cmd)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, json.RawMessage(out))
	return nil
}

// queryID reads a record key from v; 422 naming it when it is missing
// (and required) or not a key.
func queryID(v url.Values, name string, required bool) (int64, error) {
	raw := strings.TrimSpace(v.Get(name))
	if raw == "" && !required {
		return 0, nil
	}
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		if raw == "" {
			return 0, reqbody.Missing(name)
		}
		return 0, reqbody.TypeError(name, "id")
	}
	return id, nil
}

// linkPos serves POST /documents/pos: {document_id, pos_id,
// documenttype_id, subdocumenttype_id}.
func (h *handler) linkPos(w http.ResponseWriter, r *http.Request) error {
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	var cmd PosCommand
	if err := b.TakeKeys(reqbody.Required("document_id", &cmd.DocumentID), reqbody.Required("pos_id", &cmd.PosID),
		reqbody.Optional("documenttype_id", &cmd.TypeID), reqbody.Optional("subdocumenttype_id", &cmd.SubtypeID)); err != nil {
		return err
	}
	out, err := h.s.LinkPos(r.Context(), cmd)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, json.RawMessage(out))
	return nil
}

// listPos serves GET /documents/pos?pos_id=: a point of sale's documents.
func (h *handler) listPos(w http.ResponseWriter, r *http.Request) error {
	pos, err := queryID(r.URL.Query(), "pos_id", true)
	if err != nil {
		return err
	}
	cur, err := h.s.list(r.Context(), r.URL.Query(), tables.CustomListQuery{Entity: "pos_document_rel", Data: map[string]any{"pos_id": pos}})
	if err != nil {
		return err
	}
	defer cur.Close()
	return tables.WriteCustomList(w, r, h.s.log, cur)
}

// posEmails serves GET /pos/emails?pos_id=: a point of sale's mails,
// newest first.
func (h *handler) posEmails(w http.ResponseWriter, r *http.Request) error {
	pos, err := queryID(r.URL.Query(), "pos_id", true)
	if err != nil {
		return err
	}
	if err := h.s.engine.MustSeeIn(r.Context(), h.s.db, "pos", pos); err != nil {
		return err
	}
	q := tables.CustomListQuery{Entity: "email", Data: map[string]any{"pos_id": pos}, OrderBy: "email_received_datetime"}
	v := r.URL.Query()
	if !v.Has("order") {
		v.Set("order", "desc")
	}
	cur, err := h.s.list(r.Context(), v, q)
	if err != nil {
		return err
	}
	defer cur.Close()
	return tables.WriteCustomList(w, r, h.s.log, cur)
}

// sign serves POST /documents/{id}/sign: {ticket_id, signature (a PNG or
// JPEG, base64 or a data: URL), sha256 (the original's as shown)}.
func (h *handler) sign(w http.ResponseWriter, r *http.Request) error {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	cmd := SignCommand{ID: id}
	if cmd.TicketID, err = b.TakeID("ticket_id", true); err != nil {
		return err
	}
	sum, _ := b.Take("sha256").(string)
	if sum == "" {
		return reqbody.Missing("sha256")
	}
	cmd.SHA256 = sum
	raw, _ := b.Take("signature").(string)
	if raw == "" {
		return reqbody.Missing("signature")
	}
	if _, data, ok := strings.Cut(raw, ";base64,"); ok {
		raw = data
	}
	if cmd.Signature, err = base64.StdEncoding.DecodeString(raw); err != nil {
		return apperr.Validation(apperr.FieldError{Field: "signature", Key: "server.documents.not_image", Type: "value_error"})
	}
	ans, err := h.s.Sign(r.Context(), cmd)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, ans)
	return nil
}

// sendMail serves POST /emails/send: {email_to: [..], email_cc: [..],
// email_subject, email_body (HTML), email_attachements: [document ids],
// ticket_id, pos_id}; answers 201 {"email_id": n}.
func (h *handler) sendMail(w http.ResponseWriter, r *http.Request) error {
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	var cmd SendCommand
	if err := b.TakeKeys(reqbody.Optional("ticket_id", &cmd.TicketID), reqbody.Optional("pos_id", &cmd.PosID)); err != nil {
		return err
	}
	if cmd.Attachments, err = b.TakeIDs("email_attachements"); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		dst  *[]string
	}{{"email_to", &cmd.To}, {"email_cc", &cmd.Cc}} {
		switch v := b.Take(f.name).(type) {
		case nil:
		case string:
			if strings.TrimSpace(v) != "" {
				*f.dst = strings.Split(v, ",")
			}
		case []any:
			for _, x := range v {
				s, ok := x.(string)
				if !ok {
					return reqbody.TypeError(f.name, "list")
				}
				*f.dst = append(*f.dst, s)
			}
		default:
			return reqbody.TypeError(f.name, "list")
		}
	}
	cmd.Subject, _ = b.Take("email_subject").(string)
	cmd.Body, _ = b.Take("email_body").(string)
	id, err := h.s.Send(r.Context(), cmd)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, map[string]int64{"email_id": id})
	return nil
}

// incoming serves GET /emails/incoming?processed=0|1&page&per_page&keyword:
// the received mails to process (processed=1: those done), newest first.
func (h *handler) incoming(w http.ResponseWriter, r *http.Request) error {
	v := r.URL.Query()
	processed := 0
	switch v.Get("processed") {
	case "", "0":
	case "1":
		processed = 1
	default:
		return reqbody.TypeError("processed", "bool")
	}
	if !v.Has("order") {
		v.Set("order", "desc")
	}
	q := tables.CustomListQuery{Entity: emailEntity, Data: map[string]any{"email_direction": "in", "email_processed": processed},
		OrderBy: "email_received_datetime"}
	cur, err := h.s.list(r.Context(), v, q)
	if err != nil {
		return err
	}
	defer cur.Close()
	return tables.WriteCustomList(w, r, h.s.log, cur)
}

// mail serves GET /emails/{id}: one mail with its attachments.
func (h *handler) mail(w http.ResponseWriter, r *http.Request) error {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	out, err := h.s.Mail(r.Context(), id)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, json.RawMessage(out))
	return nil
}

// classify serves POST /emails/{id}/confirm ({row_version, pos_id,
// contract_id, ticket_id}) and POST /emails/{id}/archive ({row_version}).
func (h *handler) classify(archive bool) httpapi.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		id, err := httpapi.PathID(r, "id")
		if err != nil {
			return err
		}
		b, err := reqbody.Read(r)
		if err != nil {
			return err
		}
		cmd := ClassifyCommand{ID: id, Archive: archive}
		if cmd.RowVersion, err = b.RowVersion(); err != nil {
			return err
		}
		if !archive {
			if err := b.TakeKeys(reqbody.Optional("pos_id", &cmd.PosID), reqbody.Optional("contract_id", &cmd.ContractID),
				reqbody.Optional("ticket_id", &cmd.Ticket)); err != nil {
				return err
			}
		}
		out, err := h.s.Classify(r.Context(), cmd)
		if err != nil {
			return err
		}
		httpapi.WriteJSON(w, http.StatusOK, json.RawMessage(out))
		return nil
	}
}

// ticketFromMail serves POST /emails/{id}/ticket ({row_version, board_id,
// columnx_id, priority_id, and optionally the other fields of a ticket}):
// a new ticket made from the incoming mail (CreateTicket); answers 201
// with the ticket as read back.
func (h *handler) ticketFromMail(w http.ResponseWriter, r *http.Request) error {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	cmd := TicketFromMail{ID: id, Ticket: b}
	if cmd.RowVersion, err = b.RowVersion(); err != nil {
		return err
	}
	ticket, err := h.s.CreateTicket(r.Context(), cmd)
	if err != nil {
		return err
	}
	out, err := h.s.engine.ReadIn(r.Context(), h.s.db, "ticket", ticket)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, map[string]any{"data": out})
	return nil
}
