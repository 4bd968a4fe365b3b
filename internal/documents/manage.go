package documents

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/tables"
)

// UpdateCommand changes a document's name and types (PUT
// /documents/update); a field left nil is kept. ContractTypeID sets the
// document's role in each contract of the caller's it belongs to.
type UpdateCommand struct {
	ID             int64
	Name           *string
	TypeID         *int64
	SubtypeID      *int64
	ClearSubtype   bool
	ContractTypeID *int64
}

// Update applies cmd through the engine (rights, tenant, rules, history)
// in one transaction and answers the document as the generic read does.
func (s *Service) Update(ctx context.Context, cmd UpdateCommand) (json.RawMessage, error) {
	var out json.RawMessage
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		_, version, err := s.engine.GetIn(ctx, tx, entity, cmd.ID)
		if err != nil {
			return err
		}
		data := map[string]any{}
		if cmd.Name != nil {
			data["document_name"] = trimExtension(*cmd.Name)
		}
		if cmd.TypeID != nil {
			data["documenttype_id"] = *cmd.TypeID
		}
		if cmd.SubtypeID != nil {
			data["subdocumenttype_id"] = *cmd.SubtypeID
		} else if cmd.ClearSubtype {
			data["subdocumenttype_id"] = nil
		}
		if len(data) > 0 {
			if err := s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: entity, ID: cmd.ID, RowVersion: version, Data: data}); err != nil {
				return err
			}
		}
		if cmd.ContractTypeID != nil {
			if err := s.setContractType(ctx, tx, cmd.ID, *cmd.ContractTypeID); err != nil {
				return err
			}
		}
		out, err = s.engine.ReadIn(ctx, tx, entity, cmd.ID)
		return err
	})
	return out, err
}

// trimExtension drops the ".pdf" the screen appends to a document's name.
func trimExtension(name string) string {
	name = strings.TrimSpace(name)
	if strings.HasSuffix(strings.ToLower(name), ".pdf") {
		name = strings.TrimSpace(name[:len(name)-4])
	}
	return name
}

// setContractType sets the document's role in every contract of the
// caller's that links it; 422 when it belongs to none.
func (s *Service) setContractType(ctx context.Context, tx *db.Tx, id, typeID int64) error {
	src, err := s.engine.Scoped(ctx, "contract", "c")
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT c.contract_id FROM `+src.SQL+
		` JOIN contract_document l ON l.contract_id = c.contract_id WHERE l.document_id = ? ORDER BY c.contract_id`,
		append(src.Args, id)...)
	if err != nil {
		return fmt.Errorf("documents: contracts of document %d: %w", id, err)
	}
	var contracts []int64
	for rows.Next() {
		var c int64
		if err := rows.Scan(&c); err != nil {
			rows.Close()
			return err
		}
		contracts = append(contracts, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(contracts) == 0 {
		return apperr.Validation(apperr.FieldError{Field: "documentcontracttype_id", Key: "server.documents.no_contract", Type: "value_error"})
	}
	for _, c := range contracts {
		cmd := tables.LinkCommand{Relation: "contract_document_rel", OwnerID: c,
			Data: map[string]any{"document_id": id, "documentcontracttype_id": typeID}}
		if _, err := s.engine.ChangeLinkIn(ctx, tx, cmd); err != nil {
			return err
		}
	}
	return nil
}

// PosCommand adds a document to a point of sale's documents (POST
// /documents/pos), optionally setting its types.
type PosCommand struct {
	DocumentID int64
	PosID      int64
	TypeID     int64
	SubtypeID  int64
}

// LinkPos links the document to the point of sale and sets its types in
// one transaction; both must be the caller's (404).
func (s *Service) LinkPos(ctx context.Context, cmd PosCommand) (json.RawMessage, error) {
	var out json.RawMessage
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		_, version, err := s.engine.GetIn(ctx, tx, entity, cmd.DocumentID)
		if err != nil {
			return err
		}
		data := map[string]any{}
		if cmd.TypeID != 0 {
			data["documenttype_id"] = cmd.TypeID
		}
		if cmd.SubtypeID != 0 {
			data["subdocumenttype_id"] = cmd.SubtypeID
		}
		if len(data) > 0 {
			if err := s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: entity, ID: cmd.DocumentID, RowVersion: version, Data: data}); err != nil {
				return err
			}
		}
		link := tables.LinkCommand{Relation: "pos_document_rel", OwnerID: cmd.PosID, Data: map[string]any{"document_id": cmd.DocumentID}}
		if _, err := s.engine.LinkIn(ctx, tx, link); err != nil {
			return err
		}
		out, err = s.engine.ReadIn(ctx, tx, entity, cmd.DocumentID)
		return err
	})
	return out, err
}

// list opens a custom list of the module (GET /documents/pos, GET
// /pos/emails) with the query's page, per_page, keyword and order.
func (s *Service) list(ctx context.Context, v url.Values, q tables.CustomListQuery) (*tables.Cursor, error) {
	parsed, err := tables.ParseCustomQuery(v)
	if err != nil {
		return nil, err
	}
	parsed.Entity, parsed.Data = q.Entity, q.Data
	if parsed.OrderBy == "" {
		parsed.OrderBy = q.OrderBy
	}
	return s.engine.CustomList(ctx, parsed)
}
