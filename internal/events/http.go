package events

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/httpapi"
)

// Principals are how the stream learns who it serves: the bearer token of
// the request (Authenticate) or the user of a redeemed stream ticket
// (PrincipalOf).
type Principals interface {
	Authenticate(r *http.Request) (context.Context, error)
	PrincipalOf(ctx context.Context, userID int64) (*auth.Principal, error)
	// EndedSessions are those of sessions that may no longer be used
	// (logged out, locked, password changed, expired, gone).
	EndedSessions(ctx context.Context, sessions []string) (map[string]bool, error)
	// LivePrincipals are the principals of the sessions still usable, as
	// read now.
	LivePrincipals(ctx context.Context, sessions []string) (map[string]*auth.Principal, error)
}

// Bind registers GET /events and POST /events/ticket.
func Bind(srv *httpapi.Server, h *Hub, ps Principals) {
	x := &handler{h: h, ps: ps, now: time.Now}
	h.watchSessions(ps.LivePrincipals)
	srv.Handle("POST /events/ticket", x.ticket)
	// The stream authenticates itself: a bearer header or a stream ticket,
	// never an access token in the URL.
	srv.Handle("GET /events", x.stream, httpapi.Public())
}

type handler struct {
	h   *Hub
	ps  Principals
	now func() time.Time
}

// ticket serves POST /events/ticket: a single-use ticket that opens the
// stream within 60 seconds as the caller.
func (x *handler) ticket(w http.ResponseWriter, r *http.Request) error {
	p, ok := auth.PrincipalFrom(r.Context())
	if !ok {
		return apperr.Unauthorized("server.auth.not_authenticated")
	}
	t, err := x.h.issueTicket(r.Context(), p.UserID, p.SessionID, x.now())
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"ticket": t, "expires_in": int(TicketTTL / time.Second)})
	return nil
}

// principal authenticates a stream request.
func (x *handler) principal(r *http.Request) (*auth.Principal, error) {
	q := r.URL.Query()
	if q.Has("authorization") || q.Has("Authorization") {
		return nil, apperr.Unauthorized("server.auth.not_authenticated") // no access tokens in URLs here
	}
	if t := q.Get("ticket"); t != "" {
		user, session, err := x.h.redeemTicket(r.Context(), t, x.now())
		if err != nil {
			return nil, err
		}
		// A ticket of a session that ended since opens nothing.
		ended, err := x.ps.EndedSessions(r.Context(), []string{session})
		if err != nil {
			return nil, err
		}
		if ended[session] {
			return nil, apperr.Unauthorized("server.events.ticket_invalid")
		}
		p, err := x.ps.PrincipalOf(r.Context(), user)
		if err != nil {
			return nil, apperr.Unauthorized("server.events.ticket_invalid").Wrap(err)
		}
		p.SessionID = session
		return p, nil
	}
	ctx, err := x.ps.Authenticate(r)
	if err != nil {
		return nil, err
	}
	p, _ := auth.PrincipalFrom(ctx)
	return p, nil
}

// stream serves GET /events: the events the caller may see, as
// Server-Sent Events, from Last-Event-ID on when it is still kept (else
// first an event "reset": reload what you show), with heartbeat comments,
// until the client leaves, the stream's lifetime ends or the server shuts
// down.
func (x *handler) stream(w http.ResponseWriter, r *http.Request) error {
	p, err := x.principal(r)
	if err != nil {
		return err
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		return fmt.Errorf("events: the response cannot stream")
	}
	ctx := r.Context()
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		// EventSource sends the header only when it reconnects by itself;
		// a client opening a new stream (with a new ticket) names it here.
		last = r.URL.Query().Get("last_event_id")
	}
	if last != "" {
		// An id this server did not seal resumes nothing: the client
		// reloads (event "reset").
		id, ok := x.h.ids.open(last)
		if !ok {
			id = "unknown"
		}
		last = id
	}
	wt, missed, resumed, err := x.h.watch(ctx, p, last)
	if err != nil {
		return err
	}
	defer x.h.unwatch(wt)
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache, no-transform")
	hd.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if _, err := fmt.Fprint(w, "retry: 2000\n\n"); err != nil {
		return nil
	}
	if last != "" && !resumed {
		if _, err := fmt.Fprint(w, "event: reset\ndata: {}\n\n"); err != nil {
			return nil
		}
	}
	for _, ev := range missed {
		if err := writeEvent(w, x.h.ids, ev); err != nil {
			return nil
		}
	}
	flusher.Flush()
	beat := time.NewTicker(x.h.opts.Heartbeat)
	defer beat.Stop()
	end := time.NewTimer(x.h.opts.Lifetime)
	defer end.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-wt.ended:
			return nil
		case <-end.C:
			return nil
		case <-beat.C:
			if _, err := fmt.Fprint(w, ": ping\n\n"); err != nil {
				return nil
			}
			flusher.Flush()
		case ev := <-wt.ch:
			if err := writeEvent(w, x.h.ids, ev); err != nil {
				return nil
			}
			// Send what else is queued before flushing once.
			for more := true; more; {
				select {
				case ev := <-wt.ch:
					if err := writeEvent(w, x.h.ids, ev); err != nil {
						return nil
					}
				default:
					more = false
				}
			}
			flusher.Flush()
		}
	}
}

// writeEvent writes one SSE message: the id, sealed, and the JSON event
// with it.
func writeEvent(w http.ResponseWriter, ids *idSealer, ev Event) error {
	ev.ID = ids.seal(ev.ID)
	b, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "id: %s\ndata: %s\n\n", ev.ID, b)
	return err
}
