package events

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"portfolio/internal/db"
	"portfolio/internal/tables"
)

// localBroker: one process (SQLite) — events go straight to the hub, with
// ids "<process epoch>-<n>" so a resume after a restart never matches an
// old id.
type localBroker struct {
	hub   *Hub
	epoch string
	mu    sync.Mutex
	seq   int64
}

func (b *localBroker) publish(_ context.Context, ev Event) error {
	// The id is taken and the event queued under one lock, so ids follow
	// the queue's order.
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	ev.ID = b.epoch + "-" + strconv.FormatInt(b.seq, 10)
	b.hub.accept(ev)
	return nil
}

// channel is the PostgreSQL notification channel of live events.
const channel = "portfolio_events"

// pgBroker: several instances on one PostgreSQL. A write's instance
// notifies after its COMMIT with an id from the event_seq sequence; every
// instance (itself included) listens and hands the events to its hub in
// PostgreSQL's delivery order, the same on every instance.
type pgBroker struct {
	db  *db.DB
	log *slog.Logger
	hub *Hub
	// forget empties this instance's label cache: another instance (or
	// this one) wrote tables.LabelEntity, or notifications may have been
	// missed while the listener was reconnecting.
	forget func()
}

func (b *pgBroker) publish(ctx context.Context, ev Event) error {
	payload, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	_, err = b.db.ExecContext(ctx, `SELECT pg_notify('`+channel+`', nextval('event_seq')::text || ' ' || ?)`, string(payload))
	if err != nil {
		return fmt.Errorf("events: notify: %w", err)
	}
	return nil
}

// listen receives the notifications until ctx ends, reconnecting after a
// lost connection (events sent meanwhile are lost to this instance: its
// watchers' resumes then miss their id and reload).
func (b *pgBroker) listen(ctx context.Context) {
	pool, err := b.db.OpenPgxPool(ctx, 1)
	if err != nil {
		b.log.Error("events: listener pool", "error", err)
		return
	}
	defer pool.Close()
	for ctx.Err() == nil {
		if err := b.listenOnce(ctx, pool); err != nil && ctx.Err() == nil {
			b.log.Warn("events: listener lost its connection; reconnecting", "error", err)
			select {
			case <-ctx.Done():
			case <-time.After(time.Second):
			}
		}
	}
}

func (b *pgBroker) listenOnce(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "LISTEN "+channel); err != nil {
		return err
	}
	if b.forget != nil {
		b.forget() // a label edit may have gone by while not listening
	}
	for {
		n, err := conn.Conn().WaitForNotification(ctx)
		if err != nil {
			return err
		}
		id, payload, ok := strings.Cut(n.Payload, " ")
		var ev Event
		if !ok || json.Unmarshal([]byte(payload), &ev) != nil {
			b.log.Error("events: malformed notification", "payload", n.Payload)
			continue
		}
		ev.ID = id
		if ev.Entity == tables.LabelEntity && b.forget != nil {
			b.forget()
			if !b.hub.published[ev.Entity] {
				continue
			}
		}
		b.hub.accept(ev)
	}
}
