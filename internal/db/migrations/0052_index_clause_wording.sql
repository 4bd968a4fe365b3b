-- How a contract words its index clause (issue 39, decision 0011): each
-- optional, empty (or the default) being the rule before they existed.
ALTER TABLE indexclause ADD COLUMN indexclause_percent_decimals INTEGER;
ALTER TABLE indexclause ADD COLUMN indexclause_threshold_rule TEXT NOT NULL DEFAULT 'at_least' CHECK (indexclause_threshold_rule IN ('at_least', 'more_than'));
ALTER TABLE indexclause ADD COLUMN indexclause_min_months INTEGER;
ALTER TABLE indexclause ADD COLUMN indexclause_schedule_months INTEGER;
ALTER TABLE indexclause ADD COLUMN indexclause_max_percent NUMERIC(18,4);
ALTER TABLE indexclause ADD COLUMN indexclause_min_percent NUMERIC(18,4);
ALTER TABLE indexclause ADD COLUMN indexclause_upward_only SMALLINT NOT NULL DEFAULT 0 CHECK (indexclause_upward_only IN (0, 1));

-- The rule that produced a proposal (a code with its figures, as JSON),
-- rendered in the reader's language. Proposals stored before it have none:
-- the next run replaces them, decisions keep theirs empty.
ALTER TABLE indexadjustment ADD COLUMN indexadjustment_rule TEXT;
