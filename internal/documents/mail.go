package documents

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/microcosm-cc/bluemonday"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/platform/mailer"
	"portfolio/internal/schema"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// Limits of a mail sent from the product.
const (
	maxRecipients = 50
	// MaxMailKB bounds a mail's attachments together.
	MaxMailKB    = 20000
	maxMailBody  = 512 << 10
	emailEntity  = "email"
	docEmailsRel = "document_email_rel"
)

// UseMail gives the service the outbox it sends mail through; without it
// POST /emails/send answers 404.
func (s *Service) UseMail(o *mailer.Outbox, from string) { s.outbox, s.mailFrom = o, from }

// bodyPolicy is the allow-list of mail bodies (bluemonday): the rich
// editor's formatting, links (no follow, new tab) and inline data images
// only; no script, style, event handler, form, frame or remote image.
var bodyPolicy = func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "div", "span", "b", "strong", "i", "em", "u", "s", "strike", "sub", "sup", "mark",
		"h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "code", "hr", "ul", "ol", "li",
		"table", "thead", "tbody", "tfoot", "tr", "th", "td", "caption")
	p.AllowAttrs("href").OnElements("a")
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireParseableURLs(true)
	p.RequireNoFollowOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	p.AllowAttrs("colspan", "rowspan").Matching(regexp.MustCompile(`^[0-9]{1,3}$`)).OnElements("td", "th")
	p.AllowAttrs("alt").OnElements("img")
	p.AllowAttrs("src").Matching(regexp.MustCompile(`^data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]+$`)).OnElements("img")
	p.AllowDataURIImages()
	return p
}()

// SanitizeHTML answers a mail body with only what the allow-list keeps.
func SanitizeHTML(body string) string { return bodyPolicy.Sanitize(body) }

// tagPattern strips tags for a mail's plain-text part.
var tagPattern = regexp.MustCompile(`<[^>]*>`)

// plainText is a sanitized body as plain text.
func plainText(body string) string {
	t := strings.NewReplacer("<br>", "\n", "<br/>", "\n", "</p>", "\n\n", "</li>", "\n", "</div>", "\n", "<hr>", "\n----\n").Replace(body)
	return strings.TrimSpace(html.UnescapeString(tagPattern.ReplaceAllString(t, "")))
}

// SendCommand is a mail composed in the product (POST /emails/send).
type SendCommand struct {
	To, Cc      []string
	Subject     string
	Body        string
	Attachments []int64
	TicketID    int64
	PosID       int64
}

// Send checks the mail, stores it as an email row of the ticket and its
// point of sale with the attachments linked, and queues it in the outbox
// with the attachments' files, all in one transaction: an invalid
// recipient, an attachment outside the caller's tenant (404) or too much
// attached (422) writes nothing.
func (s *Service) Send(ctx context.Context, cmd SendCommand) (int64, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return 0, apperr.Unauthorized("server.auth.not_authenticated")
	}
	if s.outbox == nil {
		return 0, apperr.NotFound("server.error.not_found")
	}
	if err := s.engine.Require(ctx, access.ActionCreate, emailEntity); err != nil {
		return 0, err
	}
	to, err := addresses("email_to", cmd.To)
	if err != nil {
		return 0, err
	}
	if len(to) == 0 {
		return 0, apperr.Validation(apperr.FieldError{Field: "email_to", Key: "server.mail.no_recipient", Type: "missing"})
	}
	cc, err := addresses("email_cc", cmd.Cc)
	if err != nil {
		return 0, err
	}
	subject := strings.TrimSpace(cmd.Subject)
	if strings.ContainsAny(subject, "\r\n") || len(subject) > 998 {
		return 0, apperr.Validation(apperr.FieldError{Field: "email_subject", Key: "server.tables.not_a_value", Type: "value_error",
			Args: map[string]string{"field": "email_subject"}})
	}
	if len(cmd.Body) > maxMailBody {
		return 0, apperr.Validation(apperr.FieldError{Field: "email_body", Key: "server.mail.too_large", Type: "value_error",
			Args: map[string]string{"size": strconv.Itoa(maxMailBody >> 10)}})
	}
	body := SanitizeHTML(cmd.Body)
	var id int64
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		data := map[string]any{}
		pos := cmd.PosID
		if cmd.TicketID != 0 {
			rec, _, err := s.engine.GetIn(ctx, tx, "ticket", cmd.TicketID)
			if err != nil {
				return err
			}
			data["ticket_id"] = cmd.TicketID
			if v, ok := rec["pos_id"]; ok && !validate.Empty(v) {
				if n, err := validate.Coerce(schema.TypeID, v); err == nil {
					pos, _ = n.(int64)
				}
			}
		}
		if pos != 0 {
			if err := s.engine.MustSeeIn(ctx, tx, "pos", pos); err != nil {
				return err
			}
			data["pos_id"] = pos
		}
		files, err := s.attachments(ctx, tx, cmd.Attachments)
		if err != nil {
			return err
		}
		now := s.now().UTC().Truncate(time.Second)
		module := validate.Record{"email_from": s.mailFrom, "email_to": strings.Join(to, ", "), "email_cc": strings.Join(cc, ", "),
			"email_subject": subject, "email_body": body, "email_direction": "out", "email_received_datetime": now, "user_id": p.UserID}
		if len(cc) == 0 {
			module["email_cc"] = nil
		}
		opts := []tables.WriteOption{tables.WithValues(module)}
		if pos == 0 {
			opts = append(opts, tables.LinkedLater())
		}
		if id, err = s.engine.CreateIn(ctx, tx, emailEntity, data, opts...); err != nil {
			return err
		}
		for _, doc := range cmd.Attachments {
			link := tables.LinkCommand{Relation: docEmailsRel, OwnerID: doc, Data: map[string]any{"email_id": id}}
			if _, err := s.engine.LinkNewIn(ctx, tx, link, emailEntity, id); err != nil {
				return err
			}
		}
		if cmd.TicketID != 0 {
			if err := s.engine.Track(ctx, tx, tables.TrackEntry{Type: "email", Category: "ticket", RowID: cmd.TicketID, Status: "sent",
				Comment: fmt.Sprintf("Mail %d to %s: %s", id, strings.Join(to, ", "), subject)}); err != nil {
				return err
			}
		}
		_, err = s.outbox.Enqueue(ctx, tx, mailer.Message{To: to, Cc: cc, Subject: subject, Text: plainText(body), HTML: body, Attachments: files})
		return err
	})
	if err != nil {
		return 0, err
	}
	s.outbox.Kick()
	return id, nil
}

// addresses checks mail addresses: each a bare address (no name, no
// list), at most maxRecipients; 422 naming the first bad one.
func addresses(field string, in []string) ([]string, error) {
	if len(in) > maxRecipients {
		return nil, apperr.Validation(apperr.FieldError{Field: field, Key: "validation.max", Type: "max",
			Args: map[string]string{"field": field, "length": strconv.Itoa(maxRecipients)}})
	}
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, raw := range in {
		a := strings.TrimSpace(raw)
		parsed, err := mail.ParseAddress(a)
		if err != nil || parsed.Address != a || parsed.Name != "" || strings.ContainsAny(a, ",;<>\r\n") {
			return nil, apperr.Validation(apperr.FieldError{Field: field, Key: "server.mail.bad_address", Type: "value_error",
				Args: map[string]string{"value": a}})
		}
		if k := strings.ToLower(a); !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	return out, nil
}

// attachments reads the files of documents ids, each within the caller's
// tenant (404 like a missing one), at most MaxMailKB together.
func (s *Service) attachments(ctx context.Context, q db.Querier, ids []int64) ([]mailer.Attachment, error) {
	var out []mailer.Attachment
	total := 0
	for _, id := range ids {
		r, err := s.readRow(ctx, q, id)
		if err != nil {
			return nil, err
		}
		f, err := s.openOriginal(ctx, r)
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(io.LimitReader(f, MaxMailKB*1024+1))
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("documents: read attachment %d: %w", id, err)
		}
		if total += len(b); total > MaxMailKB*1024 {
			return nil, apperr.Validation(apperr.FieldError{Field: "email_attachements", Key: "server.mail.too_large", Type: "value_error",
				Args: map[string]string{"size": strconv.Itoa(MaxMailKB)}})
		}
		out = append(out, mailer.Attachment{Name: r.name + ".pdf", ContentType: "application/pdf", Data: b})
	}
	return out, nil
}
