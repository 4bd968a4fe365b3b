package invoices

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/shopspring/decimal"

	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// maxRows caps the rows of one relation on the invoice page.
const maxRows = 10000

// invoiceParts are the relations GET /invoices/{id} answers, by the key of
// the answer and the invoice's relation.
var invoiceParts = []struct{ key, rel string }{
	{"areas", "areas"},
	{"value_types", "value_types"},
	{"criteria", "criteria"},
	{"deadlines", "deadlines"},
	{"documents", "documents"},
	{"service_objects", "service_objects"},
	{"positions", "positions"},
	{"contradictions", "contradiction"},
	{"inspection_results", "inspection_results"},
}

// invoice serves GET /invoices/{id}.
func (h *handler) invoice(w http.ResponseWriter, r *http.Request) error {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	out, err := h.s.Invoice(r.Context(), id)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, out)
	return nil
}

// Sums are an invoice's exact sums (decimal strings with two places).
type Sums struct {
	AmountTotal       string `json:"amount_total"`
	AmountCustomer    string `json:"amount_customer"`
	Positions         int    `json:"positions"`
	Claimed           string `json:"claimed"`
	Accepted          string `json:"accepted"`
	InspectionValue   string `json:"inspection_value"`
	InspectionRealise string `json:"inspection_realised"`
}

// Invoice answers invoice id whole, as the invoice page shows it: the
// record with its labels, the contract, every relation the caller may read
// (a relation the caller's rights hide is left out), the contradictions
// each with its points, and the sums computed in exact decimals (404
// outside the caller's tenant).
func (s *Service) Invoice(ctx context.Context, id int64) (map[string]any, error) {
	raw, err := s.engine.ReadIn(ctx, s.db, entityInvoice, id)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("invoices: decode invoice %d: %w", id, err)
	}
	rec, _, err := s.engine.GetIn(ctx, s.db, entityInvoice, id)
	if err != nil {
		return nil, err
	}
	out["contract"] = nil
	if contract, ok := rec["contract_id"].(int64); ok {
		c, err := s.engine.ReadIn(ctx, s.db, entityContract, contract)
		switch {
		case err == nil:
			out["contract"] = c
		case !apperr.IsKind(err, apperr.KindForbidden) && !apperr.IsKind(err, apperr.KindNotFound):
			return nil, err
		}
	}
	contract, _ := rec["contract_id"].(int64)
	p, err := s.contractPeriods(ctx, s.db, contract)
	if err != nil {
		return nil, err
	}
	if out["statement_deadlines"], err = s.explainDeadlines(i18n.LangFrom(ctx), rec, p); err != nil {
		return nil, err
	}
	sums := map[string]decimal.Decimal{}
	add := func(key string, v any) {
		if f, ok := v.(float64); ok {
			sums[key] = sums[key].Add(decimal.NewFromFloat(f))
		}
	}
	positions := 0
	for _, part := range invoiceParts {
		rows, recs, err := s.relationRows(ctx, entityInvoice, id, part.rel)
		if apperr.IsKind(err, apperr.KindForbidden) {
			continue
		}
		if err != nil {
			return nil, err
		}
		switch part.key {
		case "positions":
			positions = len(recs)
			for _, r := range recs {
				add("total", r["amount_total"])
				add("customer", r["amount_customer"])
			}
			out[part.key] = rows
		case "contradictions":
			contras := make([]map[string]any, 0, len(rows))
			for i, row := range rows {
				c := map[string]any{}
				if err := json.Unmarshal(row, &c); err != nil {
					return nil, fmt.Errorf("invoices: decode contradiction: %w", err)
				}
				cid, _ := recs[i]["contradiction_id"].(int64)
				points, precs, err := s.relationRows(ctx, entityContra, cid, "points")
				if err != nil && !apperr.IsKind(err, apperr.KindForbidden) {
					return nil, err
				}
				for _, p := range precs {
					add("claimed", p["contradictionpoint_claim"])
					add("accepted", p["contradictionpoint_accepted"])
				}
				c["points"] = points
				contras = append(contras, c)
			}
			out[part.key] = contras
		case "inspection_results":
			for _, r := range recs {
				add("inspection", r["inspectionresult_value"])
				if v, _ := r["inspectionresult_realised"].(int64); v == 1 {
					add("realised", r["inspectionresult_value"])
				}
			}
			out[part.key] = rows
		default:
			out[part.key] = rows
		}
	}
	out["sums"] = Sums{
		AmountTotal: sums["total"].StringFixed(2), AmountCustomer: sums["customer"].StringFixed(2), Positions: positions,
		Claimed: sums["claimed"].StringFixed(2), Accepted: sums["accepted"].StringFixed(2),
		InspectionValue: sums["inspection"].StringFixed(2), InspectionRealise: sums["realised"].StringFixed(2),
	}
	return out, nil
}

// relationRows reads the rows of relation rel of record id of entity as
// JSON and as canonical values.
func (s *Service) relationRows(ctx context.Context, entity string, id int64, rel string) ([]json.RawMessage, []validate.Record, error) {
	cur, err := s.engine.ListIn(ctx, s.db, tables.ListQuery{Entity: entity + "_" + rel + "_rel",
		Data: map[string]any{entity + "_id": id}, PerPage: maxRows})
	if err != nil {
		return nil, nil, err
	}
	defer cur.Close()
	rows, recs := []json.RawMessage{}, []validate.Record{}
	for cur.Next() {
		rows = append(rows, cur.AppendJSON(nil))
		recs = append(recs, cur.Record())
	}
	return rows, recs, cur.Err()
}
