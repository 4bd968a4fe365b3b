-- Large import commits run as jobs of the queue (issue 17, decision 0017):
-- import_done_count is the rows a running commit has written (kept up to
-- date on PostgreSQL, where the count is written beside the commit's
-- transaction; SQLite's one writer holds the lock for the commit, so there
-- the working instance answers from memory), import_lang the language the
-- job writes the report in (the requester's), import_commit_error why the
-- last commit job failed for good (the import is valid again and may be
-- committed anew).
ALTER TABLE data_import ADD COLUMN import_done_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE data_import ADD COLUMN import_lang TEXT;
ALTER TABLE data_import ADD COLUMN import_commit_error TEXT;
