-- A session ends everywhere at once (issue 42): a stream ticket belongs to
-- the session that asked for it, so that a ticket issued before a logout,
-- a lock or a password change opens no stream afterwards. Tickets live 60
-- seconds; those issued before this migration have no session and are
-- refused like expired ones.
ALTER TABLE event_ticket ADD COLUMN session_id TEXT;
