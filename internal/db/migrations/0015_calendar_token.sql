-- Personal calendar feeds (issue 12): each user's secret link
-- /calendar/{token}.ics. Only the SHA-256 of the token is kept, so the table
-- cannot be turned back into working links; creating a link replaces the
-- user's previous one, revoking deletes the row.
CREATE TABLE calendar_token (
  user_id {{BIGINT}} PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  created_at {{TIMESTAMP}} NOT NULL
);
