package crashtest

import (
	"context"
	"fmt"
	"math/rand"
	"net/http"
	"sync"
	"time"

	"portfolio/internal/db"
)

// Load is the crash test's write load aimed at servers someone else runs:
// the cluster test (cmd/portfolio) sends it through a proxy in front of
// several instances, kills one of them, and checks with Verify that no
// acknowledged write was lost. Writers behave as in Run: each writes until
// a request gets no answer (its instance died under it), then stops.
type Load struct {
	r     *runner
	mu    sync.Mutex
	stop  chan struct{}
	wg    sync.WaitGroup
	errs  []error
	epoch int
}

// NewLoad prepares writes against base (a server or a proxy) on the demo
// data of the database at dbURL ("" for SQLite) with its data directory.
func NewLoad(ctx context.Context, base, dbURL, dataDir string, seed int64) (*Load, error) {
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	r := &runner{rnd: rand.New(rand.NewSource(seed)), model: newModel(), dataDir: dataDir, dbURL: dbURL, base: base}
	d, err := db.Open(ctx, dbURL, dataDir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	if r.fx, err = loadFixtures(ctx, d); err != nil {
		return nil, err
	}
	return &Load{r: r, stop: make(chan struct{})}, nil
}

// Start logs in n more writers and lets them write until Stop.
func (l *Load) Start(ctx context.Context, n int) error {
	l.mu.Lock()
	l.epoch++
	epoch := l.epoch
	l.mu.Unlock()
	for w := 0; w < n; w++ {
		c := &client{base: l.r.base, http: &http.Client{Timeout: 30 * time.Second}}
		if err := c.login(ctx); err != nil {
			return fmt.Errorf("crashtest: login: %w", err)
		}
		l.mu.Lock()
		wr := &writer{id: w, epoch: epoch, c: c, m: l.r.model, fx: l.r.fx, rnd: rand.New(rand.NewSource(l.r.rnd.Int63()))}
		l.mu.Unlock()
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			if err := wr.run(ctx, l.stop); err != nil {
				l.mu.Lock()
				l.errs = append(l.errs, err)
				l.mu.Unlock()
			}
		}()
	}
	return nil
}

// Stop ends every writer and waits for them; later Starts need a new Load.
func (l *Load) Stop() error {
	close(l.stop)
	l.wg.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.errs) > 0 {
		return l.errs[0]
	}
	return nil
}

// Counts are the writes sent, acknowledged, and left without an answer.
func (l *Load) Counts() (sent, acked, unacked int) {
	m := l.r.model
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sent, m.acked, m.unacked
}

// Verify checks the database and the document files against what the
// servers acknowledged (after Stop): every violation found, as Run
// reports them in Result.Lost, including answers other than the expected
// success.
func (l *Load) Verify(ctx context.Context) ([]string, error) { return l.r.verify(ctx) }
