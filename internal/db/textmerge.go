package db

import (
	"context"
	"fmt"
)

// textMergeStepPages is how many pages of an FTS5 index one merge step
// writes, in a write transaction of its own (about 4 MB, a fraction of a
// second), so that writers queued behind a step wait little.
const textMergeStepPages = 1000

// textMergeMaxSteps bounds the steps per index and run: an index of
// 1,000,000 points of sale merges in about 40.
const textMergeMaxSteps = 10000

// MergeTextIndexes merges the segments of every SQLite FTS5 index into
// one (the nightly text_index_merge job and the scale seed run it; on
// PostgreSQL it does nothing: autovacuum empties the trigram indexes'
// pending lists). Each write transaction adds a segment to an FTS5 index, and FTS5
// merges them only level by level: after a bulk load or a day of writes
// a keyword is looked up in a dozen segments, each lookup a seek, and the
// rows of a common trigram are read from each segment in turn. With one
// segment the rare keyword "01414" among 1,000,000 points of sale matched
// in 0.43 instead of 0.65 ms (docs/performance.md, session 23).
//
// It merges with FTS5's "merge" command at a negative page count, which
// merges every level, a step at a time; a step that changed fewer than
// two rows (total_changes) found nothing left to merge.
func (d *DB) MergeTextIndexes(ctx context.Context) error {
	if d.dialect != SQLite {
		return nil
	}
	tables, err := d.textIndexes(ctx)
	if err != nil {
		return err
	}
	for _, t := range tables {
		if err := d.mergeTextIndex(ctx, t); err != nil {
			return err
		}
	}
	return nil
}

// fts5Tables selects the names of the FTS5 tables from sqlite_schema.
const fts5Tables = `SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%'`

// textIndexes lists the FTS5 tables.
func (d *DB) textIndexes(ctx context.Context) ([]string, error) {
	names, err := queryStrings(ctx, d, fts5Tables+` ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("db: list the text indexes: %w", err)
	}
	return names, nil
}

func (d *DB) mergeTextIndex(ctx context.Context, table string) error {
	merge := fmt.Sprintf("INSERT INTO %s (%s, rank) VALUES ('merge', %d)", QuoteIdent(table), QuoteIdent(table), -textMergeStepPages)
	for range textMergeMaxSteps {
		var changed int64
		err := d.InTx(ctx, func(tx *Tx) error {
			var before, after int64
			if err := tx.QueryRowContext(ctx, "SELECT total_changes()").Scan(&before); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, merge); err != nil {
				return err
			}
			if err := tx.QueryRowContext(ctx, "SELECT total_changes()").Scan(&after); err != nil {
				return err
			}
			changed = after - before
			return nil
		})
		if err != nil {
			return fmt.Errorf("db: merge the text index %s: %w", table, err)
		}
		if changed < 2 {
			return nil
		}
	}
	return nil
}
