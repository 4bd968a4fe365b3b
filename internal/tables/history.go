package tables

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// History types written to trackrecord.trackrecord_type.
const (
	historyCreate = "create"
	historyUpdate = "update"
	historyDelete = "delete"
	historyLink   = "link"
	historyUnlink = "unlink"
)

// record appends one trackrecord row in the write's transaction: what
// (category = entity name, row id), how (type), who, when, and the changed
// fields as {"field": [old, new]}.
func (e *Engine) record(ctx context.Context, q db.Querier, c *caller, typ string, ent *schema.Entity, id int64, changes map[string][2]any) error {
	b, err := json.Marshal(changes)
	if err != nil {
		return fmt.Errorf("tables: encode history of %s %d: %w", ent.Name, id, err)
	}
	_, err = q.ExecContext(ctx, `INSERT INTO trackrecord (trackrecord_timestamp, trackrecord_type, trackrecord_category,
		trackrecord_row_id, trackrecord_changes, trackrecord_comment, user_id) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		e.now().UTC().Truncate(time.Second), typ, ent.Name, id, string(b), nullable(c.note), c.userID())
	if err != nil {
		return fmt.Errorf("tables: write history of %s %d: %w", ent.Name, id, err)
	}
	return nil
}

// HistoryQuery asks for the history of one record.
type HistoryQuery struct {
	Entity string
	ID     int64
	Lang   string
}

// History opens a cursor over the trackrecord rows of one record, newest
// first. Whoever may read the record may read its history (the trackrecord
// table itself is an administrator's list).
func (e *Engine) History(ctx context.Context, q HistoryQuery) (*Cursor, error) {
	c, err := e.callerOf(ctx)
	if err != nil {
		return nil, err
	}
	ent, ok := e.reg.Entity(q.Entity)
	if !ok {
		return nil, errUnknownEntity(q.Entity)
	}
	if err := e.requireRows(c, access.ActionRead, ent); err != nil {
		return nil, err
	}
	if err := e.mustSee(ctx, e.db, c, ent, q.ID); err != nil {
		return nil, err
	}
	tr, _ := e.reg.Entity("trackrecord")
	t := &target{ent: tr, cat: e.cats[tr.Name]}
	p := &listPlan{t: t, limit: MaxPerPage, desc: true, filter: &Node{kind: nodeAnd, kids: []*Node{
		{kind: nodeCond, field: "trackrecord_category", op: OpEq, value: ent.Name},
		{kind: nodeCond, field: "trackrecord_row_id", op: OpEq, value: json.Number(fmt.Sprint(q.ID))},
	}}}
	if err := p.resolveOrder("trackrecord_timestamp", "DESC"); err != nil {
		return nil, err
	}
	if err := p.resolveColumns(nil); err != nil {
		return nil, err
	}
	attrs, err := e.servedAttributes(ctx, t, q.Lang) // before the cursor takes its connection
	if err != nil {
		return nil, err
	}
	cur, err := e.open(ctx, e.db, c, p, false)
	if err != nil {
		return nil, err
	}
	cur.Attributes = attrs
	return cur, nil
}

// TrackEntry is one trackrecord row a module writes beside the history of
// a record: a step of its timeline (a ticket moved to another column, a
// stamp), with its own type, status and comment.
type TrackEntry struct {
	// Type is what happened (move, stamp, ...), Category the entity of
	// the record, RowID its key.
	Type     string
	Category string
	RowID    int64
	// Status is the state reached (a column's name), Comment a sentence
	// for the timeline; Changes, when set, are {"field": [old, new]}.
	Status  string
	Comment string
	Changes map[string][2]any
}

// Track appends e to the track record in the write's transaction q, as the
// acting user of ctx at the engine's time. The module has already checked
// that the record is the caller's to change (it wrote it in q).
func (e *Engine) Track(ctx context.Context, q db.Querier, t TrackEntry) error {
	c, err := e.callerOf(ctx) // a user, or the system (AsSystem: no user)
	if err != nil {
		return err
	}
	if _, err := e.entity(t.Category); err != nil {
		return err
	}
	var changes any
	if t.Changes != nil {
		b, err := json.Marshal(t.Changes)
		if err != nil {
			return fmt.Errorf("tables: encode track entry of %s %d: %w", t.Category, t.RowID, err)
		}
		changes = string(b)
	}
	_, err = q.ExecContext(ctx, `INSERT INTO trackrecord (trackrecord_timestamp, trackrecord_type, trackrecord_category,
		trackrecord_row_id, trackrecord_status, trackrecord_comment, trackrecord_changes, user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		e.now().UTC().Truncate(time.Second), t.Type, t.Category, t.RowID, nullable(t.Status), nullable(t.Comment), changes, c.userID())
	if err != nil {
		return fmt.Errorf("tables: write track entry of %s %d: %w", t.Category, t.RowID, err)
	}
	return nil
}

// nullable stores an empty text as NULL.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
