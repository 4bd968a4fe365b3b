package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/jobs"
	"portfolio/internal/testkit"
)

// waitTimeout bounds every wait for a condition; the conditions are met in
// well under a second normally (leader handover on SQLite takes a few).
const waitTimeout = 60 * time.Second

// waitFor polls cond until it holds, failing the test after waitTimeout.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// newQueue makes a queue on d with River's tables migrated, polling fast.
func newQueue(t *testing.T, d *db.DB, opts jobs.Options, js ...jobs.Job) *jobs.Queue {
	t.Helper()
	if opts.PollInterval == 0 {
		opts.PollInterval = 50 * time.Millisecond
	}
	q := jobs.New(d, quietLog(), opts)
	for _, j := range js {
		if err := q.Register(j); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(q.Close)
	return q
}

// start starts q and stops it when the test ends.
func start(t *testing.T, q *jobs.Queue) {
	t.Helper()
	if err := q.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop(t, q) })
}

func stop(t *testing.T, q *jobs.Queue) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := q.Stop(ctx); err != nil {
		t.Errorf("stop: %v", err)
	}
}

func status(t *testing.T, q *jobs.Queue, name string) jobs.Status {
	t.Helper()
	st, err := q.Get(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func countRuns(t *testing.T, d *db.DB, name string) int {
	t.Helper()
	var n int
	if err := d.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM river_job WHERE kind = ?`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestFailedJobRetriesWithBackoffAndStaysVisible: a failing job is tried
// again after its back-off, and its attempts and last error are visible
// while it waits for the next retry and once it has failed for good.
func TestFailedJobRetriesWithBackoffAndStaysVisible(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		const firstBackoff = 300 * time.Millisecond
		var mu sync.Mutex
		var tries []time.Time
		fail := func(ctx context.Context) error {
			mu.Lock()
			defer mu.Unlock()
			tries = append(tries, time.Now())
			return fmt.Errorf("attempt %d failed", len(tries))
		}
		q := newQueue(t, d, jobs.Options{Backoff: func(attempt int) time.Duration {
			if attempt == 1 {
				return firstBackoff
			}
			return time.Hour // the second retry waits long: the test reads the waiting state
		}},
			jobs.Job{Name: "flaky", Work: fail, MaxAttempts: 3},
			jobs.Job{Name: "broken", Work: func(context.Context) error { return errors.New("always broken") }, MaxAttempts: 1},
		)
		start(t, q)
		ctx := context.Background()
		if _, err := q.Enqueue(ctx, "flaky"); err != nil {
			t.Fatal(err)
		}
		if _, err := q.Enqueue(ctx, "broken"); err != nil {
			t.Fatal(err)
		}

		waitFor(t, "two failed attempts of flaky", func() bool {
			st := status(t, q, "flaky")
			return st.Attempts == 2 && st.State == "retryable"
		})
		st := status(t, q, "flaky")
		if st.LastError != "attempt 2 failed" || st.MaxAttempts != 3 || st.LastRunAt == nil || st.FinishedAt != nil {
			t.Fatalf("flaky after two attempts: %+v", st)
		}
		if st.NextRunAt == nil || st.NextRunAt.Sub(*st.LastRunAt) < 59*time.Minute {
			t.Fatalf("the next retry is not an hour after the last attempt: %+v", st)
		}
		mu.Lock()
		gap := tries[1].Sub(tries[0])
		mu.Unlock()
		if gap < firstBackoff {
			t.Fatalf("the first retry came %s after the failure, before its back-off of %s", gap, firstBackoff)
		}

		waitFor(t, "broken to fail for good", func() bool { return status(t, q, "broken").State == "discarded" })
		st = status(t, q, "broken")
		if st.Attempts != 1 || st.LastError != "always broken" || st.FinishedAt == nil {
			t.Fatalf("broken after its only attempt: %+v", st)
		}
	})
}

// tickSchedule is due every few milliseconds but lets a job run only once
// per (very long) period, and counts how often an enqueuer asked it for the
// next time: a client's periodic enqueuer asks once when it starts (after
// it became leader) and once per tick after preparing that tick's insert,
// so after its third question its start and first tick inserts are done.
type tickSchedule struct{ asked atomic.Int64 }

func (s *tickSchedule) Next(t time.Time) time.Time {
	s.asked.Add(1)
	return t.Add(20 * time.Millisecond)
}
func (s *tickSchedule) Period() time.Duration { return 100 * 365 * 24 * time.Hour }
func (s *tickSchedule) String() string        { return "every tick, once a century" }

// TestPeriodicJobRunsOncePerPeriodWithTwoClients: two instances on one
// database (two River clients with the same periodic job) run it once in
// its period, also when the leader goes away and the other instance takes
// over and tries again.
func TestPeriodicJobRunsOncePerPeriodWithTwoClients(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		var runs atomic.Int64
		work := func(context.Context) error { runs.Add(1); return nil }
		schedA, schedB := &tickSchedule{}, &tickSchedule{}
		a := newQueue(t, d, jobs.Options{}, jobs.Job{Name: "tick", Schedule: schedA, Work: work})
		b := newQueue(t, d, jobs.Options{}, jobs.Job{Name: "tick", Schedule: schedB, Work: work})
		start(t, a)
		start(t, b)

		waitFor(t, "a leader enqueuing", func() bool { return schedA.asked.Load() >= 3 || schedB.asked.Load() >= 3 })
		waitFor(t, "the periodic run", func() bool { return status(t, a, "tick").State == "completed" })
		// (Under load a leader may miss renewing its term and the other
		// client take over early; then both have enqueued already, which
		// is what this test wants anyway.)
		leader, follower, followerSched := a, b, schedB
		if schedB.asked.Load() >= 3 {
			leader, follower, followerSched = b, a, schedA
		}
		// The leader goes away; the other instance is elected and its
		// enqueuer inserts on start and on every tick, all in the period
		// that already has its run.
		stop(t, leader)
		waitFor(t, "the other client to lead and enqueue", func() bool { return followerSched.asked.Load() >= 3 })

		if n := countRuns(t, d, "tick"); n != 1 {
			t.Fatalf("%d runs of the periodic job in one period, want 1", n)
		}
		if n := runs.Load(); n != 1 {
			t.Fatalf("the periodic job worked %d times, want 1", n)
		}
		if st := status(t, follower, "tick"); st.State != "completed" || st.Schedule != "every tick, once a century" {
			t.Fatalf("status: %+v", st)
		}
	})
}

// TestJobEnqueuedBeforeRestartRunsAfterIt: a job enqueued while no
// instance works it waits in the database, and the next instance started
// on that database runs it.
func TestJobEnqueuedBeforeRestartRunsAfterIt(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		var before, after atomic.Int64
		first := newQueue(t, d, jobs.Options{}, jobs.Job{Name: "report", Work: func(context.Context) error { before.Add(1); return nil }})
		if err := first.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		stop(t, first)
		if _, err := first.Enqueue(context.Background(), "report"); err != nil {
			t.Fatal(err)
		}
		if st := status(t, first, "report"); st.State != "available" || st.NextRunAt == nil {
			t.Fatalf("before the restart: %+v", st)
		}
		first.Close()

		second := newQueue(t, d, jobs.Options{}, jobs.Job{Name: "report", Work: func(context.Context) error { after.Add(1); return nil }})
		start(t, second)
		waitFor(t, "the job to run after the restart", func() bool { return status(t, second, "report").State == "completed" })
		if before.Load() != 0 || after.Load() != 1 {
			t.Fatalf("runs before the restart %d, after %d; want 0 and 1", before.Load(), after.Load())
		}
	})
}

// TestRunNowRunsInThisProcessAndReportsFailure: RunNow works the job
// itself, records the run and fails when the job fails.
func TestRunNowRunsInThisProcessAndReportsFailure(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		var fail atomic.Bool
		q := newQueue(t, d, jobs.Options{}, jobs.Job{Name: "sweep", Schedule: jobs.DailyAt(3, 0), Work: func(context.Context) error {
			if fail.Load() {
				return errors.New("disk on fire")
			}
			return nil
		}})
		ctx := context.Background()
		st, err := q.RunNow(ctx, "sweep")
		if err != nil || st.State != "completed" || st.LastRunAt == nil || st.Schedule != "daily at 03:00 UTC" {
			t.Fatalf("run now: %+v %v", st, err)
		}
		fail.Store(true)
		st, err = q.RunNow(ctx, "sweep")
		if err == nil || !strings.Contains(err.Error(), "disk on fire") || st.State != "discarded" || st.LastError != "disk on fire" {
			t.Fatalf("failing run now: %+v %v", st, err)
		}
		if _, err := q.RunNow(ctx, "nope"); err == nil {
			t.Fatal("an unknown job ran")
		}
	})
}

func TestScheduleIsAlignedToUTC(t *testing.T) {
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		s        jobs.Schedule
		from, to string
		text     string
	}{
		{jobs.DailyAt(3, 0), "2026-05-01T02:59:59Z", "2026-05-01T03:00:00Z", "daily at 03:00 UTC"},
		{jobs.DailyAt(3, 0), "2026-05-01T03:00:00Z", "2026-05-02T03:00:00Z", "daily at 03:00 UTC"},
		{jobs.DailyAt(3, 20), "2026-05-01T05:00:00+02:00", "2026-05-01T03:20:00Z", "daily at 03:20 UTC"},
		{jobs.Every(time.Hour), "2026-05-01T10:15:00Z", "2026-05-01T11:00:00Z", "every 1h0m0s"},
	} {
		if got := c.s.Next(at(c.from)); !got.Equal(at(c.to)) {
			t.Errorf("%s after %s: %s, want %s", c.s, c.from, got, c.to)
		}
		if c.s.String() != c.text {
			t.Errorf("text %q, want %q", c.s.String(), c.text)
		}
	}
}

func TestRegisterRefusesBadJobs(t *testing.T) {
	q := jobs.New(testkit.NewSQLite(t), quietLog(), jobs.Options{})
	ok := func(context.Context) error { return nil }
	if err := q.Register(jobs.Job{Name: "fine", Work: ok}); err != nil {
		t.Fatal(err)
	}
	for _, j := range []jobs.Job{
		{Name: "fine", Work: ok},
		{Name: "Bad Name", Work: ok},
		{Name: "nowork"},
		{Name: "toofast", Work: ok, Schedule: jobs.Every(time.Millisecond)},
	} {
		if err := q.Register(j); err == nil {
			t.Errorf("%q was registered", j.Name)
		}
	}
}

// TestJobWithArgumentGetsItAndItsAttempt: a job registered with Perform
// is enqueued with an argument; each run gets its own argument, a failed
// attempt is retried with the same argument, and the run knows which
// attempt is its last.
func TestJobWithArgumentGetsItAndItsAttempt(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		var mu sync.Mutex
		var runs []jobs.Run
		q := newQueue(t, d, jobs.Options{Backoff: func(int) time.Duration { return 10 * time.Millisecond }}, jobs.Job{
			Name: "commit", MaxAttempts: 2,
			Perform: func(_ context.Context, r jobs.Run) error {
				mu.Lock()
				defer mu.Unlock()
				runs = append(runs, r)
				if r.Arg == "b" && !r.Last() {
					return errors.New("not yet")
				}
				return nil
			},
		})
		if _, err := q.Enqueue(context.Background(), "commit"); !apperr.IsKind(err, apperr.KindConflict) {
			t.Fatalf("enqueue without its argument: %v", err)
		}
		start(t, q)
		for _, arg := range []string{"a", "b"} {
			if _, err := q.EnqueueArg(context.Background(), "commit", arg); err != nil {
				t.Fatal(err)
			}
		}
		waitFor(t, "both runs to finish", func() bool {
			mu.Lock()
			defer mu.Unlock()
			n := 0
			for _, r := range runs {
				if r.Arg == "a" || r.Arg == "b" && r.Last() {
					n++
				}
			}
			return n == 2
		})
		mu.Lock()
		defer mu.Unlock()
		var b []jobs.Run
		for _, r := range runs {
			if r.Arg == "b" {
				b = append(b, r)
			}
		}
		if len(b) != 2 || b[0].Attempt != 1 || b[0].Last() || b[1].Attempt != 2 || !b[1].Last() {
			t.Fatalf("runs of b: %+v", b)
		}
	})
}

// TestEnqueueArgRefusesAJobWithoutArgument: only a job with Perform takes
// an argument, and a job has either Work or Perform.
func TestEnqueueArgRefusesAJobWithoutArgument(t *testing.T) {
	q := newQueue(t, testkit.NewSQLite(t), jobs.Options{}, jobs.Job{Name: "sweep", Work: func(context.Context) error { return nil }})
	if _, err := q.EnqueueArg(context.Background(), "sweep", "x"); err == nil {
		t.Fatal("an argument for a job without Perform was taken")
	}
	both := jobs.New(testkit.NewSQLite(t), quietLog(), jobs.Options{})
	err := both.Register(jobs.Job{Name: "both", Work: func(context.Context) error { return nil }, Perform: func(context.Context, jobs.Run) error { return nil }})
	if err == nil {
		t.Fatal("a job with Work and Perform was registered")
	}
	err = both.Register(jobs.Job{Name: "sched", Schedule: jobs.DailyAt(1, 0), Perform: func(context.Context, jobs.Run) error { return nil }})
	if err == nil {
		t.Fatal("a scheduled job with an argument was registered")
	}
}

// TestAliveUntilARunEndsOrIsGone: a run waiting for a worker is alive and
// knows its id when it runs; once completed, discarded, or deleted it is
// not.
func TestAliveUntilARunEndsOrIsGone(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		ran := make(chan jobs.Run, 4)
		q := newQueue(t, d, jobs.Options{}, jobs.Job{
			Name: "commit", MaxAttempts: 1,
			Perform: func(_ context.Context, r jobs.Run) error {
				ran <- r
				if r.Arg == "fail" {
					return errors.New("lost")
				}
				return nil
			},
		})
		alive := func(id int64) bool {
			t.Helper()
			ok, err := q.Alive(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		ids := map[string]int64{}
		for _, arg := range []string{"done", "fail", "deleted"} {
			id, err := q.EnqueueArg(ctx, "commit", arg)
			if err != nil {
				t.Fatal(err)
			}
			if !alive(id) {
				t.Fatalf("waiting run %s is not alive", arg)
			}
			ids[arg] = id
		}
		if _, err := d.ExecContext(ctx, `DELETE FROM river_job WHERE id = ?`, ids["deleted"]); err != nil {
			t.Fatal(err)
		}
		if alive(ids["deleted"]) || alive(ids["deleted"]+1000) {
			t.Fatal("a run that is gone is alive")
		}
		start(t, q)
		for range 2 {
			r := <-ran
			if r.ID != ids[r.Arg] {
				t.Errorf("run %s got id %d, enqueued as %d", r.Arg, r.ID, ids[r.Arg])
			}
		}
		waitFor(t, "both runs to end", func() bool { return !alive(ids["done"]) && !alive(ids["fail"]) })
	})
}
