package invoices

import (
	"context"
	"database/sql"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strconv"

	"github.com/shopspring/decimal"
	"github.com/xuri/excelize/v2"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/savings"
)

// Savings are what the review claimed (the points' claims), what the
// landlords accepted (the points' accepted amounts) and what was realised
// (the values of realised inspection results), as exact decimals.
type Savings struct {
	Claimed  decimal.Decimal `json:"claimed"`
	Accepted decimal.Decimal `json:"accepted"`
	Realised decimal.Decimal `json:"realised"`
}

// MarshalJSON writes the amounts as decimal strings with two places.
func (s Savings) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]string{"claimed": s.Claimed.StringFixed(2), "accepted": s.Accepted.StringFixed(2), "realised": s.Realised.StringFixed(2)})
}

// SavingsRow is the savings of one group.
type SavingsRow struct {
	Key   int64
	Label string
	Savings
}

// MarshalJSON writes the group's key and label beside its amounts.
func (r SavingsRow) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{"key": r.Key, "label": r.Label, "claimed": r.Claimed.StringFixed(2),
		"accepted": r.Accepted.StringFixed(2), "realised": r.Realised.StringFixed(2)})
}

// SavingsAnswer answers GET /invoices/savings.
type SavingsAnswer struct {
	GroupBy string       `json:"group_by"`
	Year    int          `json:"year,omitempty"`
	Rows    []SavingsRow `json:"rows"`
	Total   Savings      `json:"total"`
}

// groupings are the groups GET /invoices/savings sums by: the key and the
// label as SQL over the aliases of savingsFrom. The year is the year the
// claim or result was made (decision 0069), read in Go from the day each
// row counts on (savings.MadeSQL), so it has no SQL of its own here.
var groupings = map[string][2]string{
	"customergroup": {"co.customergroup_id", "cg.customergroup_name"},
	"company":       {"i.company_id", "co.company_name"},
	"pos":           {"k.pos_id", "ps.pos_name"},
	"year":          {"NULL", "NULL"},
}

// savings serves GET /invoices/savings?year=&group_by=&format=csv|xlsx.
func (h *handler) savings(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	group := q.Get("group_by")
	if group == "" {
		group = "year"
	}
	if _, ok := groupings[group]; !ok {
		return apperr.Validation(apperr.FieldError{Field: "group_by", Loc: []any{"query", "group_by"}, Key: "validation.one_of",
			Type: "enum", Args: map[string]string{"field": "group_by", "values": "customergroup, company, pos, year"}})
	}
	year := 0
	if y := q.Get("year"); y != "" {
		n, err := strconv.Atoi(y)
		if err != nil || n < 1900 || n > 2100 {
			return apperr.Validation(apperr.FieldError{Field: "year", Loc: []any{"query", "year"}, Key: "server.invoices.year", Type: "value_error"})
		}
		year = n
	}
	format := q.Get("format")
	if format != "" && format != "json" && format != "csv" && format != "xlsx" {
		return apperr.Validation(apperr.FieldError{Field: "format", Loc: []any{"query", "format"}, Key: "validation.one_of",
			Type: "enum", Args: map[string]string{"field": "format", "values": "json, csv, xlsx"}})
	}
	ans, err := h.s.SavingsBy(r.Context(), group, year)
	if err != nil {
		return err
	}
	switch format {
	case "csv", "xlsx":
		return h.s.writeSavings(w, r, ans, format)
	}
	httpapi.WriteJSON(w, http.StatusOK, ans)
	return nil
}

// SavingsBy sums the caller's savings (tenant scope) per group (customer
// group, company, point of sale or year), for the claims and results made
// in one year or in all (0); a claim or a result counts on the day it was
// made (savings.MadeSQL, decision 0069). Amounts are read row by row and
// added in exact decimals: SQLite keeps NUMERIC as REAL, so SQL's SUM is
// not used.
func (s *Service) SavingsBy(ctx context.Context, group string, year int) (*SavingsAnswer, error) {
	g, ok := groupings[group]
	if !ok {
		return nil, fmt.Errorf("invoices: unknown grouping %q", group)
	}
	for _, e := range []string{entityPoint, entityResult} {
		if err := s.engine.Require(ctx, access.ActionRead, e); err != nil {
			return nil, err
		}
	}
	rows := map[int64]*SavingsRow{}
	total := Savings{}
	addTo := func(key int64, label string, field int, v decimal.Decimal) {
		r := rows[key]
		if r == nil {
			r = &SavingsRow{Key: key, Label: label}
			rows[key] = r
		}
		for _, x := range []*Savings{&r.Savings, &total} {
			switch field {
			case 0:
				x.Claimed = x.Claimed.Add(v)
			case 1:
				x.Accepted = x.Accepted.Add(v)
			default:
				x.Realised = x.Realised.Add(v)
			}
		}
	}
	// groupOf is a row's group: the year it was made when grouped by year.
	groupOf := func(key int64, label string, day any) (int64, string) {
		if group != "year" {
			return key, label
		}
		y := savings.YearOf(day)
		return int64(y), strconv.Itoa(y)
	}
	from, err := s.savingsFrom(ctx)
	if err != nil {
		return nil, err
	}
	pt, err := s.engine.Scoped(ctx, entityPoint, "pt")
	if err != nil {
		return nil, err
	}
	c, err := s.engine.Scoped(ctx, entityContra, "c")
	if err != nil {
		return nil, err
	}
	dialect := s.db.Dialect()
	made := savings.MadeSQL(savings.Point, "pt", "i")
	where, whereArgs := madeIn(made, year)
	err = s.scan(ctx, s.db, `SELECT `+g[0]+`, `+g[1]+`, `+db.DateText(dialect, made)+`, pt.contradictionpoint_claim, pt.contradictionpoint_accepted
		FROM `+from.sql+` JOIN `+c.SQL+` ON c.invoice_id = i.invoice_id JOIN `+pt.SQL+` ON pt.contradiction_id = c.contradiction_id`+where,
		append(append(append(append([]any{}, from.args...), c.Args...), pt.Args...), whereArgs...), func(key int64, label string, day any, a, b decimal.NullDecimal) {
			key, label = groupOf(key, label, day)
			addTo(key, label, 0, num(a))
			addTo(key, label, 1, num(b))
		})
	if err != nil {
		return nil, err
	}
	ir, err := s.engine.Scoped(ctx, entityResult, "ir")
	if err != nil {
		return nil, err
	}
	made = savings.MadeSQL(savings.Result, "ir", "i")
	where, whereArgs = madeIn(made, year)
	err = s.scan(ctx, s.db, `SELECT `+g[0]+`, `+g[1]+`, `+db.DateText(dialect, made)+`, ir.inspectionresult_value, NULL
		FROM `+from.sql+` JOIN `+ir.SQL+` ON ir.invoice_id = i.invoice_id`+andWhere(where, "ir.inspectionresult_realised = 1"),
		append(append(append([]any{}, from.args...), ir.Args...), whereArgs...), func(key int64, label string, day any, a, _ decimal.NullDecimal) {
			key, label = groupOf(key, label, day)
			addTo(key, label, 2, num(a))
		})
	if err != nil {
		return nil, err
	}
	out := &SavingsAnswer{GroupBy: group, Year: year, Rows: make([]SavingsRow, 0, len(rows)), Total: round(total)}
	for _, r := range rows {
		r.Savings = round(r.Savings)
		out.Rows = append(out.Rows, *r)
	}
	sort.Slice(out.Rows, func(a, b int) bool {
		if out.Rows[a].Label != out.Rows[b].Label {
			return out.Rows[a].Label < out.Rows[b].Label
		}
		return out.Rows[a].Key < out.Rows[b].Key
	})
	return out, nil
}

// madeIn is the condition "made in year" over made (none for 0).
func madeIn(made string, year int) (string, []any) {
	if year <= 0 {
		return "", nil
	}
	from, to := savings.YearBounds(year)
	return " WHERE " + made + " >= ? AND " + made + " < ?", []any{from, to}
}

func round(s Savings) Savings {
	return Savings{Claimed: Round2(s.Claimed), Accepted: Round2(s.Accepted), Realised: Round2(s.Realised)}
}

func andWhere(where, cond string) string {
	if where == "" {
		return " WHERE " + cond
	}
	return where + " AND " + cond
}

// savingsSource is the invoice side of the savings statements: the
// caller's invoices (alias i) with company, customer group, contract and
// point of sale.
type savingsSource struct {
	sql  string
	args []any
}

func (s *Service) savingsFrom(ctx context.Context) (savingsSource, error) {
	var args []any
	var parts []string
	for _, x := range []struct{ entity, alias string }{{entityInvoice, "i"}, {entityCompany, "co"}, {"customergroup", "cg"}, {entityContract, "k"}, {"pos", "ps"}} {
		src, err := s.engine.Scoped(ctx, x.entity, x.alias)
		if err != nil {
			return savingsSource{}, err
		}
		parts = append(parts, src.SQL)
		args = append(args, src.Args...)
	}
	from := parts[0] + ` LEFT JOIN ` + parts[1] + ` ON co.company_id = i.company_id LEFT JOIN ` + parts[2] +
		` ON cg.customergroup_id = co.customergroup_id LEFT JOIN ` + parts[3] + ` ON k.contract_id = i.contract_id LEFT JOIN ` +
		parts[4] + ` ON ps.pos_id = k.pos_id`
	return savingsSource{sql: from, args: args}, nil
}

// scan runs a savings statement: key, label, the day the row counts on
// and two amounts per row.
func (s *Service) scan(ctx context.Context, q db.Querier, stmt string, args []any, f func(int64, string, any, decimal.NullDecimal, decimal.NullDecimal)) error {
	rows, err := q.QueryContext(ctx, stmt, args...)
	if err != nil {
		return fmt.Errorf("invoices: savings: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var key sql.NullInt64
		var label sql.NullString
		var day any
		var a, b decimal.NullDecimal
		if err := rows.Scan(&key, &label, &day, &a, &b); err != nil {
			return fmt.Errorf("invoices: savings: %w", err)
		}
		f(key.Int64, label.String, day, a, b)
	}
	return rows.Err()
}

// writeSavings writes the savings as a CSV or XLSX file with headers in
// the request's language.
func (s *Service) writeSavings(w http.ResponseWriter, r *http.Request, ans *SavingsAnswer, format string) error {
	lang := i18n.LangFrom(r.Context())
	t := func(key string) string { return s.catalog.T(lang, key, nil) }
	header := []string{t("savings." + ans.GroupBy), t("savings.claimed"), t("savings.accepted"), t("savings.realised")}
	records := [][]string{header}
	for _, row := range ans.Rows {
		records = append(records, []string{row.Label, row.Claimed.StringFixed(2), row.Accepted.StringFixed(2), row.Realised.StringFixed(2)})
	}
	records = append(records, []string{t("savings.total"), ans.Total.Claimed.StringFixed(2), ans.Total.Accepted.StringFixed(2), ans.Total.Realised.StringFixed(2)})
	name := "savings-" + ans.GroupBy
	if ans.Year > 0 {
		name += "-" + strconv.Itoa(ans.Year)
	}
	w.Header().Set("Cache-Control", "no-store")
	if format == "csv" {
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.csv"`)
		cw := csv.NewWriter(w)
		if err := cw.WriteAll(records); err != nil {
			return fmt.Errorf("invoices: write savings csv: %w", err)
		}
		return nil
	}
	f := excelize.NewFile()
	defer f.Close()
	sheet := f.GetSheetName(0)
	for i, rec := range records {
		for j, v := range rec {
			cell, err := excelize.CoordinatesToCellName(j+1, i+1)
			if err != nil {
				return err
			}
			var value any = v
			if i > 0 && j > 0 {
				d, _ := decimal.NewFromString(v)
				value, _ = d.Float64() // a number cell; two places are exact in a float64's shortest form
			}
			if err := f.SetCellValue(sheet, cell, value); err != nil {
				return fmt.Errorf("invoices: write savings xlsx: %w", err)
			}
		}
	}
	w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`.xlsx"`)
	return f.Write(w)
}
