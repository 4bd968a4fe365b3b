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
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/deadline"
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

// calendarHorizonPast is how far back the feed shows notice dates.
const calendarHorizonPast = 365

// calendarYearsAhead is how far ahead the feed shows dates.
const calendarYearsAhead = 100

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
	return ForgetCalendarLink(ctx, s.db, p.UserID)
}

// ForgetCalendarLink removes the calendar link of user in q: with a
// password change (auth.Service.OnPasswordChanged) the old link stops,
// as a calendar program subscribed with it is one the old password let in
// (issue 42); the user makes a new one.
func ForgetCalendarLink(ctx context.Context, q db.Querier, user int64) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM calendar_token WHERE user_id = ?`, user); err != nil {
		return fmt.Errorf("contracts: revoke calendar link of user %d: %w", user, err)
	}
	return nil
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
	as, p, ok, err := s.asRecipient(ctx, user)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apperr.NotFound("server.error.not_found")
	}
	lang := p.Language
	if !i18n.Supported(lang) {
		lang = i18n.Default
	}
	events, err := s.calendarEvents(i18n.WithLang(as, lang), lang, user)
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

// calendarEvents are the items user answers for (ctx carries their
// principal) from a year ago on, as they may see them: none of a list
// they have no rights to, only rows within their tenant.
func (s *Service) calendarEvents(ctx context.Context, lang string, user int64) ([]deadline.Due, error) {
	today := Day(s.now())
	items, err := s.dueItems(ctx, lang, today.AddDate(0, 0, -calendarHorizonPast), today.AddDate(calendarYearsAhead, 0, 0))
	if err != nil {
		return nil, fmt.Errorf("contracts: calendar of user %d: %w", user, err)
	}
	if len(items) > maxCalendarEvents {
		items = items[:maxCalendarEvents]
	}
	return items, nil
}

// renderCalendar writes the feed (RFC 5545) in lang.
func (s *Service) renderCalendar(lang string, events []deadline.Due) []byte {
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
		link := strings.TrimRight(s.publicURL, "/") + e.Path
		day := e.Date.Format("20060102")
		c.line("BEGIN:VEVENT")
		// "deadline-12-20270705@host": a contract deadline keeps the
		// identity it had before other modules' items joined the feed.
		c.line(fmt.Sprintf("UID:%s-%s@%s", strings.ReplaceAll(e.Key, "/", "-"), day, host))
		c.line("DTSTAMP:" + stamp)
		c.line("DTSTART;VALUE=DATE:" + day)
		c.line("DTEND;VALUE=DATE:" + e.Date.AddDate(0, 0, 1).Format("20060102"))
		c.prop("SUMMARY", e.Title)
		c.prop("DESCRIPTION", s.catalog.T(lang, "calendar.description", map[string]string{"title": e.Title, "link": link})+
			"\n"+e.Rule)
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
