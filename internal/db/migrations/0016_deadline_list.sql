-- The deadline list (issue 12, GET /contracts/deadlines) pages through
-- deadlines by notice date and key. On PostgreSQL an index on the notice
-- date alone leaves the key order within one date to an incremental sort,
-- which must read every deadline of the page's first dates (thousands of
-- contracts end on the same month end): 0.4–0.8 s per page over 300,000
-- deadlines, against 0.2–2 ms with the key in the index. SQLite's index
-- already ends with the row id, so it keeps its own.
-- only: postgres
CREATE INDEX contractaction_notice_date_key_idx ON contractaction (contractaction_notice_date, contractaction_id);
DROP INDEX contractaction_notice_date_idx;
-- only: end
