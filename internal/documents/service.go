// Package documents stores uploaded PDF documents and serves them back:
// POST /documents/uploadfiles (and /document/uploadfiles) and GET
// /documents/{id}/download. The document row is written through the table
// engine (rights, rules, references, history) and linked to its owner (a
// point of sale, contract, ticket or invoice) in the same transaction;
// an external user must name an owner they can see, since documents are
// visible to them only through their owners.
package documents

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/mailbox"
	"portfolio/internal/platform/mailer"
	"portfolio/internal/schema"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// entity is the engine entity of documents.
const entity = "document"

// owners maps the owner field an upload may name to the owner's relation
// that links documents (its documents tab).
var owners = map[string]string{
	"pos_id":      "pos_document_rel",
	"contract_id": "contract_document_rel",
	"ticket_id":   "ticket_document_rel",
	"invoice_id":  "invoice_documents_rel",
}

// Service uploads and serves documents.
type Service struct {
	db     *db.DB
	engine *tables.Engine
	store  *Store
	log    *slog.Logger
	// catalog words what the service writes into documents (a signed
	// copy's name and mark) in the caller's language.
	catalog  *i18n.Catalog
	maxBytes int64
	now      func() time.Time
	// linkKey signs link tokens; principals builds a link's user (UseLinks).
	linkKey    []byte
	principals PrincipalSource
	// outbox sends mail as mailFrom (UseMail).
	outbox   *mailer.Outbox
	mailFrom string
	// mailbox is where incoming mail is fetched from (UseMailbox).
	mailbox mailbox.Config
}

// New returns a service storing files in store.
func New(d *db.DB, engine *tables.Engine, store *Store, catalog *i18n.Catalog, log *slog.Logger) *Service {
	return &Service{db: d, engine: engine, store: store, catalog: catalog, log: log, maxBytes: schema.MaxDocumentKB * 1024, now: time.Now}
}

// Upload is one stored file with the document's fields, each optional:
// document_name (default: the file name), documenttype_id (a document
// may get its type later, decision 0065), subdocumenttype_id and at most
// one owner field (pos_id, contract_id, ticket_id or invoice_id).
type Upload struct {
	FileName string
	File     Stored
	Fields   map[string]string
}

// Stored is a file in the store that no document row names yet.
type Stored struct {
	Key  string
	Size int64
	// Sum is the file's SHA-256 in hex.
	Sum string
}

// SetClock sets the service's time source (link expiry in tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Authorize answers 401 or 403 unless the caller may upload documents;
// checked before a file is read.
func (s *Service) Authorize(ctx context.Context) error {
	return s.engine.Require(ctx, access.ActionCreate, entity)
}

// Put keeps an uploaded file until Create names it in a document row, or
// Discard removes it. Not a PDF, or too large: 422 on "files".
func (s *Service) Put(ctx context.Context, r io.Reader) (Stored, error) {
	key, size, sum, err := s.store.Put(ctx, r, s.maxBytes)
	switch {
	case errors.Is(err, errEmpty):
		return Stored{}, fileError("server.documents.empty", nil)
	case errors.Is(err, errNotPDF):
		return Stored{}, fileError("server.documents.not_pdf", nil)
	case errors.Is(err, errTooLarge):
		return Stored{}, fileError("server.documents.too_large", map[string]string{"size": fmt.Sprint(schema.MaxDocumentKB)})
	case err != nil:
		return Stored{}, err
	}
	return Stored{Key: key, Size: size, Sum: sum}, nil
}

// Discard removes a stored file no document names.
func (s *Service) Discard(ctx context.Context, f Stored) {
	if err := s.store.Remove(ctx, f.Key); err != nil {
		s.log.ErrorContext(ctx, "documents: remove an unused upload", "key", f.Key, "error", err)
	}
}

// Create writes the document row of a stored file, links it to its owner
// and answers the new document's id. Nothing is kept when any step fails:
// the transaction rolls back and the file is removed.
func (s *Service) Create(ctx context.Context, up Upload) (int64, error) {
	var id int64
	err := s.create(ctx, up, &id)
	if err != nil {
		s.Discard(ctx, up.File)
		return 0, err
	}
	return id, nil
}

func (s *Service) create(ctx context.Context, up Upload, id *int64) error {
	if err := s.Authorize(ctx); err != nil {
		return err
	}
	data, owner, err := s.fields(up)
	if err != nil {
		return err
	}
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		module := validate.Record{"document_file": up.File.Key, "document_mime_type": "application/pdf", "document_size": up.File.Size,
			"document_sha256": up.File.Sum}
		if *id, err = s.engine.CreateIn(ctx, tx, entity, data, tables.WithValues(module), tables.LinkedLater()); err != nil {
			return err
		}
		if owner.rel != "" {
			cmd := tables.LinkCommand{Relation: owner.rel, OwnerID: owner.id, Data: map[string]any{"document_id": *id}}
			if _, err := s.engine.LinkNewIn(ctx, tx, cmd, entity, *id); err != nil {
				return err
			}
		}
		return s.mustSee(ctx, tx, *id)
	})
}

// owner is the record an upload links the document to.
type owner struct {
	rel string
	id  int64
}

// fields splits the form fields into the document's values and its owner.
func (s *Service) fields(up Upload) (map[string]any, owner, error) {
	data := map[string]any{}
	var own owner
	for k, v := range up.Fields {
		if rel, ok := owners[k]; ok {
			if own.rel != "" {
				return nil, owner{}, apperr.Validation(apperr.FieldError{Field: k, Key: "server.documents.one_owner", Type: "value_error"})
			}
			id, err := validate.Coerce(schema.TypeID, v)
			if err != nil || id == nil {
				return nil, owner{}, apperr.Validation(apperr.FieldError{Field: k, Key: "server.tables.not_a_value", Type: "type_error",
					Args: map[string]string{"field": k}})
			}
			own = owner{rel: rel, id: id.(int64)}
			continue
		}
		data[k] = v
	}
	if name, _ := data["document_name"].(string); strings.TrimSpace(name) == "" {
		data["document_name"] = strings.TrimSuffix(strings.TrimSuffix(up.FileName, ".pdf"), ".PDF")
	}
	return data, own, nil
}

// mustSee refuses a document the caller would not see once stored (an
// external user's document without an owner of theirs).
func (s *Service) mustSee(ctx context.Context, q db.Querier, id int64) error {
	visible, err := s.visible(ctx, q, id)
	if err != nil {
		return err
	}
	if !visible {
		return apperr.Validation(apperr.FieldError{Field: "pos_id", Key: "server.documents.owner_required", Type: "missing"})
	}
	return nil
}

// visible reports whether the caller of ctx sees document id.
func (s *Service) visible(ctx context.Context, q db.Querier, id int64) (bool, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return false, apperr.Unauthorized("server.auth.not_authenticated")
	}
	return s.engine.VisibleTo(ctx, q, p, entity, id)
}

// sweepAge is how old an unnamed file must be before Sweep removes it:
// far longer than any upload takes.
const sweepAge = 24 * time.Hour

// Sweep removes stored files no document row names any more (documents
// deleted, uploads interrupted); run daily.
func (s *Service) Sweep(ctx context.Context) error {
	src, err := s.engine.Scoped(tables.AsSystem(ctx), entity, "d")
	if err != nil {
		return err
	}
	n, err := s.store.Sweep(ctx, func(key string) (bool, error) {
		var one int
		err := s.db.QueryRowContext(ctx, `SELECT 1 FROM `+src.SQL+` WHERE d.document_file = ? OR d.document_stamp_file = ? OR d.document_signature_file = ?`,
			append(src.Args, key, key, key)...).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return false, nil
		}
		return err == nil, err
	}, sweepAge, s.now())
	if n > 0 {
		s.log.InfoContext(ctx, "documents: files no document names removed", "files", n)
	}
	return err
}

func fileError(key string, args map[string]string) error {
	return apperr.Validation(apperr.FieldError{Field: "files", Key: key, Type: "value_error", Args: args})
}
