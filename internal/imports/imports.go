// Package imports is the spreadsheet import (issue 17, decision 0017): an
// uploaded XLSX or CSV file is parsed and kept with its rows, its columns
// are mapped to the fields of one entity (suggested from the headings
// against the field names and their English, German and French labels, or
// the user's remembered mapping), every row is validated exactly as the
// generic create validates it, and the rows are created all together or
// not at all, with history rows naming the import, through the table
// engine's module API (tables.Batch). An import whose records nobody has
// changed since can be undone.
package imports

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/jobs"
	"portfolio/internal/platform/clock"
	"portfolio/internal/schema"
	"portfolio/internal/tables"
)

// MaxUpload is the largest file the upload takes.
const MaxUpload = 64 << 20

// AsyncRows is the number of rows above which a commit runs in the
// background and reports its progress (GET /imports/{id}).
const AsyncRows = 2000

// Deps are what the service needs.
type Deps struct {
	DB      *db.DB
	Engine  *tables.Engine
	Catalog *i18n.Catalog
	Log     *slog.Logger
	// Now is the clock (tests); time.Now when nil.
	Now func() time.Time
	// Limits bound what one uploaded file makes the service read
	// (decision 0067); DefaultLimits for each one not set.
	Limits Limits
}

// Service answers the import calls.
type Service struct {
	db      *db.DB
	engine  *tables.Engine
	catalog *i18n.Catalog
	log     *slog.Logger
	now     func() time.Time
	limits  Limits
	// running holds the progress of the commits under way in this
	// instance, by import.
	mu      sync.Mutex
	running map[int64]*Progress
	// queue runs the commits of large imports (CommitJob); principals
	// give the job its user's rights.
	queue      *jobs.Queue
	principals Principals
	// afterChunk, when set (tests), runs after each chunk a commit wrote,
	// inside its transaction; an error ends the commit.
	afterChunk func(id int64, done int) error
}

// Principals builds the principal of a user without a session (the
// auth service).
type Principals interface {
	PrincipalOf(ctx context.Context, id int64) (*auth.Principal, error)
}

// UseQueue lets large commits run as jobs of q, with the rights of the
// uploading user as p builds them. Register the job (Job) on q first.
func (s *Service) UseQueue(q *jobs.Queue, p Principals) {
	s.queue, s.principals = q, p
}

// Job is the commit job to register on the queue: one attempt may take
// up to an hour (100,000 rows take well under a minute); a failed attempt
// wrote nothing and is retried from the start.
func (s *Service) Job() jobs.Job {
	return jobs.Job{Name: CommitJob, Perform: s.RunCommitJob, MaxAttempts: 3, Timeout: time.Hour}
}

// New returns the import service.
func New(d Deps) *Service {
	now := d.Now
	if now == nil {
		now = clock.Now
	}
	return &Service{db: d.DB, engine: d.Engine, catalog: d.Catalog, log: d.Log, now: now, limits: d.Limits.orDefaults(),
		running: map[int64]*Progress{}}
}

// Bind registers the import routes.
func Bind(srv *httpapi.Server, s *Service) {
	h := &handler{s: s}
	srv.Handle("POST /uploadxlsx/", h.upload, httpapi.MaxBody(MaxUpload))
	srv.Handle("GET /imports", h.list)
	srv.Handle("GET /imports/template", h.template)
	srv.Handle("GET /imports/{id}", h.read)
	srv.Handle("POST /imports/{id}/validate", h.validate)
	srv.Handle("POST /imports/{id}/commit", h.commit)
	srv.Handle("POST /imports/{id}/undo", h.undo)
	srv.Handle("POST /imports-contract/validate", h.contractUpload(false), httpapi.MaxBody(MaxUpload))
	srv.Handle("POST /imports-contract/commit", h.contractUpload(true), httpapi.MaxBody(MaxUpload))
	srv.Handle("GET /imports-contract/template", h.contractTemplate)
}

type handler struct{ s *Service }

func principal(ctx context.Context) (*auth.Principal, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return nil, apperr.Unauthorized("server.auth.not_authenticated")
	}
	return p, nil
}

// UploadAnswer is the answer to an upload.
type UploadAnswer struct {
	ImportID         int64             `json:"import_id"`
	Entity           string            `json:"entity"`
	ParentID         int64             `json:"parent_id,omitempty"`
	Columns          []string          `json:"columns"`
	SuggestedMapping map[string]string `json:"suggested_mapping"`
	Rows             int               `json:"rows"`
	// Preview are the first rows' cells.
	Preview [][]string `json:"preview"`
	// Fields are the fields a column may be mapped to, with their labels
	// in the request's language.
	Fields []FieldChoice `json:"fields"`
}

// FieldChoice is one field a column may be mapped to.
type FieldChoice struct {
	Name      string `json:"name"`
	Label     string `json:"label"`
	Required  bool   `json:"required"`
	Reference string `json:"reference,omitempty"`
}

// upload serves POST /uploadxlsx/: multipart "entity", "file" and, for an
// entity imported into a parent (Parents), "parent_id".
func (h *handler) upload(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	entity, parent, name, data, err := readUpload(r)
	if err != nil {
		return err
	}
	ans, err := h.s.Upload(ctx, entity, name, data, parent)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, ans)
	return nil
}

// readUpload reads the multipart fields entity, parent_id and file.
func readUpload(r *http.Request) (entity string, parent int64, name string, data []byte, err error) {
	noFile := apperr.Validation(apperr.FieldError{Field: "file", Key: "server.imports.no_file", Type: "missing"})
	mr, err := r.MultipartReader()
	if err != nil {
		return "", 0, "", nil, noFile
	}
	for {
		var part *multipart.Part
		part, err = mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", 0, "", nil, readError(err, noFile)
		}
		switch part.FormName() {
		case "entity":
			b, err := io.ReadAll(io.LimitReader(part, 200))
			if err != nil {
				return "", 0, "", nil, readError(err, noFile)
			}
			entity = strings.TrimSpace(string(b))
		case "parent_id":
			b, err := io.ReadAll(io.LimitReader(part, 40))
			if err != nil {
				return "", 0, "", nil, readError(err, noFile)
			}
			n, perr := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
			if perr != nil || n <= 0 {
				return "", 0, "", nil, apperr.Validation(apperr.FieldError{Field: "parent_id", Key: "validation.integer", Type: "int_parsing",
					Args: map[string]string{"field": "parent_id"}})
			}
			parent = n
		case "file":
			name = filepath.Base(part.FileName())
			if data, err = io.ReadAll(part); err != nil {
				return "", 0, "", nil, readError(err, noFile)
			}
		}
	}
	if entity == "" {
		return "", 0, "", nil, apperr.Validation(apperr.FieldError{Field: "entity", Key: "validation.required", Type: "missing"})
	}
	if data == nil {
		return "", 0, "", nil, noFile
	}
	if name == "" || name == "." {
		name = "upload"
	}
	return entity, parent, name, data, nil
}

func readError(err error, fallback error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return apperr.New(apperr.KindTooLarge, "server.imports.too_large")
	}
	return fallback
}

// importable resolves entity among the importable ones (422 otherwise).
func (s *Service) importable(entity string) (*schema.Entity, error) {
	if _, ok := Importable[entity]; ok {
		if ent, ok := s.engine.Registry().Entity(entity); ok {
			return ent, nil
		}
	}
	return nil, apperr.Validation(apperr.FieldError{Field: "entity", Key: "server.imports.not_importable", Type: "value_error",
		Args: map[string]string{"entity": entity}})
}

// Upload parses data and keeps it as a new import of entity for the
// caller, who needs the create right on entity. An entity imported into a
// parent (Parents) needs parent, a record of the parent's entity the
// caller may read (404 otherwise); any other entity takes none.
func (s *Service) Upload(ctx context.Context, entity, fileName string, data []byte, parent int64) (*UploadAnswer, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	ent, err := s.importable(entity)
	if err != nil {
		return nil, err
	}
	if err := s.engine.Require(ctx, "create", entity); err != nil {
		return nil, err
	}
	if err := s.checkParent(ctx, ent, parent); err != nil {
		return nil, err
	}
	sh, err := Parse(ctx, data, s.limits)
	if err != nil {
		return nil, err
	}
	mem, err := remembered(ctx, s.db, p.UserID, entity)
	if err != nil {
		return nil, err
	}
	suggested, err := s.suggest(ctx, ent, sh.Headings, mem)
	if err != nil {
		return nil, err
	}
	fields, err := s.fieldChoices(ctx, ent)
	if err != nil {
		return nil, err
	}
	var id int64
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		id, err = insertImport(ctx, tx, p.UserID, entity, parent, fileName, sh, s.now().UTC().Truncate(time.Second))
		return err
	})
	if err != nil {
		return nil, err
	}
	preview := sh.Rows[:min(5, len(sh.Rows))]
	return &UploadAnswer{ImportID: id, Entity: entity, ParentID: parent, Columns: sh.Headings, SuggestedMapping: suggested,
		Rows: len(sh.Rows), Preview: preview, Fields: fields}, nil
}

// checkParent checks the parent an upload of ent names: required and
// readable by the caller for an entity with a parent field, refused for
// any other.
func (s *Service) checkParent(ctx context.Context, ent *schema.Entity, parent int64) error {
	field, ok := Parents[ent.Name]
	if !ok {
		if parent != 0 {
			return apperr.Validation(apperr.FieldError{Field: "parent_id", Key: "server.imports.no_parent", Type: "value_error",
				Args: map[string]string{"field": "parent_id", "entity": ent.Name}})
		}
		return nil
	}
	if parent <= 0 {
		return apperr.Validation(apperr.FieldError{Field: "parent_id", Key: "validation.required", Type: "missing",
			Args: map[string]string{"field": "parent_id"}})
	}
	f, ok := ent.Field(field)
	if !ok || f.Ref == "" {
		return fmt.Errorf("imports: parent field %s.%s is no reference", ent.Name, field)
	}
	_, _, err := s.engine.GetIn(ctx, s.db, f.Ref, parent)
	return err
}

// fieldChoices lists the fields of ent an import may fill, with their
// labels in the request's language, then the relations it may link
// (LinkColumns) that the caller may link.
func (s *Service) fieldChoices(ctx context.Context, ent *schema.Entity) ([]FieldChoice, error) {
	labels, err := s.engine.FieldLabels(ctx, ent.Name, i18n.LangFrom(ctx))
	if err != nil {
		return nil, err
	}
	out := []FieldChoice{}
	for i := range ent.Fields {
		f := &ent.Fields[i]
		if !importField(ent, f) {
			continue
		}
		label := labels[f.Name]
		if label == "" {
			label = f.Name
		}
		out = append(out, FieldChoice{Name: f.Name, Label: label, Required: f.Required.Always() && f.Default.IsZero() && f.Type != schema.TypeBool, Reference: f.Ref})
	}
	linkNames, err := s.linkLabels(ctx, ent, i18n.LangFrom(ctx))
	if err != nil {
		return nil, err
	}
	links, err := s.linkable(ctx, ent)
	if err != nil {
		return nil, err
	}
	for _, rel := range links {
		api := rel.APIName(ent.Name)
		out = append(out, FieldChoice{Name: api, Label: linkNames[api][0], Reference: rel.Target})
	}
	return out, nil
}

// list serves GET /imports: the caller's imports, newest first (commits
// that lost their job recovered, as read does).
func (h *handler) list(w http.ResponseWriter, r *http.Request) error {
	p, err := principal(r.Context())
	if err != nil {
		return err
	}
	out, err := listImports(r.Context(), h.s.db, p.UserID, 200)
	if err != nil {
		return err
	}
	for i := range out {
		if _, err := h.s.recoverIfLost(r.Context(), &out[i]); err != nil {
			return err
		}
		out[i].Progress = h.s.progress(&out[i])
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": out})
	return nil
}

// read serves GET /imports/{id}: the import with its report and, while
// its commit runs, the progress; a commit that lost its job is recovered
// first (RecoverLost), so the uploader sees the reason, not a progress
// bar that never moves.
func (h *handler) read(w http.ResponseWriter, r *http.Request) error {
	im, err := h.load(r)
	if err != nil {
		return err
	}
	if _, err := h.s.recoverIfLost(r.Context(), im); err != nil {
		return err
	}
	im.Progress = h.s.progress(im)
	httpapi.WriteJSON(w, http.StatusOK, im)
	return nil
}

func (h *handler) load(r *http.Request) (*Import, error) {
	p, err := principal(r.Context())
	if err != nil {
		return nil, err
	}
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return nil, err
	}
	return loadImport(r.Context(), h.s.db, id, p.UserID)
}

// validate serves POST /imports/{id}/validate with {"mapping": {...}}.
func (h *handler) validate(w http.ResponseWriter, r *http.Request) error {
	im, err := h.load(r)
	if err != nil {
		return err
	}
	var body struct {
		Mapping map[string]string `json:"mapping"`
	}
	if err := httpapi.DecodeJSON(r, &body, true); err != nil {
		return err
	}
	res, err := h.s.Validate(r.Context(), im, body.Mapping)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, res)
	return nil
}

// commit serves POST /imports/{id}/commit.
func (h *handler) commit(w http.ResponseWriter, r *http.Request) error {
	im, err := h.load(r)
	if err != nil {
		return err
	}
	if im.Rows > AsyncRows {
		if err := h.s.CommitLater(r.Context(), im); err != nil {
			return err
		}
		im, err = h.load(r)
		if err != nil {
			return err
		}
		im.Progress = h.s.progress(im)
		httpapi.WriteJSON(w, http.StatusAccepted, im)
		return nil
	}
	if err := h.s.Commit(r.Context(), im); err != nil {
		return err
	}
	im, err = h.load(r)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, im)
	return nil
}

// undo serves POST /imports/{id}/undo.
func (h *handler) undo(w http.ResponseWriter, r *http.Request) error {
	im, err := h.load(r)
	if err != nil {
		return err
	}
	if err := h.s.Undo(r.Context(), im); err != nil {
		return err
	}
	im, err = h.load(r)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, im)
	return nil
}

// progress is the progress of im's commit while it is under way: this
// instance's count when it works the commit, else the stored one. A
// commit that has ended (its transaction written, this instance not yet
// past its clean-up) has none.
func (s *Service) progress(im *Import) *Progress {
	if im.State == stateCommitted || im.State == stateUndone || im.State == stateInvalid {
		return nil
	}
	if p := s.progressOf(im.ID); p != nil {
		return p
	}
	if im.State == stateCommitting {
		return &Progress{Done: im.done, Total: im.Rows}
	}
	return nil
}

func (s *Service) progressOf(id int64) *Progress {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.running[id]; ok {
		cp := *p
		return &cp
	}
	return nil
}
