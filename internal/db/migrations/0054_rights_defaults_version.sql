-- The version of the default rights (internal/seed/permissions.go,
-- seed.RightsVersion) this database holds, next to the rights generation.
-- A database made before the defaults were versioned holds version 1, the
-- defaults of that time; the seed writes the current defaults into it once
-- (seed.ApplyRights, run by migrate and serve, decision 0059) and records
-- their version here.
ALTER TABLE rights_generation ADD COLUMN defaults_version INTEGER NOT NULL DEFAULT 1;
