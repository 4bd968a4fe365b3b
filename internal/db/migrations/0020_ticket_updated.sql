-- Tickets (issue 15): ticket_updated marks a ticket changed after its
-- creation (set by the ticket rules on every update), for the ticket
-- list's update_type filter (update_ticket, not_update_ticket; decision
-- 0013).
ALTER TABLE ticket ADD COLUMN ticket_updated SMALLINT NOT NULL DEFAULT 0 CHECK (ticket_updated IN (0, 1));
CREATE INDEX ticket_updated_idx ON ticket (ticket_updated);
