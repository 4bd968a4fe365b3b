-- A commit whose job vanished (issue 17): import_job_id is the queue's run
-- that commits the import (set when it is enqueued), import_committing_at
-- when the import moved to committing. An import still committing whose
-- run is gone or finished, or that names no run some minutes after it
-- moved, lost its job (a process died between the two, the run was
-- deleted): it is put back to valid with the reason and shown on the
-- error dashboard (imports.Service.RecoverLost).
ALTER TABLE data_import ADD COLUMN import_job_id {{BIGINT}};
ALTER TABLE data_import ADD COLUMN import_committing_at {{TIMESTAMP}};
