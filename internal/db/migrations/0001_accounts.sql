-- Accounts, organisations a user can belong to, sessions, mail outbox and
-- translations: what login, sessions and GET /user/ need.
-- Conventions: every entity table has a single-column primary key named
-- <entity>_id and row_version for optimistic locking; booleans are SMALLINT
-- 0/1 with a CHECK; link tables are <a>_<b> with valid_from/valid_to where the
-- spec gives them.

CREATE TABLE usertype (
  usertype_id {{PK}},
  usertype_name TEXT NOT NULL UNIQUE,
  usertype_description TEXT,
  usertype_external SMALLINT NOT NULL DEFAULT 0 CHECK (usertype_external IN (0, 1)),
  row_version INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE role (
  role_id {{PK}},
  role_name TEXT NOT NULL UNIQUE,
  role_code TEXT NOT NULL UNIQUE,
  role_description TEXT,
  role_menu TEXT NOT NULL DEFAULT '',
  role_external SMALLINT NOT NULL DEFAULT 0 CHECK (role_external IN (0, 1)),
  row_version INTEGER NOT NULL DEFAULT 1
);

-- Job functions of internal users (users.function_id, user_function).
CREATE TABLE function (
  function_id {{PK}},
  function_name TEXT NOT NULL,
  function_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX function_name_idx ON function (function_name);

-- Kinds of partner companies (landlord, property manager, ...).
CREATE TABLE partnertype (
  partnertype_id {{PK}},
  partnertype_name TEXT NOT NULL,
  partnertype_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX partnertype_name_idx ON partnertype (partnertype_name);

CREATE TABLE customergroup (
  customergroup_id {{PK}},
  customergroup_name TEXT NOT NULL,
  customergroup_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX customergroup_name_idx ON customergroup (customergroup_name);

CREATE TABLE company (
  company_id {{PK}},
  customergroup_id {{BIGINT}} NOT NULL REFERENCES customergroup (customergroup_id),
  company_name TEXT NOT NULL,
  company_shortname TEXT NOT NULL,
  company_buchungskreis TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX company_customergroup_idx ON company (customergroup_id);
CREATE INDEX company_name_idx ON company (company_name);

CREATE TABLE partnergroup (
  partnergroup_id {{PK}},
  partnergroup_name TEXT NOT NULL,
  partnergroup_is_internal SMALLINT NOT NULL DEFAULT 0 CHECK (partnergroup_is_internal IN (0, 1)),
  partnergroup_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX partnergroup_name_idx ON partnergroup (partnergroup_name);

CREATE TABLE partnercompany (
  partnercompany_id {{PK}},
  partnergroup_id {{BIGINT}} NOT NULL REFERENCES partnergroup (partnergroup_id),
  partnercompany_name TEXT NOT NULL,
  partnercompany_shortname TEXT NOT NULL CHECK (length(partnercompany_shortname) <= 10),
  partnertype_id {{BIGINT}} REFERENCES partnertype (partnertype_id),
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX partnercompany_partnergroup_idx ON partnercompany (partnergroup_id);
CREATE INDEX partnercompany_partnertype_idx ON partnercompany (partnertype_id);
CREATE INDEX partnercompany_name_idx ON partnercompany (partnercompany_name);

CREATE TABLE team (
  team_id {{PK}},
  team_name TEXT NOT NULL,
  team_type TEXT NOT NULL CHECK (team_type IN ('intern', 'extern_client', 'extern_partner', 'friendtzieze')),
  parent_id {{BIGINT}} REFERENCES team (team_id),
  team_for_all_customer SMALLINT NOT NULL DEFAULT 1 CHECK (team_for_all_customer IN (0, 1)),
  team_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX team_parent_idx ON team (parent_id);
CREATE INDEX team_name_idx ON team (team_name);

CREATE TABLE team_customergroup (
  team_id {{BIGINT}} NOT NULL REFERENCES team (team_id) ON DELETE CASCADE,
  customergroup_id {{BIGINT}} NOT NULL REFERENCES customergroup (customergroup_id),
  PRIMARY KEY (team_id, customergroup_id)
);
CREATE INDEX team_customergroup_customergroup_idx ON team_customergroup (customergroup_id);
CREATE TABLE team_partnergroup (
  team_id {{BIGINT}} NOT NULL REFERENCES team (team_id) ON DELETE CASCADE,
  partnergroup_id {{BIGINT}} NOT NULL REFERENCES partnergroup (partnergroup_id),
  PRIMARY KEY (team_id, partnergroup_id)
);
CREATE INDEX team_partnergroup_partnergroup_idx ON team_partnergroup (partnergroup_id);
CREATE TABLE team_company (
  team_id {{BIGINT}} NOT NULL REFERENCES team (team_id) ON DELETE CASCADE,
  company_id {{BIGINT}} NOT NULL REFERENCES company (company_id),
  PRIMARY KEY (team_id, company_id)
);
CREATE INDEX team_company_company_idx ON team_company (company_id);
CREATE TABLE team_partnercompany (
  team_id {{BIGINT}} NOT NULL REFERENCES team (team_id) ON DELETE CASCADE,
  partnercompany_id {{BIGINT}} NOT NULL REFERENCES partnercompany (partnercompany_id),
  PRIMARY KEY (team_id, partnercompany_id)
);
CREATE INDEX team_partnercompany_partnercompany_idx ON team_partnercompany (partnercompany_id);
CREATE TABLE team_role (
  team_id {{BIGINT}} NOT NULL REFERENCES team (team_id) ON DELETE CASCADE,
  role_id {{BIGINT}} NOT NULL REFERENCES role (role_id),
  PRIMARY KEY (team_id, role_id)
);
CREATE INDEX team_role_role_idx ON team_role (role_id);

-- The user entity lives in "users": "user" is reserved in PostgreSQL.
CREATE TABLE users (
  user_id {{PK}},
  usertype_id {{BIGINT}} NOT NULL REFERENCES usertype (usertype_id),
  user_is_director SMALLINT NOT NULL DEFAULT 0 CHECK (user_is_director IN (0, 1)),
  user_firstname TEXT NOT NULL,
  user_lastname TEXT NOT NULL,
  user_email TEXT NOT NULL,
  user_email_normalized TEXT NOT NULL UNIQUE,
  user_password TEXT,
  user_password_reset_required SMALLINT NOT NULL DEFAULT 0 CHECK (user_password_reset_required IN (0, 1)),
  user_locked SMALLINT NOT NULL DEFAULT 0 CHECK (user_locked IN (0, 1)),
  user_wrong_password_counter INTEGER NOT NULL DEFAULT 0,
  user_abbreviation TEXT NOT NULL DEFAULT '',
  firmengroup_type SMALLINT CHECK (firmengroup_type IN (0, 1)),
  partnergroup_id {{BIGINT}} REFERENCES partnergroup (partnergroup_id),
  customergroup_id {{BIGINT}} REFERENCES customergroup (customergroup_id),
  company_id {{BIGINT}} REFERENCES company (company_id),
  user_last_login_time {{TIMESTAMP}},
  user_last_activity_time {{TIMESTAMP}},
  user_fix_phonenumber TEXT,
  user_fax_phonenumber TEXT,
  user_mobile TEXT,
  hollyday_representative {{BIGINT}} REFERENCES users (user_id),
  function_id {{BIGINT}} REFERENCES function (function_id),
  user_verified_at {{TIMESTAMP}},
  user_language TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX users_usertype_idx ON users (usertype_id);
CREATE INDEX users_customergroup_idx ON users (customergroup_id);
CREATE INDEX users_partnergroup_idx ON users (partnergroup_id);
CREATE INDEX users_company_idx ON users (company_id);
CREATE INDEX users_lastname_idx ON users (user_lastname);
CREATE INDEX users_firstname_idx ON users (user_firstname);
CREATE INDEX users_function_idx ON users (function_id);
CREATE INDEX users_hollyday_representative_idx ON users (hollyday_representative);

CREATE TABLE user_role (
  user_id {{BIGINT}} NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  role_id {{BIGINT}} NOT NULL REFERENCES role (role_id),
  user_role_rank INTEGER NOT NULL DEFAULT 0,
  valid_from DATE,
  valid_to DATE,
  PRIMARY KEY (user_id, role_id),
  CHECK (valid_to IS NULL OR valid_from IS NULL OR valid_to >= valid_from)
);
CREATE INDEX user_role_role_idx ON user_role (role_id);

CREATE TABLE user_team (
  user_id {{BIGINT}} NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  team_id {{BIGINT}} NOT NULL REFERENCES team (team_id) ON DELETE CASCADE,
  valid_from DATE,
  valid_to DATE,
  PRIMARY KEY (user_id, team_id),
  CHECK (valid_to IS NULL OR valid_from IS NULL OR valid_to >= valid_from)
);
CREATE INDEX user_team_team_idx ON user_team (team_id);

CREATE TABLE user_partnercompany (
  user_id {{BIGINT}} NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  partnercompany_id {{BIGINT}} NOT NULL REFERENCES partnercompany (partnercompany_id),
  PRIMARY KEY (user_id, partnercompany_id)
);
CREATE INDEX user_partnercompany_pc_idx ON user_partnercompany (partnercompany_id);

-- A user's partner groups over time (partner group relation "users").
CREATE TABLE user_partnergroup (
  user_id {{BIGINT}} NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  partnergroup_id {{BIGINT}} NOT NULL REFERENCES partnergroup (partnergroup_id),
  valid_from DATE,
  valid_to DATE,
  PRIMARY KEY (user_id, partnergroup_id),
  CHECK (valid_to IS NULL OR valid_from IS NULL OR valid_to >= valid_from)
);
CREATE INDEX user_partnergroup_partnergroup_idx ON user_partnergroup (partnergroup_id);

-- The functions of an internal user (user_functions, several).
CREATE TABLE user_function (
  user_id {{BIGINT}} NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  function_id {{BIGINT}} NOT NULL REFERENCES function (function_id),
  PRIMARY KEY (user_id, function_id)
);
CREATE INDEX user_function_function_idx ON user_function (function_id);

CREATE TABLE user_customergroup (
  user_id {{BIGINT}} NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  customergroup_id {{BIGINT}} NOT NULL REFERENCES customergroup (customergroup_id),
  valid_from DATE,
  valid_to DATE,
  PRIMARY KEY (user_id, customergroup_id),
  CHECK (valid_to IS NULL OR valid_from IS NULL OR valid_to >= valid_from)
);
CREATE INDEX user_customergroup_customergroup_idx ON user_customergroup (customergroup_id);
CREATE TABLE user_company (
  user_id {{BIGINT}} NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  company_id {{BIGINT}} NOT NULL REFERENCES company (company_id),
  valid_from DATE,
  valid_to DATE,
  PRIMARY KEY (user_id, company_id),
  CHECK (valid_to IS NULL OR valid_from IS NULL OR valid_to >= valid_from)
);
CREATE INDEX user_company_company_idx ON user_company (company_id);

-- Permissions: table groups with per-role and per-user c/r/u/d flags, and
-- the menu/table access rules (subject, action, role, optional teams and
-- options). Issue "permissions" fills and edits them.
CREATE TABLE tablegroup (
  tablegroup_id {{PK}},
  tablegroup_name TEXT NOT NULL UNIQUE,
  tablegroup_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE tablename (
  tablename_id {{PK}},
  tablegroup_id {{BIGINT}} NOT NULL REFERENCES tablegroup (tablegroup_id),
  table_name TEXT NOT NULL,
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (tablegroup_id, table_name)
);
CREATE INDEX tablename_table_name_idx ON tablename (table_name);
CREATE TABLE crud (
  crud_id {{PK}},
  role_id {{BIGINT}} NOT NULL REFERENCES role (role_id) ON DELETE CASCADE,
  tablegroup_id {{BIGINT}} NOT NULL REFERENCES tablegroup (tablegroup_id) ON DELETE CASCADE,
  crud_c SMALLINT NOT NULL DEFAULT 0 CHECK (crud_c IN (0, 1)),
  crud_r SMALLINT NOT NULL DEFAULT 0 CHECK (crud_r IN (0, 1)),
  crud_u SMALLINT NOT NULL DEFAULT 0 CHECK (crud_u IN (0, 1)),
  crud_d SMALLINT NOT NULL DEFAULT 0 CHECK (crud_d IN (0, 1)),
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (role_id, tablegroup_id)
);
CREATE INDEX crud_tablegroup_idx ON crud (tablegroup_id);
CREATE TABLE user_tablegroup (
  user_id {{BIGINT}} NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  tablegroup_id {{BIGINT}} NOT NULL REFERENCES tablegroup (tablegroup_id) ON DELETE CASCADE,
  crud_c SMALLINT NOT NULL DEFAULT 0 CHECK (crud_c IN (0, 1)),
  crud_r SMALLINT NOT NULL DEFAULT 0 CHECK (crud_r IN (0, 1)),
  crud_u SMALLINT NOT NULL DEFAULT 0 CHECK (crud_u IN (0, 1)),
  crud_d SMALLINT NOT NULL DEFAULT 0 CHECK (crud_d IN (0, 1)),
  PRIMARY KEY (user_id, tablegroup_id)
);
CREATE INDEX user_tablegroup_tablegroup_idx ON user_tablegroup (tablegroup_id);
-- access: one row per (subject, action, role); access_kind 'menu' or 'table';
-- access_teams and access_options are comma-separated restrictions.
CREATE TABLE access (
  access_id {{PK}},
  access_kind TEXT NOT NULL CHECK (access_kind IN ('menu', 'table')),
  access_subject TEXT NOT NULL,
  access_action TEXT NOT NULL,
  role_code TEXT NOT NULL,
  access_teams TEXT NOT NULL DEFAULT '',
  access_options TEXT NOT NULL DEFAULT '',
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (access_kind, access_subject, access_action, role_code)
);
CREATE INDEX access_role_idx ON access (role_code);
CREATE INDEX access_subject_idx ON access (access_subject);

-- Sessions: one row per login (a refresh-token family). Access tokens carry
-- session_id; a revoked or idle session stops every token at once.
CREATE TABLE auth_session (
  session_id TEXT PRIMARY KEY,
  user_id {{BIGINT}} NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  browser_hash TEXT NOT NULL,
  created_at {{TIMESTAMP}} NOT NULL,
  last_used_at {{TIMESTAMP}} NOT NULL,
  expires_at {{TIMESTAMP}} NOT NULL,
  revoked_at {{TIMESTAMP}},
  revoke_reason TEXT
);
CREATE INDEX auth_session_user_idx ON auth_session (user_id);

CREATE TABLE refresh_token (
  token_hash TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES auth_session (session_id) ON DELETE CASCADE,
  created_at {{TIMESTAMP}} NOT NULL,
  rotated_at {{TIMESTAMP}}
);
CREATE INDEX refresh_token_session_idx ON refresh_token (session_id);

-- Single-use links mailed to users: password reset and address verification.
CREATE TABLE auth_link (
  token_hash TEXT PRIMARY KEY,
  user_id {{BIGINT}} NOT NULL REFERENCES users (user_id) ON DELETE CASCADE,
  purpose TEXT NOT NULL CHECK (purpose IN ('reset', 'verify')),
  created_at {{TIMESTAMP}} NOT NULL,
  expires_at {{TIMESTAMP}} NOT NULL,
  used_at {{TIMESTAMP}}
);
CREATE INDEX auth_link_user_idx ON auth_link (user_id);

-- Every mail the product sends, with its delivery state.
CREATE TABLE mail_outbox (
  mail_id {{PK}},
  mail_from TEXT NOT NULL,
  mail_to TEXT NOT NULL,
  mail_cc TEXT NOT NULL DEFAULT '',
  mail_subject TEXT NOT NULL,
  mail_text TEXT NOT NULL,
  mail_html TEXT NOT NULL DEFAULT '',
  created_at {{TIMESTAMP}} NOT NULL,
  sent_at {{TIMESTAMP}},
  mail_attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at {{TIMESTAMP}} NOT NULL,
  claimed_until {{TIMESTAMP}},
  mail_error TEXT
);
CREATE INDEX mail_outbox_pending_idx ON mail_outbox (sent_at, next_attempt_at);

-- UI texts and attribute labels per language (en, de, fr).
CREATE TABLE translation (
  translation_id {{PK}},
  translation_key TEXT NOT NULL,
  translation_lang TEXT NOT NULL CHECK (translation_lang IN ('en', 'de', 'fr')),
  translation_text TEXT NOT NULL,
  -- 1 once an administrator changed the text: shipped texts no longer
  -- overwrite it.
  translation_edited SMALLINT NOT NULL DEFAULT 0 CHECK (translation_edited IN (0, 1)),
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (translation_key, translation_lang)
);
CREATE INDEX translation_lang_idx ON translation (translation_lang);

CREATE TABLE attribute_i18n (
  attribute_i18n_id {{PK}},
  attribute_name TEXT NOT NULL,
  attribute_lang TEXT NOT NULL CHECK (attribute_lang IN ('en', 'de', 'fr')),
  attribute_nice_name TEXT NOT NULL,
  attribute_edited SMALLINT NOT NULL DEFAULT 0 CHECK (attribute_edited IN (0, 1)),
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (attribute_name, attribute_lang)
);
