package contracts

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// contractParts are the relations GET /contracts/{id} answers with the
// contract, by answer key and relation name. The partner companies are
// split into owners and managers by their role on the link.
var contractParts = []struct{ key, rel string }{
	{"areas", "area"},
	{"deadlines", "deadlines"},
	{"recurringpayments", "recurring_payment"},
	{"criteria", "criteria"},
	{"costtypes", "costtype"},
	{"serviceobjects", "service_object"},
	{"specialrights", "specialright"},
	{"partnercompanies", "partner_company"},
}

// maxParts caps the rows of one relation in the contract answer.
const maxParts = 10000

// Contract reads contract id with its relations the caller may read (a tab
// without the caller's right is left out), the area links valid today, and
// the sums of rental and allocation space over them.
func (s *Service) Contract(ctx context.Context, id int64) (map[string]any, error) {
	raw, err := s.engine.ReadIn(ctx, s.db, entityContract, id)
	if err != nil {
		return nil, err
	}
	out := map[string]any{}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("contracts: decode contract %d: %w", id, err)
	}
	today := s.now().UTC().Format(time.DateOnly)
	for _, part := range contractParts {
		rows, recs, err := s.relationRows(ctx, id, part.rel)
		if apperr.IsKind(err, apperr.KindForbidden) {
			continue
		}
		if err != nil {
			return nil, err
		}
		switch part.key {
		case "areas":
			current, sums := currentAreas(rows, recs, today)
			out["areas"] = current
			out["rentalspace_sum"], out["allocationspace_sum"] = sums[0], sums[1]
		case "partnercompanies":
			owners, managers := []json.RawMessage{}, []json.RawMessage{}
			for i, rec := range recs {
				if rec["partner_role"] == "manager" {
					managers = append(managers, rows[i])
				} else {
					owners = append(owners, rows[i])
				}
			}
			out["owners"], out["managers"] = owners, managers
		case "deadlines":
			if out["deadlines"], err = s.withLights(i18n.LangFrom(ctx), rows, s.now().UTC()); err != nil {
				return nil, err
			}
		default:
			out[part.key] = rows
		}
	}
	return out, nil
}

// relationRows reads the rows of one relation of contract id as JSON and
// as canonical values.
func (s *Service) relationRows(ctx context.Context, id int64, rel string) ([]json.RawMessage, []validate.Record, error) {
	cur, err := s.engine.ListIn(ctx, s.db, tables.ListQuery{Entity: entityContract + "_" + rel + "_rel",
		Data: map[string]any{"contract_id": id}, PerPage: maxParts})
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

// currentAreas keeps the area links valid on today and sums their rental
// and allocation space.
func currentAreas(rows []json.RawMessage, recs []validate.Record, today string) ([]json.RawMessage, [2]float64) {
	current := []json.RawMessage{}
	var sums [2]float64
	for i, rec := range recs {
		from, _ := rec["valid_from"].(string)
		to, _ := rec["valid_to"].(string)
		if (from != "" && from > today) || (to != "" && to < today) {
			continue
		}
		current = append(current, rows[i])
		for j, field := range []string{"rentalspace_value", "allocationspace_value"} {
			if v, ok := rec[field].(float64); ok {
				sums[j] += v
			}
		}
	}
	for j := range sums {
		sums[j] = math.Round(sums[j]*10000) / 10000
	}
	return current, sums
}

// contract serves GET /contracts/{id}.
func (h *handler) contract(w http.ResponseWriter, r *http.Request) error {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	c, err := h.s.Contract(r.Context(), id)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": c})
	return nil
}
