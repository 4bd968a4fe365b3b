package tables

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// LinkCommand adds or ends a many-to-many link of one record: Relation is
// the API name (pos_tag_rel), OwnerID the record (0: named in Data by the
// owner's key, pos_id), Data the other end's key (tag_id) and, to add, the
// link's attributes; to end a link whose pairs repeat, Data may name the
// link's own key instead.
type LinkCommand struct {
	Relation string
	OwnerID  int64
	Data     map[string]any
}

// linkTarget resolves a link command: the relation must be many-to-many,
// the caller may update the tab (caller.requireTab), and the owner is
// visible, read through q (the write's transaction, so an owner created
// earlier in it counts).
func (e *Engine) linkTarget(ctx context.Context, q db.Querier, c *caller, cmd *LinkCommand) (*target, schema.LinkEnd, schema.LinkEnd, error) {
	t, err := e.resolveTarget(cmd.Relation)
	if err != nil {
		return nil, schema.LinkEnd{}, schema.LinkEnd{}, err
	}
	if t.rel == nil || t.link == nil {
		return nil, schema.LinkEnd{}, schema.LinkEnd{}, apperr.Validation(apperr.FieldError{Field: "entity",
			Key: "server.tables.not_linkable", Type: "value_error", Args: map[string]string{"field": "entity"}})
	}
	if err := c.requireTab(access.ActionUpdate, t); err != nil {
		return nil, schema.LinkEnd{}, schema.LinkEnd{}, err
	}
	if cmd.OwnerID == 0 {
		id, err := idValue(cmd.Data[t.owner.PK])
		if err != nil {
			return nil, schema.LinkEnd{}, schema.LinkEnd{}, apperr.Validation(apperr.FieldError{Field: "id",
				Key: "validation.required", Type: "missing", Args: map[string]string{"field": "id"}})
		}
		cmd.OwnerID = id
		rest := make(map[string]any, len(cmd.Data))
		for k, v := range cmd.Data {
			if k != t.owner.PK {
				rest[k] = v
			}
		}
		cmd.Data = rest
	}
	if err := e.mustSee(ctx, q, c.writer(), t.owner, cmd.OwnerID); err != nil {
		return nil, schema.LinkEnd{}, schema.LinkEnd{}, err
	}
	own, other, _ := t.link.End(t.owner.Name)
	return t, own, other, nil
}

// Link adds a link with its attributes, validated like a record (valid_to
// not before valid_from, required attributes, references the caller can
// see), in one transaction with its history on the owner (LinkIn).
func (e *Engine) Link(ctx context.Context, cmd LinkCommand) (*WriteAnswer, error) {
	var out json.RawMessage
	err := e.db.InTx(ctx, func(tx *db.Tx) error {
		var err error
		out, err = e.LinkIn(ctx, tx, cmd)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &WriteAnswer{Data: out}, nil
}

// linkRecord builds and checks the values of a new link row. It answers
// the row as it will be stored and the values as sent (sent: before the
// definitions' show rules emptied the attributes that do not apply), for
// the relation's link hook.
func (e *Engine) linkRecord(ctx context.Context, tx *db.Tx, c *caller, t *target, own, other schema.LinkEnd,
	cmd LinkCommand, labels *messageTexts) (rec, sent validate.Record, err error) {
	key := &schema.Field{Name: other.Column, Type: schema.TypeID, Kind: schema.KindList, Ref: other.Entity}
	fields := []*schema.Field{key}
	for i := range t.link.Attrs {
		fields = append(fields, &t.link.Attrs[i])
	}
	fake := &schema.Entity{Name: t.link.Table, PK: own.Column}
	ch := &change{ent: fake, fields: fields, creating: true, rec: validate.Record{}, given: map[string]bool{}, labels: labels,
		anchors: []anchor{{field: own.Column, entity: t.owner}}}
	ch.applyTo(fields, cmd.Data)
	if validate.Empty(ch.rec[other.Column]) {
		ch.fail(other.Column, "validation.required", "missing", nil)
	}
	if err := ch.err(); err != nil {
		return nil, nil, err
	}
	sent = make(validate.Record, len(ch.rec))
	for k, v := range ch.rec {
		sent[k] = v
	}
	ch.rec[own.Column] = cmd.OwnerID
	ch.fill()
	env := &validate.Env{Creating: true, Today: e.today(), Label: ch.label, Text: labels.ruleText,
		OptionsFilled: e.optionsFilled(ctx, tx, c, fake, fields)}
	if err := ch.hide(env); err != nil {
		return nil, nil, err
	}
	errs, err := validate.Check(fields, ch.rec, env)
	if err != nil {
		return nil, nil, fmt.Errorf("tables: validate link %s: %w", t.link.Table, err)
	}
	ch.errs = append(ch.errs, errs...)
	if err := ch.err(); err != nil {
		return nil, nil, err
	}
	if err := e.checkRefs(ctx, tx, c, ch); err != nil {
		return nil, nil, err
	}
	return ch.rec, sent, nil
}

// applyTo takes the request's values for fields (a link's key and
// attributes): unknown keys and values of the wrong type are refused.
func (ch *change) applyTo(fields []*schema.Field, data map[string]any) {
	for _, k := range sortedKeys(data) {
		f := fieldOf(fields, k)
		if f == nil {
			ch.fail(k, "validation.unknown_field", "extra_forbidden", nil)
			continue
		}
		v, terr := coerceField(f, data[k])
		if terr != nil {
			ch.fail(k, "validation.type."+terr.Expected, "type_error", nil)
			continue
		}
		ch.rec[k], ch.given[k] = v, true
	}
}

func fieldOf(fields []*schema.Field, name string) *schema.Field {
	for _, f := range fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// insertLink stores the link row and answers its columns.
func (e *Engine) insertLink(ctx context.Context, q db.Querier, l *schema.Link, rec validate.Record) (json.RawMessage, error) {
	names := []string{l.Left.Column, l.Right.Column}
	for i := range l.Attrs {
		if !validate.Empty(rec[l.Attrs[i].Name]) {
			names = append(names, l.Attrs[i].Name)
		}
	}
	quoted := make([]string, len(names))
	args := make([]any, len(names))
	for i, n := range names {
		quoted[i], args[i] = ident(n), rec[n]
	}
	stmt := "INSERT INTO " + ident(l.Table) + " (" + strings.Join(quoted, ", ") + ") VALUES (" + placeholders(len(names)) + ")"
	out := map[string]any{}
	if l.ID != "" {
		var id int64
		if err := q.QueryRowContext(ctx, stmt+" RETURNING "+ident(l.ID), args...).Scan(&id); err != nil {
			return nil, linkError(l, err)
		}
		out[l.ID] = id
	} else if _, err := q.ExecContext(ctx, stmt, args...); err != nil {
		return nil, linkError(l, err)
	}
	for _, n := range names {
		out[n] = historyValue(rec[n])
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("tables: encode link: %w", err)
	}
	return b, nil
}

func linkError(l *schema.Link, err error) error {
	if db.IsUniqueViolation(err) {
		return apperr.Conflict("server.tables.already_linked").Wrap(err)
	}
	if db.IsForeignKeyViolation(err) {
		return apperr.Conflict("server.tables.still_used").Wrap(err)
	}
	return fmt.Errorf("tables: link %s: %w", l.Table, err)
}

// Unlink ends a link in a transaction of its own (UnlinkIn): a link with a
// validity period stops counting today, any other link is deleted.
func (e *Engine) Unlink(ctx context.Context, cmd LinkCommand) error {
	return e.db.InTx(ctx, func(tx *db.Tx) error { return e.UnlinkIn(ctx, tx, cmd) })
}

// linkSelector names the link rows to end: by the link's own key or by the
// other end's key.
func linkSelector(l *schema.Link, other schema.LinkEnd, data map[string]any) (frag, error) {
	for _, k := range []string{l.ID, other.Column} {
		if k == "" {
			continue
		}
		if raw, ok := data[k]; ok {
			id, err := idValue(raw)
			if err != nil {
				break
			}
			return frag{sql: ident(k) + " = ?", args: []any{id}}, nil
		}
	}
	return frag{}, apperr.Validation(apperr.FieldError{Field: other.Column, Key: "validation.required", Type: "missing",
		Args: map[string]string{"field": other.Column}})
}

// endLinks ends the selected links and reports how many it ended. An
// ended link is no longer valid today, so a membership (team, role) taken
// away stops counting on the user's next request: its last valid day
// becomes yesterday, and a link that starts today or later is removed.
func (e *Engine) endLinks(ctx context.Context, q db.Querier, l *schema.Link, where string, args []any) (int64, error) {
	table := ident(l.Table)
	_, hasTo := l.Attr("valid_to")
	if !hasTo {
		return affected(q.ExecContext(ctx, "DELETE FROM "+table+" WHERE "+where, args...))
	}
	today := e.today()
	yesterday := e.now().UTC().AddDate(0, 0, -1).Format("2006-01-02")
	removed := int64(0)
	if _, hasFrom := l.Attr("valid_from"); hasFrom {
		n, err := affected(q.ExecContext(ctx, "DELETE FROM "+table+" WHERE "+where+" AND "+ident("valid_from")+" >= ?", append(args, today)...))
		if err != nil {
			return 0, err
		}
		removed = n
	}
	n, err := affected(q.ExecContext(ctx, "UPDATE "+table+" SET "+ident("valid_to")+" = ? WHERE "+where+
		" AND ("+ident("valid_to")+" IS NULL OR "+ident("valid_to")+" >= ?)", append(append([]any{yesterday}, args...), today)...))
	return removed + n, err
}

func affected(res interface{ RowsAffected() (int64, error) }, err error) (int64, error) {
	if err != nil {
		return 0, fmt.Errorf("tables: end link: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("tables: end link: %w", err)
	}
	return n, nil
}
