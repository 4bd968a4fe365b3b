package invoices

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/tables"
)

// relValueTypes is the generic relation of an invoice's value types
// (link invoice_invoicevaluetype with its value).
const relValueTypes = "invoice_value_types_rel"

// maxInvoiceValueTypes caps the value types of one invoice create.
const maxInvoiceValueTypes = 200

// invoiceValueType is one value type of a new invoice and its value.
type invoiceValueType struct {
	ID    int64 `json:"invoicevaluetype_id"`
	Value any   `json:"value"`
}

type invoiceBody struct {
	Data       map[string]any     `json:"data"`
	ValueTypes []invoiceValueType `json:"value_types"`
}

// InvoiceCreated answers POST /invoices: the new invoice as the generic
// read renders it.
type InvoiceCreated struct {
	ID   int64           `json:"id"`
	Data json.RawMessage `json:"data"`
}

// createInvoice serves POST /invoices (the invoice create page).
func (h *handler) createInvoice(w http.ResponseWriter, r *http.Request) error {
	var body invoiceBody
	if err := httpapi.DecodeJSON(r, &body, true); err != nil {
		return err
	}
	res, err := h.s.CreateInvoice(r.Context(), body.Data, body.ValueTypes)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, res)
	return nil
}

// CreateInvoice creates an invoice with data (a generic create: header,
// billing period, contract, areas as the multi-select area_id) and links
// its value types with their values (each a generic link of
// invoice_value_types_rel), in one transaction: all or nothing. A value
// type's refusal is answered at ["body","value_types",i,field].
func (s *Service) CreateInvoice(ctx context.Context, data map[string]any, valueTypes []invoiceValueType) (*InvoiceCreated, error) {
	if err := s.engine.Require(ctx, access.ActionCreate, entityInvoice); err != nil {
		return nil, err
	}
	if len(valueTypes) > maxInvoiceValueTypes {
		return nil, apperr.Validation(apperr.FieldError{Field: "value_types", Loc: []any{"body", "value_types"},
			Key: "server.invoices.too_many", Type: "max", Args: map[string]string{"max": strconv.Itoa(maxInvoiceValueTypes)}})
	}
	if data == nil {
		data = map[string]any{}
	}
	res := &InvoiceCreated{}
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		id, err := s.engine.CreateIn(ctx, tx, entityInvoice, data)
		if err != nil {
			return err
		}
		for i, v := range valueTypes {
			link := map[string]any{"invoicevaluetype_id": v.ID, "value": v.Value}
			if _, err := s.engine.LinkIn(ctx, tx, tables.LinkCommand{Relation: relValueTypes, OwnerID: id, Data: link}); err != nil {
				return nestErrors(err, "value_types", i)
			}
		}
		out, err := s.engine.ReadIn(ctx, tx, entityInvoice, id)
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

// nestErrors places the field errors of a validation failure under
// ["body", list, i, field]; other errors pass unchanged.
func nestErrors(err error, list string, i int) error {
	var e *apperr.Error
	if !errors.As(err, &e) || len(e.Fields) == 0 {
		return err
	}
	fields := make([]apperr.FieldError, len(e.Fields))
	for k, f := range e.Fields {
		f.Loc = []any{"body", list, i, f.Field}
		fields[k] = f
	}
	return apperr.Validation(fields...)
}
