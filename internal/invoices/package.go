package invoices

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"portfolio/internal/apperr"
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
