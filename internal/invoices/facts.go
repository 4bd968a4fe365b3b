package invoices

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/shopspring/decimal"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// num reads a NUMERIC column as an exact decimal; NULL is zero.
func num(d decimal.NullDecimal) decimal.Decimal {
	if d.Valid {
		return d.Decimal
	}
	return decimal.Zero
}

// facts reads what the rules need of the invoices invs (ids in order):
// the contracts' cost types, the positions, and the flat rates of each
// contract's invoices of the previous contract year.
func (s *Service) facts(ctx context.Context, q db.Querier, ids []int64, invs map[int64]invoiceRow) (map[int64]Facts, error) {
	out := make(map[int64]Facts, len(ids))
	contracts := map[int64]bool{}
	var contractIDs []int64
	for _, id := range ids {
		inv := invs[id]
		out[id] = Facts{From: inv.from, To: inv.to, Year: inv.year, Agreed: map[int64]bool{}}
		if inv.contract != 0 && !contracts[inv.contract] {
			contracts[inv.contract] = true
			contractIDs = append(contractIDs, inv.contract)
		}
	}
	agreed, err := s.agreed(ctx, q, contractIDs)
	if err != nil {
		return nil, err
	}
	years := map[int]bool{}
	for _, id := range ids {
		if y := invs[id].year; y > 0 {
			years[y-1] = true
		}
	}
	previous, err := s.flatRates(ctx, q, contractIDs, years)
	if err != nil {
		return nil, err
	}
	positions, err := s.positions(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	terms, err := s.terms(ctx, q, contractIDs)
	if err != nil {
		return nil, err
	}
	rents, err := s.rents(ctx, q, contractIDs)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		inv, f := invs[id], out[id]
		if a := agreed[inv.contract]; a != nil {
			f.Agreed = a
		}
		f.Terms = terms[inv.contract]
		f.NetRent, f.GrossRent = RentOfPeriod(rents[inv.contract], inv.from, inv.to)
		f.Positions = positions[id]
		if inv.year > 0 {
			f.Previous = previous[[2]int64{inv.contract, int64(inv.year - 1)}]
		}
		out[id] = f
	}
	return out, nil
}

// agreed reads the cost types of the contracts.
func (s *Service) agreed(ctx context.Context, q db.Querier, contracts []int64) (map[int64]map[int64]bool, error) {
	out := map[int64]map[int64]bool{}
	if len(contracts) == 0 {
		return out, nil
	}
	c, err := s.engine.Scoped(ctx, entityContract, "c")
	if err != nil {
		return nil, err
	}
	list, args := in(contracts)
	rows, err := q.QueryContext(ctx, `SELECT l.contract_id, l.costtype_id FROM contract_costtype l
		JOIN `+c.SQL+` ON c.contract_id = l.contract_id WHERE l.contract_id IN `+list, append(append([]any{}, c.Args...), args...)...)
	if err != nil {
		return nil, fmt.Errorf("invoices: read contract cost types: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var contract, costtype int64
		if err := rows.Scan(&contract, &costtype); err != nil {
			return nil, fmt.Errorf("invoices: read contract cost types: %w", err)
		}
		if out[contract] == nil {
			out[contract] = map[int64]bool{}
		}
		out[contract][costtype] = true
	}
	return out, rows.Err()
}

// terms reads what the contracts agree on their service charges.
func (s *Service) terms(ctx context.Context, q db.Querier, contracts []int64) (map[int64]Terms, error) {
	out := map[int64]Terms{}
	if len(contracts) == 0 {
		return out, nil
	}
	c, err := s.engine.Scoped(ctx, entityContract, "c")
	if err != nil {
		return nil, err
	}
	list, args := in(contracts)
	rows, err := q.QueryContext(ctx, `SELECT c.contract_id, c.contract_admin_cost_cap_percent, c.contract_maintenance_cap,
		c.contract_billing_period_months FROM `+c.SQL+` WHERE c.contract_id IN `+list, append(append([]any{}, c.Args...), args...)...)
	if err != nil {
		return nil, fmt.Errorf("invoices: read contract terms: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var t Terms
		var months sql.NullInt64
		if err := rows.Scan(&id, &t.AdminCapPercent, &t.MaintenanceCap, &months); err != nil {
			return nil, fmt.Errorf("invoices: read contract terms: %w", err)
		}
		t.BillingMonths = int(months.Int64)
		out[id] = t
	}
	return out, rows.Err()
}

// rents reads the base-rent payments of the contracts with their tax
// rates (none: 0 %) and their approved index adjustments.
func (s *Service) rents(ctx context.Context, q db.Querier, contracts []int64) (map[int64][]RentPayment, error) {
	out := map[int64][]RentPayment{}
	if len(contracts) == 0 {
		return out, nil
	}
	rp, err := s.engine.Scoped(ctx, entityPayment, "rp")
	if err != nil {
		return nil, err
	}
	tr, err := s.engine.Scoped(ctx, entityTaxRate, "tr")
	if err != nil {
		return nil, err
	}
	list, args := in(contracts)
	rows, err := q.QueryContext(ctx, `SELECT rp.recurringpayment_id, rp.contract_id, rp.recurringpayment_sum_per_month, tr.taxrate_value,
		rp.recurringpayment_begin_date, rp.recurringpayment_end_date
		FROM `+rp.SQL+` LEFT JOIN `+tr.SQL+` ON tr.taxrate_id = rp.taxrate_id
		WHERE rp.recurringpaymenttype_id = ? AND rp.contract_id IN `+list+` ORDER BY rp.recurringpayment_id`,
		append(append(append(append([]any{}, rp.Args...), tr.Args...), schema.PaymentTypeBaseRent), args...)...)
	if err != nil {
		return nil, fmt.Errorf("invoices: read rents: %w", err)
	}
	defer rows.Close()
	type at struct {
		contract int64
		index    int
	}
	where := map[int64]at{}
	var ids []int64
	for rows.Next() {
		var id, contract int64
		var sum, tax decimal.NullDecimal
		var begin, end any
		if err := rows.Scan(&id, &contract, &sum, &tax, &begin, &end); err != nil {
			return nil, fmt.Errorf("invoices: read rents: %w", err)
		}
		p := RentPayment{PerMonth: num(sum), TaxPercent: num(tax)}
		if p.Begin, err = dateOf(begin); err != nil {
			return nil, err
		}
		if p.End, err = dateOf(end); err != nil {
			return nil, err
		}
		where[id] = at{contract, len(out[contract])}
		ids = append(ids, id)
		out[contract] = append(out[contract], p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("invoices: read rents: %w", err)
	}
	adjustments, err := s.rentAdjustments(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	for id, adj := range adjustments {
		w := where[id]
		out[w.contract][w.index].Adjustments = adj
	}
	return out, nil
}

// rentAdjustments reads the approved index adjustments of the payments,
// by payment.
func (s *Service) rentAdjustments(ctx context.Context, q db.Querier, payments []int64) (map[int64][]RentAdjustment, error) {
	out := map[int64][]RentAdjustment{}
	if len(payments) == 0 {
		return out, nil
	}
	ia, err := s.engine.Scoped(ctx, entityAdjustment, "ia")
	if err != nil {
		return nil, err
	}
	list, args := in(payments)
	rows, err := q.QueryContext(ctx, `SELECT ia.recurringpayment_id, ia.indexadjustment_effective_date, ia.indexadjustment_old_amount
		FROM `+ia.SQL+` WHERE ia.indexadjustment_status = ? AND ia.recurringpayment_id IN `+list,
		append(append(append([]any{}, ia.Args...), "approved"), args...)...)
	if err != nil {
		return nil, fmt.Errorf("invoices: read index adjustments: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var effective any
		var old decimal.NullDecimal
		if err := rows.Scan(&id, &effective, &old); err != nil {
			return nil, fmt.Errorf("invoices: read index adjustments: %w", err)
		}
		d, err := dateOf(effective)
		if err != nil {
			return nil, err
		}
		if d.IsZero() || !old.Valid {
			continue
		}
		out[id] = append(out[id], RentAdjustment{Effective: d, Old: old.Decimal})
	}
	return out, rows.Err()
}

// flatRates reads the flat-rate positions of the invoices of the
// contracts in the contract years years, by (contract, contract year) and
// cost type; the latest invoice of a year wins.
func (s *Service) flatRates(ctx context.Context, q db.Querier, contracts []int64, years map[int]bool) (map[[2]int64]map[int64]Position, error) {
	out := map[[2]int64]map[int64]Position{}
	if len(contracts) == 0 || len(years) == 0 {
		return out, nil
	}
	yearList := make([]int64, 0, len(years))
	for y := range years {
		yearList = append(yearList, int64(y))
	}
	yearsIn, yearArgs := in(yearList)
	i, err := s.engine.Scoped(ctx, entityInvoice, "i")
	if err != nil {
		return nil, err
	}
	p, err := s.engine.Scoped(ctx, entityPosition, "p")
	if err != nil {
		return nil, err
	}
	list, args := in(contracts)
	rows, err := q.QueryContext(ctx, `SELECT i.contract_id, i.invoice_contract_year, p.costtype_id, p.amount_customer
		FROM `+i.SQL+` JOIN `+p.SQL+` ON p.invoice_id = i.invoice_id
		WHERE i.contract_id IN `+list+` AND i.invoice_contract_year IN `+yearsIn+` AND p.flat_rate = 1
		ORDER BY i.invoice_date, i.invoice_id, p.invoiceposition_id`, append(append(append(append([]any{}, i.Args...), p.Args...), args...), yearArgs...)...)
	if err != nil {
		return nil, fmt.Errorf("invoices: read flat rates: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var contract, year, costtype int64
		var amount decimal.NullDecimal
		if err := rows.Scan(&contract, &year, &costtype, &amount); err != nil {
			return nil, fmt.Errorf("invoices: read flat rates: %w", err)
		}
		key := [2]int64{contract, year}
		if out[key] == nil {
			out[key] = map[int64]Position{}
		}
		out[key][costtype] = Position{CostTypeID: costtype, FlatRate: true, AmountCustomer: num(amount)}
	}
	return out, rows.Err()
}

// positions reads the positions of the invoices ids, in key order, with
// their cost type's name.
func (s *Service) positions(ctx context.Context, q db.Querier, ids []int64) (map[int64][]Position, error) {
	p, err := s.engine.Scoped(ctx, entityPosition, "p")
	if err != nil {
		return nil, err
	}
	ct, err := s.engine.Scoped(ctx, entityCostType, "ct")
	if err != nil {
		return nil, err
	}
	list, args := in(ids)
	rows, err := q.QueryContext(ctx, `SELECT p.invoiceposition_id, p.invoice_id, p.invoiceposition_name, p.costtype_id, ct.costtype_name,
		ct.costtype_category, p.flat_rate, p.apportionable, p.total_units, p.units_customer, p.amount_total, p.amount_customer
		FROM `+p.SQL+` LEFT JOIN `+ct.SQL+` ON ct.costtype_id = p.costtype_id
		WHERE p.invoice_id IN `+list+` ORDER BY p.invoice_id, p.invoiceposition_id`,
		append(append(append([]any{}, p.Args...), ct.Args...), args...)...)
	if err != nil {
		return nil, fmt.Errorf("invoices: read positions: %w", err)
	}
	defer rows.Close()
	out := make(map[int64][]Position, len(ids))
	for rows.Next() {
		var x Position
		var invoice int64
		var name, costtype, category sql.NullString
		var costtypeID, flat, apportionable sql.NullInt64
		var total, units, amountTotal, amountCustomer decimal.NullDecimal
		if err := rows.Scan(&x.ID, &invoice, &name, &costtypeID, &costtype, &category, &flat, &apportionable,
			&total, &units, &amountTotal, &amountCustomer); err != nil {
			return nil, fmt.Errorf("invoices: read positions: %w", err)
		}
		x.Name, x.CostTypeID, x.CostType, x.Category = name.String, costtypeID.Int64, costtype.String, category.String
		x.FlatRate, x.Apportionable = flat.Int64 == 1, apportionable.Int64 == 1
		x.TotalUnits, x.UnitsCustomer, x.AmountTotal, x.AmountCustomer = num(total), num(units), num(amountTotal), num(amountCustomer)
		out[invoice] = append(out[invoice], x)
	}
	return out, rows.Err()
}

// existing reads each invoice's oldest contradiction and its points.
func (s *Service) existing(ctx context.Context, q db.Querier, ids []int64) (map[int64]*existing, error) {
	c, err := s.engine.Scoped(ctx, entityContra, "c")
	if err != nil {
		return nil, err
	}
	list, args := in(ids)
	rows, err := q.QueryContext(ctx, `SELECT c.contradiction_id, c.invoice_id, c.row_version, c.contradiction_sum FROM `+c.SQL+`
		WHERE c.invoice_id IN `+list+` ORDER BY c.contradiction_id`, append(append([]any{}, c.Args...), args...)...)
	if err != nil {
		return nil, fmt.Errorf("invoices: read contradictions: %w", err)
	}
	out := map[int64]*existing{}
	byID := map[int64]*existing{}
	for rows.Next() {
		var x existing
		var invoice int64
		var sum decimal.NullDecimal
		if err := rows.Scan(&x.id, &invoice, &x.version, &sum); err != nil {
			rows.Close()
			return nil, fmt.Errorf("invoices: read contradictions: %w", err)
		}
		x.sum = num(sum)
		if out[invoice] == nil {
			out[invoice] = &x
			byID[x.id] = &x
		}
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	if len(byID) == 0 {
		return out, nil
	}
	contras := make([]int64, 0, len(byID))
	for id := range byID {
		contras = append(contras, id)
	}
	pt, err := s.engine.Scoped(ctx, entityPoint, "pt")
	if err != nil {
		return nil, err
	}
	list, args = in(contras)
	prow, err := q.QueryContext(ctx, `SELECT pt.contradictionpoint_id, pt.contradiction_id, pt.row_version, pt.contradictionpoint_rank,
		pt.contradictionpoint_rule, pt.invoiceposition_id, pt.contradictionpoint_claim, pt.contradictionpoint_title, pt.contradictionpoint_text
		FROM `+pt.SQL+` WHERE pt.contradiction_id IN `+list+` ORDER BY pt.contradiction_id, pt.contradictionpoint_rank, pt.contradictionpoint_id`,
		append(append([]any{}, pt.Args...), args...)...)
	if err != nil {
		return nil, fmt.Errorf("invoices: read contradiction points: %w", err)
	}
	defer prow.Close()
	for prow.Next() {
		var p storedPoint
		var contra int64
		var rule, title, text sql.NullString
		var position sql.NullInt64
		var claim decimal.NullDecimal
		if err := prow.Scan(&p.id, &contra, &p.version, &p.rank, &rule, &position, &claim, &title, &text); err != nil {
			return nil, fmt.Errorf("invoices: read contradiction points: %w", err)
		}
		p.rule, p.position, p.claim, p.title, p.text = rule.String, position.Int64, num(claim), title.String, text.String
		byID[contra].points = append(byID[contra].points, p)
	}
	return out, prow.Err()
}

// textModule is a text module of the product, found by code and language.
type textModule struct {
	id                   int64
	code, name, template string
	left                 string
	blocks               []string
}

// module reads the text module code in lang (German, then English when the
// language has none), once per request.
func (s *Service) module(ctx context.Context, q db.Querier, code, lang string, cache map[string]textModule) (textModule, error) {
	if m, ok := cache[code+"/"+lang]; ok {
		return m, nil
	}
	t, err := s.engine.Scoped(ctx, entityTextModule, "t")
	if err != nil {
		return textModule{}, err
	}
	for _, l := range []string{lang, "de", "en"} {
		var m textModule
		var left, r1, r2, r3, r4, r5 sql.NullString
		var count sql.NullInt64
		err := q.QueryRowContext(ctx, `SELECT t.textmodule_id, t.textmodule_name, t.textmodule_templatetext, t.textmodule_left_text,
			t.textmodule_block_count, t.textmodule_right_text_1, t.textmodule_right_text_2, t.textmodule_right_text_3,
			t.textmodule_right_text_4, t.textmodule_right_text_5
			FROM `+t.SQL+` WHERE t.textmodule_code = ? AND t.textmodule_language = ?`, append(append([]any{}, t.Args...), code, l)...).
			Scan(&m.id, &m.name, &m.template, &left, &count, &r1, &r2, &r3, &r4, &r5)
		if err == sql.ErrNoRows {
			continue
		}
		if err != nil {
			return textModule{}, fmt.Errorf("invoices: read text module %s: %w", code, err)
		}
		m.code, m.left = code, left.String
		for i, r := range []sql.NullString{r1, r2, r3, r4, r5} {
			if int64(i) < count.Int64 && r.String != "" {
				m.blocks = append(m.blocks, r.String)
			}
		}
		cache[code+"/"+lang] = m
		return m, nil
	}
	return textModule{}, apperr.NotFound("server.invoices.no_module").With(map[string]string{"code": code})
}
