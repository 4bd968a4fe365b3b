package invoices

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/letter"
	"portfolio/internal/tables"
)

// generateChunk is how many invoices the generator reads and writes at a
// time inside its one transaction: memory stays flat however many
// invoices a request names.
const generateChunk = 500

// maxGenerateInvoices caps the invoices of one request.
const maxGenerateInvoices = 20000

// maxReportedErrors caps the field errors of a refused request.
const maxReportedErrors = 50

// GenerateResult answers POST /contradiction_generators/start: the
// invoices whose contradiction changed (points removed or written, sums
// changed), with counts.
type GenerateResult struct {
	Invoices       int     `json:"invoices"`
	Changed        []int64 `json:"changed"`
	Contradictions []int64 `json:"contradictions"`
	Created        int     `json:"points_created"`
	Removed        int     `json:"points_removed"`
	Kept           int     `json:"points_kept"`
}

type generateBody struct {
	InvoiceIDs []int64 `json:"invoice_ids"`
}

// generate serves POST /contradiction_generators/start.
func (h *handler) generate(w http.ResponseWriter, r *http.Request) error {
	var body generateBody
	if err := httpapi.DecodeJSON(r, &body, true); err != nil {
		return err
	}
	res, err := h.s.Generate(r.Context(), body.InvoiceIDs)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, res)
	return nil
}

// invoiceRow is what the generator reads of an invoice.
type invoiceRow struct {
	id, contract, company int64
	number                string
	year                  int
	from, to              time.Time
	lang                  string
}

// storedPoint is a point already stored on an invoice's contradiction.
type storedPoint struct {
	id, version, position, rank int64
	rule, title, text           string
	claim                       decimal.Decimal
}

// kept reports whether the generator leaves the point alone: a person
// wrote it (no rule) or changed it after the generator wrote it (the
// generator writes version 1 and never updates a point).
func (p storedPoint) kept() bool { return p.rule == "" || p.version > 1 }

// existing is an invoice's contradiction (the oldest) and its points.
type existing struct {
	id, version int64
	sum         decimal.Decimal
	points      []storedPoint
}

// newPoint is a point the generator wants on an invoice.
type newPoint struct {
	rule, title, text string
	position          int64
	claim             decimal.Decimal
	clear             bool
	module            int64
}

// Generate runs the rules over the invoices ids and stores, for each, one
// contradiction named after the invoice with one point per finding. A
// re-run replaces the points it generated before and keeps the ones a
// person wrote or edited. All or nothing: an id that is missing, outside
// the caller's tenant or without a contract refuses the whole request
// (422 naming each), and nothing is written.
func (s *Service) Generate(ctx context.Context, ids []int64) (*GenerateResult, error) {
	for _, e := range []string{entityContra, entityPoint} {
		if err := s.engine.Require(ctx, access.ActionCreate, e); err != nil {
			return nil, err
		}
	}
	if err := checkIDs(ids); err != nil {
		return nil, err
	}
	if err := s.checkInvoices(ctx, ids); err != nil {
		return nil, err
	}
	res := &GenerateResult{Invoices: len(ids), Changed: []int64{}, Contradictions: []int64{}}
	modules := map[string]textModule{}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		for start := 0; start < len(ids); start += generateChunk {
			if err := s.generateChunk(ctx, tx, ids[start:min(start+generateChunk, len(ids))], modules, res); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// checkIDs refuses an empty, oversized or repeating list.
func checkIDs(ids []int64) error {
	loc := []any{"body", "invoice_ids"}
	if len(ids) == 0 {
		return apperr.Validation(apperr.FieldError{Field: "invoice_ids", Loc: loc, Key: "validation.required", Type: "required"})
	}
	if len(ids) > maxGenerateInvoices {
		return apperr.Validation(apperr.FieldError{Field: "invoice_ids", Loc: loc, Key: "server.invoices.too_many",
			Type: "max", Args: map[string]string{"max": strconv.Itoa(maxGenerateInvoices)}})
	}
	seen := make(map[int64]bool, len(ids))
	for i, id := range ids {
		if seen[id] {
			return apperr.Validation(apperr.FieldError{Field: "invoice_ids", Loc: []any{"body", "invoice_ids", i},
				Key: "server.invoices.repeated", Type: "value_error", Args: map[string]string{"id": strconv.FormatInt(id, 10)}})
		}
		seen[id] = true
	}
	return nil
}

// checkInvoices answers 422 naming every invoice (by its place in the
// list) that the caller cannot see or that has no contract.
func (s *Service) checkInvoices(ctx context.Context, ids []int64) error {
	var errs []apperr.FieldError
	for start := 0; start < len(ids); start += generateChunk {
		chunk := ids[start:min(start+generateChunk, len(ids))]
		rows, err := s.invoices(ctx, s.db, chunk)
		if err != nil {
			return err
		}
		for i, id := range chunk {
			inv, ok := rows[id]
			key := ""
			switch {
			case !ok:
				key = "server.invoices.unknown_invoice"
			case inv.contract == 0:
				key = "server.invoices.no_contract"
			default:
				continue
			}
			if len(errs) < maxReportedErrors {
				errs = append(errs, apperr.FieldError{Field: "invoice_ids", Loc: []any{"body", "invoice_ids", start + i},
					Key: key, Type: "value_error", Args: map[string]string{"id": strconv.FormatInt(id, 10)}})
			}
		}
	}
	if len(errs) > 0 {
		return apperr.Validation(errs...)
	}
	return nil
}

// in is "(?, ?, …)" for n values and the values as arguments.
func in(ids []int64) (string, []any) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return "(" + strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ") + ")", args
}

// keyed selects rows by a list of keys: from goes before the FROM item
// whose key column is named, cond into the WHERE clause; fromArgs and
// condArgs are their arguments.
type keyed struct {
	from, cond         string
	fromArgs, condArgs []any
}

// byKeys selects the rows whose column is one of ids. On PostgreSQL that
// is "column IN (…)". SQLite plans such a list of hundreds of keys as a
// scan of the whole table while its statistics (ANALYZE, daily) still
// describe the table as small, once per chunk; the keys as the outer loop
// of a CROSS JOIN (an order SQLite keeps) are a key lookup each.
func (s *Service) byKeys(column string, ids []int64) keyed {
	list, args := in(ids)
	if s.db.Dialect() != db.SQLite {
		return keyed{cond: column + " IN " + list, condArgs: args}
	}
	return keyed{from: "(VALUES " + strings.TrimSuffix(strings.Repeat("(?), ", len(ids)), ", ") + ") gen_keys CROSS JOIN ",
		cond: column + " = gen_keys.column1", fromArgs: args}
}

// invoices reads the invoices ids the caller sees, with their company's
// letter language.
func (s *Service) invoices(ctx context.Context, q db.Querier, ids []int64) (map[int64]invoiceRow, error) {
	inv, err := s.engine.Scoped(ctx, entityInvoice, "i")
	if err != nil {
		return nil, err
	}
	co, err := s.engine.Scoped(ctx, entityCompany, "co")
	if err != nil {
		return nil, err
	}
	k := s.byKeys("i.invoice_id", ids)
	rows, err := q.QueryContext(ctx, `SELECT i.invoice_id, i.invoice_number, i.contract_id, i.company_id, i.invoice_contract_year,
		i.invoice_billing_period_from, i.invoice_billing_period_to, co.company_language
		FROM `+k.from+inv.SQL+` LEFT JOIN `+co.SQL+` ON co.company_id = i.company_id
		WHERE `+k.cond, append(append(append(append([]any{}, k.fromArgs...), inv.Args...), co.Args...), k.condArgs...)...)
	if err != nil {
		return nil, fmt.Errorf("invoices: read invoices: %w", err)
	}
	defer rows.Close()
	out := make(map[int64]invoiceRow, len(ids))
	for rows.Next() {
		var x invoiceRow
		var number, lang sql.NullString
		var contract, company, year sql.NullInt64
		var from, to any
		if err := rows.Scan(&x.id, &number, &contract, &company, &year, &from, &to, &lang); err != nil {
			return nil, fmt.Errorf("invoices: read invoices: %w", err)
		}
		x.number, x.contract, x.company, x.year = number.String, contract.Int64, company.Int64, int(year.Int64)
		x.lang = "de"
		if i18n.Supported(lang.String) {
			x.lang = lang.String
		}
		if x.from, err = dateOf(from); err != nil {
			return nil, err
		}
		if x.to, err = dateOf(to); err != nil {
			return nil, err
		}
		out[x.id] = x
	}
	return out, rows.Err()
}

// dateOf reads a DATE column (text on SQLite, time on PostgreSQL) or a
// record's date value; NULL and an empty text are the zero time.
func dateOf(v any) (time.Time, error) {
	switch d := v.(type) {
	case nil:
		return time.Time{}, nil
	case time.Time:
		return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC), nil
	case string:
		if d == "" {
			return time.Time{}, nil
		}
		return time.Parse(time.DateOnly, d[:min(len(d), 10)])
	case []byte:
		return time.Parse(time.DateOnly, string(d[:min(len(d), 10)]))
	}
	return time.Time{}, fmt.Errorf("invoices: %T is not a date", v)
}

// generateChunk runs the rules over one chunk of invoices and writes what
// changed.
func (s *Service) generateChunk(ctx context.Context, tx *db.Tx, ids []int64, modules map[string]textModule, res *GenerateResult) error {
	invs, err := s.invoices(ctx, tx, ids)
	if err != nil {
		return err
	}
	facts, err := s.facts(ctx, tx, ids, invs)
	if err != nil {
		return err
	}
	stored, err := s.existing(ctx, tx, ids)
	if err != nil {
		return err
	}
	var newContras []map[string]any
	var newContraOf []int64            // the invoice of each new contradiction
	pointsOf := map[int64][]newPoint{} // invoice → points to write
	rankOf := map[int64]int64{}        // invoice → first rank of its new points
	for _, id := range ids {
		inv := invs[id]
		want, err := s.wanted(ctx, tx, inv, facts[id], modules)
		if err != nil {
			return err
		}
		old := stored[id]
		if old == nil {
			if len(want) == 0 {
				continue
			}
			sum := decimal.Zero
			for _, p := range want {
				sum = sum.Add(p.claim)
			}
			newContras = append(newContras, map[string]any{"invoice_id": id, "contradiction_name": contradictionName(inv),
				"contradiction_sum": sum.StringFixed(2)})
			newContraOf = append(newContraOf, id)
			pointsOf[id], rankOf[id] = want, 1
			res.Changed = append(res.Changed, id)
			continue
		}
		// Points kept (a person's) stay; a finding a kept point already
		// covers (same rule and position) is not written again.
		covered := map[[2]any]bool{}
		var generated []storedPoint
		sum, rank := decimal.Zero, int64(0)
		for _, p := range old.points {
			rank = max(rank, p.rank)
			if p.kept() {
				res.Kept++
				sum = sum.Add(p.claim)
				if p.rule != "" {
					covered[[2]any{p.rule, p.position}] = true
				}
				continue
			}
			generated = append(generated, p)
		}
		var fresh []newPoint
		for _, p := range want {
			if !covered[[2]any{p.rule, p.position}] {
				fresh = append(fresh, p)
				sum = sum.Add(p.claim)
			}
		}
		res.Contradictions = append(res.Contradictions, old.id)
		if samePoints(generated, fresh) && old.sum.Equal(sum) {
			continue
		}
		res.Changed = append(res.Changed, id)
		for _, p := range generated {
			if err := s.engine.DeleteIn(ctx, tx, entityPoint, p.id, p.version); err != nil {
				return err
			}
			res.Removed++
		}
		if !old.sum.Equal(sum) {
			if err := s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: entityContra, ID: old.id, RowVersion: old.version,
				Data: map[string]any{"contradiction_sum": sum.StringFixed(2)}}); err != nil {
				return err
			}
		}
		pointsOf[id], rankOf[id] = fresh, rank+1
	}
	contraOf := map[int64]int64{} // invoice → contradiction
	for id, old := range stored {
		contraOf[id] = old.id
	}
	var created []tables.NewRow
	if len(newContras) > 0 {
		keys, err := s.engine.CreateManyIn(ctx, tx, entityContra, newContras)
		if err != nil {
			return err
		}
		for i, k := range keys {
			contraOf[newContraOf[i]] = k
			created = append(created, tables.NewRow{Entity: entityContra, ID: k})
			res.Contradictions = append(res.Contradictions, k)
		}
	}
	var rows []map[string]any
	for _, id := range ids {
		for i, p := range pointsOf[id] {
			row := map[string]any{"contradiction_id": contraOf[id], "contradictionpoint_rank": rankOf[id] + int64(i),
				"contradictionpoint_title": p.title, "contradictionpoint_text": p.text, "contradictionpoint_rule": p.rule,
				"contradictionpoint_claim": p.claim.StringFixed(2), "legally_clear": boolInt(p.clear), "textmodule_id": p.module}
			if p.position != 0 {
				row["invoiceposition_id"] = p.position
			}
			rows = append(rows, row)
		}
	}
	if _, err := s.engine.CreateManyIn(ctx, tx, entityPoint, rows, tables.Referring(created...)); err != nil {
		return err
	}
	res.Created += len(rows)
	return nil
}

// contradictionName is the name of an invoice's contradiction: the
// invoice's number (its key when it has none).
func contradictionName(inv invoiceRow) string {
	if inv.number != "" {
		return inv.number
	}
	return "#" + strconv.FormatInt(inv.id, 10)
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// samePoints reports whether the generated points stored say what the
// fresh findings say, in order.
func samePoints(stored []storedPoint, fresh []newPoint) bool {
	if len(stored) != len(fresh) {
		return false
	}
	for i, p := range stored {
		f := fresh[i]
		if p.rule != f.rule || p.position != f.position || !p.claim.Equal(f.claim) || p.title != f.title || p.text != f.text {
			return false
		}
	}
	return true
}

// wanted turns the findings of one invoice into the points to store, with
// title and text from the rule's text module in the invoice company's
// language.
func (s *Service) wanted(ctx context.Context, q db.Querier, inv invoiceRow, f Facts, modules map[string]textModule) ([]newPoint, error) {
	findings := Check(f)
	out := make([]newPoint, 0, len(findings))
	for _, x := range findings {
		m, err := s.module(ctx, q, RuleModulePrefix+x.Rule, inv.lang, modules)
		if err != nil {
			return nil, err
		}
		vars := s.pointVars(inv, x)
		text, err := letter.Fill(m.template, vars)
		if err != nil {
			return nil, apperr.Validation(apperr.FieldError{Field: "textmodule_templatetext", Key: "server.invoices.module_placeholders",
				Type: "value_error", Args: map[string]string{"code": m.code, "detail": err.Error()}})
		}
		title := m.name
		if x.Position != nil {
			title += ": " + x.Position.Name
		}
		p := newPoint{rule: x.Rule, title: truncate(title, 255), text: text, claim: x.Claim, clear: x.LegallyClear, module: m.id}
		if x.Position != nil {
			p.position = x.Position.ID
		}
		out = append(out, p)
	}
	return out, nil
}

// truncate cuts s to at most n characters.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}

// pointVars are the placeholders a rule's text may use; every rule's
// text may name each of them (empty when the rule has no such figure).
func (s *Service) pointVars(inv invoiceRow, x Finding) map[string]string {
	lang := inv.lang
	v := map[string]string{
		"invoice_number": inv.number, "claim": letter.Money(x.Claim, lang),
		"position": "", "costtype": "", "amount_customer": "", "amount_total": "", "units_customer": "", "total_units": "",
		"expected": "", "previous_amount": "", "previous_year": "", "period_from": "", "period_to": "", "period_months": "",
		"period_length": "", "agreed_length": "", "charged": "", "position_count": "", "rent": "", "share_percent": "",
		"limit_percent": "", "limit_amount": "", "cap_per_year": "",
	}
	if p := x.Position; p != nil {
		v["position"], v["costtype"] = p.Name, p.CostType
		v["amount_customer"], v["amount_total"] = letter.Money(p.AmountCustomer, lang), letter.Money(p.AmountTotal, lang)
		v["units_customer"], v["total_units"] = letter.Number(p.UnitsCustomer, 2, lang), letter.Number(p.TotalUnits, 2, lang)
	}
	if x.Rule == RuleShareExceeded {
		v["expected"] = letter.Money(x.Expected, lang)
	}
	if x.Rule == RuleFlatRateChanged {
		v["previous_amount"], v["previous_year"] = letter.Money(x.Previous, lang), strconv.Itoa(inv.year-1)
	}
	if !inv.from.IsZero() {
		v["period_from"], v["period_to"] = letter.Date(inv.from, lang), letter.Date(inv.to, lang)
	}
	if x.Months > 0 {
		v["period_months"] = strconv.Itoa(x.Months)
		v["period_length"] = s.catalog.N(lang, "invoices.rule.months", int64(x.Months), nil)
	}
	s.measureVars(v, x, lang)
	return v
}

// measureVars fills what the category and billing-period rules measured:
// the amount charged and by how many positions, the rent, the share of
// it, and the lease's or the decision's figure with its amount.
func (s *Service) measureVars(v map[string]string, x Finding, lang string) {
	switch x.Rule {
	case RuleBillingPeriodAgreed, RuleBillingPeriodLong:
		v["agreed_length"] = s.catalog.N(lang, "invoices.rule.months", x.Limit.IntPart(), nil)
		return
	case RuleAdminOverCap, RuleAdminAboveCustomary, RuleMaintenanceOverCap, RuleMaintenanceWithoutCap:
	default:
		return
	}
	v["charged"] = letter.Money(x.Charged, lang)
	v["position_count"] = s.catalog.N(lang, "invoices.rule.positions", int64(x.Count), nil)
	if x.Rule == RuleAdminOverCap || x.Rule == RuleAdminAboveCustomary {
		v["rent"] = letter.Money(x.Base, lang)
		v["share_percent"] = percentText(x.Percent, x.Limit, lang)
		v["limit_percent"] = letter.Number(x.Limit, places(x.Limit), lang) + " %"
	}
	if x.Rule == RuleMaintenanceOverCap {
		v["cap_per_year"] = letter.Money(x.Limit, lang)
	}
	if x.LimitAmount.IsPositive() {
		v["limit_amount"] = letter.Money(x.LimitAmount, lang)
	}
}

// percentText shows a share in percent with one decimal ("6,1 %"), or
// two where one would not tell it from the limit (5.52 % over 5.5 %).
func percentText(p, limit decimal.Decimal, lang string) string {
	if p.Round(1).GreaterThan(limit) {
		return letter.Number(p.Round(1), 1, lang) + " %"
	}
	return letter.Number(p, 2, lang) + " %"
}

// places is how many decimals d needs (4 → 0, 5.5 → 1, 4.25 → 2).
func places(d decimal.Decimal) int32 {
	for n := int32(0); n < 4; n++ {
		if d.Equal(d.Round(n)) {
			return n
		}
	}
	return 4
}
