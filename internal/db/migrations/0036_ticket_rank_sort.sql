-- The ticket list may be sorted by the order in the column (ticket_rank,
-- migration 0033): its sort index, ending in the key on PostgreSQL like the
-- other sort indexes of the big entities (decision 0022). The generated
-- search and sort-key migrations leave the field out (it is marked indexed),
-- as they ran before the column existed.
-- only: sqlite
CREATE INDEX ticket_ticket_rank_sort ON ticket (ticket_rank);
-- only: end
-- only: postgres
CREATE INDEX ticket_ticket_rank_sort ON ticket (ticket_rank, ticket_id);
-- only: end
