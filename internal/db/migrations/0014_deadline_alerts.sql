-- Deadline alerts (issue 12): who answers for a deadline, how each user
-- wants to hear about theirs, and which announcements went out.

-- The user who answers for a deadline (default: who created it).
ALTER TABLE contractaction ADD COLUMN contractaction_responsible_user_id {{BIGINT}} REFERENCES users (user_id) ON DELETE SET NULL;
CREATE INDEX contractaction_responsible_idx ON contractaction (contractaction_responsible_user_id, contractaction_notice_date);

-- A user's choice about the daily digest of their deadlines; a user without
-- a row gets it, at 90, 30 and 7 days before each notice date.
CREATE TABLE deadline_alert_setting (
  user_id {{BIGINT}} PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
  digest SMALLINT NOT NULL DEFAULT 1,
  horizons TEXT NOT NULL DEFAULT '90,30,7'
);

-- Each announcement sent: a deadline is announced once per notice date and
-- horizon, whichever instance runs the digest and however often.
CREATE TABLE deadline_alert_sent (
  contractaction_id {{BIGINT}} NOT NULL REFERENCES contractaction (contractaction_id) ON DELETE CASCADE,
  notice_date DATE NOT NULL,
  horizon INTEGER NOT NULL,
  user_id {{BIGINT}} REFERENCES users (user_id) ON DELETE SET NULL,
  sent_at {{TIMESTAMP}} NOT NULL,
  PRIMARY KEY (contractaction_id, notice_date, horizon)
);
