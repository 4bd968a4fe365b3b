package documents

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"html"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"time"

	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/platform/mailbox"
	"portfolio/internal/platform/pdfmark"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// Limits of incoming mail.
const (
	maxIncoming      = 200      // newest messages looked at per fetch
	maxIncomingBytes = 50 << 20 // a larger message is left in the mailbox
	maxMIMEParts     = 100
)

// UseMailbox sets the IMAP mailbox FetchMail reads (empty Addr: none).
func (s *Service) UseMailbox(cfg mailbox.Config) { s.mailbox = cfg }

// FetchMail is the job that stores new incoming mail: it reads the
// configured mailbox and imports what it finds (ImportMail). Without a
// mailbox it does nothing.
func (s *Service) FetchMail(ctx context.Context) error {
	if s.mailbox.Addr == "" {
		return nil
	}
	msgs, err := mailbox.Fetch(ctx, s.mailbox, maxIncoming, maxIncomingBytes)
	if err != nil {
		return err
	}
	n, err := s.ImportMail(ctx, msgs)
	if n > 0 {
		s.log.InfoContext(ctx, "documents: incoming mail stored", "mails", n)
	}
	return err
}

// ImportMail stores each message once (by its Message-ID; a message
// without one by the SHA-256 of its bytes) as an email row with its
// attachments as documents, each message in its own transaction, and
// answers how many it stored. The body is sanitized; a PDF attachment
// (by content) is stored as a PDF, any other as a plain file that is
// never previewed. The point of sale, contract and ticket are suggested
// from the sender (a contact person of a point of sale), a branch number
// and a ticket number in the subject; a person confirms them later
// (email_processed stays 0).
func (s *Service) ImportMail(ctx context.Context, msgs []mailbox.Message) (int, error) {
	sys := tables.AsSystem(auth.WithPrincipal(ctx, nil))
	stored := 0
	var errs []error
	for _, m := range msgs {
		ok, err := s.importOne(sys, m.Raw)
		if err != nil {
			s.log.WarnContext(ctx, "documents: incoming mail not stored", "uid", m.UID, "error", err)
			errs = append(errs, fmt.Errorf("message %d: %w", m.UID, err))
			continue
		}
		if ok {
			stored++
		}
	}
	return stored, errors.Join(errs...)
}

// incoming is a parsed incoming message.
type incoming struct {
	messageID, from, to, cc, subject, body string
	date                                   time.Time
	files                                  []incomingFile
}

type incomingFile struct {
	name string
	data []byte
}

func (s *Service) importOne(ctx context.Context, raw []byte) (bool, error) {
	in, err := parseMail(raw)
	if err != nil {
		return false, err
	}
	src, err := s.engine.Scoped(ctx, emailEntity, "e")
	if err != nil {
		return false, err
	}
	var one int
	err = s.db.QueryRowContext(ctx, `SELECT 1 FROM `+src.SQL+` WHERE e.email_message_id = ?`, append(src.Args, in.messageID)...).Scan(&one)
	if err == nil {
		return false, nil // stored before
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return false, fmt.Errorf("documents: look up message %s: %w", in.messageID, err)
	}
	docType, err := s.attachmentType(ctx)
	if err != nil {
		return false, err
	}
	// Files first (outside the transaction), removed again on failure.
	type kept struct {
		key, sum, mime, name string
		size                 int64
	}
	var files []kept
	discard := func() {
		for _, f := range files {
			s.store.Remove(ctx, f.key)
		}
	}
	for _, f := range in.files {
		ext, mimeType, name := "bin", "application/octet-stream", f.name
		if _, err := pdfmark.Check(bytes.NewReader(f.data)); err == nil {
			ext, mimeType = "pdf", "application/pdf"
			name = strings.TrimSuffix(strings.TrimSuffix(name, ".pdf"), ".PDF")
		}
		key, sum, err := s.store.PutBytes(ctx, f.data, ext)
		if err != nil {
			discard()
			return false, err
		}
		files = append(files, kept{key: key, sum: sum, mime: mimeType, name: name, size: int64(len(f.data))})
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		data, err := s.suggest(ctx, tx, in)
		if err != nil {
			return err
		}
		module := validate.Record{"email_from": in.from, "email_to": in.to, "email_cc": nilIfEmpty(in.cc), "email_subject": in.subject,
			"email_body": in.body, "email_direction": "in", "email_received_datetime": in.date, "email_message_id": in.messageID}
		id, err := s.engine.CreateIn(ctx, tx, emailEntity, data, tables.WithValues(module))
		if err != nil {
			return err
		}
		for _, f := range files {
			if docType == 0 {
				break
			}
			doc, err := s.engine.CreateIn(ctx, tx, entity, map[string]any{"document_name": f.name, "documenttype_id": docType},
				tables.WithValues(validate.Record{"document_file": f.key, "document_mime_type": f.mime, "document_size": f.size, "document_sha256": f.sum}),
				tables.LinkedLater())
			if err != nil {
				return err
			}
			link := tables.LinkCommand{Relation: "email_attachments_rel", OwnerID: id, Data: map[string]any{"document_id": doc}}
			if _, err := s.engine.LinkNewIn(ctx, tx, link, entity, doc); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || docType == 0 {
		discard()
	}
	return err == nil, err
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// attachmentType is the document type of mail attachments: the type
// whose short name is "EM" (E-Mail), else the first type; 0 when there is
// none (attachments are then not kept).
func (s *Service) attachmentType(ctx context.Context) (int64, error) {
	src, err := s.engine.Scoped(ctx, "documenttype", "t")
	if err != nil {
		return 0, err
	}
	var id int64
	err = s.db.QueryRowContext(ctx, `SELECT t.documenttype_id FROM `+src.SQL+
		` ORDER BY CASE WHEN t.documenttype_short = 'EM' THEN 0 ELSE 1 END, t.documenttype_id`, src.Args...).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return id, err
}

// ticketInSubject finds "Ticket 123", "Ticket #123" or "#123".
var ticketInSubject = regexp.MustCompile(`(?i)(?:ticket\s*#?\s*|#)(\d{1,12})\b`)

// words of a subject, for branch numbers.
var subjectWords = regexp.MustCompile(`[\p{L}\p{N}-]+`)

// suggest answers the email's suggested ticket, point of sale and
// contract: a ticket number in the subject, else a branch number in the
// subject, else the point of sale whose contact person wrote.
func (s *Service) suggest(ctx context.Context, q db.Querier, in *incoming) (map[string]any, error) {
	out := map[string]any{}
	if m := ticketInSubject.FindStringSubmatch(in.subject); m != nil {
		id, _ := strconv.ParseInt(m[1], 10, 64)
		src, err := s.engine.Scoped(ctx, "ticket", "t")
		if err != nil {
			return nil, err
		}
		var pos, contract sql.NullInt64
		err = q.QueryRowContext(ctx, `SELECT t.pos_id, t.contract_id FROM `+src.SQL+` WHERE t.ticket_id = ?`, append(src.Args, id)...).Scan(&pos, &contract)
		if err == nil {
			out["ticket_id"] = id
			if pos.Valid {
				out["pos_id"] = pos.Int64
			}
			if contract.Valid {
				out["contract_id"] = contract.Int64
			}
			return out, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
	}
	src, err := s.engine.Scoped(ctx, "pos", "p")
	if err != nil {
		return nil, err
	}
	if words := subjectWords.FindAllString(in.subject, 20); len(words) > 0 {
		args := append([]any{}, src.Args...)
		marks := make([]string, len(words))
		for i, w := range words {
			marks[i] = "?"
			args = append(args, w)
		}
		var pos int64
		err := q.QueryRowContext(ctx, `SELECT p.pos_id FROM `+src.SQL+` WHERE p.pos_branchnumber IN (`+strings.Join(marks, ",")+
			`) ORDER BY p.pos_id`, args...).Scan(&pos)
		if err == nil {
			out["pos_id"] = pos
			return out, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
	}
	var pos int64
	err = q.QueryRowContext(ctx, `SELECT p.pos_id FROM `+src.SQL+` JOIN contactperson cp ON cp.contactperson_id = p.contactperson_id
		JOIN contactdetails cd ON cd.contactdetails_id = cp.contactdetails_id WHERE LOWER(cd.contactdetails_email) = LOWER(?) ORDER BY p.pos_id`,
		append(src.Args, in.from)...).Scan(&pos)
	if err == nil {
		out["pos_id"] = pos
	} else if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	return out, nil
}

// parseMail reads the headers, the body (HTML preferred, else text) and
// the attachments of a raw message.
func parseMail(raw []byte) (*incoming, error) {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("documents: not a mail: %w", err)
	}
	dec := new(mime.WordDecoder)
	header := func(k string) string {
		v := m.Header.Get(k)
		if d, err := dec.DecodeHeader(v); err == nil {
			v = d
		}
		return strings.TrimSpace(strings.NewReplacer("\r", " ", "\n", " ").Replace(v))
	}
	in := &incoming{messageID: header("Message-Id"), subject: header("Subject")}
	if in.messageID == "" {
		sum := sha256.Sum256(raw)
		in.messageID = "<" + hex.EncodeToString(sum[:]) + "@portfolio.invalid>"
	}
	in.from = addressList(m.Header, "From", true)
	in.to = addressList(m.Header, "To", false)
	in.cc = addressList(m.Header, "Cc", false)
	if in.from == "" {
		return nil, errors.New("documents: mail without a sender")
	}
	if in.to == "" {
		in.to = in.from
	}
	if d, err := m.Header.Date(); err == nil {
		in.date = d.UTC()
	} else {
		in.date = time.Now().UTC()
	}
	in.date = in.date.Truncate(time.Second)
	if len(in.subject) > 998 {
		in.subject = in.subject[:998]
	}
	var htmlBody, textBody string
	parts := 0
	var walk func(h map[string][]string, body io.Reader) error
	walk = func(h map[string][]string, body io.Reader) error {
		if parts++; parts > maxMIMEParts {
			return nil
		}
		get := func(k string) string {
			if v := h[k]; len(v) > 0 {
				return v[0]
			}
			return ""
		}
		mt, params, err := mime.ParseMediaType(get("Content-Type"))
		if err != nil {
			mt = "text/plain"
		}
		if strings.HasPrefix(mt, "multipart/") {
			r := multipart.NewReader(body, params["boundary"])
			for {
				p, err := r.NextRawPart()
				if errors.Is(err, io.EOF) {
					return nil
				}
				if err != nil {
					return nil // a broken tail: keep what was read
				}
				if err := walk(p.Header, p); err != nil {
					return err
				}
			}
		}
		content, err := decodeBody(get("Content-Transfer-Encoding"), body)
		if err != nil {
			return err
		}
		_, dp, _ := mime.ParseMediaType(get("Content-Disposition"))
		name := dp["filename"]
		if name == "" {
			name = params["name"]
		}
		if d, err := dec.DecodeHeader(name); err == nil {
			name = d
		}
		switch {
		case name != "" || strings.HasPrefix(get("Content-Disposition"), "attachment"):
			in.files = append(in.files, incomingFile{name: safeName(name), data: content})
		case mt == "text/html" && htmlBody == "":
			htmlBody = string(content)
		case mt == "text/plain" && textBody == "":
			textBody = string(content)
		}
		return nil
	}
	if err := walk(m.Header, m.Body); err != nil {
		return nil, err
	}
	if htmlBody == "" {
		htmlBody = "<pre>" + html.EscapeString(textBody) + "</pre>"
	}
	in.body = SanitizeHTML(htmlBody)
	return in, nil
}

// addressList answers the bare addresses of a header, comma-separated
// (only the first when first is set).
func addressList(h mail.Header, key string, first bool) string {
	list, err := h.AddressList(key)
	if err != nil {
		return ""
	}
	var out []string
	for _, a := range list {
		out = append(out, a.Address)
		if first {
			break
		}
	}
	return strings.Join(out, ", ")
}

// decodeBody undoes a part's transfer encoding.
func decodeBody(encoding string, r io.Reader) ([]byte, error) {
	r = io.LimitReader(r, maxIncomingBytes)
	switch strings.ToLower(strings.TrimSpace(encoding)) {
	case "base64":
		return io.ReadAll(base64.NewDecoder(base64.StdEncoding, newlineStripper{r}))
	case "quoted-printable":
		return io.ReadAll(quotedprintable.NewReader(r))
	}
	return io.ReadAll(r)
}

// newlineStripper drops line breaks from base64 text.
type newlineStripper struct{ r io.Reader }

func (n newlineStripper) Read(p []byte) (int, error) {
	for {
		c, err := n.r.Read(p)
		j := 0
		for _, b := range p[:c] {
			if b != '\r' && b != '\n' && b != ' ' {
				p[j] = b
				j++
			}
		}
		if j > 0 || err != nil {
			return j, err
		}
	}
}

// safeName keeps an attachment's name as a display name only: no folders,
// no control characters, at most 200 characters.
func safeName(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, name)
	if r := []rune(strings.TrimSpace(name)); len(r) > 200 {
		name = string(r[:200])
	}
	if strings.TrimSpace(name) == "" || name == "." || name == ".." {
		name = "attachment"
	}
	return name
}
