package contracts

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/mailer"
	"portfolio/internal/tables"
)

// Deadline alerts: each responsible user gets one daily digest of the
// active deadlines whose notice date came within one of their horizons
// (90, 30 and 7 days unless they chose otherwise) since the last digest.
// A deadline is announced once per notice date and horizon, however often
// and wherever the job runs: the announcement rows are written in the
// transaction that queues the mail, and their key refuses a second one.

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

// dueDeadline is an active deadline with a responsible user whose notice
// date lies ahead within the longest horizon.
type dueDeadline struct {
	id                int64
	notice            time.Time
	typ               string
	contractID        int64
	contract, pos     string
	user              int64
	email, name, lang string
	digest            bool
	horizons          []int
	pending           []int // horizons crossed and not yet announced
	rule              Explanation
}

// SendDeadlineDigests queues each responsible user's digest of deadlines
// that crossed a horizon since they were last announced, and answers how
// many mails it queued. It runs daily (job deadline_alerts) as the system.
func (s *Service) SendDeadlineDigests(ctx context.Context) (int, error) {
	ctx = tables.AsSystem(ctx)
	today := Day(s.now())
	due, err := s.dueDeadlines(ctx, today)
	if err != nil {
		return 0, err
	}
	byUser := map[int64][]*dueDeadline{}
	var users []int64
	for _, d := range due {
		if len(d.pending) == 0 || !d.digest {
			continue
		}
		if _, ok := byUser[d.user]; !ok {
			users = append(users, d.user)
		}
		byUser[d.user] = append(byUser[d.user], d)
	}
	sent := 0
	for _, u := range users {
		ok, err := s.sendDigest(ctx, today, byUser[u])
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

// dueDeadlines reads the active deadlines with a responsible, unlocked
// user whose notice date is today or within the longest horizon, with the
// horizons crossed and not yet announced.
func (s *Service) dueDeadlines(ctx context.Context, today time.Time) ([]*dueDeadline, error) {
	src, err := s.engine.Scoped(ctx, entityDeadline, "d")
	if err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT d.contractaction_id, d.contractaction_notice_date, d.contractaction_type,
			c.contract_id, c.contract_name, COALESCE(p.pos_name, ''), u.user_id, u.user_email,
			COALESCE(u.user_firstname, '') || ' ' || COALESCE(u.user_lastname, ''), COALESCE(u.user_language, ''),
			COALESCE(st.digest, 1), COALESCE(st.horizons, ''), d.contractaction_notice_rule, d.contractaction_notice_to,
			d.contractaction_notice_period_value, d.contractaction_notice_period_unit, d.contractaction_options_count,
			d.contractaction_options_exercised, d.contractaction_effective_date, d.contractaction_uses, d.contractaction_resiliation_date
		FROM `+src.SQL+`
		JOIN contract c ON c.contract_id = d.contract_id
		LEFT JOIN pos p ON p.pos_id = c.pos_id
		JOIN users u ON u.user_id = d.contractaction_responsible_user_id
		LEFT JOIN deadline_alert_setting st ON st.user_id = u.user_id
		WHERE d.contractaction_status = ? AND u.user_locked = 0 AND d.contractaction_expired = 0
			AND d.contractaction_notice_date >= ? AND d.contractaction_notice_date <= ?
		ORDER BY u.user_id, d.contractaction_notice_date, d.contractaction_id`,
		append(src.Args, StatusActive, today.Format(time.DateOnly), today.AddDate(0, 0, maxHorizon).Format(time.DateOnly))...)
	if err != nil {
		return nil, fmt.Errorf("contracts: due deadlines: %w", err)
	}
	defer rows.Close()
	var due []*dueDeadline
	for rows.Next() {
		d := &dueDeadline{}
		var notice, effective, resiliation any
		var digest int
		var horizons, rule, to, unit string
		var value, exercised, uses int64
		var count sql.NullInt64
		if err := rows.Scan(&d.id, &notice, &d.typ, &d.contractID, &d.contract, &d.pos, &d.user, &d.email, &d.name, &d.lang,
			&digest, &horizons, &rule, &to, &value, &unit, &count, &exercised, &effective, &uses, &resiliation); err != nil {
			return nil, fmt.Errorf("contracts: due deadlines: %w", err)
		}
		facts := map[string]any{"contractaction_type": d.typ, fieldRule: rule, fieldTo: to, "contractaction_notice_period_value": value,
			"contractaction_notice_period_unit": unit, fieldExercised: exercised, fieldNotice: notice, fieldEffective: effective,
			fieldUses: uses, fieldExpired: int64(0), "contractaction_resiliation_date": resiliation}
		if count.Valid {
			facts["contractaction_options_count"] = count.Int64
		}
		d.rule = storedExplanation(facts)
		n, err := dateOf(notice)
		if err != nil || n == nil {
			return nil, fmt.Errorf("contracts: due deadline %d: notice date %v: %w", d.id, notice, err)
		}
		d.notice, d.digest, d.horizons = *n, digest == 1, parseHorizons(horizons)
		due = append(due, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("contracts: due deadlines: %w", err)
	}
	return due, s.markPending(ctx, today, due)
}

// markPending fills each deadline's horizons that its notice date is
// within and that were not announced for that notice date yet.
func (s *Service) markPending(ctx context.Context, today time.Time, due []*dueDeadline) error {
	rows, err := s.db.QueryContext(ctx, `SELECT contractaction_id, notice_date, horizon FROM deadline_alert_sent WHERE notice_date >= ?`,
		today.Format(time.DateOnly))
	if err != nil {
		return fmt.Errorf("contracts: announcements sent: %w", err)
	}
	defer rows.Close()
	type key struct {
		id      int64
		notice  string
		horizon int
	}
	sent := map[key]bool{}
	for rows.Next() {
		var k key
		var notice any
		if err := rows.Scan(&k.id, &notice, &k.horizon); err != nil {
			return fmt.Errorf("contracts: announcements sent: %w", err)
		}
		n, err := dateOf(notice)
		if err != nil || n == nil {
			return fmt.Errorf("contracts: announcement of %d: %v: %w", k.id, notice, err)
		}
		k.notice = n.Format(time.DateOnly)
		sent[k] = true
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("contracts: announcements sent: %w", err)
	}
	for _, d := range due {
		days := int(daysBetween(today, d.notice))
		for _, h := range d.horizons {
			if days <= h && !sent[key{d.id, d.notice.Format(time.DateOnly), h}] {
				d.pending = append(d.pending, h)
			}
		}
	}
	return nil
}

// sendDigest records the announcements of one user's deadlines and queues
// their digest in one transaction. When another run announced them
// meanwhile (the key refuses the rows), nothing is queued.
func (s *Service) sendDigest(ctx context.Context, today time.Time, due []*dueDeadline) (bool, error) {
	sort.SliceStable(due, func(i, j int) bool { return due[i].notice.Before(due[j].notice) })
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, d := range due {
			for _, h := range d.pending {
				if _, err := tx.ExecContext(ctx, `INSERT INTO deadline_alert_sent (contractaction_id, notice_date, horizon, user_id, sent_at)
					VALUES (?, ?, ?, ?, ?)`, d.id, d.notice.Format(time.DateOnly), h, d.user, s.now().UTC()); err != nil {
					return err
				}
			}
		}
		_, err := s.outbox.Enqueue(ctx, tx, s.digestMail(today, due))
		return err
	})
	if db.IsUniqueViolation(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("contracts: digest for user %d: %w", due[0].user, err)
	}
	return true, nil
}

// digestMail writes the digest of due (one user's deadlines) in the user's
// language.
func (s *Service) digestMail(today time.Time, due []*dueDeadline) mailer.Message {
	first := due[0]
	lang := first.lang
	if !i18n.Supported(lang) {
		lang = i18n.Default
	}
	var b strings.Builder
	b.WriteString(s.catalog.T(lang, "mail.greeting", map[string]string{"name": strings.TrimSpace(first.name)}) + "\n\n")
	b.WriteString(s.catalog.T(lang, "mail.deadlines.intro", nil) + "\n\n")
	for _, d := range due {
		b.WriteString(s.catalog.T(lang, "mail.deadlines.line", map[string]string{
			"date":     d.notice.Format(time.DateOnly),
			"days":     s.catalog.N(lang, "mail.deadlines.days", daysBetween(today, d.notice), nil),
			"type":     s.attrs.T(lang, "contractaction_type."+d.typ, nil),
			"contract": d.contract,
			"pos":      d.pos,
			"link":     fmt.Sprintf("%s/app/table/contract/view/%d", strings.TrimRight(s.publicURL, "/"), d.contractID),
		}) + "\n")
		b.WriteString("  " + s.Explain(lang, d.rule) + "\n") // the rule that produced the date
	}
	b.WriteString("\n" + s.catalog.T(lang, "mail.deadlines.settings", nil) + "\n\n")
	b.WriteString(s.catalog.T(lang, "mail.signature", nil) + "\n")
	return mailer.Message{To: []string{first.email},
		Subject: s.catalog.N(lang, "mail.deadlines.subject", int64(len(due)), nil), Text: b.String()}
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
