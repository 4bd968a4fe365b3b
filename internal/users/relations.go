package users

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// userRelation is one of the dated relations of a user (User entity:
// "customer groups, companies and points of sale, each with valid_from and
// valid_to"): its path segment, the generic relation behind it, and the
// other end's entity and key. They record whom a user looks after; they do
// not change the user's tenant scope (docs/decisions/0005-user-relations.md).
type userRelation struct {
	name   string // /users/{id}/<name>
	api    string // generic relation (POST /api/ read-rich entity)
	entity string
	key    string
}

// userRelations are the dated relations served under /users/{id}/.
var userRelations = []userRelation{
	{name: "customergroups", api: "user_customergroups_rel", entity: "customergroup", key: "customergroup_id"},
	{name: "companies", api: "user_companies_rel", entity: "company", key: "company_id"},
	{name: "pos", api: "user_pos_rel", entity: "pos", key: "pos_id"},
}

func relationNamed(name string) (userRelation, error) {
	for _, r := range userRelations {
		if r.name == name {
			return r, nil
		}
	}
	return userRelation{}, errNotFound()
}

// Relations opens a page of the user's rows of relation rel (the related
// rows with the link's valid_from and valid_to) through the engine's
// relation read: read on user and list on the related entity, the user
// visible to the caller (404), the rows scoped by the caller's tenant.
func (s *Service) Relations(ctx context.Context, id int64, rel string, q ListQuery) (*tables.Cursor, error) {
	r, err := relationNamed(rel)
	if err != nil {
		return nil, err
	}
	q.Entity, q.Data = r.api, map[string]any{"user_id": id}
	return s.engine.CustomList(ctx, q)
}

// AddRelation links user id to the row of relation rel named in data by
// its key, with valid_from and valid_to (valid_to not before valid_from),
// through the engine's link: update on user, the user and the row visible
// to the caller (so an external administrator stays inside their own
// customer group), history on the user. The row must also lie within the
// user's own tenant (internal users: any row). A pair already linked
// answers 409: change its dates instead.
func (s *Service) AddRelation(ctx context.Context, id int64, rel string, data map[string]any) (json.RawMessage, error) {
	r, err := relationNamed(rel)
	if err != nil {
		return nil, err
	}
	var out json.RawMessage
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		out, err = s.engine.LinkIn(ctx, tx, tables.LinkCommand{Relation: r.api, OwnerID: id, Data: data})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("users: add %s of user %d: %w", rel, id, err)
	}
	return out, nil
}

// ChangeRelation changes the dates of the link of user id to row other of
// relation rel: a date not sent is kept, null clears it (a link without
// valid_to is open-ended). The rules of AddRelation apply.
func (s *Service) ChangeRelation(ctx context.Context, id int64, rel string, other int64, data map[string]any) (json.RawMessage, error) {
	r, err := relationNamed(rel)
	if err != nil {
		return nil, err
	}
	if v, ok := data[r.key]; ok {
		if sent, err := validate.Coerce(schema.TypeID, v); err != nil || sent != other {
			return nil, apperr.Validation(apperr.FieldError{Field: r.key, Key: "validation.not_writable", Type: "not_writable"})
		}
	}
	cmd := tables.LinkCommand{Relation: r.api, OwnerID: id, Data: map[string]any{r.key: other}}
	for k, v := range data {
		if k != r.key {
			cmd.Data[k] = v
		}
	}
	var out json.RawMessage
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		out, err = s.engine.ChangeLinkIn(ctx, tx, cmd)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("users: change %s of user %d: %w", rel, id, err)
	}
	return out, nil
}

// EndRelation ends the link of user id to row other of relation rel so
// that it no longer counts today (engine's unlink: valid_to becomes
// yesterday; a link not started yet is removed). 404 when there is no
// current link.
func (s *Service) EndRelation(ctx context.Context, id int64, rel string, other int64) error {
	r, err := relationNamed(rel)
	if err != nil {
		return err
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		return s.engine.UnlinkIn(ctx, tx, tables.LinkCommand{Relation: r.api, OwnerID: id, Data: map[string]any{r.key: other}})
	})
	if err != nil {
		return fmt.Errorf("users: end %s of user %d: %w", rel, id, err)
	}
	return nil
}

// relationTenantHook is the engine's link hook of relation r: whichever
// way a link is added or changed (these calls, or the generic link and
// update-link), the row must lie within the tenant of the linked user.
func (s *Service) relationTenantHook(r userRelation) tables.LinkHook {
	return func(ctx context.Context, q db.Querier, l tables.LinkChange) error {
		return s.checkRelationTenant(ctx, q, l.OwnerID, r, l.OtherID)
	}
}

// checkRelationTenant refuses (422 on the key) a row outside the tenant of
// user id: an external client user's relations stay inside their customer
// group, an external partner user's inside what their partner group may
// see, decided by the engine's tenant scope.
func (s *Service) checkRelationTenant(ctx context.Context, q db.Querier, id int64, r userRelation, otherID int64) error {
	if otherID == 0 {
		return nil // the engine refused it already
	}
	p, err := tenantOf(ctx, q, id)
	if err != nil {
		return err
	}
	visible, err := s.engine.VisibleTo(ctx, q, p, r.entity, otherID)
	if err != nil {
		return err
	}
	if !visible {
		return apperr.Validation(apperr.FieldError{Field: r.key, Key: "validation.outside_user_tenant", Type: "value_error"})
	}
	return nil
}

// tenantOf describes user id's tenant as the next request of that user
// will see it (auth: the customer group falls back to the company's).
func tenantOf(ctx context.Context, q db.Querier, id int64) (*auth.Principal, error) {
	var external int
	var cg, pg sql.NullInt64
	err := q.QueryRowContext(ctx, `SELECT ut.usertype_external, COALESCE(u.customergroup_id, c.customergroup_id), u.partnergroup_id
		FROM users u
		JOIN usertype ut ON ut.usertype_id = u.usertype_id
		LEFT JOIN company c ON c.company_id = u.company_id
		WHERE u.user_id = ?`, id).Scan(&external, &cg, &pg)
	if err == sql.ErrNoRows {
		return nil, errNotFound()
	}
	if err != nil {
		return nil, fmt.Errorf("users: tenant of user %d: %w", id, err)
	}
	return &auth.Principal{UserID: id, External: external == 1, CustomergroupID: cg.Int64, PartnergroupID: pg.Int64}, nil
}
