-- The rights generation: one counter that every change to what rights and
-- memberships are computed from bumps, in the changing transaction, by
-- trigger (so no write path can forget it). Each request reads it with its
-- session row; caches of computed rights and memberships
-- (internal/access/cache.go) are valid for one generation only, so a
-- change takes effect on the very next request of every user and instance.

CREATE TABLE rights_generation (
  rights_generation_id INTEGER PRIMARY KEY CHECK (rights_generation_id = 1),
  generation {{BIGINT}} NOT NULL
);
INSERT INTO rights_generation (rights_generation_id, generation) VALUES (1, 1);

-- only: postgres
CREATE FUNCTION bump_rights_generation() RETURNS trigger AS $$
BEGIN
  UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER role_rights_generation AFTER INSERT OR UPDATE OR DELETE ON role FOR EACH STATEMENT EXECUTE FUNCTION bump_rights_generation();
CREATE TRIGGER team_rights_generation AFTER INSERT OR UPDATE OR DELETE ON team FOR EACH STATEMENT EXECUTE FUNCTION bump_rights_generation();
CREATE TRIGGER user_role_rights_generation AFTER INSERT OR UPDATE OR DELETE ON user_role FOR EACH STATEMENT EXECUTE FUNCTION bump_rights_generation();
CREATE TRIGGER user_team_rights_generation AFTER INSERT OR UPDATE OR DELETE ON user_team FOR EACH STATEMENT EXECUTE FUNCTION bump_rights_generation();
CREATE TRIGGER tablegroup_rights_generation AFTER INSERT OR UPDATE OR DELETE ON tablegroup FOR EACH STATEMENT EXECUTE FUNCTION bump_rights_generation();
CREATE TRIGGER tablename_rights_generation AFTER INSERT OR UPDATE OR DELETE ON tablename FOR EACH STATEMENT EXECUTE FUNCTION bump_rights_generation();
CREATE TRIGGER crud_rights_generation AFTER INSERT OR UPDATE OR DELETE ON crud FOR EACH STATEMENT EXECUTE FUNCTION bump_rights_generation();
CREATE TRIGGER user_tablegroup_rights_generation AFTER INSERT OR UPDATE OR DELETE ON user_tablegroup FOR EACH STATEMENT EXECUTE FUNCTION bump_rights_generation();
CREATE TRIGGER access_rights_generation AFTER INSERT OR UPDATE OR DELETE ON access FOR EACH STATEMENT EXECUTE FUNCTION bump_rights_generation();
-- only: sqlite
CREATE TRIGGER role_insert_rights_generation AFTER INSERT ON role BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER role_update_rights_generation AFTER UPDATE ON role BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER role_delete_rights_generation AFTER DELETE ON role BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER team_insert_rights_generation AFTER INSERT ON team BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER team_update_rights_generation AFTER UPDATE ON team BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER team_delete_rights_generation AFTER DELETE ON team BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER user_role_insert_rights_generation AFTER INSERT ON user_role BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER user_role_update_rights_generation AFTER UPDATE ON user_role BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER user_role_delete_rights_generation AFTER DELETE ON user_role BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER user_team_insert_rights_generation AFTER INSERT ON user_team BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER user_team_update_rights_generation AFTER UPDATE ON user_team BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER user_team_delete_rights_generation AFTER DELETE ON user_team BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER tablegroup_insert_rights_generation AFTER INSERT ON tablegroup BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER tablegroup_update_rights_generation AFTER UPDATE ON tablegroup BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER tablegroup_delete_rights_generation AFTER DELETE ON tablegroup BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER tablename_insert_rights_generation AFTER INSERT ON tablename BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER tablename_update_rights_generation AFTER UPDATE ON tablename BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER tablename_delete_rights_generation AFTER DELETE ON tablename BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER crud_insert_rights_generation AFTER INSERT ON crud BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER crud_update_rights_generation AFTER UPDATE ON crud BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER crud_delete_rights_generation AFTER DELETE ON crud BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER user_tablegroup_insert_rights_generation AFTER INSERT ON user_tablegroup BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER user_tablegroup_update_rights_generation AFTER UPDATE ON user_tablegroup BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER user_tablegroup_delete_rights_generation AFTER DELETE ON user_tablegroup BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER access_insert_rights_generation AFTER INSERT ON access BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER access_update_rights_generation AFTER UPDATE ON access BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
CREATE TRIGGER access_delete_rights_generation AFTER DELETE ON access BEGIN UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1; END;
-- only: end
