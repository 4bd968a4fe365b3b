package indexation

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

func (h *handler) approve(w http.ResponseWriter, r *http.Request) error { return h.decide(w, r, true) }

func (h *handler) reject(w http.ResponseWriter, r *http.Request) error { return h.decide(w, r, false) }

// decide serves POST /indexadjustments/{id}/approve and /reject.
func (h *handler) decide(w http.ResponseWriter, r *http.Request, approve bool) error {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	rec, err := h.s.Decide(r.Context(), id, approve)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, rec)
	return nil
}

// Decide approves or rejects proposal id. Who may: whoever may update
// adjustments (administrators; team leads of the teams that change
// contracts, decision 0011) within their tenant (404 outside it). Only a
// proposal whose reference month is the payment's current reference (the
// last approved adjustment's month, else the clause's begin month) may be
// approved: the chain's order (409 otherwise). Approval sets the payment's
// amount to the new amount (with history); the schedule applies it from
// the effective date. Rejection discards the later proposals of the
// chain.
func (s *Service) Decide(ctx context.Context, id int64, approve bool) (json.RawMessage, error) {
	var out json.RawMessage
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		rec, _, err := s.engine.GetIn(ctx, tx, entityAdjustment, id)
		if err != nil {
			return err
		}
		if err := s.engine.Require(ctx, access.ActionUpdate, entityAdjustment); err != nil {
			return err
		}
		if rec["indexadjustment_status"] != StatusProposed {
			return apperr.Conflict("server.indexation.decided")
		}
		pay, _ := rec["recurringpayment_id"].(int64)
		chain, err := s.chainOf(ctx, tx, pay)
		if err != nil {
			return err
		}
		if approve {
			if err := s.approve(ctx, tx, id, rec, pay, chain); err != nil {
				return err
			}
		} else if err := s.reject(ctx, tx, id, rec, chain); err != nil {
			return err
		}
		out, err = s.engine.ReadIn(ctx, tx, entityAdjustment, id)
		return err
	})
	return out, err
}

// link is one stored adjustment of a payment's chain.
type link struct {
	id, version        int64
	reference, current string
	status             string
}

// chainOf reads the adjustments of payment pay in chain order.
func (s *Service) chainOf(ctx context.Context, q db.Querier, pay int64) ([]link, error) {
	a, err := s.engine.Scoped(ctx, entityAdjustment, "a")
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, `SELECT a.indexadjustment_id, a.row_version, a.indexadjustment_reference_month,
		a.indexadjustment_current_month, a.indexadjustment_status FROM `+a.SQL+`
		WHERE a.recurringpayment_id = ? ORDER BY a.indexadjustment_current_month, a.indexadjustment_id`, append(a.Args, pay)...)
	if err != nil {
		return nil, fmt.Errorf("indexation: read the chain: %w", err)
	}
	defer rows.Close()
	var out []link
	for rows.Next() {
		var l link
		if err := rows.Scan(&l.id, &l.version, &l.reference, &l.current, &l.status); err != nil {
			return nil, fmt.Errorf("indexation: read the chain: %w", err)
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

func (s *Service) approve(ctx context.Context, tx *db.Tx, id int64, rec validate.Record, pay int64, chain []link) error {
	_, version, err := s.engine.GetIn(ctx, tx, entityPayment, pay)
	if err != nil {
		return err
	}
	clauseID, _ := rec["indexclause_id"].(int64)
	clause, _, err := s.engine.GetIn(ctx, tx, entityClause, clauseID)
	if err != nil {
		return err
	}
	begin, err := dateOf(clause["indexclause_begin_date"])
	if err != nil {
		return err
	}
	current := MonthOf(begin)
	for _, l := range chain {
		if m, err := ParseMonth(l.current); err == nil && l.status == StatusApproved && m > current {
			current = m
		}
	}
	if rec["indexadjustment_reference_month"] != current.String() {
		return apperr.Conflict("server.indexation.out_of_order")
	}
	if _, err := s.engine.DeriveIn(ctx, tx, entityAdjustment, id,
		validate.Record{"indexadjustment_status": StatusApproved}); err != nil {
		return err
	}
	return s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: entityPayment, ID: pay, RowVersion: version,
		Data: map[string]any{"recurringpayment_sum_per_month": rec["indexadjustment_new_amount"]}})
}

// reject marks the proposal rejected and removes the proposals after it.
func (s *Service) reject(ctx context.Context, tx *db.Tx, id int64, rec validate.Record, chain []link) error {
	if _, err := s.engine.DeriveIn(ctx, tx, entityAdjustment, id, validate.Record{"indexadjustment_status": StatusRejected}); err != nil {
		return err
	}
	cur, _ := rec["indexadjustment_current_month"].(string)
	for _, l := range chain {
		if l.status == StatusProposed && l.id != id && l.current > cur {
			if err := s.engine.DeleteIn(ctx, tx, entityAdjustment, l.id, l.version); err != nil {
				return err
			}
		}
	}
	return nil
}
