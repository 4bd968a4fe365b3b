package imports

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/tables"
)

// A committed contract workbook is kept as an import of its user
// (ContractWorkbookEntity): the data_import row names the file and counts
// the rows, and one data_import_chunk row per entity of workbookEntities
// holds, instead of parsed rows, the entity's name (chunk_rows) and the
// records the commit created with their row_version at the commit's end
// (created_ids, [[key, version], …]): the undo removes them only while
// every one is still at that version.

// workbookNote is the comment of the history rows a workbook import writes.
func workbookNote(id int64, fileName string) string {
	return fmt.Sprintf("import %d: %s", id, fileName)
}

// insertWorkbookImport stores the import of a workbook being committed.
func (s *Service) insertWorkbookImport(ctx context.Context, tx *db.Tx, userID int64, fileName string, parts []*cpart) (int64, error) {
	sheets := make([]string, 0, len(parts))
	rows := 0
	for _, cp := range parts {
		sheets = append(sheets, cp.sheet)
		rows += len(cp.parsed.Rows)
	}
	cols, err := json.Marshal(sheets)
	if err != nil {
		return 0, fmt.Errorf("imports: encode sheets: %w", err)
	}
	var id int64
	err = tx.QueryRowContext(ctx, `INSERT INTO data_import (user_id, import_entity, import_file_name, import_state, import_columns,
		import_row_count, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING import_id`,
		userID, ContractWorkbookEntity, fileName, stateCommitting, string(cols), rows, s.now().UTC().Truncate(time.Second)).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("imports: store the workbook import: %w", err)
	}
	return id, nil
}

// finishWorkbookImport stores the records run created with their
// versions and marks import id committed.
func (s *Service) finishWorkbookImport(ctx context.Context, tx *db.Tx, id int64, run *contractRun) error {
	valid := 0
	for _, n := range run.ans.Valid {
		valid += n
	}
	for no, entity := range workbookEntities {
		pairs := make([][2]int64, 0, len(run.created[entity]))
		for _, key := range run.created[entity] {
			_, version, err := s.engine.GetIn(ctx, tx, entity, key)
			if err != nil {
				return err
			}
			pairs = append(pairs, [2]int64{key, version})
		}
		b, err := json.Marshal(pairs)
		if err != nil {
			return fmt.Errorf("imports: encode keys: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO data_import_chunk (import_id, chunk_no, chunk_rows, created_ids) VALUES (?, ?, ?, ?)`,
			id, no, entity, string(b)); err != nil {
			return fmt.Errorf("imports: store keys: %w", err)
		}
	}
	now := s.now().UTC().Truncate(time.Second)
	_, err := tx.ExecContext(ctx, `UPDATE data_import SET import_state = ?, import_mapping = '{}', import_valid_count = ?, import_created_count = ?,
		validated_at = ?, committed_at = ? WHERE import_id = ?`, stateCommitted, valid, len(run.created["contract"]), now, now, id)
	if err != nil {
		return fmt.Errorf("imports: mark committed: %w", err)
	}
	return nil
}

// undoContractWorkbook removes the records a committed workbook import
// created — recurring payments, deadlines, then the contracts with their
// area links — all of them or none: 409 (changed) when any of them was
// changed or removed since the commit. The history rows of the removal
// name the import.
func (s *Service) undoContractWorkbook(ctx context.Context, im *Import) error {
	for _, e := range workbookEntities {
		if err := s.engine.Require(ctx, "remove", e); err != nil {
			return err
		}
	}
	ctx = tables.WithHistoryNote(ctx, "undo "+workbookNote(im.ID, im.FileName))
	return s.db.InTx(ctx, func(tx *db.Tx) error {
		created := map[string][][2]int64{}
		rows, err := tx.QueryContext(ctx, `SELECT chunk_rows, created_ids FROM data_import_chunk WHERE import_id = ? ORDER BY chunk_no`, im.ID)
		if err != nil {
			return fmt.Errorf("imports: read keys: %w", err)
		}
		for rows.Next() {
			var entity string
			var ids *string
			if err := rows.Scan(&entity, &ids); err != nil {
				rows.Close()
				return fmt.Errorf("imports: read keys: %w", err)
			}
			var pairs [][2]int64
			if ids != nil {
				if err := json.Unmarshal([]byte(*ids), &pairs); err != nil {
					rows.Close()
					return fmt.Errorf("imports: decode keys: %w", err)
				}
			}
			created[entity] = pairs
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("imports: read keys: %w", err)
		}
		for _, entity := range workbookEntities {
			if err := s.atVersions(ctx, tx, entity, created[entity]); err != nil {
				return err
			}
		}
		for i := len(workbookEntities) - 1; i >= 0; i-- {
			entity := workbookEntities[i]
			pairs := created[entity]
			for j := len(pairs) - 1; j >= 0; j-- {
				if err := s.engine.DeleteIn(ctx, tx, entity, pairs[j][0], 0); err != nil {
					if apperr.IsKind(err, apperr.KindConflict) || apperr.IsKind(err, apperr.KindNotFound) {
						return apperr.Conflict("server.imports.changed").WithCode("changed").Wrap(err)
					}
					return err
				}
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE data_import SET import_state = ?, undone_at = ? WHERE import_id = ?`,
			stateUndone, s.now().UTC().Truncate(time.Second), im.ID)
		if err != nil {
			return fmt.Errorf("imports: mark undone: %w", err)
		}
		return nil
	})
}

// atVersions answers 409 (changed) unless every record of pairs ([key,
// version]) of entity is still in the caller's tenant at that version.
func (s *Service) atVersions(ctx context.Context, tx *db.Tx, entity string, pairs [][2]int64) error {
	pk, err := s.keyColumn(entity)
	if err != nil {
		return err
	}
	src, err := s.engine.Scoped(ctx, entity, "t")
	if err != nil {
		return err
	}
	for start := 0; start < len(pairs); start += 200 {
		chunk := pairs[start:min(start+200, len(pairs))]
		args := append([]any{}, src.Args...)
		conds := make([]string, len(chunk))
		for i, p := range chunk {
			conds[i] = "(t." + pk + " = ? AND t.row_version = ?)"
			args = append(args, p[0], p[1])
		}
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+src.SQL+" WHERE "+strings.Join(conds, " OR "), args...).Scan(&n); err != nil {
			return fmt.Errorf("imports: check the records: %w", err)
		}
		if n != len(chunk) {
			return apperr.Conflict("server.imports.changed").WithCode("changed").
				Wrap(fmt.Errorf("%s: %d of %d unchanged from %s", entity, n, len(chunk), strconv.FormatInt(chunk[0][0], 10)))
		}
	}
	return nil
}

// keyColumn answers the key column of entity.
func (s *Service) keyColumn(entity string) (string, error) {
	ent, ok := s.engine.Registry().Entity(entity)
	if !ok {
		return "", fmt.Errorf("imports: no entity %s", entity)
	}
	return ent.PK, nil
}
