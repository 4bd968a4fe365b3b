-- Login throttling (issue 18, decision 0003): failed logins counted per
-- account and client address, per account and per client address. Keys are
-- SHA-256 hashes, so the table holds no typed-in addresses of accounts that
-- do not exist; account_hash groups an account's rows so that a password
-- reset clears them all. A row whose last failure is older than an hour is
-- forgotten on the next failure and removed by the daily maintenance.
CREATE TABLE login_throttle (
  throttle_key TEXT PRIMARY KEY,
  account_hash TEXT,
  failures INTEGER NOT NULL,
  last_failure_at {{TIMESTAMP}} NOT NULL,
  blocked_until {{TIMESTAMP}}
);
CREATE INDEX login_throttle_account_idx ON login_throttle (account_hash);
