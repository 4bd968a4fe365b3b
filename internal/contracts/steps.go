package contracts

import (
	"context"
	"net/http"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/reqbody"
	"portfolio/internal/tables"
)

// The contract steps of the create and edit page: 0 the basic data, 2 the
// recurring payments, 7 the documents. Each step is one transaction and
// answers the contract as GET /contracts/{id} does.

// answerContract writes contract id as GET /contracts/{id} answers it.
func (s *Service) answerContract(ctx context.Context, w http.ResponseWriter, status int, id int64) error {
	c, err := s.Contract(ctx, id)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, status, map[string]any{"data": c})
	return nil
}

// createStep0 serves POST /contracts/step/0: a new contract from the
// basic data (the engine checks the fields: end not before begin,
// contract_migration_checked defaults to 0).
func (h *handler) createStep0(w http.ResponseWriter, r *http.Request) error {
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	var id int64
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		// CreateIn refuses a contract outside the caller's tenant itself.
		id, err = h.s.engine.CreateIn(ctx, tx, entityContract, b)
		return err
	})
	if err != nil {
		return err
	}
	return h.s.answerContract(ctx, w, http.StatusCreated, id)
}

// updateStep0 serves PUT /contracts/step/0/{id}: the basic data with the
// row_version read.
func (h *handler) updateStep0(w http.ResponseWriter, r *http.Request) error {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	version, err := b.TakeID("row_version", true)
	if err != nil {
		return err
	}
	delete(b, "contract_id")
	ctx := r.Context()
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		return h.s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: entityContract, ID: id, RowVersion: version, Data: b})
	})
	if err != nil {
		return err
	}
	return h.s.answerContract(ctx, w, http.StatusOK, id)
}

// Entities and relations of the steps.
const (
	entityPayment   = "recurringpayment"
	entityDocument  = "document"
	fieldPayments   = "recurringpayments"
	fieldRemoveIDs  = "remove_ids"
	fieldDocuments  = "documentsobjects"
	relContractDocs = "contract_document_rel"
)

// savePayments serves POST and PUT /contracts/step/2: contract_id and
// recurringpayments, rows with recurringpayment_id (and row_version)
// updated, rows without created; the contract's other rows are kept,
// except those named in remove_ids, which are deleted. All or nothing.
func (h *handler) savePayments(w http.ResponseWriter, r *http.Request) error {
	return h.contractStep(w, r, func(ctx context.Context, tx *db.Tx, b reqbody.Body, contract int64) error {
		rows, err := b.TakeList(fieldPayments)
		if err != nil {
			return err
		}
		remove, err := b.TakeIDs(fieldRemoveIDs)
		if err != nil {
			return err
		}
		for i, row := range rows {
			if err := h.s.savePayment(ctx, tx, contract, i, row); err != nil {
				return err
			}
		}
		for i, id := range remove {
			if err := h.s.removePayment(ctx, tx, contract, i, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// contractStep serves a step that writes rows of the contract contract_id
// of the body: write runs in one transaction once the caller is known to
// see the contract (404 otherwise), and the answer is the contract.
func (h *handler) contractStep(w http.ResponseWriter, r *http.Request, write func(ctx context.Context, tx *db.Tx, b reqbody.Body, contract int64) error) error {
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	contract, err := b.TakeID("contract_id", true)
	if err != nil {
		return err
	}
	ctx := r.Context()
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		if err := h.s.engine.MustSeeIn(ctx, tx, entityContract, contract); err != nil {
			return err
		}
		return write(ctx, tx, b, contract)
	})
	if err != nil {
		return err
	}
	return h.s.answerContract(ctx, w, http.StatusOK, contract)
}

// savePayment creates or updates row i of the request for contract.
func (s *Service) savePayment(ctx context.Context, tx *db.Tx, contract int64, i int, row map[string]any) error {
	path := []any{fieldPayments, i}
	data := reqbody.Body{}
	for k, v := range row {
		data[k] = v
	}
	id, err := data.TakeID("recurringpayment_id", false)
	if err != nil {
		return reqbody.Under(err, path...)
	}
	if other, ok := data["contract_id"]; ok && other != nil {
		if n, err := reqbody.ID(other, path, "contract_id"); err != nil || n != contract {
			return reqbody.FieldError(path, "contract_id", "server.contracts.row_of_other_contract", "value_error")
		}
	}
	data["contract_id"] = contract
	if id == 0 {
		_, err := s.engine.CreateIn(ctx, tx, entityPayment, data)
		return reqbody.Under(err, path...)
	}
	version, err := data.TakeID("row_version", true)
	if err != nil {
		return reqbody.Under(err, path...)
	}
	if err := s.ownPayment(ctx, tx, contract, path, id); err != nil {
		return err
	}
	return reqbody.Under(s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: entityPayment, ID: id, RowVersion: version, Data: data}), path...)
}

// ownPayment answers 422 on the row's recurringpayment_id unless payment
// id is one of contract's rows the caller sees (a foreign or missing one
// alike).
func (s *Service) ownPayment(ctx context.Context, tx *db.Tx, contract int64, path []any, id int64) error {
	rec, _, err := s.engine.GetIn(ctx, tx, entityPayment, id)
	if apperr.IsKind(err, apperr.KindNotFound) {
		return reqbody.FieldError(path, "recurringpayment_id", "server.contracts.row_of_other_contract", "value_error")
	}
	if err != nil {
		return err
	}
	if owner, _ := rec["contract_id"].(int64); owner != contract {
		return reqbody.FieldError(path, "recurringpayment_id", "server.contracts.row_of_other_contract", "value_error")
	}
	return nil
}

// removePayment deletes payment id (entry i of remove_ids) of contract.
func (s *Service) removePayment(ctx context.Context, tx *db.Tx, contract int64, i int, id int64) error {
	path := []any{fieldRemoveIDs, i}
	rec, version, err := s.engine.GetIn(ctx, tx, entityPayment, id)
	if apperr.IsKind(err, apperr.KindNotFound) {
		return reqbody.FieldError(path, "", "server.contracts.row_of_other_contract", "value_error")
	}
	if err != nil {
		return err
	}
	if owner, _ := rec["contract_id"].(int64); owner != contract {
		return reqbody.FieldError(path, "", "server.contracts.row_of_other_contract", "value_error")
	}
	return s.engine.DeleteIn(ctx, tx, entityPayment, id, version)
}

// linkDocuments serves POST /contracts/step/7: contract_id and
// documentsobjects, each linking an uploaded document to the contract with
// its role (documentcontracttype_id) and, when given, setting the
// document's type and sub type. A document the caller does not see (of
// another tenant) answers 404. All or nothing.
func (h *handler) linkDocuments(w http.ResponseWriter, r *http.Request) error {
	return h.contractStep(w, r, func(ctx context.Context, tx *db.Tx, b reqbody.Body, contract int64) error {
		objs, err := b.TakeList(fieldDocuments)
		if err != nil {
			return err
		}
		for i, o := range objs {
			if err := h.s.linkDocument(ctx, tx, contract, i, o); err != nil {
				return err
			}
		}
		return nil
	})
}

// linkDocument links entry i of documentsobjects to contract.
func (s *Service) linkDocument(ctx context.Context, tx *db.Tx, contract int64, i int, o map[string]any) error {
	path := []any{fieldDocuments, i}
	data := reqbody.Body{}
	for k, v := range o {
		data[k] = v
	}
	doc, err := data.TakeID("document_id", true)
	if err != nil {
		return reqbody.Under(err, path...)
	}
	if err := s.engine.MustSeeIn(ctx, tx, entityDocument, doc); err != nil {
		return err
	}
	link := map[string]any{"document_id": doc}
	if v, ok := data["documentcontracttype_id"]; ok {
		link["documentcontracttype_id"] = v
	}
	typed := map[string]any{}
	for _, f := range []string{"documenttype_id", "subdocumenttype_id"} {
		if v, ok := data[f]; ok {
			typed[f] = v
		}
	}
	if len(typed) > 0 {
		_, version, err := s.engine.GetIn(ctx, tx, entityDocument, doc)
		if err != nil {
			return err
		}
		err = s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: entityDocument, ID: doc, RowVersion: version, Data: typed})
		if err != nil {
			return reqbody.Under(err, path...)
		}
	}
	_, err = s.engine.LinkIn(ctx, tx, tables.LinkCommand{Relation: relContractDocs, OwnerID: contract, Data: link})
	return reqbody.Under(err, path...)
}
