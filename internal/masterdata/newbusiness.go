package masterdata

import (
	"context"
	"fmt"
	"net/http"

	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/reqbody"
	"portfolio/internal/tables"
)

// newCustomer is what the new-business flow writes: the ids of the rows
// it created, answered to the browser.
type newCustomer struct {
	TicketID        int64 `json:"ticket_id"`
	CustomergroupID int64 `json:"customergroup_id"`
	CompanyID       int64 `json:"company_id"`
	ContactpersonID int64 `json:"contactperson_id"`
	PosID           int64 `json:"pos_id"`
}

// newCustomerParts are the members of a new-business body, in the order
// they are written (each refers to the one before).
var newCustomerParts = []string{"customergroup", "company", "contactperson", "pos"}

// createNewCustomer serves POST /tickets/{id}/customer, the new-business
// flow of administrators (menu access new business, action create): from
// a ticket, the new customer's customer group, its company (with an
// address object), a contact person of that company (with contactdetails
// and address objects) and its first point of sale, whose contact person
// is the new one. The ticket (row_version in the body) then belongs to
// the new point of sale and its timeline says so. One transaction: a
// field error anywhere writes nothing and names the part
// (loc ["company", "company_name"]).
func (h *handler) createNewCustomer(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	if err := requireAdmin(ctx, "server.masterdata.new_customer_admin_only"); err != nil {
		return err
	}
	ticket, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	b, err := reqbody.Read(r)
	if err != nil {
		return err
	}
	version, err := b.RowVersion()
	if err != nil {
		return err
	}
	parts := map[string]reqbody.Body{}
	for _, name := range newCustomerParts {
		part, err := b.TakeObject(name)
		if err != nil {
			return err
		}
		if part == nil {
			return reqbody.FieldError(nil, name, "validation.required", "missing")
		}
		parts[name] = part
	}
	company, err := h.s.readAddress(ctx, parts["company"])
	if err != nil {
		return reqbody.Under(err, "company")
	}
	contact, err := h.s.readContactParts(ctx, parts["contactperson"])
	if err != nil {
		return reqbody.Under(err, "contactperson")
	}
	ans := newCustomer{TicketID: ticket}
	err = h.s.db.InTx(ctx, func(tx *db.Tx) error {
		// The ticket first: one the caller may not change answers before
		// anything is written.
		if _, _, err := h.s.engine.GetIn(ctx, tx, "ticket", ticket); err != nil {
			return err
		}
		if ans.CustomergroupID, err = h.s.engine.CreateIn(ctx, tx, "customergroup", parts["customergroup"]); err != nil {
			return reqbody.Under(err, "customergroup")
		}
		if ans.CompanyID, err = h.s.createCompanyOf(ctx, tx, ans.CustomergroupID, parts["company"], company); err != nil {
			return err
		}
		if ans.ContactpersonID, err = h.s.createContactOf(ctx, tx, ans.CompanyID, parts["contactperson"], contact); err != nil {
			return err
		}
		pos := parts["pos"]
		delete(pos, "pos_id")
		pos["company_id"], pos["contactperson_id"] = ans.CompanyID, ans.ContactpersonID
		if ans.PosID, err = h.s.engine.CreateIn(ctx, tx, "pos", pos, tables.Referring(
			tables.NewRow{Entity: "company", ID: ans.CompanyID}, tables.NewRow{Entity: entityContact, ID: ans.ContactpersonID})); err != nil {
			return reqbody.Under(err, "pos")
		}
		return h.s.moveTicketToNewCustomer(ctx, tx, ticket, version, ans, parts["customergroup"]["customergroup_name"])
	})
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusCreated, ans)
	return nil
}

// createCompanyOf creates the new customer's company in group with its
// address.
func (s *Service) createCompanyOf(ctx context.Context, tx *db.Tx, group int64, b reqbody.Body, addr *partInput) (int64, error) {
	delete(b, "company_id")
	b["customergroup_id"] = group
	id, err := s.engine.CreateIn(ctx, tx, "company", b, tables.Referring(tables.NewRow{Entity: "customergroup", ID: group}))
	if err != nil {
		return 0, reqbody.Under(err, "company")
	}
	if addr != nil {
		if err := s.setCompanyAddress(ctx, tx, id, addr); err != nil {
			return 0, reqbody.Under(err, "company")
		}
	}
	return id, nil
}

// createContactOf creates the new customer's contact person at company
// with its contact details and address.
func (s *Service) createContactOf(ctx context.Context, tx *db.Tx, company int64, b reqbody.Body, parts contactParts) (int64, error) {
	delete(b, "contactperson_id")
	delete(b, "partnercompany_id")
	b["company_id"] = company
	refs, err := s.saveContactParts(ctx, tx, b, parts, nil)
	if err != nil {
		return 0, reqbody.Under(err, "contactperson")
	}
	refs = append(refs, tables.NewRow{Entity: "company", ID: company})
	id, err := s.engine.CreateIn(ctx, tx, entityContact, b, tables.Referring(refs...))
	if err != nil {
		return 0, reqbody.Under(err, "contactperson")
	}
	return id, nil
}

// moveTicketToNewCustomer gives the ticket to the new point of sale (its
// contract, if any, belonged to the old one) and notes the new customer
// on its timeline.
func (s *Service) moveTicketToNewCustomer(ctx context.Context, tx *db.Tx, ticket, version int64, ans newCustomer, name any) error {
	err := s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: "ticket", ID: ticket, RowVersion: version,
		Data: map[string]any{"pos_id": ans.PosID, "contract_id": nil}},
		tables.Referring(tables.NewRow{Entity: "pos", ID: ans.PosID}))
	if err != nil {
		return err
	}
	return s.engine.Track(ctx, tx, tables.TrackEntry{Type: "new_customer", Category: "ticket", RowID: ticket,
		Comment: fmt.Sprintf("new customer %v", name), Changes: map[string][2]any{
			"customergroup_id": {nil, ans.CustomergroupID}, "company_id": {nil, ans.CompanyID},
			"contactperson_id": {nil, ans.ContactpersonID}, "pos_id": {nil, ans.PosID}}})
}
