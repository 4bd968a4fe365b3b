// Package jobs is the one queue for work that runs later or on a schedule,
// on both databases: River (riverqueue.com) keeps the jobs in tables of the
// application's database (SQLite or PostgreSQL), so a job survives a
// restart, a periodic job runs once per period however many instances
// share one PostgreSQL (River elects one leader to enqueue them, and each
// is unique within its period), and a failed job is retried with back-off
// while its attempts and errors stay visible.
//
// A module registers a job by name with its work function and, when it is
// periodic, its schedule; the app starts the queue while serving. Decision
// record: docs/decisions/0007-job-queue.md.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"sync"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
)

// Job is a kind of background work.
type Job struct {
	// Name identifies the job (lower case letters, digits and underscores;
	// it is River's job kind).
	Name string
	// Schedule, when set, runs the job periodically (and once when the
	// queue starts, if it has not run in the current period); without it
	// the job runs only when enqueued.
	Schedule Schedule
	// Work does the work. An error (or a panic) fails the attempt; the
	// queue retries it with back-off until MaxAttempts.
	Work func(ctx context.Context) error
	// Perform, set instead of Work, does the work of one enqueued run with
	// the argument it was enqueued with (EnqueueArg) and the attempt it
	// is; a job with Perform has no schedule.
	Perform func(ctx context.Context, run Run) error
	// MaxAttempts bounds the attempts of one run (default 5).
	MaxAttempts int
	// Timeout cancels an attempt's context after this long (default one
	// hour).
	Timeout time.Duration
}

const (
	defaultMaxAttempts = 5
	defaultTimeout     = time.Hour
	defaultWorkers     = 2
	defaultPoll        = time.Second
	// runNowQueue is the River queue that only "portfolio jobs run" works,
	// so the command runs the job itself even while servers are running.
	runNowQueue = "run_now"
)

var namePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,62}$`)

// Options tune the queue; the zero value is right for serving.
type Options struct {
	// Workers is how many jobs one instance works at once (default 2).
	Workers int
	// PollInterval is how often an instance looks for due jobs when the
	// database cannot notify it (SQLite; default one second).
	PollInterval time.Duration
	// Backoff is the wait before retry number attempt (1 after the first
	// failure); nil uses River's default, attempt⁴ seconds with jitter.
	Backoff func(attempt int) time.Duration
}

// Queue runs registered jobs on the application's database.
type Queue struct {
	db   *db.DB
	log  *slog.Logger
	opts Options

	mu      sync.Mutex
	jobs    []Job
	byName  map[string]int
	backend *backend      // opened on first use
	client  backendClient // the serving client, built on first use
	started bool          // the serving client works jobs
}

// New makes a queue on d. Register the jobs before first use.
func New(d *db.DB, log *slog.Logger, opts Options) *Queue {
	if opts.Workers <= 0 {
		opts.Workers = defaultWorkers
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = defaultPoll
	}
	return &Queue{db: d, log: log, opts: opts, byName: map[string]int{}}
}

// Register adds a job. Names are unique; registering after the queue was
// first used (started, listed, enqueued) fails.
func (q *Queue) Register(j Job) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	switch {
	case q.client != nil:
		return fmt.Errorf("jobs: register %q: the queue is already in use", j.Name)
	case !namePattern.MatchString(j.Name):
		return fmt.Errorf("jobs: register %q: a name is lower case letters, digits and underscores", j.Name)
	case (j.Work == nil) == (j.Perform == nil):
		return fmt.Errorf("jobs: register %q: one work function, Work or Perform", j.Name)
	case j.Perform != nil && j.Schedule != nil:
		return fmt.Errorf("jobs: register %q: a job with an argument has no schedule", j.Name)
	case j.Schedule != nil && j.Schedule.Period() < time.Second:
		return fmt.Errorf("jobs: register %q: a period is at least one second", j.Name)
	}
	if _, dup := q.byName[j.Name]; dup {
		return fmt.Errorf("jobs: register %q: registered twice", j.Name)
	}
	if j.MaxAttempts <= 0 {
		j.MaxAttempts = defaultMaxAttempts
	}
	if j.Timeout == 0 {
		j.Timeout = defaultTimeout
	}
	q.byName[j.Name] = len(q.jobs)
	q.jobs = append(q.jobs, j)
	return nil
}

// Jobs lists the registered jobs in registration order.
func (q *Queue) Jobs() []Job {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]Job(nil), q.jobs...)
}

func (q *Queue) job(name string) (Job, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	i, ok := q.byName[name]
	if !ok {
		return Job{}, apperr.NotFound("server.jobs.unknown").With(map[string]string{"name": name})
	}
	return q.jobs[i], nil
}

// Migrate creates or upgrades River's own tables with River's migrator (a
// db.MigrateStep: the app runs it after our migrations, under their lock).
func (q *Queue) Migrate(ctx context.Context) error {
	b, err := q.openBackend(ctx)
	if err != nil {
		return err
	}
	return b.migrate(ctx)
}

// Start works the jobs and enqueues the periodic ones (when this instance
// is the leader) until Stop. ctx bounds the work: cancelling it stops
// abruptly, so pass one that lives as long as the server.
func (q *Queue) Start(ctx context.Context) error {
	c, err := q.serving(ctx)
	if err != nil {
		return err
	}
	if err := c.Start(ctx); err != nil {
		return fmt.Errorf("jobs: start: %w", err)
	}
	q.mu.Lock()
	q.started = true
	q.mu.Unlock()
	return nil
}

// Stop lets running jobs finish until ctx ends, then cancels them. It does
// nothing when the queue is not working.
func (q *Queue) Stop(ctx context.Context) error {
	q.mu.Lock()
	c, started := q.client, q.started
	q.started = false
	q.mu.Unlock()
	if !started {
		return nil
	}
	err := c.Stop(ctx)
	if err != nil && ctx.Err() != nil {
		hard, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if hardErr := c.StopAndCancel(hard); hardErr != nil {
			return errors.Join(fmt.Errorf("jobs: stop: %w", err), fmt.Errorf("jobs: stop and cancel: %w", hardErr))
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("jobs: stop: %w", err)
	}
	return nil
}

// Close releases the connections the queue opened (PostgreSQL); stop it
// first.
func (q *Queue) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.backend != nil {
		q.backend.close()
	}
}

// Enqueue asks for one run of job name as soon as a worker is free (any
// instance's) and answers its status.
func (q *Queue) Enqueue(ctx context.Context, name string) (Status, error) {
	j, err := q.job(name)
	if err != nil {
		return Status{}, err
	}
	if j.Perform != nil {
		return Status{}, apperr.Conflict("server.jobs.needs_argument").WithCode("needs_argument").With(map[string]string{"name": name})
	}
	c, err := q.serving(ctx)
	if err != nil {
		return Status{}, err
	}
	if _, err := c.Insert(ctx, jobArgs{Name: j.Name}, &river.InsertOpts{MaxAttempts: j.MaxAttempts}); err != nil {
		return Status{}, fmt.Errorf("jobs: enqueue %s: %w", name, err)
	}
	return q.status(ctx, c, j, time.Now())
}

// EnqueueOnce is Enqueue unless a run of job name already waits for a
// worker (state available): that run has yet to start, so it sees
// whatever committed before it, and a burst of writes asking for the same
// work (every payment of a saved contract step) queues it once. Two
// concurrent calls may both queue a run; the job must be idempotent.
func (q *Queue) EnqueueOnce(ctx context.Context, name string) error {
	j, err := q.job(name)
	if err != nil {
		return err
	}
	c, err := q.serving(ctx)
	if err != nil {
		return err
	}
	res, err := c.JobList(ctx, river.NewJobListParams().Kinds(j.Name).States(rivertype.JobStateAvailable).First(1))
	if err != nil {
		return fmt.Errorf("jobs: waiting runs of %s: %w", name, err)
	}
	if len(res.Jobs) > 0 {
		return nil
	}
	_, err = q.Enqueue(ctx, name)
	return err
}

// Run is one enqueued run of a job with an argument: the argument and
// which attempt this is (1 for the first) of how many.
type Run struct {
	// ID is the run's id, as EnqueueArg answered it.
	ID          int64
	Arg         string
	Attempt     int
	MaxAttempts int
}

// Last says whether a failure of this attempt is final.
func (r Run) Last() bool { return r.Attempt >= r.MaxAttempts }

// EnqueueArg asks for one run of job name (registered with Perform) with
// arg, for any instance's workers; it answers the run's id. The run is
// kept in the database: an instance that stops before or while working it
// leaves it to be retried.
func (q *Queue) EnqueueArg(ctx context.Context, name, arg string) (int64, error) {
	j, err := q.job(name)
	if err != nil {
		return 0, err
	}
	if j.Perform == nil {
		return 0, fmt.Errorf("jobs: enqueue %s: the job takes no argument", name)
	}
	c, err := q.serving(ctx)
	if err != nil {
		return 0, err
	}
	res, err := c.Insert(ctx, jobArgs{Name: j.Name, Arg: arg}, &river.InsertOpts{MaxAttempts: j.MaxAttempts})
	if err != nil {
		return 0, fmt.Errorf("jobs: enqueue %s: %w", name, err)
	}
	return res.Job.ID, nil
}

// RunNow runs job name once in this process and waits for the outcome:
// one attempt, recorded like every run (so the Back Office shows it),
// worked by a client of its own that serves nothing else, so a running
// server does not take it over. It fails when the attempt fails.
func (q *Queue) RunNow(ctx context.Context, name string) (Status, error) {
	j, err := q.job(name)
	if err != nil {
		return Status{}, err
	}
	if j.Perform != nil {
		return Status{}, apperr.Conflict("server.jobs.needs_argument").WithCode("needs_argument").With(map[string]string{"name": name})
	}
	b, err := q.openBackend(ctx)
	if err != nil {
		return Status{}, err
	}
	c, err := b.newClient(q.config(runNowQueue, false))
	if err != nil {
		return Status{}, fmt.Errorf("jobs: run %s: %w", name, err)
	}
	// Inserted before the client starts, so its first fetch finds it.
	res, err := c.Insert(ctx, jobArgs{Name: j.Name}, &river.InsertOpts{MaxAttempts: 1, Queue: runNowQueue})
	if err != nil {
		return Status{}, fmt.Errorf("jobs: run %s: %w", name, err)
	}
	if err := c.Start(ctx); err != nil {
		return Status{}, fmt.Errorf("jobs: run %s: start: %w", name, err)
	}
	row, waitErr := waitFinal(ctx, c, res.Job.ID)
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := c.Stop(stopCtx); err != nil {
		waitErr = errors.Join(waitErr, fmt.Errorf("jobs: run %s: stop: %w", name, err))
	}
	if waitErr != nil {
		return Status{}, waitErr
	}
	st, err := q.status(ctx, c, j, time.Now())
	if err != nil {
		return Status{}, err
	}
	if row.State != rivertype.JobStateCompleted {
		return st, fmt.Errorf("jobs: %s failed: %s", name, lastError(row))
	}
	return st, nil
}

// waitFinal polls job id until it is completed, discarded or cancelled.
func waitFinal(ctx context.Context, c backendClient, id int64) (*rivertype.JobRow, error) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		row, err := c.JobGet(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("jobs: read job %d: %w", id, err)
		}
		switch row.State {
		case rivertype.JobStateCompleted, rivertype.JobStateDiscarded, rivertype.JobStateCancelled:
			return row, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("jobs: wait for job %d: %w", id, ctx.Err())
		case <-tick.C:
		}
	}
}

// serving is the client that works the default queue and enqueues the
// periodic jobs, built once.
func (q *Queue) serving(ctx context.Context) (backendClient, error) {
	b, err := q.openBackend(ctx)
	if err != nil {
		return nil, err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.client != nil {
		return q.client, nil
	}
	if len(q.jobs) == 0 {
		return nil, errors.New("jobs: no job is registered")
	}
	c, err := b.newClient(q.configLocked(river.QueueDefault, true))
	if err != nil {
		return nil, fmt.Errorf("jobs: new client: %w", err)
	}
	q.client = c
	return c, nil
}

func (q *Queue) openBackend(ctx context.Context) (*backend, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.backend != nil {
		return q.backend, nil
	}
	b, err := openBackend(ctx, q.db)
	if err != nil {
		return nil, err
	}
	q.backend = b
	return b, nil
}

func (q *Queue) config(queue string, lead bool) *river.Config {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.configLocked(queue, lead)
}

// configLocked builds a River client configuration: every registered job
// as a worker, queue worked with the configured number of workers and,
// when lead, the periodic jobs (enqueued only by the elected leader).
// A client that does not lead takes no part in the election, so it never
// runs River's maintenance either.
func (q *Queue) configLocked(queue string, lead bool) *river.Config {
	workers := river.NewWorkers()
	var periodic []*river.PeriodicJob
	// A run still marked running this long after it started is taken to be
	// lost with its instance and retried: longer than any job may run.
	rescueAfter := defaultTimeout
	for _, j := range q.jobs {
		rescueAfter = max(rescueAfter, j.Timeout)
		// The kind is the job's name, carried by the args value (River
		// otherwise takes it from the args type).
		river.AddWorkerArgs(workers, jobArgs{Name: j.Name}, &worker{job: j})
		if j.Schedule != nil && lead {
			periodic = append(periodic, river.NewPeriodicJob(j.Schedule, func() (river.JobArgs, *river.InsertOpts) {
				return jobArgs{Name: j.Name}, &river.InsertOpts{
					MaxAttempts: j.MaxAttempts,
					UniqueOpts:  river.UniqueOpts{ByPeriod: j.Schedule.Period()},
				}
			}, &river.PeriodicJobOpts{RunOnStart: true}))
		}
	}
	cfg := &river.Config{
		Logger:                      q.log.With("component", "jobs"),
		Workers:                     workers,
		Queues:                      map[string]river.QueueConfig{queue: {MaxWorkers: q.opts.Workers}},
		PeriodicJobs:                periodic,
		LeaderElectionDisabled:      !lead,
		FetchPollInterval:           q.opts.PollInterval,
		FetchCooldown:               min(100*time.Millisecond, q.opts.PollInterval),
		PollOnly:                    q.db.Dialect() == db.SQLite,
		MaxAttempts:                 defaultMaxAttempts,
		CompletedJobRetentionPeriod: 7 * 24 * time.Hour,
		CancelledJobRetentionPeriod: 30 * 24 * time.Hour,
		DiscardedJobRetentionPeriod: 30 * 24 * time.Hour,
		RescueStuckJobsAfter:        rescueAfter + time.Hour,
	}
	if q.opts.Backoff != nil {
		cfg.RetryPolicy = backoffPolicy(q.opts.Backoff)
	}
	return cfg
}

// jobArgs are the arguments of every job: its name, which is its kind,
// and the argument of a job with Perform.
type jobArgs struct {
	Name string `json:"job"`
	// Arg is the argument of a run of a job with Perform.
	Arg string `json:"arg,omitempty"`
}

// Kind is the job's name.
func (a jobArgs) Kind() string { return a.Name }

// worker runs one registered job.
type worker struct {
	river.WorkerDefaults[jobArgs]
	job Job
}

// Work runs the job's work function.
func (w *worker) Work(ctx context.Context, rj *river.Job[jobArgs]) error {
	if w.job.Perform != nil {
		return w.job.Perform(ctx, Run{ID: rj.ID, Arg: rj.Args.Arg, Attempt: rj.Attempt, MaxAttempts: rj.MaxAttempts})
	}
	return w.job.Work(ctx)
}

// Timeout is the job's own timeout.
func (w *worker) Timeout(*river.Job[jobArgs]) time.Duration { return w.job.Timeout }

// backoffPolicy turns a back-off function into River's retry policy.
type backoffPolicy func(attempt int) time.Duration

// NextRetry schedules the retry after the back-off of the attempt that
// just failed.
func (p backoffPolicy) NextRetry(row *rivertype.JobRow) time.Time {
	return time.Now().UTC().Add(p(len(row.Errors) + 1))
}
