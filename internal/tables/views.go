package tables

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
)

// Sharing of saved views.
const (
	ShareNone = "private" // only the owner sees the view
	ShareRole = "role"    // users holding RoleID see it
	ShareAll  = "all"     // every user who may list the table sees it

	// ActionShare on SubjectView is the right to share views with others.
	// Administrators hold it (manage all); other roles get it through an
	// access row (kind table, subject savedview, action share).
	ActionShare = "share"
	SubjectView = "savedview"

	maxViewName = 100
)

// ViewSettings are what a saved view restores in a list.
type ViewSettings struct {
	Filter    json.RawMessage `json:"filter,omitempty"`
	FilterAll string          `json:"filter_all,omitempty"`
	OrderBy   string          `json:"order_by,omitempty"`
	OrderDir  string          `json:"order_dir,omitempty"`
	Columns   []string        `json:"columns,omitempty"`
	PerPage   int             `json:"per_page,omitempty"`
}

// View is one saved view as the API answers it.
type View struct {
	ID         int64        `json:"savedview_id"`
	Entity     string       `json:"entity"`
	Name       string       `json:"name"`
	Shared     string       `json:"shared"`
	RoleID     *int64       `json:"role_id"`
	OwnerID    int64        `json:"user_id"`
	Mine       bool         `json:"mine"`
	Settings   ViewSettings `json:"settings"`
	RowVersion int64        `json:"row_version"`
	UpdatedAt  string       `json:"updated_at"`
}

// SaveViewCommand creates (ID 0) or replaces a view.
type SaveViewCommand struct {
	ID         int64        `json:"-"`
	Entity     string       `json:"entity"`
	Name       string       `json:"name"`
	Shared     string       `json:"shared"`
	RoleID     *int64       `json:"role_id"`
	Settings   ViewSettings `json:"settings"`
	RowVersion int64        `json:"row_version"`
}

// Views lists the views of a table the caller sees: their own, those
// shared with one of their roles and those shared with everyone.
func (e *Engine) Views(ctx context.Context, entity string) ([]View, error) {
	c, err := e.callerOf(ctx)
	if err != nil {
		return nil, err
	}
	t, err := e.resolveTarget(entity)
	if err != nil {
		return nil, err
	}
	if err := e.authorizeList(c, t); err != nil {
		return nil, err
	}
	where, args := "v.savedview_entity = ? AND (v.user_id = ? OR v.savedview_shared = ?", []any{entity, c.userID(), ShareAll}
	if ids := c.roleIDs(); len(ids) > 0 {
		where += " OR (v.savedview_shared = ? AND v.role_id IN (" + placeholders(len(ids)) + "))"
		args = append(args, ShareRole)
		for _, id := range ids {
			args = append(args, id)
		}
	}
	return e.queryViews(ctx, e.db, c, where+")", args, "v.savedview_name, v.savedview_id")
}

func (c *caller) roleIDs() []int64 {
	out := make([]int64, 0, len(c.p.Roles))
	for _, r := range c.p.Roles {
		out = append(out, r.ID)
	}
	return out
}

func (e *Engine) queryViews(ctx context.Context, q db.Querier, c *caller, where string, args []any, order string) ([]View, error) {
	rows, err := q.QueryContext(ctx, `SELECT v.savedview_id, v.savedview_entity, v.savedview_name, v.savedview_shared, v.role_id,
		v.user_id, v.savedview_settings, v.row_version, v.savedview_updated_at FROM savedview v WHERE `+where+` ORDER BY `+order, args...)
	if err != nil {
		return nil, fmt.Errorf("tables: read views: %w", err)
	}
	defer rows.Close()
	out := []View{}
	for rows.Next() {
		var v View
		var role *int64
		var settings string
		var updated time.Time
		if err := rows.Scan(&v.ID, &v.Entity, &v.Name, &v.Shared, &role, &v.OwnerID, &settings, &v.RowVersion, &updated); err != nil {
			return nil, fmt.Errorf("tables: scan view: %w", err)
		}
		if err := json.Unmarshal([]byte(settings), &v.Settings); err != nil {
			return nil, fmt.Errorf("tables: view %d settings: %w", v.ID, err)
		}
		v.RoleID, v.Mine, v.UpdatedAt = role, v.OwnerID == c.userID(), updated.UTC().Format(time.RFC3339)
		out = append(out, v)
	}
	return out, rows.Err()
}

// SaveView creates or replaces a view after checking it: the caller may
// list the table, the settings resolve like a list request (fields,
// filter, sort, columns), sharing needs the share right, and only the
// owner (or an administrator) replaces a view.
func (e *Engine) SaveView(ctx context.Context, cmd SaveViewCommand) (*View, error) {
	c, err := e.callerOf(ctx)
	if err != nil {
		return nil, err
	}
	if err := e.checkView(ctx, c, &cmd); err != nil {
		return nil, err
	}
	settings, err := json.Marshal(cmd.Settings)
	if err != nil {
		return nil, fmt.Errorf("tables: encode view settings: %w", err)
	}
	now := e.now().UTC().Truncate(time.Second)
	var out *View
	err = e.db.InTx(ctx, func(tx *db.Tx) error {
		id := cmd.ID
		if id == 0 {
			err := tx.QueryRowContext(ctx, `INSERT INTO savedview (user_id, savedview_entity, savedview_name, savedview_shared, role_id,
				savedview_settings, savedview_created_at, savedview_updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING savedview_id`,
				c.userID(), cmd.Entity, cmd.Name, cmd.Shared, cmd.RoleID, string(settings), now, now).Scan(&id)
			if err != nil {
				return fmt.Errorf("tables: save view: %w", err)
			}
		} else if err := e.replaceView(ctx, tx, c, cmd, string(settings), now); err != nil {
			return err
		}
		views, err := e.queryViews(ctx, tx, c, "v.savedview_id = ?", []any{id}, "v.savedview_id")
		if err != nil || len(views) != 1 {
			return fmt.Errorf("tables: read saved view %d: %w", id, err)
		}
		out = &views[0]
		return nil
	})
	return out, err
}

// checkView validates a view before it is stored: its name and sharing,
// then its settings against the table.
func (e *Engine) checkView(ctx context.Context, c *caller, cmd *SaveViewCommand) error {
	if err := checkSharing(c, cmd); err != nil {
		return err
	}
	return e.checkViewSettings(ctx, c, cmd)
}

// checkSharing checks the name and the sharing of a view.
func checkSharing(c *caller, cmd *SaveViewCommand) error {
	cmd.Name = strings.TrimSpace(cmd.Name)
	switch {
	case cmd.Name == "":
		return viewField("name", "validation.required", "missing", nil)
	case utf8.RuneCountInString(cmd.Name) > maxViewName:
		return viewField("name", "validation.max", "max", map[string]string{"length": fmt.Sprint(maxViewName)})
	}
	switch cmd.Shared {
	case "":
		cmd.Shared = ShareNone
	case ShareNone, ShareAll, ShareRole:
	default:
		return viewField("shared", "validation.one_of", "enum", map[string]string{"values": "private, role, all"})
	}
	if (cmd.Shared == ShareRole) != (cmd.RoleID != nil && *cmd.RoleID > 0) {
		return viewField("role_id", "validation.required", "missing", nil)
	}
	if cmd.Shared != ShareRole {
		cmd.RoleID = nil
	}
	if cmd.Shared != ShareNone && !access.Can(c.rules, ActionShare, SubjectView) {
		return apperr.Forbidden("server.tables.view.share_forbidden")
	}
	return nil
}

// checkViewSettings resolves the settings like a list request of the
// table, which the caller must be allowed to list.
func (e *Engine) checkViewSettings(ctx context.Context, c *caller, cmd *SaveViewCommand) error {
	t, err := e.resolveTarget(cmd.Entity)
	if err != nil || t.rel != nil {
		return viewField("entity", "validation.one_of", "enum", map[string]string{"values": "a table"})
	}
	if err := e.authorizeList(c, t); err != nil {
		return err
	}
	s := cmd.Settings
	p, err := e.plan(ctx, c, t, ListQuery{Entity: cmd.Entity, Filter: s.Filter, Search: s.FilterAll,
		OrderBy: s.OrderBy, OrderDir: s.OrderDir, Columns: s.Columns, PerPage: s.PerPage})
	if err != nil {
		return err
	}
	src, err := p.source(e.env(), c.scope)
	if err != nil {
		return err
	}
	if _, err := p.conditions(src); err != nil {
		return err
	}
	cmd.Settings.PerPage = min(max(s.PerPage, 0), MaxPerPage)
	return nil
}

func viewField(field, key, typ string, args map[string]string) error {
	return apperr.Validation(apperr.FieldError{Field: field, Key: key, Type: typ, Args: withField(args, field)})
}

// replaceView stores new settings of a view the caller owns (or any view,
// for an administrator); a stale row_version answers 409.
func (e *Engine) replaceView(ctx context.Context, tx *db.Tx, c *caller, cmd SaveViewCommand, settings string, now time.Time) error {
	owner, version, err := e.viewOwner(ctx, tx, c, cmd.ID)
	if err != nil {
		return err
	}
	if cmd.RowVersion > 0 && cmd.RowVersion != version {
		return errStale()
	}
	if owner != c.userID() && !c.p.IsAdmin() {
		return apperr.Forbidden("server.tables.view.not_owner")
	}
	_, err = tx.ExecContext(ctx, `UPDATE savedview SET savedview_entity = ?, savedview_name = ?, savedview_shared = ?, role_id = ?,
		savedview_settings = ?, savedview_updated_at = ?, row_version = row_version + 1 WHERE savedview_id = ?`,
		cmd.Entity, cmd.Name, cmd.Shared, cmd.RoleID, settings, now, cmd.ID)
	if err != nil {
		return fmt.Errorf("tables: update view %d: %w", cmd.ID, err)
	}
	return nil
}

// viewOwner returns the owner and version of a view the caller can see
// (own or shared with them); 404 otherwise.
func (e *Engine) viewOwner(ctx context.Context, q db.Querier, c *caller, id int64) (int64, int64, error) {
	where, args := "v.savedview_id = ? AND (v.user_id = ? OR v.savedview_shared = ?", []any{id, c.userID(), ShareAll}
	if ids := c.roleIDs(); len(ids) > 0 {
		where += " OR (v.savedview_shared = ? AND v.role_id IN (" + placeholders(len(ids)) + "))"
		args = append(args, ShareRole)
		for _, r := range ids {
			args = append(args, r)
		}
	}
	if c.p.IsAdmin() {
		where, args = "v.savedview_id = ? AND (1 = 1", []any{id}
	}
	var owner, version int64
	err := q.QueryRowContext(ctx, "SELECT v.user_id, v.row_version FROM savedview v WHERE "+where+")", args...).Scan(&owner, &version)
	if isNoRows(err) {
		return 0, 0, errNotFound()
	}
	if err != nil {
		return 0, 0, fmt.Errorf("tables: read view %d: %w", id, err)
	}
	return owner, version, nil
}

// DeleteView removes a view of the caller (or any view, for an
// administrator).
func (e *Engine) DeleteView(ctx context.Context, id int64) error {
	c, err := e.callerOf(ctx)
	if err != nil {
		return err
	}
	return e.db.InTx(ctx, func(tx *db.Tx) error {
		owner, _, err := e.viewOwner(ctx, tx, c, id)
		if err != nil {
			return err
		}
		if owner != c.userID() && !c.p.IsAdmin() {
			return apperr.Forbidden("server.tables.view.not_owner")
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM savedview WHERE savedview_id = ?`, id); err != nil {
			return fmt.Errorf("tables: delete view %d: %w", id, err)
		}
		return nil
	})
}
