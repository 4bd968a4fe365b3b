package documents

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
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
	srv.Handle("GET /documents/{id}/download", h.download)
}

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
		f, err := h.s.Put(part)
		if err != nil {
			discard()
			return err
		}
		files = append(files, f)
		up.FileName = part.FileName()
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

// download serves GET /documents/{id}/download (?inline=1 to show it in
// the browser): the PDF, with ranges, as stored.
func (h *handler) download(w http.ResponseWriter, r *http.Request) error {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		return apperr.NotFound("server.error.not_found")
	}
	f, err := h.s.Open(r.Context(), id)
	if err != nil {
		return err
	}
	defer f.Close()
	disposition := "attachment"
	if r.URL.Query().Get("inline") == "1" {
		disposition = "inline"
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": f.Name + ".pdf"}))
	w.Header().Set("Cache-Control", "private, no-store")
	http.ServeContent(w, r, "", time.Time{}, f)
	return nil
}
