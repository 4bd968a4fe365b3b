package contracts

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/deadline"
)

// The daily digest and the calendar feed carry every module's dated items
// a user answers for (decision 0063): the contract deadlines of this
// module and what other modules add as a DueSource (the objection
// deadlines of service-charge statements). Each recipient's items are read
// as that recipient, within their rights and tenant, never as the system:
// a user named responsible for another customer group's record, or moved
// to another group since, hears of nothing they may not see.

// A DueSource is a module whose records carry dates users answer for.
type DueSource interface {
	// DueRecipients answers the users responsible for an item due
	// between from and to (both included). It runs as the system: it
	// tells whom to ask, not what to show them.
	DueRecipients(ctx context.Context, from, to time.Time) ([]int64, error)
	// DueItems answers the items due between from and to that the
	// caller of ctx answers for, as the caller may see them (none without
	// the rights to list them), their texts in lang.
	DueItems(ctx context.Context, lang string, from, to time.Time) ([]deadline.Due, error)
}

// AddDueSource adds a module's dated items to the digest and the calendar.
func (s *Service) AddDueSource(src DueSource) { s.dueSources = append(s.dueSources, src) }

// dueRecipients are the users some source names responsible for an item
// due between from and to, in ascending order.
func (s *Service) dueRecipients(ctx context.Context, from, to time.Time) ([]int64, error) {
	var users []int64
	for _, src := range s.dueSources {
		u, err := src.DueRecipients(ctx, from, to)
		if err != nil {
			return nil, err
		}
		users = append(users, u...)
	}
	slices.Sort(users)
	return slices.Compact(users), nil
}

// dueItems are the items of every source that the caller of ctx answers
// for, due between from and to, by date.
func (s *Service) dueItems(ctx context.Context, lang string, from, to time.Time) ([]deadline.Due, error) {
	var items []deadline.Due
	for _, src := range s.dueSources {
		it, err := src.DueItems(ctx, lang, from, to)
		if err != nil {
			return nil, err
		}
		items = append(items, it...)
	}
	slices.SortStableFunc(items, func(a, b deadline.Due) int {
		return cmp.Or(a.Date.Compare(b.Date), cmp.Compare(a.Key, b.Key))
	})
	return items, nil
}

// asRecipient is ctx acting as user, with their rights and tenant, or
// false for a user who is locked or gone.
func (s *Service) asRecipient(ctx context.Context, user int64) (context.Context, *auth.Principal, bool, error) {
	if s.principals == nil {
		return nil, nil, false, fmt.Errorf("contracts: no principal source to read as user %d", user)
	}
	p, err := s.principals.PrincipalOf(ctx, user)
	if apperr.IsKind(err, apperr.KindNotFound) {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, err
	}
	return auth.WithPrincipal(ctx, p), p, true, nil
}

// deadlineSource offers the contract deadlines: the active ones, not used
// up, by their notice date.
type deadlineSource struct{ s *Service }

func (d deadlineSource) DueRecipients(ctx context.Context, from, to time.Time) ([]int64, error) {
	rows, err := d.s.db.QueryContext(ctx, `SELECT DISTINCT contractaction_responsible_user_id FROM contractaction
		WHERE contractaction_status = ? AND contractaction_expired = 0 AND contractaction_responsible_user_id IS NOT NULL
			AND contractaction_notice_date >= ? AND contractaction_notice_date <= ?`,
		StatusActive, from.Format(time.DateOnly), to.Format(time.DateOnly))
	if err != nil {
		return nil, fmt.Errorf("contracts: responsible users of deadlines: %w", err)
	}
	defer rows.Close()
	var users []int64
	for rows.Next() {
		var u int64
		if err := rows.Scan(&u); err != nil {
			return nil, fmt.Errorf("contracts: responsible users of deadlines: %w", err)
		}
		users = append(users, u)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("contracts: responsible users of deadlines: %w", err)
	}
	return users, nil
}

// DueItems reads through the deadline list, so the caller's rights and
// tenant apply as on the screen.
func (d deadlineSource) DueItems(ctx context.Context, lang string, from, to time.Time) ([]deadline.Due, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return nil, apperr.Unauthorized("server.auth.not_authenticated")
	}
	page, err := d.s.Deadlines(i18n.WithLang(ctx, lang), DeadlineQuery{From: from.Format(time.DateOnly), To: to.Format(time.DateOnly),
		Statuses: []string{StatusActive}, Responsible: p.UserID, Page: 1, PerPage: maxCalendarEvents, OrderBy: fieldNotice, Order: "ASC"})
	if apperr.IsKind(err, apperr.KindForbidden) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("contracts: deadlines of user %d: %w", p.UserID, err)
	}
	out := make([]deadline.Due, 0, len(page.Data))
	for _, r := range page.Data {
		if r.Expired {
			continue
		}
		n, err := dateOf(deref(r.NoticeDate))
		if err != nil || n == nil {
			return nil, fmt.Errorf("contracts: deadline %d: notice date %v: %w", r.ID, r.NoticeDate, err)
		}
		out = append(out, deadline.Due{Key: fmt.Sprintf("deadline/%d", r.ID), Date: *n,
			Title: d.s.deadlineTitle(lang, r.Type, deref(r.ContractLabel), deref(r.PosLabel)), Rule: r.Explanation,
			Path: fmt.Sprintf("/app/table/contract/view/%d", r.ContractID)})
	}
	return out, nil
}

// deadlineTitle names a deadline by its type, contract and point of sale.
func (s *Service) deadlineTitle(lang, typ, contract, pos string) string {
	key := "due.deadline"
	if pos == "" {
		key = "due.deadline_no_pos"
	}
	return s.catalog.T(lang, key, map[string]string{"type": s.attrs.T(lang, "contractaction_type."+typ, nil),
		"contract": contract, "pos": pos})
}

// deref is *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
