package indexation

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/shopspring/decimal"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/tables"
)

// maxImportBytes bounds an index file (the publisher's flat export of 34
// years is 230 kB).
const maxImportBytes = 8 << 20

// ImportResult is the answer of an import.
type ImportResult struct {
	Inserted  int    `json:"inserted"`
	Updated   int    `json:"updated"`
	Unchanged int    `json:"unchanged"`
	Skipped   []Skip `json:"skipped"`
}

// importFile serves POST /priceindexes/{id}/import (multipart field
// "file"): administrators (update on priceindex) import a series' values.
func (h *handler) importFile(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	if err := h.s.engine.Require(ctx, access.ActionUpdate, entitySeries); err != nil {
		return err
	}
	if err := h.s.engine.MustSeeIn(ctx, h.s.db, entitySeries, id); err != nil {
		return err
	}
	data, err := filePart(r)
	if err != nil {
		return err
	}
	res, err := h.s.Import(ctx, id, data)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, res)
	return nil
}

// filePart reads the multipart field "file".
func filePart(r *http.Request) ([]byte, error) {
	noFile := apperr.Validation(apperr.FieldError{Field: "file", Key: "server.indexation.no_file", Type: "missing"})
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, noFile
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, noFile
		}
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return nil, apperr.New(apperr.KindTooLarge, "server.indexation.too_large")
			}
			return nil, noFile
		}
		if part.FormName() != "file" {
			continue
		}
		b, err := io.ReadAll(part)
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				return nil, apperr.New(apperr.KindTooLarge, "server.indexation.too_large")
			}
			return nil, fmt.Errorf("indexation: read the file: %w", err)
		}
		return b, nil
	}
}

// unreadable is the 422 naming the line and the reason.
func unreadable(pe *ParseError) error {
	return apperr.Validation(apperr.FieldError{Field: "file", Key: "server.indexation.unreadable", Type: "value_error",
		Args: map[string]string{"line": strconv.Itoa(pe.Line), "reason": pe.Reason}})
}

// Import stores the values of data in series: new months are inserted,
// changed ones updated (with history and the next row_version), equal ones
// left alone; a file it cannot read writes nothing (422). The caller needs
// create and update on priceindexvalue.
func (s *Service) Import(ctx context.Context, series int64, data []byte) (*ImportResult, error) {
	parsed, err := Parse(data)
	var pe *ParseError
	if errors.As(err, &pe) {
		return nil, unreadable(pe)
	}
	if err != nil {
		return nil, err
	}
	rec, _, err := s.engine.GetIn(ctx, s.db, entitySeries, series)
	if err != nil {
		return nil, err
	}
	if base, _ := rec["priceindex_baseyear"].(int64); parsed.BaseYear != 0 && int64(parsed.BaseYear) != base {
		return nil, unreadable(&ParseError{Reason: fmt.Sprintf("the file's base year is %d, the series' %d", parsed.BaseYear, base)})
	}
	res := &ImportResult{Skipped: parsed.Skipped}
	if res.Skipped == nil {
		res.Skipped = []Skip{}
	}
	err = s.db.InTx(ctx, func(tx *db.Tx) error {
		stored, err := s.storedValues(ctx, tx, series)
		if err != nil {
			return err
		}
		for _, p := range parsed.Points {
			old, ok := stored[p.Month]
			switch {
			case !ok:
				_, err = s.engine.CreateIn(ctx, tx, entityValue, map[string]any{"priceindex_id": series,
					"priceindexvalue_month": p.Month.String(), "priceindexvalue_value": p.Value.String()})
				res.Inserted++
			case !old.value.Equal(p.Value):
				err = s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: entityValue, ID: old.id, RowVersion: old.version,
					Data: map[string]any{"priceindexvalue_value": p.Value.String()}})
				res.Updated++
			default:
				res.Unchanged++
			}
			if err != nil {
				return fmt.Errorf("indexation: import %s (line %d): %w", p.Month, p.Line, err)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if res.Inserted+res.Updated > 0 && s.changed != nil {
		s.changed(context.WithoutCancel(ctx))
	}
	return res, nil
}

type storedValue struct {
	id, version int64
	value       decimal.Decimal
}

// storedValues reads the stored values of series by month.
func (s *Service) storedValues(ctx context.Context, q db.Querier, series int64) (map[Month]storedValue, error) {
	src, err := s.engine.Scoped(ctx, entityValue, "v")
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, "SELECT v.priceindexvalue_id, v.row_version, v.priceindexvalue_month, v.priceindexvalue_value FROM "+
		src.SQL+" WHERE v.priceindex_id = ?", append(src.Args, series)...)
	if err != nil {
		return nil, fmt.Errorf("indexation: read values: %w", err)
	}
	defer rows.Close()
	out := map[Month]storedValue{}
	for rows.Next() {
		var v storedValue
		var month string
		if err := rows.Scan(&v.id, &v.version, &month, &v.value); err != nil {
			return nil, fmt.Errorf("indexation: read values: %w", err)
		}
		m, err := ParseMonth(month)
		if err != nil {
			return nil, err
		}
		out[m] = v
	}
	return out, rows.Err()
}

// ImportDefault imports the shipped German consumer price index into the
// default series, as the system (the seed: base data and demo).
func (s *Service) ImportDefault(ctx context.Context) (*ImportResult, error) {
	data, err := shipped.ReadFile(DefaultSeriesFile)
	if err != nil {
		return nil, fmt.Errorf("indexation: shipped series: %w", err)
	}
	return s.Import(tables.AsSystem(ctx), defaultSeriesID, data)
}
