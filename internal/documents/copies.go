package documents

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/platform/pdfmark"
	"portfolio/internal/platform/storage"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// Kinds of file a link serves.
const (
	kindOriginal  = "original"
	kindStamped   = "stamped"
	kindSignature = "signature"
)

// row is what the module reads of a document it serves or copies.
type row struct {
	// typeID is 0 for a document without a type yet.
	id, typeID, subtypeID, userID int64
	version                       int64
	name, file, sum, mimeType     string
	stampFile, signatureFile      string
	created                       time.Time
	stampedAt                     sql.NullTime
}

// readRow reads document id within the caller's tenant (404 outside it).
func (s *Service) readRow(ctx context.Context, q db.Querier, id int64) (*row, error) {
	src, err := s.engine.Scoped(ctx, entity, "d")
	if err != nil {
		return nil, err
	}
	var r row
	var typ, sub, user sql.NullInt64
	var sum, stamp, sig sql.NullString
	err = q.QueryRowContext(ctx, `SELECT d.document_id, d.documenttype_id, d.subdocumenttype_id, d.user_id, d.row_version,
		d.document_name, d.document_mime_type, d.document_file, d.document_sha256, d.document_stamp_file, d.document_signature_file,
		d.document_created_at, d.document_stamped_at FROM `+src.SQL+` WHERE d.document_id = ?`, append(src.Args, id)...).
		Scan(&r.id, &typ, &sub, &user, &r.version, &r.name, &r.mimeType, &r.file, &sum, &stamp, &sig, &r.created, &r.stampedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.NotFound("server.error.not_found")
	}
	if err != nil {
		return nil, fmt.Errorf("documents: read document %d: %w", id, err)
	}
	r.typeID, r.subtypeID, r.userID, r.sum = typ.Int64, sub.Int64, user.Int64, sum.String
	r.stampFile, r.signatureFile = stamp.String, sig.String
	return &r, nil
}

// needsType refuses to stamp or sign r while it has no type: 422 on
// documenttype_id, which PUT /documents/update or contract step 7 sets
// (decision 0065).
func (r *row) needsType() error {
	if r.typeID == 0 {
		return apperr.Validation(apperr.FieldError{Field: "documenttype_id", Key: "server.documents.no_type", Type: "missing"})
	}
	return nil
}

// Served is a file a link opens: a stored file or a copy made for this
// answer.
type Served struct {
	Name        string
	ContentType string
	Content     io.ReadSeeker
	close       func() error
}

// Close releases the file.
func (f *Served) Close() error {
	if f.close != nil {
		return f.close()
	}
	return nil
}

// ServeLink opens the file of kind for document id if token is a link
// token for it; the read goes through the link user's tenant scope.
func (s *Service) ServeLink(ctx context.Context, token string, id int64, kind string, download bool) (*Served, error) {
	ctx, err := s.linkContext(ctx, token, id)
	if err != nil {
		return nil, err
	}
	if err := s.engine.Require(ctx, access.ActionRead, entity); err != nil {
		return nil, apperr.NotFound("server.error.not_found")
	}
	r, err := s.readRow(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	if r.mimeType != "application/pdf" {
		// A file that is not a PDF (a mail's attachment) is only ever
		// downloaded, never previewed or stamped.
		if kind != kindOriginal || !download {
			return nil, apperr.NotFound("server.error.not_found")
		}
		return s.openStored(ctx, r.file, r.name, "application/octet-stream")
	}
	switch kind {
	case kindSignature:
		if r.signatureFile == "" {
			return nil, apperr.NotFound("server.error.not_found")
		}
		return s.openStored(ctx, r.signatureFile, r.name+".png", "image/png")
	case kindStamped:
		if err := r.needsType(); err != nil {
			return nil, err
		}
		if r.stampFile != "" {
			return s.openStored(ctx, r.stampFile, r.name+".pdf", "application/pdf")
		}
		// Not stamped by a ticket's column yet: a copy stamped with the
		// date of receipt (the upload), made for this answer only.
		lines, err := s.stampLines(ctx, s.db, r, r.created, r.userID)
		if err != nil {
			return nil, err
		}
		b, err := s.stamped(ctx, r, lines)
		if err != nil {
			return nil, err
		}
		return &Served{Name: r.name + ".pdf", ContentType: "application/pdf", Content: bytes.NewReader(b)}, nil
	default:
		return s.openStored(ctx, r.file, r.name+".pdf", "application/pdf")
	}
}

func (s *Service) openStored(ctx context.Context, key, name, contentType string) (*Served, error) {
	f, err := s.store.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	return &Served{Name: name, ContentType: contentType, Content: f, close: f.Close}, nil
}

// stamped answers a copy of r's file with the stamp lines on its first page.
func (s *Service) stamped(ctx context.Context, r *row, lines []string) ([]byte, error) {
	f, err := s.store.Open(ctx, r.file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b bytes.Buffer
	if err := pdfmark.Stamp(f, &b, lines); err != nil {
		return nil, fmt.Errorf("documents: stamp document %d: %w", r.id, err)
	}
	return b.Bytes(), nil
}

// stampLines are the stamp's text: the date of receipt, the user, and the
// ticket or contract the document belongs to (those the caller sees).
func (s *Service) stampLines(ctx context.Context, q db.Querier, r *row, received time.Time, user int64) ([]string, error) {
	lines := []string{"Eingang / Received " + received.UTC().Format("02.01.2006 15:04") + " UTC"}
	if name, err := s.userName(ctx, q, user); err != nil {
		return nil, err
	} else if name != "" {
		lines = append(lines, name)
	}
	owner, err := s.ownerLabel(ctx, q, r.id)
	if err != nil {
		return nil, err
	}
	if owner != "" {
		lines = append(lines, owner)
	}
	return lines, nil
}

// userName is a user's first and last name ("" for none).
func (s *Service) userName(ctx context.Context, q db.Querier, id int64) (string, error) {
	if id == 0 {
		return "", nil
	}
	src, err := s.engine.Scoped(tables.AsSystem(ctx), "user", "u")
	if err != nil {
		return "", err
	}
	var first, last string
	err = q.QueryRowContext(ctx, `SELECT u.user_firstname, u.user_lastname FROM `+src.SQL+` WHERE u.user_id = ?`,
		append(src.Args, id)...).Scan(&first, &last)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("documents: read user %d: %w", id, err)
	}
	return strings.TrimSpace(first + " " + last), nil
}

// ownerLabel names the first ticket, else the first contract, of document
// id that the caller sees ("Ticket 12: Name").
func (s *Service) ownerLabel(ctx context.Context, q db.Querier, id int64) (string, error) {
	for _, o := range []struct{ entity, link, label string }{
		{"ticket", "ticket_document", "Ticket"},
		{"contract", "contract_document", "Vertrag / Contract"},
	} {
		src, err := s.engine.Scoped(ctx, o.entity, "o")
		if err != nil {
			return "", err
		}
		var oid int64
		var name string
		err = q.QueryRowContext(ctx, `SELECT o.`+o.entity+`_id, o.`+o.entity+`_name FROM `+src.SQL+` JOIN `+o.link+
			` l ON l.`+o.entity+`_id = o.`+o.entity+`_id WHERE l.document_id = ? ORDER BY o.`+o.entity+`_id`,
			append(src.Args, id)...).Scan(&oid, &name)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("documents: owner of document %d: %w", id, err)
		}
		return fmt.Sprintf("%s %d: %s", o.label, oid, name), nil
	}
	return "", nil
}

// StampTicket makes the stamped copies of ticket's PDFs when the ticket
// enters a stamp column (the tickets module calls it in the ticket's
// write transaction): the date of receipt is now, the user the one moving
// the ticket. The originals are not changed; a copy replaces an earlier
// one. A document without a type yet is not stamped (decision 0065), and
// one whose file pdfcpu cannot stamp is logged; both are skipped, so a
// move never fails on one odd file.
func (s *Service) StampTicket(ctx context.Context, tx *db.Tx, ticket int64) (int, error) {
	sys := tables.AsSystem(ctx)
	src, err := s.engine.Scoped(sys, entity, "d")
	if err != nil {
		return 0, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT d.document_id FROM `+src.SQL+
		` JOIN ticket_document l ON l.document_id = d.document_id WHERE l.ticket_id = ? ORDER BY d.document_id`,
		append(src.Args, ticket)...)
	if err != nil {
		return 0, fmt.Errorf("documents: documents of ticket %d: %w", ticket, err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	var user int64
	if p, ok := auth.PrincipalFrom(ctx); ok && p != nil {
		user = p.UserID
	}
	now := s.now().UTC().Truncate(time.Second)
	n := 0
	for _, id := range ids {
		r, err := s.readRow(sys, tx, id)
		if err != nil {
			return n, err
		}
		if r.typeID == 0 {
			s.log.InfoContext(ctx, "documents: a ticket's document without a type is not stamped", "document_id", id)
			continue
		}
		lines, err := s.stampLines(sys, tx, r, now, user)
		if err != nil {
			return n, err
		}
		b, err := s.stamped(ctx, r, lines)
		if err != nil {
			s.log.WarnContext(ctx, "documents: a ticket's document could not be stamped", "document_id", id, "error", err)
			continue
		}
		key, _, err := s.store.PutBytes(ctx, b, "pdf")
		if err != nil {
			return n, err
		}
		err = s.engine.UpdateIn(sys, tx, tables.UpdateCommand{Entity: entity, ID: id, RowVersion: r.version, Data: map[string]any{}},
			tables.WithValues(validate.Record{"document_stamp_file": key, "document_stamped_at": now}))
		if err != nil {
			s.store.Remove(ctx, key)
			return n, err
		}
		n++
	}
	return n, nil
}

// openOriginal opens a row's original file.
func (s *Service) openOriginal(ctx context.Context, r *row) (storage.Object, error) {
	return s.store.Open(ctx, r.file)
}
