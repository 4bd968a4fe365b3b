package documents

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/pdfmark"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// TrackSign is the ticket timeline's type of a signed document.
const TrackSign = "sign"

// maxSignatureSide bounds a signature image's width and height in pixels.
const maxSignatureSide = 4000

// SignCommand signs document ID from ticket TicketID: Signature is the
// image drawn (PNG or JPEG), SHA256 the original's digest as the signer
// was shown it.
type SignCommand struct {
	ID        int64
	TicketID  int64
	Signature []byte
	SHA256    string
}

// Signed is the answer of a signature: the signed copy and both digests.
type Signed struct {
	DocumentID     int64  `json:"document_id"`
	OriginalSHA256 string `json:"original_sha256"`
	SignedSHA256   string `json:"signed_sha256"`
}

// Sign stores the signature image, writes the signed copy (the image, the
// signer's name and the time on the first page) as a new document of the
// ticket, and adds both digests to the ticket's timeline. The document
// must be one of the ticket's, both within the caller's tenant (404); a
// document whose content is no longer what the signer saw answers 409; a
// signature that is not an image, or a document without a type yet, 422.
// Nothing is kept on failure.
func (s *Service) Sign(ctx context.Context, cmd SignCommand) (*Signed, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return nil, apperr.Unauthorized("server.auth.not_authenticated")
	}
	if err := s.engine.Require(ctx, access.ActionCreate, entity); err != nil {
		return nil, err
	}
	if err := s.engine.MustSeeIn(ctx, s.db, "ticket", cmd.TicketID); err != nil {
		return nil, err
	}
	r, err := s.readRow(ctx, s.db, cmd.ID)
	if err != nil {
		return nil, err
	}
	var linked int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM ticket_document WHERE ticket_id = ? AND document_id = ?`,
		cmd.TicketID, cmd.ID).Scan(&linked); err != nil {
		return nil, fmt.Errorf("documents: ticket link: %w", err)
	}
	if linked == 0 {
		return nil, apperr.NotFound("server.error.not_found")
	}
	if err := r.needsType(); err != nil {
		return nil, err
	}
	signature, err := pdfmark.Image(cmd.Signature, maxSignatureSide)
	if err != nil {
		return nil, apperr.Validation(apperr.FieldError{Field: "signature", Key: "server.documents.not_image", Type: "value_error"})
	}
	f, err := s.openOriginal(ctx, r)
	if err != nil {
		return nil, err
	}
	original, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("documents: read document %d: %w", r.id, err)
	}
	sum := sha256.Sum256(original)
	origSum := hex.EncodeToString(sum[:])
	if !strings.EqualFold(strings.TrimSpace(cmd.SHA256), origSum) {
		return nil, apperr.Conflict("server.documents.changed")
	}
	name, err := s.userName(ctx, s.db, p.UserID)
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = p.Email
	}
	now := s.now().UTC().Truncate(time.Second)
	lang := i18n.LangFrom(ctx) // the signer's language names the copy and words its mark
	var out bytes.Buffer
	if err := pdfmark.Sign(bytes.NewReader(original), &out, signature,
		[]string{s.catalog.T(lang, "server.documents.signed_by", map[string]string{"name": name}), now.Format("2006-01-02 15:04:05") + " UTC"}); err != nil {
		return nil, fmt.Errorf("documents: sign document %d: %w", r.id, err)
	}
	imgKey, _, err := s.store.PutBytes(ctx, signature, "png")
	if err != nil {
		return nil, err
	}
	signedKey, signedSum, err := s.store.PutBytes(ctx, out.Bytes(), "pdf")
	if err != nil {
		s.store.Remove(ctx, imgKey)
		return nil, err
	}
	ans := &Signed{OriginalSHA256: origSum, SignedSHA256: signedSum}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		data := map[string]any{"document_name": s.signedName(lang, r.name), "documenttype_id": r.typeID}
		if r.subtypeID != 0 {
			data["subdocumenttype_id"] = r.subtypeID
		}
		module := validate.Record{"document_file": signedKey, "document_mime_type": "application/pdf",
			"document_size": int64(out.Len()), "document_sha256": signedSum, "document_signature_file": imgKey}
		id, err := s.engine.CreateIn(ctx, tx, entity, data, tables.WithValues(module), tables.LinkedLater())
		if err != nil {
			return err
		}
		ans.DocumentID = id
		cmd := tables.LinkCommand{Relation: "ticket_document_rel", OwnerID: cmd.TicketID, Data: map[string]any{"document_id": id}}
		if _, err := s.engine.LinkNewIn(ctx, tx, cmd, entity, id); err != nil {
			return err
		}
		return s.engine.Track(ctx, tx, tables.TrackEntry{Type: TrackSign, Category: "ticket", RowID: cmd.OwnerID, Status: "signed",
			Comment: fmt.Sprintf("%s signed document %d (SHA-256 %s); signed copy %d (SHA-256 %s)", name, r.id, origSum, id, signedSum),
			Changes: map[string][2]any{"document_id": {r.id, id}, "document_sha256": {origSum, signedSum}}})
	})
	if err != nil {
		s.store.Remove(ctx, imgKey)
		s.store.Remove(ctx, signedKey)
		return nil, err
	}
	return ans, nil
}

// signedName is the signed copy's name in lang ("Mietvertrag (signiert)",
// "Lease (signed)"), within the name field's length.
func (s *Service) signedName(lang, name string) string {
	if r := []rune(name); len(r) > 200 {
		name = string(r[:200])
	}
	return s.catalog.T(lang, "server.documents.signed_name", map[string]string{"name": name})
}
