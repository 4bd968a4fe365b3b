-- Calls of the specification that still differed (issue 38, decision 0065).
--
-- A document is uploaded with its file alone and gets its type later
-- (contract step 7, PUT /documents/update): documenttype_id may be empty.
-- PostgreSQL drops the constraint. SQLite cannot drop a NOT NULL
-- constraint with ALTER TABLE, and rebuilding the table would cascade to
-- its links; its documented way for this change (sqlite.org/lang_altertable.html,
-- "removing CHECK or FOREIGN KEY or NOT NULL constraints") edits the
-- table's definition text, which the rows do not depend on. The check
-- table then refuses to go on unless SQLite reads the column as nullable,
-- and creating it moves the schema version on, so every connection reads
-- the changed definition.
-- only: postgres
ALTER TABLE document ALTER COLUMN documenttype_id DROP NOT NULL;
-- only: sqlite
PRAGMA writable_schema = ON;
UPDATE sqlite_master SET sql = replace(sql, 'documenttype_id INTEGER NOT NULL REFERENCES documenttype', 'documenttype_id INTEGER REFERENCES documenttype')
  WHERE type = 'table' AND name = 'document';
PRAGMA writable_schema = RESET;
CREATE TABLE pf_migration_check (ok INTEGER NOT NULL CHECK (ok = 1));
INSERT INTO pf_migration_check (ok) SELECT COUNT(*) FROM pragma_table_info('document') WHERE name = 'documenttype_id' AND "notnull" = 0;
DROP TABLE pf_migration_check;
-- only: end
