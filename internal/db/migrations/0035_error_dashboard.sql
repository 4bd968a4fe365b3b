-- The error dashboard (issue 17): the server's recent failed answers
-- (5xx) with their request ids, so an administrator can find the log line
-- a user reports; and a dismissal mark on undelivered mail. The newest
-- 1,000 failures are kept (the recorder deletes older ones).
CREATE TABLE server_failure (
  failure_id {{PK}},
  occurred_at {{TIMESTAMP}} NOT NULL,
  request_id TEXT NOT NULL,
  failure_method TEXT NOT NULL,
  failure_path TEXT NOT NULL,
  failure_route TEXT NOT NULL,
  failure_status INTEGER NOT NULL,
  failure_message TEXT NOT NULL,
  dismissed_at {{TIMESTAMP}}
);
CREATE INDEX server_failure_open_idx ON server_failure (dismissed_at, failure_id);

ALTER TABLE mail_outbox ADD COLUMN mail_dismissed_at {{TIMESTAMP}};
