-- Saved views of the generic lists (internal/tables/views.go): a user's
-- named filter, keyword, sort, visible columns and page size for one table,
-- kept personal or shared with one role or with everyone. Not an entity:
-- rows belong to users and are read and written only through /api/views,
-- so the table is listed in schema.InternalTables.

CREATE TABLE savedview (
  savedview_id {{PK}},
  user_id {{BIGINT}} NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  savedview_entity TEXT NOT NULL,
  savedview_name TEXT NOT NULL,
  savedview_shared TEXT NOT NULL DEFAULT 'private' CHECK (savedview_shared IN ('private', 'role', 'all')),
  role_id {{BIGINT}} REFERENCES role (role_id) ON DELETE CASCADE,
  -- JSON: {"filter", "filter_all", "order_by", "order_dir", "columns", "per_page"}
  savedview_settings TEXT NOT NULL,
  savedview_created_at {{TIMESTAMP}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
  savedview_updated_at {{TIMESTAMP}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
  row_version INTEGER NOT NULL DEFAULT 1,
  CHECK ((savedview_shared = 'role') = (role_id IS NOT NULL))
);
-- A user's own views of a table, and the shared views of a table.
CREATE INDEX savedview_user_idx ON savedview (user_id, savedview_entity);
CREATE INDEX savedview_entity_idx ON savedview (savedview_entity, savedview_shared);
CREATE INDEX savedview_role_idx ON savedview (role_id);
