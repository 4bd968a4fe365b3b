package masterdata

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/reqbody"
	"portfolio/internal/tables"
)

// partInput is a nested object of a form that is a row of its own, an
// address or a contact person's contact details. Without its key it makes
// a new row; with its key (the parent's own row, checked by the caller)
// and row_version it changes the stored one.
//
// An address has address_street, address_house_number, address_extra and
// either city_id or city_zip, city_name and country_id (the city is found,
// or created with the state looked up from the zip code); the app sends
// edit=true on an update.
type partInput struct {
	entity     string
	edit       bool
	id         int64
	rowVersion int64
	data       reqbody.Body
}

// readAddress takes the address member of b (nil when absent).
func (s *Service) readAddress(ctx context.Context, b reqbody.Body) (*partInput, error) {
	in, err := readPart(b, "address")
	if err != nil || in == nil {
		return nil, err
	}
	if in.data["city_zip"] != nil {
		// A city may be created: its state comes from the postal codes,
		// loaded before the write transaction begins.
		if err := s.postal.EnsureAll(ctx); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// readPart takes member entity of b (nil when absent): its edit flag, its
// key <entity>_id and, with a key, its row_version.
func readPart(b reqbody.Body, entity string) (*partInput, error) {
	obj, err := b.TakeObject(entity)
	if err != nil || obj == nil {
		return nil, err
	}
	in := &partInput{entity: entity, data: obj}
	if in.edit, err = obj.TakeBool("edit"); err != nil {
		return nil, reqbody.Prefixed(entity, err)
	}
	if in.id, err = obj.TakeID(entity+"_id", false); err != nil {
		return nil, reqbody.Prefixed(entity, err)
	}
	if in.id > 0 {
		if in.rowVersion, err = obj.TakeID("row_version", false); err != nil {
			return nil, reqbody.Prefixed(entity, err)
		}
	} else {
		delete(obj, "row_version")
	}
	return in, nil
}

// saveAddress stores in inside tx: a new address (answering its key and
// true) or, with address_id, the stored one changed (its key and false).
func (s *Service) saveAddress(ctx context.Context, tx *db.Tx, in *partInput) (int64, bool, error) {
	if err := s.resolveCity(ctx, tx, in.data); err != nil {
		return 0, false, reqbody.Prefixed(in.entity, err)
	}
	return s.savePart(ctx, tx, in)
}

// savePart stores in inside tx: a new row, which joins the caller's
// tenant through the record that refers to it next (answering its key
// and true), or, with its key, the stored one changed (its key and
// false). Field errors are named "<entity>.<field>".
func (s *Service) savePart(ctx context.Context, tx *db.Tx, in *partInput) (int64, bool, error) {
	if in.id > 0 {
		if in.rowVersion == 0 {
			return 0, false, reqbody.Prefixed(in.entity, reqbody.Missing("row_version"))
		}
		err := s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: in.entity, ID: in.id, RowVersion: in.rowVersion, Data: in.data})
		return in.id, false, reqbody.Prefixed(in.entity, err)
	}
	id, err := s.engine.CreateIn(ctx, tx, in.entity, in.data, tables.LinkedLater())
	return id, true, reqbody.Prefixed(in.entity, err)
}

// resolveCity replaces city_zip, city_name and country_id in data by the
// city_id of that city, created when it does not exist yet (its state
// from the postal codes; an unknown zip code is refused on city_zip).
// Data that names city_id is left alone.
func (s *Service) resolveCity(ctx context.Context, tx *db.Tx, data reqbody.Body) error {
	zip, _ := data.Take("city_zip").(string)
	name, _ := data.Take("city_name").(string)
	country, err := data.TakeID("country_id", false)
	if err != nil {
		return err
	}
	if data["city_id"] != nil || (zip == "" && name == "" && country == 0) {
		return nil
	}
	switch {
	case zip == "":
		return reqbody.Missing("city_zip")
	case name == "":
		return reqbody.Missing("city_name")
	case country == 0:
		return reqbody.Missing("country_id")
	}
	id, err := s.findCity(ctx, tx, zip, name, country)
	if err != nil || id > 0 {
		data["city_id"] = id
		return err
	}
	short, err := s.countryShort(ctx, tx, country)
	if err != nil {
		return err
	}
	ans, err := s.postal.LookupIn(ctx, tx, short, zip)
	if err != nil {
		if e, ok := apperr.As(err); ok && e.Kind == apperr.KindNotFound {
			return apperr.Validation(apperr.FieldError{Field: "city_zip", Key: "server.masterdata.zip_unknown", Type: "value_error",
				Args: map[string]string{"zip": zip, "country": short}})
		}
		return err
	}
	id, err = s.engine.CreateIn(ctx, tx, "city", map[string]any{"city_zip": zip, "city_name": name, "country_id": country, "state": ans.State})
	data["city_id"] = id
	return err
}

// findCity answers the city with this zip code and name in country (0:
// none).
func (s *Service) findCity(ctx context.Context, tx *db.Tx, zip, name string, country int64) (int64, error) {
	src, err := s.engine.Scoped(ctx, "city", "c")
	if err != nil {
		return 0, err
	}
	var id int64
	err = tx.QueryRowContext(ctx, `SELECT MIN(c.city_id) FROM `+src.SQL+` WHERE c.city_zip = ? AND c.city_name = ? AND c.country_id = ?`,
		append(src.Args, zip, name, country)...).Scan(&sqlNullInt{&id})
	if err != nil {
		return 0, fmt.Errorf("masterdata: find city %s %s: %w", zip, name, err)
	}
	return id, nil
}

// countryShort answers the code (DE) of country; 422 on country_id for an
// unknown country.
func (s *Service) countryShort(ctx context.Context, tx *db.Tx, country int64) (string, error) {
	src, err := s.engine.Scoped(ctx, "country", "c")
	if err != nil {
		return "", err
	}
	var short string
	err = tx.QueryRowContext(ctx, `SELECT c.country_short FROM `+src.SQL+` WHERE c.country_id = ?`, append(src.Args, country)...).Scan(&short)
	if errors.Is(err, sql.ErrNoRows) {
		return "", apperr.Validation(apperr.FieldError{Field: "country_id", Key: "validation.unknown_reference", Type: "unknown_reference"})
	}
	if err != nil {
		return "", fmt.Errorf("masterdata: country %d: %w", country, err)
	}
	return short, nil
}

// sqlNullInt scans a nullable integer into n (0 for NULL).
type sqlNullInt struct{ n *int64 }

// Scan implements sql.Scanner.
func (s *sqlNullInt) Scan(v any) error {
	var ni sql.NullInt64
	if err := ni.Scan(v); err != nil {
		return err
	}
	*s.n = ni.Int64
	return nil
}
