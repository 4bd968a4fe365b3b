package jobs

import (
	"context"
	"fmt"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"

	"portfolio/internal/db"
)

// backendClient is what the queue uses of a River client; *river.Client
// has these methods whatever its driver's transaction type.
type backendClient interface {
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
	StopAndCancel(ctx context.Context) error
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
	JobGet(ctx context.Context, id int64) (*rivertype.JobRow, error)
	JobList(ctx context.Context, params *river.JobListParams) (*river.JobListResult, error)
	JobRetry(ctx context.Context, id int64) (*rivertype.JobRow, error)
	JobDelete(ctx context.Context, id int64) (*rivertype.JobRow, error)
}

// backend is River's driver on the application's database.
type backend struct {
	newClient func(cfg *river.Config) (backendClient, error)
	migrate   func(ctx context.Context) error
	close     func()
}

// pgxConns bounds the queue's own PostgreSQL connections per instance:
// River's listener holds one, its producer, elector and maintenance take a
// few more.
const pgxConns = 6

// openBackend puts River on d: on SQLite on the very pool the app uses (our
// driver instance: WAL, busy timeout, write transactions that take the
// write lock when they begin), on PostgreSQL on a native pgx pool of the
// same database, since River's PostgreSQL driver speaks pgx.
func openBackend(ctx context.Context, d *db.DB) (*backend, error) {
	switch d.Dialect() {
	case db.SQLite:
		return newBackend(riversqlite.New(d.Pool()), func() {}), nil
	case db.Postgres:
		pool, err := d.OpenPgxPool(context.WithoutCancel(ctx), pgxConns)
		if err != nil {
			return nil, fmt.Errorf("jobs: %w", err)
		}
		return newBackend(riverpgxv5.New(pool), pool.Close), nil
	}
	return nil, fmt.Errorf("jobs: no queue driver for %s", d.Dialect())
}

func newBackend[TTx any](driver riverdriver.Driver[TTx], closeFn func()) *backend {
	return &backend{
		newClient: func(cfg *river.Config) (backendClient, error) {
			return river.NewClient(driver, cfg)
		},
		migrate: func(ctx context.Context) error {
			m, err := rivermigrate.New(driver, nil)
			if err != nil {
				return fmt.Errorf("jobs: migrator: %w", err)
			}
			if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
				return fmt.Errorf("jobs: migrate river tables: %w", err)
			}
			return nil
		},
		close: closeFn,
	}
}
