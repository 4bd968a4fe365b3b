package seed

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	dec "github.com/shopspring/decimal"

	"portfolio/internal/db"
)

// DemoObjectionName names the demo's objections (decision 0069): the
// savings card and page show their claims.
const DemoObjectionName = "Widerspruch Nebenkosten (Demo)"

// demoSavingsLookups are the kinds an inspection result names, one each.
var demoSavingsLookups = []struct{ table, name string }{
	{"claimtype", "Rückforderung"}, {"savingtype", "Einmalig"}, {"rating", "gut"}, {"resultcategorization", "Nebenkosten"},
}

// demoObjection is one demo objection: its points' claims and accepted
// amounts and the value of its realised inspection result ("": none).
// recorded objections were made in the product, on the day the demo was
// seeded (their history's create rows say so); the other was carried over
// from before it and counts on its statement's date.
type demoObjection struct {
	group    int64
	offset   int
	recorded bool
	points   []struct{ title, claim, accepted string }
	realised string
}

var demoObjections = []demoObjection{
	{group: demoGroupA, offset: 0, recorded: true, realised: "600.00", points: []struct{ title, claim, accepted string }{
		{"Verwaltungskosten über der vereinbarten Obergrenze", "840.00", "600.00"},
		{"Hausmeister doppelt abgerechnet", "415.50", "415.50"},
	}},
	{group: demoGroupB, offset: 0, recorded: true, realised: "", points: []struct{ title, claim, accepted string }{
		{"Winterdienst nicht umlagefähig", "312.80", ""},
	}},
	{group: demoGroupA, offset: 4, recorded: false, realised: "", points: []struct{ title, claim, accepted string }{
		{"Reinigung über dem Flächenanteil", "1250.00", "900.00"},
	}},
}

// demoSavings gives the invoice review's savings something to show, once:
// objections with claims and accepted amounts on the newest statements of
// each demo customer group, claimed on the day the demo is seeded (now),
// with a realised inspection result, and one older objection of the first
// group that counts on its statement's date, so the year is a choice.
// The statements of DemoInvoiceNumbers, which the review's own demos use,
// and their points of sale are left alone. Nothing is written when a demo
// objection exists.
func demoSavings(ctx context.Context, tx *db.Tx, now time.Time) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM contradiction WHERE contradiction_name = ?`, DemoObjectionName).Scan(&n); err != nil {
		return fmt.Errorf("seed demo savings: %w", err)
	}
	if n > 0 {
		return nil
	}
	for _, l := range demoSavingsLookups {
		if _, err := ensureNamed(ctx, tx, l.table, l.name); err != nil {
			return fmt.Errorf("seed demo savings: %w", err)
		}
	}
	var user sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT MIN(user_id) FROM users WHERE user_email = 'team_member@demo.test'`).Scan(&user); err != nil {
		return fmt.Errorf("seed demo savings: %w", err)
	}
	made := now.UTC().Truncate(time.Second)
	for _, o := range demoObjections {
		if err := demoObjectionOf(ctx, tx, o, made, user); err != nil {
			return err
		}
	}
	return nil
}

// demoObjectionOf writes one demo objection on the statement o names.
func demoObjectionOf(ctx context.Context, tx *db.Tx, o demoObjection, made time.Time, user sql.NullInt64) error {
	var invoice int64
	err := tx.QueryRowContext(ctx, `SELECT i.invoice_id FROM invoice i JOIN company co ON co.company_id = i.company_id
		JOIN contract k ON k.contract_id = i.contract_id
		WHERE co.customergroup_id = ? AND i.invoice_number NOT IN (?, ?, ?)
		AND k.pos_id NOT IN (SELECT k2.pos_id FROM invoice i2 JOIN contract k2 ON k2.contract_id = i2.contract_id WHERE i2.invoice_number IN (?, ?, ?))
		AND NOT EXISTS (SELECT 1 FROM contradiction c WHERE c.invoice_id = i.invoice_id)
		ORDER BY i.invoice_date DESC, i.invoice_id DESC LIMIT 1 OFFSET ?`, o.group,
		DemoInvoiceNumbers[0], DemoInvoiceNumbers[1], DemoInvoiceNumbers[2], DemoInvoiceNumbers[0], DemoInvoiceNumbers[1], DemoInvoiceNumbers[2], o.offset).Scan(&invoice)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("seed demo savings: statement of group %d: %w", o.group, err)
	}
	history := func(entity string, id int64) error {
		if !o.recorded {
			return nil
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO trackrecord (trackrecord_timestamp, trackrecord_type, trackrecord_category,
			trackrecord_row_id, trackrecord_changes, user_id) VALUES (?, 'create', ?, ?, '{}', ?)`, made, entity, id, user)
		if err != nil {
			return fmt.Errorf("seed demo savings: history of %s %d: %w", entity, id, err)
		}
		return nil
	}
	sum := dec.Zero
	for _, p := range o.points {
		sum = sum.Add(dec.RequireFromString(p.claim))
	}
	var contra int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO contradiction (invoice_id, contradiction_name, contradiction_sum)
		VALUES (?, ?, ?) RETURNING contradiction_id`, invoice, DemoObjectionName, sum.StringFixed(2)).Scan(&contra); err != nil {
		return fmt.Errorf("seed demo savings: objection: %w", err)
	}
	if err := history("contradiction", contra); err != nil {
		return err
	}
	for rank, p := range o.points {
		var accepted any
		if p.accepted != "" {
			accepted = p.accepted
		}
		var id int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO contradictionpoint (contradiction_id, contradictionpoint_rank, contradictionpoint_title,
			contradictionpoint_text, contradictionpoint_claim, contradictionpoint_accepted) VALUES (?, ?, ?, ?, ?, ?) RETURNING contradictionpoint_id`,
			contra, rank, p.title, "<p>"+p.title+"</p>", p.claim, accepted).Scan(&id); err != nil {
			return fmt.Errorf("seed demo savings: point %s: %w", p.title, err)
		}
		if err := history("contradictionpoint", id); err != nil {
			return err
		}
	}
	if o.realised == "" {
		return nil
	}
	var result int64
	if err := tx.QueryRowContext(ctx, `INSERT INTO inspectionresult (invoice_id, inspectionresult_value, inspectionresult_realised, unique_or_perennial,
		legally_clear, claimtype_id, savingtype_id, rating_id, resultcategorization_id)
		VALUES (?, ?, 1, 'unique', 1, (SELECT MIN(claimtype_id) FROM claimtype WHERE claimtype_name = ?), (SELECT MIN(savingtype_id) FROM savingtype WHERE savingtype_name = ?),
		(SELECT MIN(rating_id) FROM rating WHERE rating_name = ?), (SELECT MIN(resultcategorization_id) FROM resultcategorization WHERE resultcategorization_name = ?))
		RETURNING inspectionresult_id`, invoice, o.realised, demoSavingsLookups[0].name, demoSavingsLookups[1].name, demoSavingsLookups[2].name,
		demoSavingsLookups[3].name).Scan(&result); err != nil {
		return fmt.Errorf("seed demo savings: inspection result: %w", err)
	}
	return history("inspectionresult", result)
}
