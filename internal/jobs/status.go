package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// Status is what the queue knows about one registered job: its schedule,
// its latest run and when it runs next.
type Status struct {
	Name string `json:"name"`
	// Schedule describes the schedule in English ("" when the job runs
	// only on demand); PeriodSeconds and OffsetSeconds say the same for
	// screens that translate it.
	Schedule      string `json:"schedule"`
	PeriodSeconds int64  `json:"period_seconds"`
	OffsetSeconds int64  `json:"offset_seconds"`
	// LastRunAt is when the latest run that started started its latest
	// attempt; FinishedAt when that run ended (completed, or failed for
	// good), nil while it is still running or retrying.
	LastRunAt  *time.Time `json:"last_run_at"`
	FinishedAt *time.Time `json:"finished_at"`
	// State is River's state of the latest run: available, scheduled,
	// running, retryable, completed, discarded (failed for good) or
	// cancelled; "" when the job never ran.
	State       string `json:"state"`
	Attempts    int    `json:"attempts"`
	MaxAttempts int    `json:"max_attempts"`
	// LastError is the error of the latest run's last failed attempt.
	LastError string `json:"last_error"`
	// NextRunAt is when the job runs next: a waiting run's time, else the
	// schedule's next time; nil for an on-demand job with nothing waiting.
	NextRunAt *time.Time `json:"next_run_at"`
}

// recentRuns is how many of a job's latest runs List reads to find the
// latest that started.
const recentRuns = 10

// List answers the status of every registered job, in registration order.
func (q *Queue) List(ctx context.Context) ([]Status, error) {
	c, err := q.serving(ctx)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	jobs := q.Jobs()
	out := make([]Status, 0, len(jobs))
	for _, j := range jobs {
		st, err := q.status(ctx, c, j, now)
		if err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, nil
}

// Get answers the status of job name.
func (q *Queue) Get(ctx context.Context, name string) (Status, error) {
	j, err := q.job(name)
	if err != nil {
		return Status{}, err
	}
	c, err := q.serving(ctx)
	if err != nil {
		return Status{}, err
	}
	return q.status(ctx, c, j, time.Now())
}

func (q *Queue) status(ctx context.Context, c backendClient, j Job, now time.Time) (Status, error) {
	st := Status{Name: j.Name, MaxAttempts: j.MaxAttempts}
	if j.Schedule != nil {
		st.Schedule = j.Schedule.String()
		st.PeriodSeconds = int64(j.Schedule.Period() / time.Second)
		st.OffsetSeconds = int64(offsetOf(j.Schedule) / time.Second)
	}
	res, err := c.JobList(ctx, river.NewJobListParams().Kinds(j.Name).
		OrderBy(river.JobListOrderByID, river.SortOrderDesc).First(recentRuns))
	if err != nil {
		return Status{}, fmt.Errorf("jobs: runs of %s: %w", j.Name, err)
	}
	if len(res.Jobs) > 0 {
		latest := res.Jobs[0]
		st.State = string(latest.State)
		st.Attempts = latest.Attempt
		st.MaxAttempts = latest.MaxAttempts
		st.LastError = lastError(latest)
	}
	for _, row := range res.Jobs {
		if st.LastRunAt == nil && row.AttemptedAt != nil {
			st.LastRunAt, st.FinishedAt = row.AttemptedAt, row.FinalizedAt
		}
		if waiting(row.State) && (st.NextRunAt == nil || row.ScheduledAt.Before(*st.NextRunAt)) {
			at := row.ScheduledAt
			st.NextRunAt = &at
		}
	}
	if st.NextRunAt == nil && j.Schedule != nil {
		next := j.Schedule.Next(now).UTC()
		st.NextRunAt = &next
	}
	return st, nil
}

// waiting reports whether a run in state s has yet to start.
func waiting(s rivertype.JobState) bool {
	switch s {
	case rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStateRetryable, rivertype.JobStatePending:
		return true
	}
	return false
}

// lastError is the error of the run's last failed attempt, "" when none
// failed.
func lastError(row *rivertype.JobRow) string {
	if len(row.Errors) == 0 {
		return ""
	}
	return row.Errors[len(row.Errors)-1].Error
}
