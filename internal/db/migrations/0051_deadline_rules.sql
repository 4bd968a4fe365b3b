-- Deadline rules (decision 0008, issue 39): the notice rule (the calendar
-- rule or § 580a Abs. 2 BGB), the end a notice is given to, the options of
-- an active option exercised and when, and what the server derives with
-- the notice date: the end the notice is for, the uses counted, and
-- whether the deadline is used up. Existing deadlines keep today's rule.
ALTER TABLE contractaction ADD COLUMN contractaction_notice_rule TEXT NOT NULL DEFAULT 'calendar'
  CHECK (contractaction_notice_rule IN ('calendar', 'statutory_580a'));
ALTER TABLE contractaction ADD COLUMN contractaction_notice_to TEXT NOT NULL DEFAULT 'date'
  CHECK (contractaction_notice_to IN ('date', 'month_end', 'quarter_end', 'half_year_end', 'year_end'));
ALTER TABLE contractaction ADD COLUMN contractaction_options_exercised INTEGER NOT NULL DEFAULT 0;
ALTER TABLE contractaction ADD COLUMN contractaction_exercised_date DATE;
ALTER TABLE contractaction ADD COLUMN contractaction_effective_date DATE;
ALTER TABLE contractaction ADD COLUMN contractaction_uses INTEGER NOT NULL DEFAULT 0;
ALTER TABLE contractaction ADD COLUMN contractaction_expired SMALLINT NOT NULL DEFAULT 0;
-- A resiliation takes effect on its date under today's rule; options and
-- extensions get their derived values from the nightly recomputation.
UPDATE contractaction SET contractaction_effective_date = contractaction_resiliation_date
  WHERE contractaction_type IN ('resiliation', 'special_resiliation');
