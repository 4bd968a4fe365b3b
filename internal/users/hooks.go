package users

import (
	"context"
	"strings"

	"portfolio/internal/auth"
	"portfolio/internal/tables"
)

// registerHooks adds the users module's rules to the engine: how a user
// row is stored, whatever writes it, and what external users may choose.
func registerHooks(e *tables.Engine) {
	e.OnWrite("user", tables.HookFunc(storeUser))
	e.OnChoices("", externalChoices)
}

// storeUser keeps user_email_normalized in step with user_email and hashes
// user_password (argon2id) before it is stored, as internal/auth does.
func storeUser(_ context.Context, w *tables.WriteContext) error {
	if v, ok := w.Values["user_email"]; ok {
		email, _ := v.(string)
		w.Values["user_email"] = strings.TrimSpace(email)
		w.Values["user_email_normalized"] = strings.ToLower(strings.TrimSpace(email))
	}
	if v, ok := w.Values["user_password"]; ok {
		pw, _ := v.(string)
		if pw == "" {
			delete(w.Values, "user_password")
			return nil
		}
		hash, err := auth.HashPassword(pw)
		if err != nil {
			return err
		}
		w.Values["user_password"] = hash
	}
	return nil
}

// externalChoices is the rule of section 6 for external users: "External
// users get team, customer group and partner group fields pre-filled and
// locked; team options are limited to their own teams". A customer group
// field of an external client holds the caller's customer group, a partner
// group field of an external partner the caller's partner group, a team
// field one of the caller's own teams (pre-filled when there is only one).
// A team's own parent team is not a membership choice: its definition
// narrows it to internal teams.
func externalChoices(q tables.ChoiceQuery) tables.ChoiceLimit {
	p := q.Caller
	if !p.External {
		return tables.ChoiceLimit{}
	}
	only := func(id int64) tables.ChoiceLimit {
		return tables.ChoiceLimit{Where: []tables.Match{{Column: q.Target.PK, Values: []any{id}}}, Prefill: id}
	}
	switch {
	case q.Target.Name == "customergroup" && p.CustomergroupID > 0:
		return only(p.CustomergroupID)
	case q.Target.Name == "partnergroup" && p.PartnergroupID > 0:
		return only(p.PartnergroupID)
	case q.Target.Name == "team" && q.Entity.Name != "team":
		own := p.TeamIDs()
		if len(own) == 0 {
			return tables.ChoiceLimit{None: true}
		}
		values := make([]any, len(own))
		for i, id := range own {
			values[i] = id
		}
		l := tables.ChoiceLimit{Where: []tables.Match{{Column: q.Target.PK, Values: values}}}
		if len(own) == 1 {
			l.Prefill = own[0]
		}
		return l
	}
	return tables.ChoiceLimit{}
}
