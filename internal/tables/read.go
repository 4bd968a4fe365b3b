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
// row_version) plus the multi-selects stored through relations (arrays of
// ids; a single select stored through a relation is one id).
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
	if err := c.require(access.ActionRead, ent); err != nil {
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
	return e.appendThrough(ctx, q, ent, id, row)
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

// appendThrough adds the values of fields stored through relations to the
// JSON object row.
func (e *Engine) appendThrough(ctx context.Context, q db.Querier, ent *schema.Entity, id int64, row []byte) (json.RawMessage, error) {
	for i := range ent.Fields {
		f := &ent.Fields[i]
		if f.Through == "" || !readable(f) {
			continue
		}
		ids, err := e.throughIDs(ctx, q, ent, f, id)
		if err != nil {
			return nil, err
		}
		var v any = ids
		if !f.Multiple {
			v = nil
			if len(ids) > 0 {
				v = ids[0]
			}
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("tables: encode %s: %w", f.Name, err)
		}
		row = append(row[:len(row)-1], ',')
		row = append(appendString(row, []byte(f.Name)), ':')
		row = append(append(row, b...), '}')
	}
	return row, nil
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
	rel, ok := ent.Relation(f.Through)
	if !ok {
		return nil, schema.LinkEnd{}, schema.LinkEnd{}, fmt.Errorf("tables: %s.%s: no relation %s", ent.Name, f.Name, f.Through)
	}
	l, ok := e.reg.Link(rel.Link)
	if !ok {
		return nil, schema.LinkEnd{}, schema.LinkEnd{}, fmt.Errorf("tables: relation %s has no link", rel.Name)
	}
	own, other, _ := l.End(ent.Name)
	return l, own, other, nil
}
