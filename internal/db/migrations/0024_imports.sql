-- Spreadsheet imports (issue 17, decision 0017). data_import is one upload:
-- who, when, which entity, the file's name, its state (uploaded, valid,
-- invalid, committed, undone), the column headings, the mapping last
-- validated, the counts and the report (the row errors, at most 1000).
-- The parsed rows are kept in data_import_chunk, 1000 rows a chunk as JSON
-- lines (one JSON array of cell texts a line), so that 100,000 rows are a
-- hundred rows of this table; after a commit each chunk holds the keys of
-- the records its rows created (JSON array), which the undo deletes.
-- import_mapping remembers each user's last mapping per entity.
CREATE TABLE data_import (
  import_id {{PK}},
  user_id {{BIGINT}} NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  import_entity TEXT NOT NULL,
  import_file_name TEXT NOT NULL,
  import_state TEXT NOT NULL,
  import_columns TEXT NOT NULL,
  import_mapping TEXT,
  import_row_count INTEGER NOT NULL,
  import_valid_count INTEGER NOT NULL DEFAULT 0,
  import_error_count INTEGER NOT NULL DEFAULT 0,
  import_created_count INTEGER NOT NULL DEFAULT 0,
  import_report TEXT,
  created_at {{TIMESTAMP}} NOT NULL,
  validated_at {{TIMESTAMP}},
  committed_at {{TIMESTAMP}},
  undone_at {{TIMESTAMP}}
);
CREATE INDEX data_import_user_idx ON data_import (user_id, created_at);
CREATE TABLE data_import_chunk (
  import_id {{BIGINT}} NOT NULL REFERENCES data_import (import_id) ON DELETE CASCADE,
  chunk_no INTEGER NOT NULL,
  chunk_rows TEXT NOT NULL,
  created_ids TEXT,
  PRIMARY KEY (import_id, chunk_no)
);
CREATE TABLE import_mapping (
  user_id {{BIGINT}} NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  import_entity TEXT NOT NULL,
  import_mapping TEXT NOT NULL,
  updated_at {{TIMESTAMP}} NOT NULL,
  PRIMARY KEY (user_id, import_entity)
);
