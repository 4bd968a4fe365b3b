-- Tickets (issue 15, decision 0027): the order of the tickets within a
-- column. ticket_rank is a sparse number (gaps of 65,536) the ticket
-- module sets: a ticket entering a column goes to its end, a ticket
-- placed before another gets a rank between that one and its
-- predecessor; the column is renumbered when no gap is left. The tickets
-- written before keep their id order.
ALTER TABLE ticket ADD COLUMN ticket_rank {{BIGINT}} NOT NULL DEFAULT 0;
UPDATE ticket SET ticket_rank = ticket_id * 65536;
CREATE INDEX ticket_column_rank_idx ON ticket (columnx_id, ticket_rank);
