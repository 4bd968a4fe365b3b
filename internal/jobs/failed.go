package jobs

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// FailedRun is a run of a job that failed for good (River's discarded
// state), for the error dashboard.
type FailedRun struct {
	ID          int64      `json:"id"`
	Name        string     `json:"name"`
	Attempts    int        `json:"attempts"`
	MaxAttempts int        `json:"max_attempts"`
	Error       string     `json:"error"`
	FinishedAt  *time.Time `json:"finished_at"`
}

// ErrNoSuchRun is returned for a run that is not a failed run of a
// registered job.
var ErrNoSuchRun = errors.New("jobs: no such failed run")

// Failed answers the newest failed runs, at most limit.
func (q *Queue) Failed(ctx context.Context, limit int) ([]FailedRun, error) {
	c, err := q.serving(ctx)
	if err != nil {
		return nil, err
	}
	res, err := c.JobList(ctx, river.NewJobListParams().States(rivertype.JobStateDiscarded).
		OrderBy(river.JobListOrderByID, river.SortOrderDesc).First(limit))
	if err != nil {
		return nil, fmt.Errorf("jobs: failed runs: %w", err)
	}
	out := make([]FailedRun, 0, len(res.Jobs))
	for _, row := range res.Jobs {
		out = append(out, FailedRun{ID: row.ID, Name: row.Kind, Attempts: row.Attempt, MaxAttempts: row.MaxAttempts,
			Error: lastError(row), FinishedAt: row.FinalizedAt})
	}
	return out, nil
}

// RetryFailed makes failed run id available again (River adds an attempt
// when the run had used them all).
func (q *Queue) RetryFailed(ctx context.Context, id int64) error {
	c, err := q.failedRun(ctx, id)
	if err != nil {
		return err
	}
	if _, err := c.JobRetry(ctx, id); err != nil {
		return fmt.Errorf("jobs: retry run %d: %w", id, err)
	}
	return nil
}

// DismissFailed deletes failed run id: the dashboard has shown it, the
// job's next scheduled run is unaffected.
func (q *Queue) DismissFailed(ctx context.Context, id int64) error {
	c, err := q.failedRun(ctx, id)
	if err != nil {
		return err
	}
	if _, err := c.JobDelete(ctx, id); err != nil {
		return fmt.Errorf("jobs: dismiss run %d: %w", id, err)
	}
	return nil
}

// failedRun checks that id is a failed run and answers the client.
func (q *Queue) failedRun(ctx context.Context, id int64) (backendClient, error) {
	c, row, err := q.run(ctx, id)
	if err != nil {
		return nil, err
	}
	if row == nil || row.State != rivertype.JobStateDiscarded {
		return nil, ErrNoSuchRun
	}
	return c, nil
}

// run answers the client and run id, nil when there is no such run.
func (q *Queue) run(ctx context.Context, id int64) (backendClient, *rivertype.JobRow, error) {
	c, err := q.serving(ctx)
	if err != nil {
		return nil, nil, err
	}
	row, err := c.JobGet(ctx, id)
	if errors.Is(err, rivertype.ErrNotFound) {
		return c, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("jobs: run %d: %w", id, err)
	}
	return c, row, nil
}

// Alive says whether run id may still be worked: it waits (available,
// scheduled, to be retried) or an instance works it (running; a run whose
// instance died stays running until River rescues it and retries or
// discards it). A run that finished (completed, cancelled, discarded) or
// is gone (deleted, or removed after its retention) is not alive: a
// module waiting for it would wait forever.
func (q *Queue) Alive(ctx context.Context, id int64) (bool, error) {
	_, row, err := q.run(ctx, id)
	if err != nil || row == nil {
		return false, err
	}
	switch row.State {
	case rivertype.JobStateCompleted, rivertype.JobStateCancelled, rivertype.JobStateDiscarded:
		return false, nil
	}
	return true, nil
}
