-- Tickets (issue 15): ticket_updated marks a ticket changed after its
-- creation (set by the ticket rules on every update), for the ticket
-- list's update_type filter (update_ticket, not_update_ticket; decision
-- 0013).
ALTER TABLE ticket ADD COLUMN ticket_updated SMALLINT NOT NULL DEFAULT 0 CHECK (ticket_updated IN (0, 1));
CREATE INDEX ticket_updated_idx ON ticket (ticket_updated);

-- The live event stream (GET /events, issue 15): the browser's EventSource
-- cannot send an Authorization header, so it opens the stream with a
-- short-lived single-use ticket (POST /events/ticket) instead of putting
-- the access token into a URL. Only the SHA-256 of a ticket is kept; any
-- instance redeems it once.
CREATE TABLE event_ticket (
  ticket_hash TEXT PRIMARY KEY,
  user_id {{BIGINT}} NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  expires_at {{TIMESTAMP}} NOT NULL
);
CREATE INDEX event_ticket_user_idx ON event_ticket (user_id);
CREATE INDEX event_ticket_expires_idx ON event_ticket (expires_at);

-- only: postgres
-- The ids of live events, the same on every instance (Last-Event-ID).
CREATE SEQUENCE event_seq;
-- only: end
