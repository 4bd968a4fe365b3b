package invoices

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/platform/deadline"
	"portfolio/internal/tables"
)

// The statement deadlines a user answers for, for the daily digest and
// the calendar feed (contracts.DueSource, decision 0063): a statement's
// objection deadline, and the landlord's settlement deadline while the
// statement has not been received (once it has, that deadline only tells
// whether it came late). The responsible user is the statement's
// (invoice_responsible_user_id, whoever entered it unless another is
// named).

// fieldResponsible is who answers for a statement.
const fieldResponsible = "invoice_responsible_user_id"

// responsibleHook names whoever enters a statement its responsible user
// when the write names none.
type responsibleHook struct{}

func (responsibleHook) BeforeWrite(ctx context.Context, w *tables.WriteContext) error {
	if p, ok := auth.PrincipalFrom(ctx); ok && w.Creating && w.Record[fieldResponsible] == nil {
		w.Values[fieldResponsible] = p.UserID
	}
	return nil
}

// maxDueItems bounds the statement deadlines read for one user.
const maxDueItems = 5000

// dueWhere selects the statements with a deadline to watch between two
// days: their objection deadline, or their settlement deadline while not
// received. Its four arguments are from, to, from, to.
const dueWhere = `((i.invoice_objection_deadline >= ? AND i.invoice_objection_deadline <= ?)
	OR (i.invoice_received_date IS NULL AND i.invoice_settlement_deadline >= ? AND i.invoice_settlement_deadline <= ?))`

// dueArgs are dueWhere's arguments.
func dueArgs(from, to time.Time) []any {
	f, t := from.Format(time.DateOnly), to.Format(time.DateOnly)
	return []any{f, t, f, t}
}

// DueRecipients answers the users responsible for a statement with a
// deadline between from and to (read as the system: whom to ask).
func (s *Service) DueRecipients(ctx context.Context, from, to time.Time) ([]int64, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT i.invoice_responsible_user_id FROM invoice i
		WHERE i.invoice_responsible_user_id IS NOT NULL AND `+dueWhere, dueArgs(from, to)...)
	if err != nil {
		return nil, fmt.Errorf("invoices: responsible users of statement deadlines: %w", err)
	}
	defer rows.Close()
	var users []int64
	for rows.Next() {
		var u int64
		if err := rows.Scan(&u); err != nil {
			return nil, fmt.Errorf("invoices: responsible users of statement deadlines: %w", err)
		}
		users = append(users, u)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("invoices: responsible users of statement deadlines: %w", err)
	}
	return users, nil
}

// DueItems answers the deadlines between from and to of the statements
// the caller answers for, within the caller's rights and tenant (none
// without the right to list invoices), in lang.
func (s *Service) DueItems(ctx context.Context, lang string, from, to time.Time) ([]deadline.Due, error) {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return nil, apperr.Unauthorized("server.auth.not_authenticated")
	}
	if err := s.engine.Require(ctx, access.ActionList, entityInvoice); err != nil {
		if apperr.IsKind(err, apperr.KindForbidden) {
			return nil, nil
		}
		return nil, err
	}
	src, err := s.engine.Scoped(ctx, entityInvoice, "i")
	if err != nil {
		return nil, err
	}
	args := append(append(src.Args, p.UserID), dueArgs(from, to)...)
	rows, err := s.db.QueryContext(ctx, `SELECT i.invoice_id, i.invoice_number, i.invoice_received_date, i.invoice_objection_deadline,
			i.invoice_billing_period_to, i.invoice_settlement_deadline, COALESCE(c.contract_name, ''), COALESCE(pos.pos_name, ''),
			c.contract_objection_months, c.contract_settlement_months
		FROM `+src.SQL+`
		LEFT JOIN contract c ON c.contract_id = i.contract_id
		LEFT JOIN pos ON pos.pos_id = c.pos_id
		WHERE i.invoice_responsible_user_id = ? AND `+dueWhere+`
		ORDER BY i.invoice_id LIMIT `+fmt.Sprint(maxDueItems), args...)
	if err != nil {
		return nil, fmt.Errorf("invoices: statement deadlines of user %d: %w", p.UserID, err)
	}
	defer rows.Close()
	var out []deadline.Due
	for rows.Next() {
		items, err := s.scanDue(rows, lang, from, to)
		if err != nil {
			return nil, fmt.Errorf("invoices: statement deadlines of user %d: %w", p.UserID, err)
		}
		out = append(out, items...)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("invoices: statement deadlines of user %d: %w", p.UserID, err)
	}
	return out, nil
}

// scanDue reads one statement's row and answers its deadlines between
// from and to.
func (s *Service) scanDue(rows *sql.Rows, lang string, from, to time.Time) ([]deadline.Due, error) {
	var id int64
	var number, contract, pos string
	var received, objection, periodTo, settlement any
	var objectionMonths, settlementMonths sql.NullInt64
	if err := rows.Scan(&id, &number, &received, &objection, &periodTo, &settlement, &contract, &pos,
		&objectionMonths, &settlementMonths); err != nil {
		return nil, err
	}
	p := periods{objection: int(objectionMonths.Int64), settlement: int(settlementMonths.Int64)}
	var out []deadline.Due
	for _, k := range []struct {
		kind       string
		date, from any
	}{{kindObjection, objection, received}, {kindSettlement, settlement, periodTo}} {
		date, err := optionalDate(k.date)
		if err != nil {
			return nil, err
		}
		start, err := optionalDate(k.from)
		if err != nil {
			return nil, err
		}
		if date == nil || start == nil || date.Before(from) || date.After(to) || k.kind == kindSettlement && received != nil {
			continue
		}
		months, agreed := p.months(k.kind)
		out = append(out, deadline.Due{Key: fmt.Sprintf("statement/%d/%s", id, k.kind), Date: *date,
			Title: s.dueTitle(lang, k.kind, number, contract, pos),
			Rule:  s.explainDeadline(lang, k.kind, *date, *start, months, agreed),
			Path:  fmt.Sprintf("/app/table/invoice/view/%d", id)})
	}
	return out, nil
}

// dueTitle names a statement deadline by its kind, the statement's number,
// its contract and point of sale.
func (s *Service) dueTitle(lang, kind, number, contract, pos string) string {
	key := "due." + kind
	if pos == "" {
		key += "_no_pos"
	}
	return s.catalog.T(lang, key, map[string]string{"statement": number, "contract": contract, "pos": pos})
}
