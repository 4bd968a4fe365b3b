package users

import (
	"context"
	"fmt"
	"slices"

	"portfolio/internal/db"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// Entity names of this package's records in the history (trackrecord
// category) and the generic API.
const (
	entityUser = "user"
	entityTeam = "team"
)

// History of users and teams is written exactly as the table engine writes
// it for generic writes (tables.Engine.RecordHistory): in the write's
// transaction, {"field": [old, new]} of the changed fields between two
// snapshots read through the engine (tables.Engine.Snapshot), so GET
// history through POST /api/ (action history) shows them. Membership
// changes are links: {"teams": [old, new]} on the user, {"users": [old,
// new]} on the team.

// lockRow takes the row lock of record id before it is read, so that the
// version and the values read stay those the write replaces (SQLite's
// write transactions already hold the database lock); false when the row
// does not exist.
func lockRow(ctx context.Context, tx *db.Tx, table, pk string, id int64) (bool, error) {
	res, err := tx.ExecContext(ctx, `UPDATE `+table+` SET row_version = row_version WHERE `+pk+` = ?`, id)
	if err != nil {
		return false, fmt.Errorf("users: lock %s %d: %w", table, id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("users: lock %s %d: %w", table, id, err)
	}
	return n == 1, nil
}

// checkVersion answers the engine's stale answer when the request carried
// a row_version other than the stored one.
func checkVersion(sent *int64, stored int64) error {
	if sent != nil && *sent != stored {
		return tables.ErrStale()
	}
	return nil
}

// snapshot reads record id of entity as the engine's history compares it.
func (s *Service) snapshot(ctx context.Context, q db.Querier, entity string, id int64) (validate.Record, int64, error) {
	return s.engine.Snapshot(ctx, q, entity, id)
}

// recordWrite writes the history of one write of record id: a create when
// before is nil, a delete when after is nil, else an update, which is only
// written (and the row's version only incremented, guarded by version) when
// something changed; extra adds relation changes. It reports whether
// anything was recorded.
func (s *Service) recordWrite(ctx context.Context, tx *db.Tx, entity, table, pk string, id, version int64,
	before, after validate.Record, extra map[string][2]any) (bool, error) {
	typ := tables.HistoryUpdate
	switch {
	case before == nil:
		typ = tables.HistoryCreate
	case after == nil:
		typ, after = tables.HistoryDelete, validate.Record{}
	}
	changes, err := s.engine.Changes(entity, before, after)
	if err != nil {
		return false, err
	}
	for k, v := range extra {
		changes[k] = v
	}
	if typ == tables.HistoryUpdate {
		if len(changes) == 0 {
			return false, nil
		}
		res, err := tx.ExecContext(ctx, `UPDATE `+table+` SET row_version = row_version + 1 WHERE `+pk+` = ? AND row_version = ?`, id, version)
		if err != nil {
			return false, fmt.Errorf("users: next version of %s %d: %w", entity, id, err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			if err != nil {
				return false, fmt.Errorf("users: next version of %s %d: %w", entity, id, err)
			}
			return false, tables.ErrStale()
		}
	}
	return true, s.engine.RecordHistory(ctx, tx, typ, entity, id, changes)
}

// recordLinks writes the other side's history of memberships that came or
// went: for every id in added a link, in removed an unlink, on record id
// of ownerEntity, relation rel, naming other.
func (s *Service) recordLinks(ctx context.Context, tx *db.Tx, ownerEntity, rel string, other int64, added, removed []int64) error {
	for _, id := range added {
		if err := s.engine.RecordHistory(ctx, tx, tables.HistoryLink, ownerEntity, id, map[string][2]any{rel: {nil, other}}); err != nil {
			return err
		}
	}
	for _, id := range removed {
		if err := s.engine.RecordHistory(ctx, tx, tables.HistoryUnlink, ownerEntity, id, map[string][2]any{rel: {other, nil}}); err != nil {
			return err
		}
	}
	return nil
}

// idDiff lists the ids of after not in before (added) and of before not in
// after (removed).
func idDiff(before, after []int64) (added, removed []int64) {
	for _, id := range after {
		if !slices.Contains(before, id) {
			added = append(added, id)
		}
	}
	for _, id := range before {
		if !slices.Contains(after, id) {
			removed = append(removed, id)
		}
	}
	return added, removed
}

// idsOf reads a multi-select of a snapshot.
func idsOf(rec validate.Record, field string) []int64 {
	l, _ := rec[field].([]int64)
	return l
}
