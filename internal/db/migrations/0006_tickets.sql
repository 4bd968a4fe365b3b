-- Tickets and boards: priorities, boards, columns (columnx) and their
-- order per board, default deadline values and tickets.
-- Definitions: internal/schema/tickets.go.

-- A ticket priority with its order, smiley and colour.
CREATE TABLE priority (
  priority_id {{PK}},
  priority_name TEXT NOT NULL,
  priority_order INTEGER NOT NULL,
  priority_smiley TEXT NOT NULL,
  priority_color TEXT NOT NULL,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX priority_order_idx ON priority (priority_order);
CREATE INDEX priority_name_idx ON priority (priority_name);

-- A kanban board: ordered columns, document types and priorities.
CREATE TABLE board (
  board_id {{PK}},
  board_name TEXT NOT NULL,
  board_description TEXT,
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX board_name_idx ON board (board_name);

-- A board column; quality gates and stamps mark special steps.
CREATE TABLE columnx (
  columnx_id {{PK}},
  columnx_name TEXT NOT NULL,
  columnx_description TEXT,
  is_qualitygate SMALLINT NOT NULL DEFAULT 0 CHECK (is_qualitygate IN (0, 1)),
  has_stamp SMALLINT NOT NULL DEFAULT 0 CHECK (has_stamp IN (0, 1)),
  team_id {{BIGINT}} REFERENCES team (team_id),
  row_version INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX columnx_team_idx ON columnx (team_id);
CREATE INDEX columnx_name_idx ON columnx (columnx_name);

-- Default deadline values in hours, globally (no board) or per board.
CREATE TABLE defaultvalue (
  defaultvalue_id {{PK}},
  board_id {{BIGINT}} REFERENCES board (board_id) ON DELETE CASCADE,
  defaultvalue_deadline_period INTEGER NOT NULL DEFAULT 24,
  defaultvalue_yellow INTEGER NOT NULL DEFAULT 24,
  defaultvalue_red INTEGER NOT NULL DEFAULT 24,
  defaultvalue_prediction_value INTEGER NOT NULL DEFAULT 24,
  defaultvalue_prediction_info INTEGER NOT NULL DEFAULT 24,
  defaultvalue_deadline_info INTEGER NOT NULL DEFAULT 24,
  row_version INTEGER NOT NULL DEFAULT 1,
  UNIQUE (board_id)
);

-- A ticket of a point of sale on a board column, with yellow and red deadlines.
CREATE TABLE ticket (
  ticket_id {{PK}},
  ticket_name TEXT NOT NULL,
  ticket_description TEXT,
  pos_id {{BIGINT}} NOT NULL REFERENCES pos (pos_id),
  contract_id {{BIGINT}} REFERENCES contract (contract_id),
  priority_id {{BIGINT}} NOT NULL REFERENCES priority (priority_id),
  board_id {{BIGINT}} NOT NULL REFERENCES board (board_id),
  columnx_id {{BIGINT}} NOT NULL REFERENCES columnx (columnx_id),
  user_id {{BIGINT}} REFERENCES users (user_id),
  team_id {{BIGINT}} REFERENCES team (team_id),
  ticket_yellow_deadline {{TIMESTAMP}} NOT NULL,
  ticket_red_deadline {{TIMESTAMP}} NOT NULL,
  ticket_deadline {{TIMESTAMP}} NOT NULL DEFAULT '2000-01-01 00:00:00',
  ticket_progress INTEGER NOT NULL DEFAULT 10,
  ticket_closed SMALLINT NOT NULL DEFAULT 0 CHECK (ticket_closed IN (0, 1)),
  ticket_created_by {{BIGINT}} REFERENCES users (user_id) ON DELETE SET NULL,
  ticket_creation_time {{TIMESTAMP}} NOT NULL DEFAULT CURRENT_TIMESTAMP,
  row_version INTEGER NOT NULL DEFAULT 1,
  CHECK (ticket_red_deadline IS NULL OR ticket_yellow_deadline IS NULL OR ticket_red_deadline >= ticket_yellow_deadline)
);
CREATE INDEX ticket_pos_idx ON ticket (pos_id);
CREATE INDEX ticket_contract_idx ON ticket (contract_id);
CREATE INDEX ticket_priority_idx ON ticket (priority_id);
CREATE INDEX ticket_board_idx ON ticket (board_id);
CREATE INDEX ticket_columnx_idx ON ticket (columnx_id);
CREATE INDEX ticket_user_idx ON ticket (user_id);
CREATE INDEX ticket_team_idx ON ticket (team_id);
CREATE INDEX ticket_yellow_deadline_idx ON ticket (ticket_yellow_deadline);
CREATE INDEX ticket_red_deadline_idx ON ticket (ticket_red_deadline);
CREATE INDEX ticket_closed_idx ON ticket (ticket_closed);
CREATE INDEX ticket_created_by_idx ON ticket (ticket_created_by);
CREATE INDEX ticket_creation_time_idx ON ticket (ticket_creation_time);
CREATE INDEX ticket_name_idx ON ticket (ticket_name);

-- Link board - columnx: the columns of a board in rank order.
CREATE TABLE board_columnx (
  board_id {{BIGINT}} NOT NULL REFERENCES board (board_id) ON DELETE CASCADE,
  columnx_id {{BIGINT}} NOT NULL REFERENCES columnx (columnx_id),
  rank_order INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (board_id, columnx_id)
);
CREATE INDEX board_columnx_columnx_idx ON board_columnx (columnx_id);

-- Link board - priority: the priorities a board offers (column priority).
CREATE TABLE board_priority (
  board_id {{BIGINT}} NOT NULL REFERENCES board (board_id) ON DELETE CASCADE,
  priority_id {{BIGINT}} NOT NULL REFERENCES priority (priority_id),
  rank_order INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (board_id, priority_id)
);
CREATE INDEX board_priority_priority_idx ON board_priority (priority_id);
