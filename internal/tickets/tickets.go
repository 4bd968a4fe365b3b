// Package tickets holds the ticket domain's rules. Today that is the limit
// section 6 puts on non-director external users' tickets; the kanban
// boards, deadlines and the ticket dashboard will live here too.
package tickets

import "portfolio/internal/tables"

// entity is the engine entity of tickets.
const entity = "ticket"

// internTeam is the team_type of internal teams.
const internTeam = "intern"

// Register adds the ticket rules to the engine.
func Register(e *tables.Engine) {
	e.OnChoices(entity, limitExternalTickets)
}

// limitExternalTickets: "in the ticket tab of a point of sale, non-director
// external client users are limited to internal non-customer teams and
// themselves". A ticket's team is then an internal team (never pre-filled)
// and its user fields name the caller. It replaces the general limits of
// external users on those fields (tables.Engine.OnChoices).
func limitExternalTickets(q tables.ChoiceQuery) tables.ChoiceLimit {
	p := q.Caller
	if !p.External || p.IsDirector {
		return tables.ChoiceLimit{}
	}
	switch q.Target.Name {
	case "team":
		return tables.ChoiceLimit{Where: []tables.Match{{Column: "team_type", Values: []any{internTeam}}}}
	case "user":
		return tables.ChoiceLimit{Where: []tables.Match{{Column: q.Target.PK, Values: []any{p.UserID}}}}
	}
	return tables.ChoiceLimit{}
}
