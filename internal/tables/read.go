package tables

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"portfolio/internal/access"
	"portfolio/internal/db"
	"portfolio/internal/schema"
)

// ReadQuery asks for one record.
type ReadQuery struct {
	Entity string
	ID     int64
	// Lang is the language of the served definitions.
	Lang string
}

// ReadAnswer is one record with its entity's served definition: the row
// as a list row carries it (stored fields, labels, computed fields,
// row_version, and the fields stored through relations with their labels:
// arrays of ids and of labels; a single select stored through a relation
// is one id).
type ReadAnswer struct {
	Data       json.RawMessage              `json:"data"`
	Attributes []schema.AttributeDefinition `json:"attributes"`
	Relations  []schema.RelationDefinition  `json:"relations"`
}

// Read answers one record the caller may read; a row outside the caller's
// tenant answers 404 like a missing one.
func (e *Engine) Read(ctx context.Context, q ReadQuery) (*ReadAnswer, error) {
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
	row, err := e.readRow(ctx, e.db, c, ent, q.ID)
	if err != nil {
		return nil, err
	}
	def, err := e.definition(ctx, ent, q.Lang)
	if err != nil {
		return nil, err
	}
	return &ReadAnswer{Data: row, Attributes: def.Attributes, Relations: def.Relations}, nil
}

// readRow renders record id of ent as JSON, through the list machinery
// (same columns, same scope); 404 when the caller cannot see it.
func (e *Engine) readRow(ctx context.Context, q db.Querier, c *caller, ent *schema.Entity, id int64) (json.RawMessage, error) {
	cur, err := e.openOne(ctx, q, c, ent, id)
	if err != nil {
		return nil, err
	}
	defer cur.Close()
	if !cur.Next() {
		if err := cur.Err(); err != nil {
			return nil, err
		}
		return nil, errNotFound()
	}
	row := cur.AppendJSON(nil)
	if err := cur.Err(); err != nil {
		return nil, err
	}
	cur.Close()
	return row, nil
}

// openOne opens a cursor over record id of ent with every column.
func (e *Engine) openOne(ctx context.Context, q db.Querier, c *caller, ent *schema.Entity, id int64) (*Cursor, error) {
	t := &target{ent: ent, cat: e.cats[ent.Name]}
	p := &listPlan{t: t, limit: 1,
		filter: &Node{kind: nodeCond, field: ent.PK, op: OpEq, value: json.Number(strconv.FormatInt(id, 10))}}
	if err := p.resolveOrder("", ""); err != nil {
		return nil, err
	}
	if err := p.resolveColumns(nil); err != nil {
		return nil, err
	}
	return e.open(ctx, q, c, p, false)
}

// throughIDs reads the ids a multi-select stored through a relation holds.
func (e *Engine) throughIDs(ctx context.Context, q db.Querier, ent *schema.Entity, f *schema.Field, id int64) ([]int64, error) {
	l, own, other, err := e.throughLink(ent, f)
	if err != nil {
		return nil, err
	}
	rows, err := q.QueryContext(ctx, "SELECT "+col("l", other.Column)+" FROM "+ident(l.Table)+" l WHERE "+
		col("l", own.Column)+" = ? ORDER BY "+col("l", other.Column), id)
	if err != nil {
		return nil, fmt.Errorf("tables: read %s.%s: %w", ent.Name, f.Name, err)
	}
	defer rows.Close()
	ids := []int64{}
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("tables: scan %s.%s: %w", ent.Name, f.Name, err)
		}
		ids = append(ids, v)
	}
	return ids, rows.Err()
}

// throughLink returns the link table of a field stored through a relation.
func (e *Engine) throughLink(ent *schema.Entity, f *schema.Field) (*schema.Link, schema.LinkEnd, schema.LinkEnd, error) {
	return throughRelation(e.reg, ent, f)
}
