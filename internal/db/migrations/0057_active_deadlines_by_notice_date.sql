-- The dashboard counts the active deadlines that are not used up by their
-- notice date, overdue ones included (issue 38): a range over every past
-- notice date. This index answers it from the index alone (300,108
-- deadlines of `seed --scale 100000`: about 160 ms → a few ms on SQLite).
CREATE INDEX contractaction_active_notice ON contractaction (contractaction_status, contractaction_expired, contractaction_notice_date);
