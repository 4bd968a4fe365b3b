-- The track record: one row per change the table engine writes (and per
-- event modules record). Read-only for users.
-- Definitions: internal/schema/history.go.

-- One recorded change or event: what (category, row), how (type, status), who and when.
CREATE TABLE trackrecord (
  trackrecord_id {{PK}},
  trackrecord_timestamp {{TIMESTAMP}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
  trackrecord_type TEXT NOT NULL,
  trackrecord_category TEXT NOT NULL,
  trackrecord_row_id {{BIGINT}},
  trackrecord_status TEXT,
  trackrecord_comment TEXT,
  trackrecord_changes TEXT,
  user_id {{BIGINT}} REFERENCES users (user_id) ON DELETE SET NULL,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX trackrecord_timestamp_idx ON trackrecord (trackrecord_timestamp);
CREATE INDEX trackrecord_type_idx ON trackrecord (trackrecord_type);
CREATE INDEX trackrecord_user_idx ON trackrecord (user_id);
-- The history of one record: WHERE trackrecord_category = ? AND trackrecord_row_id = ?
CREATE INDEX trackrecord_category_idx ON trackrecord (trackrecord_category, trackrecord_row_id);
