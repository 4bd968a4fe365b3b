-- Failed imports on the error dashboard (issue 17): import_failed_at is
-- when an import's commit job failed for good (import_commit_error says
-- why), import_failure_dismissed_at when an administrator took the entry
-- off the dashboard (a later failure of the same import shows again).
ALTER TABLE data_import ADD COLUMN import_failed_at {{TIMESTAMP}};
ALTER TABLE data_import ADD COLUMN import_failure_dismissed_at {{TIMESTAMP}};
