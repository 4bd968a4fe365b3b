// Package tickets is the ticket module: the rules every write of a ticket
// follows (deadlines from the board's default values, the column of the
// ticket's own board, quality gates, stamps, the column's team, the
// timeline), the ticket calls of the specification (slims, create, update,
// the kanban boards, the filtered list) and the section 6 limit on
// non-director external users' tickets.
package tickets

import (
	"context"
	"log/slog"
	"time"

	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/platform/clock"
	"portfolio/internal/tables"
)

// entity is the engine entity of tickets.
const entity = "ticket"

// internTeam is the team_type of internal teams.
const internTeam = "intern"

// Service answers the ticket calls and holds the ticket rules.
type Service struct {
	db     *db.DB
	engine *tables.Engine
	log    *slog.Logger
	now    func() time.Time
	// stamp makes stamped copies of a ticket's documents (OnStamp).
	stamp Stamper
	// commented is told about a new comment on a ticket (OnCommented).
	commented func(ticket int64)
}

// Stamper makes stamped copies of ticket's documents in the ticket's
// write transaction and answers how many it stamped (the documents
// module, wired by app).
type Stamper func(ctx context.Context, tx *db.Tx, ticket int64) (int, error)

// OnStamp sets what stamps a ticket's documents when it enters a stamp
// column; without it the stamp is only recorded on the timeline.
func (s *Service) OnStamp(f Stamper) { s.stamp = f }

// Deps are what a Service is built from; Now defaults to time.Now.
type Deps struct {
	DB     *db.DB
	Engine *tables.Engine
	Log    *slog.Logger
	Now    func() time.Time
}

// New returns the ticket service and registers its rules with the engine.
func New(d Deps) *Service {
	if d.Now == nil {
		d.Now = clock.Now
	}
	s := &Service{db: d.DB, engine: d.Engine, log: d.Log, now: d.Now}
	d.Engine.OnChoices(entity, limitExternalTickets)
	d.Engine.OnWrite(entity, &rules{s: s})
	// The board rule in every generic read (decision 0027): a board and
	// its tickets are seen only through a column of one's team.
	d.Engine.OnRows("board", boardRows)
	d.Engine.OnRows(entity, boardRows)
	return s
}

// Bind registers the ticket routes.
func Bind(srv *httpapi.Server, s *Service) {
	h := &handler{s: s, log: srv.Logger()}
	srv.Handle("GET /tickets/slims", h.slims)
	srv.Handle("POST /tickets", h.create)
	srv.Handle("PUT /tickets/update", h.update)
	srv.Handle("GET /tickets/kanban/user", h.kanban)
	srv.Handle("POST /tickets/comment", h.comment)
	srv.Handle("GET /tickets", h.list)
}

// system is ctx acting as the system, for reading the boards'
// configuration (columns, document types, default values: global rows
// that decide the rules for everyone, whether or not the caller may list
// them).
func system(ctx context.Context) context.Context {
	return tables.AsSystem(auth.WithPrincipal(ctx, nil))
}

// limitExternalTickets: "in the ticket tab of a point of sale, non-director
// external client users are limited to internal non-customer teams and
// themselves". A ticket's team is then an internal team (never pre-filled)
// and its user fields name the caller. It replaces the general limits of
// external users on those fields (tables.Engine.OnChoices).
func limitExternalTickets(q tables.ChoiceQuery) tables.ChoiceLimit {
	p := q.Caller
	if !limited(p) {
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

// limited reports whether p is a non-director external user, whom
// section 6 limits to internal teams and themselves on tickets.
func limited(p *auth.Principal) bool { return p.External && !p.IsDirector }
