package documents

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/tables"
)

// Attachment is a document attached to a mail, as the mail modal lists it.
type Attachment struct {
	ID       int64  `json:"document_id"`
	Name     string `json:"document_name"`
	MimeType string `json:"document_mime_type"`
}

// Mail answers one mail as the generic read renders it (labels,
// row_version) with "attachments": the documents attached to it that the
// caller sees. Read right on email and its tenant scope, else 403 or 404.
func (s *Service) Mail(ctx context.Context, id int64) (json.RawMessage, error) {
	row, err := s.engine.ReadIn(ctx, s.db, emailEntity, id)
	if err != nil {
		return nil, err
	}
	atts, err := s.attachmentsOf(ctx, s.db, id)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(row, &m); err != nil {
		return nil, fmt.Errorf("documents: read mail %d: %w", id, err)
	}
	list, err := json.Marshal(atts)
	if err != nil {
		return nil, err
	}
	m["attachments"] = list
	return json.Marshal(m)
}

// attachmentsOf answers the documents of mail id the caller sees.
func (s *Service) attachmentsOf(ctx context.Context, q db.Querier, id int64) ([]Attachment, error) {
	src, err := s.engine.Scoped(ctx, entity, "d")
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT d.document_id, d.document_name, d.document_mime_type FROM `+src.SQL+
		` JOIN email_document l ON l.document_id = d.document_id WHERE l.email_id = ? ORDER BY d.document_id`, append(src.Args, id)...)
	if err != nil {
		return nil, fmt.Errorf("documents: attachments of mail %d: %w", id, err)
	}
	defer rows.Close()
	out := []Attachment{}
	for rows.Next() {
		var a Attachment
		if err := rows.Scan(&a.ID, &a.Name, &a.MimeType); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// ClassifyCommand is a person's decision on an incoming mail: the point
// of sale, contract and ticket it belongs to (confirming or changing the
// suggestion; zero clears one), or Archive (processed without a record).
type ClassifyCommand struct {
	ID, RowVersion            int64
	PosID, ContractID, Ticket int64
	Archive                   bool
}

// Classify records the decision on an incoming mail in one transaction:
// the mail's point of sale, contract and ticket (each visible to the
// caller, the ticket's point of sale taken when none is named), processed
// set; its attachments are linked to the ticket and the point of sale
// (their documents tabs) and the ticket's timeline gets an "email" row.
// Archive only sets processed. Update right on email, the row_version
// read (409 otherwise), the caller's tenant scope (404); a sent mail or a
// mail processed already answers 422. Nothing is written on any refusal.
func (s *Service) Classify(ctx context.Context, cmd ClassifyCommand) (json.RawMessage, error) {
	// Deciding on a mail changes it: a caller without the right hears 403
	// before anything about the mail (its state, its links) is told.
	if err := s.engine.Require(ctx, access.ActionUpdate, emailEntity); err != nil {
		return nil, err
	}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		rec, err := s.toProcess(ctx, tx, cmd.ID)
		if err != nil {
			return err
		}
		if cmd.Archive {
			return s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: emailEntity, ID: cmd.ID, RowVersion: cmd.RowVersion,
				Data: map[string]any{"email_processed": 1}})
		}
		return s.classifyIn(ctx, tx, rec, cmd)
	})
	if err != nil {
		return nil, err
	}
	return s.Mail(ctx, cmd.ID)
}

// toProcess reads incoming mail id for a decision: the caller's read
// right and tenant scope (403, 404); a sent mail or one processed already
// answers 422.
func (s *Service) toProcess(ctx context.Context, q db.Querier, id int64) (map[string]any, error) {
	rec, _, err := s.engine.GetIn(ctx, q, emailEntity, id)
	if err != nil {
		return nil, err
	}
	if rec["email_direction"] != "in" {
		return nil, apperr.Validation(apperr.FieldError{Field: "email_id", Key: "server.mail.not_incoming", Type: "value_error"})
	}
	if p := fmt.Sprint(rec["email_processed"]); p == "1" || p == "true" {
		return nil, apperr.Validation(apperr.FieldError{Field: "email_id", Key: "server.mail.processed", Type: "value_error"})
	}
	return rec, nil
}

// classifyIn stores the decision on mail rec inside tx (see Classify).
func (s *Service) classifyIn(ctx context.Context, tx *db.Tx, rec map[string]any, cmd ClassifyCommand) error {
	data := map[string]any{"email_processed": 1}
	pos := cmd.PosID
	if cmd.Ticket != 0 {
		t, _, err := s.engine.GetIn(ctx, tx, "ticket", cmd.Ticket)
		if err != nil {
			return err
		}
		if pos == 0 {
			if n, ok := idOf(t["pos_id"]); ok {
				pos = n
			}
		}
	}
	if pos == 0 && cmd.Ticket == 0 && cmd.ContractID == 0 {
		return apperr.Validation(apperr.FieldError{Field: "pos_id", Key: "server.mail.record_required", Type: "missing"})
	}
	data["pos_id"], data["contract_id"], data["ticket_id"] = nilIfZero(pos), nilIfZero(cmd.ContractID), nilIfZero(cmd.Ticket)
	if err := s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: emailEntity, ID: cmd.ID, RowVersion: cmd.RowVersion, Data: data}); err != nil {
		return err
	}
	atts, err := s.attachmentsOf(ctx, tx, cmd.ID)
	if err != nil {
		return err
	}
	for _, a := range atts {
		if cmd.Ticket != 0 {
			if err := s.linkOnce(ctx, tx, "ticket_document_rel", "ticket_document", "ticket_id", cmd.Ticket, a.ID); err != nil {
				return err
			}
		}
		if pos != 0 {
			if err := s.linkOnce(ctx, tx, "pos_document_rel", "pos_document", "pos_id", pos, a.ID); err != nil {
				return err
			}
		}
	}
	if cmd.Ticket == 0 {
		return nil
	}
	subject, _ := rec["email_subject"].(string)
	from, _ := rec["email_from"].(string)
	return s.engine.Track(ctx, tx, tables.TrackEntry{Type: "email", Category: "ticket", RowID: cmd.Ticket, Status: "received",
		Comment: fmt.Sprintf("Mail %d from %s: %s", cmd.ID, from, strings.TrimSpace(subject))})
}

// TicketFromMail asks for a new ticket made from incoming mail ID: the
// ticket's fields as POST /tickets takes them (board_id, columnx_id,
// priority_id, ...), RowVersion the mail's as read.
type TicketFromMail struct {
	ID, RowVersion int64
	Ticket         map[string]any
}

// maxTicketName is the length of a ticket's name (the name field's).
const maxTicketName = 255

// CreateTicket makes a ticket from an incoming mail in one transaction:
// the ticket is created through the engine exactly as POST /tickets
// creates one (create right, tenant, validation, the ticket rules with
// the board a caller must see, history), its name the mail's subject
// unless one is given, its point of sale and contract the mail's
// suggestion unless given; then the mail is linked to it and processed as
// Classify does (its attachments in the ticket's and the point of sale's
// documents, the mail in the ticket's timeline). Any refusal writes
// nothing. Answers the new ticket's id.
func (s *Service) CreateTicket(ctx context.Context, cmd TicketFromMail) (int64, error) {
	for _, need := range [][2]string{{access.ActionCreate, "ticket"}, {access.ActionUpdate, emailEntity}} {
		if err := s.engine.Require(ctx, need[0], need[1]); err != nil {
			return 0, err
		}
	}
	var ticket int64
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		rec, err := s.toProcess(ctx, tx, cmd.ID)
		if err != nil {
			return err
		}
		data := make(map[string]any, len(cmd.Ticket)+3)
		for k, v := range cmd.Ticket {
			data[k] = v
		}
		if name, isText := data["ticket_name"].(string); data["ticket_name"] == nil || isText && strings.TrimSpace(name) == "" {
			data["ticket_name"] = ticketName(rec, cmd.ID)
		}
		for _, f := range []string{"pos_id", "contract_id"} {
			if _, given := data[f]; !given {
				if n, ok := idOf(rec[f]); ok {
					data[f] = n
				}
			}
		}
		if ticket, err = s.engine.CreateIn(ctx, tx, "ticket", data); err != nil {
			return err
		}
		t, _, err := s.engine.GetIn(ctx, tx, "ticket", ticket)
		if err != nil {
			return err
		}
		pos, _ := idOf(t["pos_id"])
		contract, _ := idOf(t["contract_id"])
		return s.classifyIn(ctx, tx, rec, ClassifyCommand{ID: cmd.ID, RowVersion: cmd.RowVersion, PosID: pos, ContractID: contract, Ticket: ticket})
	})
	if err != nil {
		return 0, err
	}
	return ticket, nil
}

// ticketName is the name of a ticket made from mail rec: its subject
// (cut to a ticket name's length), else "Mail <id>".
func ticketName(rec map[string]any, id int64) string {
	subject, _ := rec["email_subject"].(string)
	subject = strings.TrimSpace(subject)
	if r := []rune(subject); len(r) > maxTicketName {
		subject = strings.TrimSpace(string(r[:maxTicketName]))
	}
	if subject == "" {
		return fmt.Sprintf("Mail %d", id)
	}
	return subject
}

// linkOnce links document doc to owner through relation rel unless the
// link (table link, owner column ownerCol) exists already.
func (s *Service) linkOnce(ctx context.Context, tx *db.Tx, rel, link, ownerCol string, owner, doc int64) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+link+` WHERE `+ownerCol+` = ? AND document_id = ?`, owner, doc).Scan(&n); err != nil {
		return fmt.Errorf("documents: look up link %s: %w", link, err)
	}
	if n > 0 {
		return nil
	}
	_, err := s.engine.LinkIn(ctx, tx, tables.LinkCommand{Relation: rel, OwnerID: owner, Data: map[string]any{"document_id": doc}})
	return err
}

func nilIfZero(n int64) any {
	if n == 0 {
		return nil
	}
	return n
}

// idOf reads a record key from a record value.
func idOf(v any) (int64, bool) {
	switch n := v.(type) {
	case int64:
		return n, n > 0
	case int:
		return int64(n), n > 0
	case float64:
		return int64(n), n > 0
	}
	return 0, false
}
