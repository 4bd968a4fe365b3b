package contracts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/deadline"
	"portfolio/internal/platform/mailer"
	"portfolio/internal/tables"
)

// Deadline alerts: each responsible user gets one daily digest of the
// items they answer for (active contract deadlines, statements' objection
// deadlines: due.go) whose date came within one of their horizons (90, 30
// and 7 days unless they chose otherwise) since the last digest. An item
// is announced once per date and horizon, however often and wherever the
// job runs: the announcement rows are written in the transaction that
// queues the mail, and their key refuses a second one.

// DefaultHorizons are the days before a notice date at which a user hears
// about a deadline, unless they chose otherwise.
var DefaultHorizons = []int{90, 30, 7}

// maxHorizon bounds the horizons a user may choose, in days.
const maxHorizon = 365

// AlertSettings are a user's choices about the deadline digest.
type AlertSettings struct {
	Digest   bool  `json:"digest"`
	Horizons []int `json:"horizons"`
}

// Settings answers the caller's digest settings (the defaults when they
// never chose).
func (s *Service) Settings(ctx context.Context) (AlertSettings, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return AlertSettings{}, apperr.Unauthorized("server.auth.not_authenticated")
	}
	set, err := s.settingsOf(ctx, s.db, p.UserID)
	return set, err
}

func (s *Service) settingsOf(ctx context.Context, q db.Querier, user int64) (AlertSettings, error) {
	var digest int
	var horizons string
	err := q.QueryRowContext(ctx, `SELECT digest, horizons FROM deadline_alert_setting WHERE user_id = ?`, user).Scan(&digest, &horizons)
	if errors.Is(err, sql.ErrNoRows) {
		return AlertSettings{Digest: true, Horizons: slices.Clone(DefaultHorizons)}, nil
	}
	if err != nil {
		return AlertSettings{}, fmt.Errorf("contracts: alert settings of user %d: %w", user, err)
	}
	return AlertSettings{Digest: digest == 1, Horizons: parseHorizons(horizons)}, nil
}

// SaveSettings stores the caller's digest settings: one to five horizons,
// each from 1 to 365 days (422 on horizons otherwise).
func (s *Service) SaveSettings(ctx context.Context, set AlertSettings) (AlertSettings, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return AlertSettings{}, apperr.Unauthorized("server.auth.not_authenticated")
	}
	hs := slices.Clone(set.Horizons)
	slices.Sort(hs)
	hs = slices.Compact(hs)
	if len(hs) == 0 || len(hs) > 5 || hs[0] < 1 || hs[len(hs)-1] > maxHorizon {
		return AlertSettings{}, apperr.Validation(apperr.FieldError{Field: "horizons", Key: "server.contracts.horizons", Type: "value_error"})
	}
	slices.Reverse(hs)
	digest := 0
	if set.Digest {
		digest = 1
	}
	text := joinHorizons(hs)
	_, err := s.db.ExecContext(ctx, `INSERT INTO deadline_alert_setting (user_id, digest, horizons) VALUES (?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET digest = excluded.digest, horizons = excluded.horizons`, p.UserID, digest, text)
	if err != nil {
		return AlertSettings{}, fmt.Errorf("contracts: save alert settings of user %d: %w", p.UserID, err)
	}
	return AlertSettings{Digest: set.Digest, Horizons: hs}, nil
}

func parseHorizons(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return slices.Clone(DefaultHorizons)
	}
	return out
}

func joinHorizons(hs []int) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = strconv.Itoa(h)
	}
	return strings.Join(parts, ",")
}

// recipient is a user the digest writes to, with their choices.
type recipient struct {
	id                int64
	email, name, lang string
	digest            bool
	horizons          []int
}

// pendingItem is a due item with the horizons it came within and that
// were not announced for its date yet.
type pendingItem struct {
	deadline.Due
	horizons []int
}

// announcement names one announcement: an item, its date and a horizon.
type announcement struct {
	item, date string
	horizon    int
}

// SendDeadlineDigests queues each responsible user's digest of the items
// (contract deadlines, statement deadlines) that came within one of their
// horizons since they were last announced, and answers how many mails it
// queued. It runs daily (job deadline_alerts); it finds the recipients as
// the system and reads each one's items as that user.
func (s *Service) SendDeadlineDigests(ctx context.Context) (int, error) {
	today := Day(s.now())
	users, err := s.dueRecipients(tables.AsSystem(ctx), today, today.AddDate(0, 0, maxHorizon))
	if err != nil {
		return 0, err
	}
	announced, err := s.announced(ctx, today)
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, u := range users {
		ok, err := s.digestFor(ctx, u, today, announced)
		if err != nil {
			return sent, err
		}
		if ok {
			sent++
		}
	}
	if sent > 0 && s.outbox != nil {
		s.outbox.Kick()
	}
	return sent, nil
}

// digestFor queues user's digest when some of their items crossed a
// horizon not yet announced, and reports whether it did.
func (s *Service) digestFor(ctx context.Context, user int64, today time.Time, announced map[announcement]bool) (bool, error) {
	rc, ok, err := s.recipientOf(ctx, user)
	if err != nil || !ok || !rc.digest {
		return false, err
	}
	as, _, ok, err := s.asRecipient(ctx, user)
	if err != nil || !ok {
		return false, err
	}
	items, err := s.dueItems(as, rc.lang, today, today.AddDate(0, 0, maxHorizon))
	if err != nil {
		return false, err
	}
	var pending []pendingItem
	for _, it := range items {
		days := int(daysBetween(today, it.Date))
		var hs []int
		for _, h := range rc.horizons {
			if days >= 0 && days <= h && !announced[announcement{it.Key, it.Date.Format(time.DateOnly), h}] {
				hs = append(hs, h)
			}
		}
		if len(hs) > 0 {
			pending = append(pending, pendingItem{Due: it, horizons: hs})
		}
	}
	if len(pending) == 0 {
		return false, nil
	}
	return s.sendDigest(ctx, today, rc, pending)
}

// recipientOf reads an unlocked user's address, language and digest
// choices (false for a locked or missing user).
func (s *Service) recipientOf(ctx context.Context, user int64) (recipient, bool, error) {
	rc := recipient{id: user}
	var digest int
	var horizons string
	err := s.db.QueryRowContext(ctx, `SELECT u.user_email, COALESCE(u.user_firstname, '') || ' ' || COALESCE(u.user_lastname, ''),
			COALESCE(u.user_language, ''), COALESCE(st.digest, 1), COALESCE(st.horizons, '')
		FROM users u LEFT JOIN deadline_alert_setting st ON st.user_id = u.user_id
		WHERE u.user_id = ? AND u.user_locked = 0`, user).Scan(&rc.email, &rc.name, &rc.lang, &digest, &horizons)
	if errors.Is(err, sql.ErrNoRows) {
		return rc, false, nil
	}
	if err != nil {
		return rc, false, fmt.Errorf("contracts: digest recipient %d: %w", user, err)
	}
	if !i18n.Supported(rc.lang) {
		rc.lang = i18n.Default
	}
	rc.digest, rc.horizons = digest == 1, parseHorizons(horizons)
	return rc, true, nil
}

// announced reads the announcements of items due today or later, after
// forgetting those of dates long past.
func (s *Service) announced(ctx context.Context, today time.Time) (map[announcement]bool, error) {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM digest_sent WHERE due_date < ?`,
		today.AddDate(-1, 0, 0).Format(time.DateOnly)); err != nil {
		return nil, fmt.Errorf("contracts: forget old announcements: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT item, due_date, horizon FROM digest_sent WHERE due_date >= ?`,
		today.Format(time.DateOnly))
	if err != nil {
		return nil, fmt.Errorf("contracts: announcements sent: %w", err)
	}
	defer rows.Close()
	sent := map[announcement]bool{}
	for rows.Next() {
		var a announcement
		var date any
		if err := rows.Scan(&a.item, &date, &a.horizon); err != nil {
			return nil, fmt.Errorf("contracts: announcements sent: %w", err)
		}
		d, err := dateOf(date)
		if err != nil || d == nil {
			return nil, fmt.Errorf("contracts: announcement of %s: %v: %w", a.item, date, err)
		}
		a.date = d.Format(time.DateOnly)
		sent[a] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("contracts: announcements sent: %w", err)
	}
	return sent, nil
}

// sendDigest records the announcements of one user's items and queues
// their digest in one transaction. When another run announced them
// meanwhile (the key refuses the rows), nothing is queued.
func (s *Service) sendDigest(ctx context.Context, today time.Time, rc recipient, items []pendingItem) (bool, error) {
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, it := range items {
			for _, h := range it.horizons {
				if _, err := tx.ExecContext(ctx, `INSERT INTO digest_sent (item, due_date, horizon, user_id, sent_at)
					VALUES (?, ?, ?, ?, ?)`, it.Key, it.Date.Format(time.DateOnly), h, rc.id, s.now().UTC()); err != nil {
					return err
				}
			}
		}
		_, err := s.outbox.Enqueue(ctx, tx, s.digestMail(today, rc, items))
		return err
	})
	if db.IsUniqueViolation(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("contracts: digest for user %d: %w", rc.id, err)
	}
	return true, nil
}

// digestMail writes rc's digest of items in their language.
func (s *Service) digestMail(today time.Time, rc recipient, items []pendingItem) mailer.Message {
	lang := rc.lang
	var b strings.Builder
	b.WriteString(s.catalog.T(lang, "mail.greeting", map[string]string{"name": strings.TrimSpace(rc.name)}) + "\n\n")
	b.WriteString(s.catalog.T(lang, "mail.deadlines.intro", nil) + "\n\n")
	for _, it := range items {
		b.WriteString(s.catalog.T(lang, "mail.deadlines.line", map[string]string{
			"date":  s.catalog.LongDate(lang, it.Date),
			"days":  s.catalog.N(lang, "mail.deadlines.days", daysBetween(today, it.Date), nil),
			"title": it.Title,
			"link":  strings.TrimRight(s.publicURL, "/") + it.Path,
		}) + "\n")
		if it.Rule != "" {
			b.WriteString("  " + it.Rule + "\n") // the rule that produced the date
		}
	}
	b.WriteString("\n" + s.catalog.T(lang, "mail.deadlines.settings", nil) + "\n\n")
	b.WriteString(s.catalog.T(lang, "mail.signature", nil) + "\n")
	return mailer.Message{To: []string{rc.email},
		Subject: s.catalog.N(lang, "mail.deadlines.subject", int64(len(items)), nil), Text: b.String()}
}

// daysBetween counts the calendar days from one day to a later one.
func daysBetween(from, to time.Time) int64 {
	return int64(math.Round(to.Sub(from).Hours() / 24))
}

// alertSettings serves GET /user/deadline-alerts.
func (h *handler) alertSettings(w http.ResponseWriter, r *http.Request) error {
	set, err := h.s.Settings(r.Context())
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": set})
	return nil
}

// saveAlertSettings serves PUT /user/deadline-alerts.
func (h *handler) saveAlertSettings(w http.ResponseWriter, r *http.Request) error {
	var in AlertSettings
	if err := httpapi.DecodeJSON(r, &in, true); err != nil {
		return err
	}
	set, err := h.s.SaveSettings(r.Context(), in)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": set})
	return nil
}
