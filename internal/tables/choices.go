package tables

import (
	"context"
	"fmt"

	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// What a caller may write into a list (reference) field. A value must name
// a row the caller can see (checkRefs: 422 unknown_reference, the same as a
// missing row) and, beyond that, one of the field's choices for the record
// being written (422 validation.not_available):
//
//   - the field's OptionsWhere narrowing by sibling fields (a point of sale's
//     contact person belongs to its company; a contract's location is linked
//     to its point of sale; a narrowing by an empty sibling offers nothing);
//   - the limits the modules' choice rules set for the caller (OnChoices:
//     external users' locked customer group, partner group and teams, the
//     ticket limits of non-director external users).
//
// The same conditions count for options_filled and the options action. On
// create, the fields a rule pre-fills are filled (prefill); a value the
// request names that differs is refused, never silently replaced, as for
// every other field.

// ruleLimits combines what the registered choice rules decide for list
// field f of ent (target: the referenced entity): conditions on the target
// rows (aliased t), the pre-filled value (0: none), and ok false when the
// caller may choose nothing.
func (e *Engine) ruleLimits(c *caller, ent *schema.Entity, f *schema.Field, target *schema.Entity) ([]frag, int64, bool, error) {
	if c.p == nil || len(e.choiceRules) == 0 {
		return nil, 0, true, nil
	}
	q := ChoiceQuery{Caller: c.p, Entity: ent, Field: f, Target: target}
	var limits []ChoiceLimit
	for _, rule := range e.choiceRules[ent.Name] {
		if l := rule(q); !l.IsZero() {
			limits = append(limits, l)
		}
	}
	if len(limits) == 0 {
		for _, rule := range e.choiceRules[""] {
			limits = append(limits, rule(q))
		}
	}
	var conds []frag
	var prefill int64
	for _, l := range limits {
		if l.None {
			return nil, 0, false, nil
		}
		for _, m := range l.Where {
			fr, err := matchFrag(target, m)
			if err != nil {
				return nil, 0, false, fmt.Errorf("tables: choice rule on %s.%s: %w", ent.Name, f.Name, err)
			}
			conds = append(conds, fr)
		}
		if prefill == 0 {
			prefill = l.Prefill
		}
	}
	return conds, prefill, true, nil
}

// matchFrag renders m on the target row aliased t; the column must be one
// of the target's stored columns (identifiers come only from definitions).
func matchFrag(target *schema.Entity, m Match) (frag, error) {
	if m.Column != target.PK {
		f, ok := target.Field(m.Column)
		if !ok || !f.Stored() {
			return frag{}, fmt.Errorf("%q is not a column of %s", m.Column, target.Name)
		}
	}
	switch len(m.Values) {
	case 0:
		return frag{sql: "1 = 0"}, nil
	case 1:
		return frag{sql: col("t", m.Column) + " = ?", args: m.Values}, nil
	}
	return frag{sql: col("t", m.Column) + " IN (" + placeholders(len(m.Values)) + ")", args: m.Values}, nil
}

// choiceConds returns the conditions a row of f's target (aliased t) must
// meet to be a choice of list field f of ent for the caller and record
// rec, besides being visible: the field's OptionsWhere and the choice
// rules. ok is false when there is no choice at all.
func (e *Engine) choiceConds(c *caller, ent *schema.Entity, f *schema.Field, target *schema.Entity, rec validate.Record) ([]frag, bool, error) {
	narrow, ok, err := e.optionConds(ent, f, target, rec)
	if err != nil || !ok {
		return nil, false, err
	}
	limits, _, ok, err := e.ruleLimits(c, ent, f, target)
	if err != nil || !ok {
		return nil, false, err
	}
	return append(narrow, limits...), true, nil
}

// lockedValue is the value the choice rules pre-fill list field f of ent
// with on create for the caller; ok is false when f is not pre-filled.
func (e *Engine) lockedValue(c *caller, ent *schema.Entity, f *schema.Field) (int64, bool, error) {
	if f.Ref == "" {
		return 0, false, nil
	}
	target, ok := e.reg.Entity(f.Ref)
	if !ok {
		return 0, false, nil
	}
	_, v, _, err := e.ruleLimits(c, ent, f, target)
	return v, v > 0, err
}

// prefill fills the empty locked fields of a new record (lockedValue) that
// the caller may write on create. It runs after the refusals and before
// the fields not shown are emptied, so a locked field that does not apply
// to the record is stored empty as usual.
func (e *Engine) prefill(c *caller, ch *change) error {
	if !ch.creating {
		return nil
	}
	for _, f := range ch.fields {
		if f.Internal || !f.Writable() || f.HiddenOnCreate || !(f.Stored() || f.Through != "") || !validate.Empty(ch.rec[f.Name]) {
			continue
		}
		v, ok, err := e.lockedValue(c, ch.ent, f)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if f.Through != "" {
			ch.rec[f.Name] = []int64{v}
			ch.given[f.Name] = true // stored like a named multi-select
			continue
		}
		ch.rec[f.Name] = v
	}
	return nil
}

// checkChoice refuses (422 validation.not_available) a value of list field
// f that is not one of its choices for the caller and the record. Only the
// ids the write adds are checked, or all of them when a sibling the field
// is narrowed by changes: a value someone else chose stays as long as the
// record around it does.
func (e *Engine) checkChoice(ctx context.Context, q db.Querier, c *caller, ch *change, f *schema.Field, target *schema.Entity) error {
	ids := e.addedIDs(ch, f, narrowedByChange(ch, f))
	if len(ids) == 0 {
		return nil
	}
	conds, ok, err := e.choiceConds(c, ch.ent, f, target, ch.rec)
	if err != nil {
		return err
	}
	if !ok {
		ch.fail(f.Name, "validation.not_available", "not_available", nil)
		return nil
	}
	if len(conds) == 0 {
		return nil
	}
	for _, id := range ids {
		w := and(append([]frag{{sql: col("t", target.PK) + " = ?", args: []any{id}}}, conds...)...)
		var one int
		err := q.QueryRowContext(ctx, "SELECT 1 FROM "+ident(target.Table)+" t WHERE "+w.sql, w.args...).Scan(&one)
		if isNoRows(err) {
			ch.fail(f.Name, "validation.not_available", "not_available", nil)
			return nil
		}
		if err != nil {
			return fmt.Errorf("tables: choices of %s.%s: %w", ch.ent.Name, f.Name, err)
		}
	}
	return nil
}

// narrowedByChange reports whether an update changes a sibling that f's
// OptionsWhere narrows by.
func narrowedByChange(ch *change, f *schema.Field) bool {
	for _, m := range f.OptionsWhere {
		if m.Source != "" && !validate.Equal(ch.rec[m.Source], ch.stored[m.Source]) {
			return true
		}
	}
	return false
}

// idsOf reads the ids of a canonical list value (one id or a list).
func idsOf(v any) []int64 {
	switch x := v.(type) {
	case int64:
		return []int64{x}
	case []int64:
		return x
	}
	return nil
}
