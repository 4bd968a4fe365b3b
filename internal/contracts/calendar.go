package contracts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
)

// The personal calendar feed: each user may hold one secret link
// /calendar/{token}.ics that any calendar program subscribes to without
// logging in. It answers one all-day event per notice date of the active
// deadlines the user is responsible for and may still see. Only a hash of
// the token is stored (calendar_token), so the table cannot be turned into
// working links; the token is no session and no access token, so it opens
// nothing else. Creating a link replaces the user's previous one.

// PrincipalSource builds the principal of a user who is not logged in, so
// the feed reads within exactly that user's rights and tenant
// (auth.Service.PrincipalOf). The engine's module API acts for the caller
// of a context; the feed has no caller, so it acts as the link's owner.
type PrincipalSource interface {
	PrincipalOf(ctx context.Context, userID int64) (*auth.Principal, error)
}

// UsePrincipals sets where the calendar feed finds the link owner's
// rights; without it the feed answers 404.
func (s *Service) UsePrincipals(p PrincipalSource) { s.principals = p }

// calendarHorizonPast is how far back the feed shows notice dates.
const calendarHorizonPast = 365

// maxCalendarEvents bounds the events of one feed.
const maxCalendarEvents = 5000

// bindCalendar registers the calendar routes (Bind).
func bindCalendar(srv *httpapi.Server, h *handler) {
	srv.Handle("GET /user/calendar", h.calendarLink)
	srv.Handle("POST /user/calendar", h.createCalendar)
	srv.Handle("DELETE /user/calendar", h.revokeCalendar)
	srv.Handle("GET /calendar/{file}", h.calendarFeed, httpapi.Public())
}

// CreateCalendarLink makes a new secret link for the caller, replacing the
// one they had, and answers its URL under base.
func (s *Service) CreateCalendarLink(ctx context.Context, base string) (string, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return "", apperr.Unauthorized("server.auth.not_authenticated")
	}
	token := auth.RandomToken()
	_, err := s.db.ExecContext(ctx, `INSERT INTO calendar_token (user_id, token_hash, created_at) VALUES (?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at`,
		p.UserID, auth.HashToken(token), s.now().UTC())
	if err != nil {
		return "", fmt.Errorf("contracts: save calendar link of user %d: %w", p.UserID, err)
	}
	return strings.TrimRight(base, "/") + "/calendar/" + token + ".ics", nil
}

// CalendarLinkState says whether the caller holds a calendar link and
// since when. The link's URL cannot be told again: only its hash is stored.
type CalendarLinkState struct {
	Exists    bool       `json:"exists"`
	CreatedAt *time.Time `json:"created_at,omitempty"`
}

// CalendarLink answers whether the caller holds a calendar link.
func (s *Service) CalendarLink(ctx context.Context) (CalendarLinkState, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return CalendarLinkState{}, apperr.Unauthorized("server.auth.not_authenticated")
	}
	var created time.Time
	err := s.db.QueryRowContext(ctx, `SELECT created_at FROM calendar_token WHERE user_id = ?`, p.UserID).Scan(&created)
	if errors.Is(err, sql.ErrNoRows) {
		return CalendarLinkState{}, nil
	}
	if err != nil {
		return CalendarLinkState{}, fmt.Errorf("contracts: calendar link of user %d: %w", p.UserID, err)
	}
	created = created.UTC()
	return CalendarLinkState{Exists: true, CreatedAt: &created}, nil
}

// RevokeCalendarLink removes the caller's link; revoking none is no error.
func (s *Service) RevokeCalendarLink(ctx context.Context) error {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return apperr.Unauthorized("server.auth.not_authenticated")
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM calendar_token WHERE user_id = ?`, p.UserID); err != nil {
		return fmt.Errorf("contracts: revoke calendar link of user %d: %w", p.UserID, err)
	}
	return nil
}

// calendarEvent is one notice date in the feed.
type calendarEvent struct {
	id         int64
	notice     time.Time
	typ        string
	contractID int64
	contract   string
	pos        string
	rule       string // the rule that produced the date, in the owner's language
}

// CalendarFeed answers the iCalendar text of token's owner, or 404 for an
// unknown or revoked token (or a locked user).
func (s *Service) CalendarFeed(ctx context.Context, token string) ([]byte, error) {
	user, err := s.calendarOwner(ctx, token)
	if err != nil {
		return nil, err
	}
	if s.principals == nil {
		return nil, apperr.NotFound("server.error.not_found")
	}
	p, err := s.principals.PrincipalOf(ctx, user)
	if err != nil {
		return nil, err
	}
	ctx = auth.WithPrincipal(ctx, p)
	lang := p.Language
	if !i18n.Supported(lang) {
		lang = i18n.Default
	}
	events, err := s.calendarEvents(i18n.WithLang(ctx, lang), user)
	if err != nil {
		return nil, err
	}
	return s.renderCalendar(lang, events), nil
}

// calendarOwner finds the user of a token (404 when there is none).
func (s *Service) calendarOwner(ctx context.Context, token string) (int64, error) {
	if len(token) < 20 || len(token) > 100 {
		return 0, apperr.NotFound("server.error.not_found")
	}
	var user int64
	err := s.db.QueryRowContext(ctx, `SELECT user_id FROM calendar_token WHERE token_hash = ?`, auth.HashToken(token)).Scan(&user)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, apperr.NotFound("server.error.not_found")
	}
	if err != nil {
		return 0, fmt.Errorf("contracts: calendar token: %w", err)
	}
	return user, nil
}

// calendarEvents reads the active deadlines user is responsible for, as
// that user sees them (ctx carries their principal) through the deadline
// list: none without the list rights it needs, only rows within their
// tenant.
func (s *Service) calendarEvents(ctx context.Context, user int64) ([]calendarEvent, error) {
	from := Day(s.now()).AddDate(0, 0, -calendarHorizonPast).Format(time.DateOnly)
	page, err := s.Deadlines(ctx, DeadlineQuery{From: from, Statuses: []string{StatusActive}, Responsible: user,
		Page: 1, PerPage: maxCalendarEvents, OrderBy: fieldNotice, Order: "ASC"})
	if apperr.IsKind(err, apperr.KindForbidden) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("contracts: calendar of user %d: %w", user, err)
	}
	out := make([]calendarEvent, 0, len(page.Data))
	for _, r := range page.Data {
		n, err := dateOf(deref(r.NoticeDate))
		if err != nil || n == nil {
			return nil, fmt.Errorf("contracts: calendar deadline %d: notice date %v: %w", r.ID, r.NoticeDate, err)
		}
		out = append(out, calendarEvent{id: r.ID, notice: *n, typ: r.Type, contractID: r.ContractID,
			contract: deref(r.ContractLabel), pos: deref(r.PosLabel), rule: r.Explanation})
	}
	return out, nil
}

// deref is *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// renderCalendar writes the feed (RFC 5545) in lang.
func (s *Service) renderCalendar(lang string, events []calendarEvent) []byte {
	host := "portfolio"
	if i := strings.Index(s.publicURL, "://"); i >= 0 {
		host = strings.SplitN(s.publicURL[i+3:], "/", 2)[0]
	}
	stamp := s.now().UTC().Format("20060102T150405Z")
	var c icsWriter
	c.line("BEGIN:VCALENDAR")
	c.line("VERSION:2.0")
	c.line("PRODID:-//Portfolio//Deadlines//EN")
	c.line("CALSCALE:GREGORIAN")
	c.line("METHOD:PUBLISH")
	c.prop("X-WR-CALNAME", s.catalog.T(lang, "calendar.name", nil))
	for _, e := range events {
		link := fmt.Sprintf("%s/app/table/contract/view/%d", strings.TrimRight(s.publicURL, "/"), e.contractID)
		typ := s.attrs.T(lang, "contractaction_type."+e.typ, nil)
		where := e.contract
		if e.pos != "" {
			where += ", " + e.pos
		}
		c.line("BEGIN:VEVENT")
		c.line(fmt.Sprintf("UID:deadline-%d-%s@%s", e.id, e.notice.Format("20060102"), host))
		c.line("DTSTAMP:" + stamp)
		c.line("DTSTART;VALUE=DATE:" + e.notice.Format("20060102"))
		c.line("DTEND;VALUE=DATE:" + e.notice.AddDate(0, 0, 1).Format("20060102"))
		c.prop("SUMMARY", s.catalog.T(lang, "calendar.summary", map[string]string{"type": typ, "contract": where}))
		c.prop("DESCRIPTION", s.catalog.T(lang, "calendar.description", map[string]string{"type": typ, "contract": where, "link": link})+
			"\n"+e.rule)
		c.line("URL:" + link)
		c.line("TRANSP:TRANSPARENT")
		c.line("END:VEVENT")
	}
	c.line("END:VCALENDAR")
	return []byte(c.b.String())
}

// icsWriter writes content lines: CRLF endings, folded at 75 octets.
type icsWriter struct{ b strings.Builder }

// prop writes a property whose value is TEXT (escaped).
func (w *icsWriter) prop(name, value string) { w.line(name + ":" + icsEscape(value)) }

// line writes one content line folded at 75 octets (RFC 5545 3.1): each
// continuation starts with a space, and no UTF-8 character is split.
func (w *icsWriter) line(s string) {
	limit := 75
	for len(s) > limit {
		cut := limit
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		w.b.WriteString(s[:cut] + "\r\n ")
		s = s[cut:]
		limit = 74 // the leading space counts
	}
	w.b.WriteString(s + "\r\n")
}

// utf8Start reports whether b begins a UTF-8 character.
func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// icsEscape escapes a TEXT value (RFC 5545 3.3.11).
func icsEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `;`, `\;`, `,`, `\,`, "\r\n", `\n`, "\n", `\n`, "\r", `\n`).Replace(s)
}

// requestBase is the public URL, or the request's own origin when none is
// configured.
func (s *Service) requestBase(r *http.Request) string {
	if s.publicURL != "" {
		return s.publicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// calendarLink serves GET /user/calendar.
func (h *handler) calendarLink(w http.ResponseWriter, r *http.Request) error {
	state, err := h.s.CalendarLink(r.Context())
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	httpapi.WriteJSON(w, http.StatusOK, state)
	return nil
}

// createCalendar serves POST /user/calendar.
func (h *handler) createCalendar(w http.ResponseWriter, r *http.Request) error {
	url, err := h.s.CreateCalendarLink(r.Context(), h.s.requestBase(r))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"url": url})
	return nil
}

// revokeCalendar serves DELETE /user/calendar.
func (h *handler) revokeCalendar(w http.ResponseWriter, r *http.Request) error {
	if err := h.s.RevokeCalendarLink(r.Context()); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// calendarFeed serves GET /calendar/{token}.ics without login.
func (h *handler) calendarFeed(w http.ResponseWriter, r *http.Request) error {
	token, ok := strings.CutSuffix(r.PathValue("file"), ".ics")
	if !ok {
		return apperr.NotFound("server.error.not_found")
	}
	body, err := h.s.CalendarFeed(r.Context(), token)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Content-Disposition", `inline; filename="deadlines.ics"`)
	w.Header().Set("Cache-Control", "private, max-age=900")
	_, err = w.Write(body)
	return err
}
