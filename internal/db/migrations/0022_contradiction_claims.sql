-- Invoice review (issue 14): a contradiction point names the position it
-- objects to, the amount claimed, the generator rule that found it (empty
-- for a point a person wrote) and the amount the landlord accepted.
ALTER TABLE contradictionpoint ADD COLUMN invoiceposition_id {{BIGINT}} REFERENCES invoiceposition (invoiceposition_id) ON DELETE SET NULL;
ALTER TABLE contradictionpoint ADD COLUMN contradictionpoint_claim NUMERIC(18,4);
ALTER TABLE contradictionpoint ADD COLUMN contradictionpoint_rule TEXT;
ALTER TABLE contradictionpoint ADD COLUMN contradictionpoint_accepted NUMERIC(18,4);
CREATE INDEX contradictionpoint_invoiceposition_idx ON contradictionpoint (invoiceposition_id);
CREATE INDEX contradictionpoint_rule_idx ON contradictionpoint (contradictionpoint_rule);
