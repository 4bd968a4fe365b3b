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
//     contact person belongs to its company; a narrowing by an empty sibling
//     offers nothing);
//   - the limits of external callers (section 6: "External users get team,
//     customer group and partner group fields pre-filled and locked; team
//     options are limited to their own teams"): a customer group field of an
//     external client holds the caller's customer group, a partner group
//     field of an external partner the caller's partner group, a team field
//     one of the caller's own teams;
//   - tickets of non-director external users ("in the ticket tab of a point
//     of sale, non-director external client users are limited to internal
//     non-customer teams and themselves"): a ticket's team is an internal
//     team (team_type intern), its user fields name the caller.
//
// The same conditions count for options_filled. On create, the locked
// fields are pre-filled (prefill); a value the request names that differs
// is refused, never silently replaced, as for every other field.

// typeInternTeam is the team_type of internal teams.
const typeInternTeam = "intern"

// ticketLimited reports whether the caller's writes to rows of ent fall
// under the ticket limit of non-director external users.
func ticketLimited(c *caller, ent *schema.Entity) bool {
	return ent.Name == "ticket" && c.p != nil && c.p.External && !c.p.IsDirector
}

// teamField reports whether f of ent is a team field the caller's own teams
// limit: a reference to team from another entity (a team's parent team is
// narrowed by its own OptionsWhere to internal teams, not by the caller).
func teamField(ent *schema.Entity, f *schema.Field) bool {
	return f.Ref == "team" && ent.Name != "team"
}

// callerConds returns the caller's limits on the rows of target (aliased t)
// that list field f of ent may name; ok is false when the caller may name
// none. Internal callers have no limits.
func callerConds(c *caller, ent *schema.Entity, f *schema.Field, target *schema.Entity) ([]frag, bool) {
	if c.p == nil || !c.p.External {
		return nil, true
	}
	is := func(id int64) frag { return frag{sql: col("t", target.PK) + " = ?", args: []any{id}} }
	switch {
	case target.Name == "customergroup" && c.p.CustomergroupID > 0:
		return []frag{is(c.p.CustomergroupID)}, true
	case target.Name == "partnergroup" && c.p.PartnergroupID > 0:
		return []frag{is(c.p.PartnergroupID)}, true
	case target.Name == "team" && teamField(ent, f) && ticketLimited(c, ent):
		return []frag{{sql: col("t", "team_type") + " = ?", args: []any{typeInternTeam}}}, true
	case target.Name == "team" && teamField(ent, f):
		own := c.p.TeamIDs()
		if len(own) == 0 {
			return nil, false
		}
		args := make([]any, len(own))
		for i, id := range own {
			args[i] = id
		}
		return []frag{{sql: col("t", target.PK) + " IN (" + placeholders(len(own)) + ")", args: args}}, true
	case target.Name == "user" && ticketLimited(c, ent):
		return []frag{is(c.p.UserID)}, true
	}
	return nil, true
}

// choiceConds returns the conditions a row of f's target (aliased t) must
// meet to be a choice of list field f of ent for the caller and record
// rec, besides being visible: the field's OptionsWhere and the caller's
// limits. ok is false when there is no choice at all.
func choiceConds(c *caller, ent *schema.Entity, f *schema.Field, target *schema.Entity, rec validate.Record) ([]frag, bool) {
	narrow, ok := optionConds(f, target, rec)
	if !ok {
		return nil, false
	}
	limits, ok := callerConds(c, ent, f, target)
	if !ok {
		return nil, false
	}
	return append(narrow, limits...), true
}

// lockedValue is the value an external caller's locked field f of ent is
// pre-filled with on create: the caller's customer group or partner group,
// or the caller's only team. ok is false when f is not pre-filled.
func lockedValue(c *caller, ent *schema.Entity, f *schema.Field) (int64, bool) {
	if c.p == nil || !c.p.External {
		return 0, false
	}
	switch {
	case f.Ref == "customergroup" && c.p.CustomergroupID > 0:
		return c.p.CustomergroupID, true
	case f.Ref == "partnergroup" && c.p.PartnergroupID > 0:
		return c.p.PartnergroupID, true
	case teamField(ent, f) && !ticketLimited(c, ent) && len(c.p.Teams) == 1:
		return c.p.Teams[0].ID, true
	}
	return 0, false
}

// prefill fills the empty locked fields of a new record (lockedValue) that
// the caller may write on create. It runs after the refusals and before
// the fields not shown are emptied, so a locked field that does not apply
// to the record is stored empty as usual.
func (ch *change) prefill(c *caller) {
	if !ch.creating {
		return
	}
	for _, f := range ch.fields {
		if f.Internal || !f.Writable() || f.HiddenOnCreate || !(f.Stored() || f.Through != "") || !validate.Empty(ch.rec[f.Name]) {
			continue
		}
		v, ok := lockedValue(c, ch.ent, f)
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
}

// checkChoice refuses (422 validation.not_available) a value of list field
// f that is not one of its choices for the caller and the record. Only the
// ids the write adds are checked, or all of them when a sibling the field
// is narrowed by changes: a value someone else chose stays as long as the
// record around it does.
func (e *Engine) checkChoice(ctx context.Context, q db.Querier, c *caller, ch *change, f *schema.Field, target *schema.Entity) error {
	ids := idsOf(ch.rec[f.Name])
	if !ch.creating && !narrowedByChange(ch, f) {
		old := idsOf(ch.stored[f.Name])
		kept := ids[:0:0]
		for _, id := range ids {
			if !containsID(old, id) {
				kept = append(kept, id)
			}
		}
		ids = kept
	}
	if len(ids) == 0 {
		return nil
	}
	conds, ok := choiceConds(c, ch.ent, f, target, ch.rec)
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
