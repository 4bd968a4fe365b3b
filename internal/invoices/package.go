package invoices

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// packageRule keeps a contradiction package to one point of sale: a
// contradiction joins a package (on create or when its package changes,
// through the generic API or a module) only when its invoice's contract
// belongs to the package's point of sale; 422 on contradictionpackage_id
// otherwise (server.invoices.package_other_pos).
type packageRule struct{ s *Service }

// BeforeWrite checks the package of the contradiction written.
func (r packageRule) BeforeWrite(ctx context.Context, w *tables.WriteContext) error {
	pkg, ok := w.Values["contradictionpackage_id"]
	if !ok || validate.Empty(pkg) {
		return nil
	}
	packageID, _ := pkg.(int64)
	invoiceID, _ := w.Record["invoice_id"].(int64)
	want, err := r.s.packagePOS(ctx, w, packageID)
	if err != nil {
		return err
	}
	got, err := r.s.invoicePOS(ctx, w, invoiceID)
	if err != nil {
		return err
	}
	if got == 0 || got != want {
		return apperr.Validation(apperr.FieldError{Field: "contradictionpackage_id", Key: "server.invoices.package_other_pos", Type: "value_error"})
	}
	return nil
}

// packagePOS is the point of sale of package id (the reference check has
// already proved the caller sees it).
func (s *Service) packagePOS(ctx context.Context, w *tables.WriteContext, id int64) (int64, error) {
	p, err := s.engine.Scoped(ctx, entityPackage, "pk")
	if err != nil {
		return 0, err
	}
	var pos sql.NullInt64
	err = w.Tx.QueryRowContext(ctx, `SELECT pk.pos_id FROM `+p.SQL+` WHERE pk.contradictionpackage_id = ?`, append(p.Args, id)...).Scan(&pos)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("invoices: read package %d: %w", id, err)
	}
	return pos.Int64, nil
}

// invoicePOS is the point of sale of invoice id's contract (0 without a
// contract).
func (s *Service) invoicePOS(ctx context.Context, w *tables.WriteContext, id int64) (int64, error) {
	i, err := s.engine.Scoped(ctx, entityInvoice, "i")
	if err != nil {
		return 0, err
	}
	c, err := s.engine.Scoped(ctx, entityContract, "c")
	if err != nil {
		return 0, err
	}
	var pos sql.NullInt64
	err = w.Tx.QueryRowContext(ctx, `SELECT c.pos_id FROM `+i.SQL+` JOIN `+c.SQL+` ON c.contract_id = i.contract_id
		WHERE i.invoice_id = ?`, append(append(append([]any{}, i.Args...), c.Args...), id)...).Scan(&pos)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("invoices: read the point of sale of invoice %d: %w", id, err)
	}
	return pos.Int64, nil
}

// maxPackageContradictions caps the contradictions one package create names.
const maxPackageContradictions = 5000

// packageBody is the body of POST /contradictionpackages: the package's
// fields and the contradictions to put into it.
type packageBody struct {
	Data           map[string]any `json:"data"`
	Contradictions []int64        `json:"contradiction_ids"`
}

// PackageResult answers POST /contradictionpackages: the new package as
// the generic read renders it and the contradictions put into it.
type PackageResult struct {
	ID             int64           `json:"id"`
	Data           json.RawMessage `json:"data"`
	Contradictions []int64         `json:"contradiction_ids"`
}

// createPackage serves POST /contradictionpackages.
func (h *handler) createPackage(w http.ResponseWriter, r *http.Request) error {
	var body packageBody
	if err := httpapi.DecodeJSON(r, &body, true); err != nil {
		return err
	}
	res, err := h.s.CreatePackage(r.Context(), body.Data, body.Contradictions)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, res)
	return nil
}

// CreatePackage creates a contradiction package with data (a generic
// create of contradictionpackage) and puts the contradictions ids into it
// (each a generic update of its contradictionpackage_id), in one
// transaction: all or nothing. Each contradiction must be in the caller's
// tenant (404 otherwise, like a missing one) and belong to the package's
// point of sale (422 naming its place, ["body","contradiction_ids",i]);
// a repeated id is 422 too.
func (s *Service) CreatePackage(ctx context.Context, data map[string]any, ids []int64) (*PackageResult, error) {
	if err := s.engine.Require(ctx, access.ActionCreate, entityPackage); err != nil {
		return nil, err
	}
	if len(ids) > 0 {
		if err := s.engine.Require(ctx, access.ActionUpdate, entityContra); err != nil {
			return nil, err
		}
	}
	if len(ids) > maxPackageContradictions {
		return nil, apperr.Validation(apperr.FieldError{Field: "contradiction_ids", Loc: []any{"body", "contradiction_ids"},
			Key: "server.invoices.too_many", Type: "max", Args: map[string]string{"max": strconv.Itoa(maxPackageContradictions)}})
	}
	seen := make(map[int64]bool, len(ids))
	for i, id := range ids {
		if seen[id] {
			return nil, apperr.Validation(apperr.FieldError{Field: "contradiction_ids", Loc: []any{"body", "contradiction_ids", i},
				Key: "server.invoices.repeated", Type: "value_error", Args: map[string]string{"id": strconv.FormatInt(id, 10)}})
		}
		seen[id] = true
	}
	if data == nil {
		data = map[string]any{}
	}
	res := &PackageResult{Contradictions: []int64{}}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		id, err := s.engine.CreateIn(ctx, tx, entityPackage, data)
		if err != nil {
			return err
		}
		w := &tables.WriteContext{Tx: tx}
		pos, err := s.packagePOS(ctx, w, id)
		if err != nil {
			return err
		}
		for i, c := range ids {
			// 404 for a contradiction that is missing or of another tenant.
			rec, version, err := s.engine.GetIn(ctx, tx, entityContra, c)
			if err != nil {
				return err
			}
			invoice, _ := rec["invoice_id"].(int64)
			got, err := s.invoicePOS(ctx, w, invoice)
			if err != nil {
				return err
			}
			if got == 0 || got != pos {
				return apperr.Validation(apperr.FieldError{Field: "contradiction_ids", Loc: []any{"body", "contradiction_ids", i},
					Key: "server.invoices.package_other_pos", Type: "value_error"})
			}
			// The engine's write hook checks the point of sale again.
			if err := s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: entityContra, ID: c, RowVersion: version,
				Data: map[string]any{"contradictionpackage_id": id}}); err != nil {
				return err
			}
			res.Contradictions = append(res.Contradictions, c)
		}
		out, err := s.engine.ReadIn(ctx, tx, entityPackage, id)
		if err != nil {
			return err
		}
		res.ID, res.Data = id, out
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}
