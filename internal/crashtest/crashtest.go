// Package crashtest proves that the server loses no acknowledged write and
// leaves no unacknowledged one half written when it is killed: it runs the
// real binary on a seeded data directory, drives concurrent writes through
// the HTTP API (generic creates and updates, ticket moves, document uploads,
// spreadsheet imports), records what the server acknowledged, kills it with
// SIGKILL at random moments, restarts it and checks the database and the
// document files against the record. tools/crashtest is its command line;
// cmd/portfolio's TestCrashSafety runs it bounded in the Go suite.
package crashtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"portfolio/internal/db"
)

// Config says how to run the crash test.
type Config struct {
	// Command starts the binary: its first element is the program, the
	// rest come before the subcommand (serve, seed, jobs run).
	Command []string
	// Env is added to the binary's environment.
	Env []string
	// PostgresAdminURL, when set, runs on a fresh PostgreSQL database
	// created there (and dropped afterwards); empty runs on SQLite.
	PostgresAdminURL string
	// Kills is how many times the server is killed.
	Kills int
	// Writers is how many clients write at once.
	Writers int
	// MinUp and MaxUp bound the random time the server runs under load
	// before it is killed.
	MinUp, MaxUp time.Duration
	// Seed seeds the random choices (0: from the clock); the run reports it.
	Seed int64
	// Port is the loopback port the server listens on.
	Port int
	// WorkDir holds the data directory and the server's log (empty: a new
	// temporary directory, removed afterwards).
	WorkDir string
	// Log receives progress lines (nil: discarded).
	Log io.Writer
}

// Result is what a run did and found.
type Result struct {
	Database string
	Seed     int64
	Kills    int
	// Writes counts the writes sent and those the server acknowledged.
	Writes, Acknowledged int
	// Unacknowledged counts the writes in flight when the server died.
	Unacknowledged int
	// Orphans is how many document files no row named after the last
	// restart (uploads in flight at a kill); the sweep must remove them.
	Orphans int
	// Lost lists every violation found: an acknowledged write missing, an
	// unacknowledged one half there, history not matching its record, a
	// file missing or left behind.
	Lost []string
}

// Run runs the crash test described by cfg.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if len(cfg.Command) == 0 {
		return nil, errors.New("crashtest: no command")
	}
	if cfg.Kills <= 0 {
		cfg.Kills = 3
	}
	if cfg.Writers <= 0 {
		cfg.Writers = 6
	}
	if cfg.MinUp <= 0 {
		cfg.MinUp = 700 * time.Millisecond
	}
	if cfg.MaxUp < cfg.MinUp {
		cfg.MaxUp = cfg.MinUp + 2*time.Second
	}
	if cfg.Seed == 0 {
		cfg.Seed = time.Now().UnixNano()
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.WorkDir == "" {
		dir, err := os.MkdirTemp("", "crashtest-*")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		cfg.WorkDir = dir
	}
	if err := os.MkdirAll(cfg.WorkDir, 0o750); err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, rnd: rand.New(rand.NewSource(cfg.Seed)), model: newModel(),
		dataDir: filepath.Join(cfg.WorkDir, "data"), base: fmt.Sprintf("http://127.0.0.1:%d", cfg.Port)}
	res := &Result{Database: "sqlite", Seed: cfg.Seed}
	if cfg.PostgresAdminURL != "" {
		res.Database = "postgres"
		dbURL, drop, err := CreateDatabase(ctx, cfg.PostgresAdminURL)
		if err != nil {
			return nil, err
		}
		defer drop()
		r.dbURL = dbURL
	}
	if err := r.run(ctx, res); err != nil {
		return res, err
	}
	return res, nil
}

type runner struct {
	cfg     Config
	rnd     *rand.Rand
	model   *model
	dataDir string
	dbURL   string
	base    string
	logFile *os.File
	fx      *fixtures
}

func (r *runner) logf(format string, args ...any) {
	fmt.Fprintf(r.cfg.Log, "crashtest: "+format+"\n", args...)
}

// command builds the binary's command for a subcommand and its arguments.
func (r *runner) command(ctx context.Context, args ...string) *exec.Cmd {
	all := append(append([]string{}, r.cfg.Command[1:]...), args...)
	all = append(all, "--data-dir", r.dataDir)
	if r.dbURL != "" {
		all = append(all, "--database-url", r.dbURL)
	}
	cmd := exec.CommandContext(ctx, r.cfg.Command[0], all...)
	cmd.Env = append(os.Environ(), r.cfg.Env...)
	cmd.Stdout, cmd.Stderr = r.logFile, r.logFile
	return cmd
}

func (r *runner) run(ctx context.Context, res *Result) error {
	var err error
	if r.logFile, err = os.Create(filepath.Join(r.cfg.WorkDir, "server.log")); err != nil {
		return err
	}
	defer r.logFile.Close()
	r.logf("%s, seed %d, %d kills, %d writers, work dir %s", res.Database, r.cfg.Seed, r.cfg.Kills, r.cfg.Writers, r.cfg.WorkDir)
	if err := r.command(ctx, "seed", "--demo").Run(); err != nil {
		return fmt.Errorf("crashtest: seed: %w (log: %s)", err, r.logFile.Name())
	}
	d, err := db.Open(ctx, r.dbURL, r.dataDir)
	if err != nil {
		return err
	}
	fx, err := loadFixtures(ctx, d)
	d.Close()
	if err != nil {
		return err
	}
	r.fx = fx
	for epoch := 1; epoch <= r.cfg.Kills; epoch++ {
		if err := r.epoch(ctx, epoch, fx); err != nil {
			return err
		}
		res.Kills++
		lost, err := r.verify(ctx)
		if err != nil {
			return err
		}
		res.Lost = append(res.Lost, lost...)
		r.logf("kill %d: %d writes acknowledged so far, %d violations", epoch, r.model.acked, len(lost))
	}
	// A last start proves the server comes back and serves what it wrote.
	srv, err := r.start(ctx)
	if err != nil {
		return err
	}
	c := &client{base: r.base, http: &http.Client{Timeout: 30 * time.Second}}
	if err := c.login(ctx); err != nil {
		srv.stop()
		return fmt.Errorf("crashtest: login after the last restart: %w", err)
	}
	if problem := r.model.checkThroughAPI(ctx, c); problem != "" {
		res.Lost = append(res.Lost, problem)
	}
	if err := srv.stop(); err != nil {
		return err
	}
	lost, err := r.verify(ctx)
	if err != nil {
		return err
	}
	res.Lost = append(res.Lost, lost...)
	// Files of uploads in flight at a kill are named by no row; the daily
	// sweep removes them once old enough, and keeps every named file.
	orphans, lost, err := r.sweep(ctx)
	if err != nil {
		return err
	}
	res.Orphans = orphans
	res.Lost = append(res.Lost, lost...)
	res.Writes, res.Acknowledged, res.Unacknowledged = r.model.sent, r.model.acked, r.model.unacked
	return nil
}

// server is a running server process.
type server struct {
	cmd  *exec.Cmd
	done chan error
}

func (s *server) kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	<-s.done
}

func (s *server) stop() error {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.done:
		if err != nil {
			return fmt.Errorf("crashtest: server stopped with %w", err)
		}
		return nil
	case <-time.After(60 * time.Second):
		s.kill()
		return errors.New("crashtest: server did not stop within 60 s of SIGTERM")
	}
}

// start starts the server and waits until it answers /readyz.
func (r *runner) start(ctx context.Context) (*server, error) {
	cmd := r.command(ctx, "serve", "--addr", fmt.Sprintf("127.0.0.1:%d", r.cfg.Port), "--log-level", "warn")
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("crashtest: start server: %w", err)
	}
	s := &server{cmd: cmd, done: make(chan error, 1)}
	go func() { s.done <- cmd.Wait() }()
	deadline := time.Now().Add(90 * time.Second)
	hc := &http.Client{Timeout: 2 * time.Second}
	for time.Now().Before(deadline) {
		select {
		case err := <-s.done:
			return nil, fmt.Errorf("crashtest: server exited while starting: %v (log: %s)", err, r.logFile.Name())
		case <-time.After(100 * time.Millisecond):
		}
		res, err := hc.Get(r.base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s, nil
			}
		}
	}
	s.kill()
	return nil, fmt.Errorf("crashtest: server not ready within 90 s (log: %s)", r.logFile.Name())
}

// epoch starts the server, writes through it from several clients and
// kills it at a random moment.
func (r *runner) epoch(ctx context.Context, epoch int, fx *fixtures) error {
	srv, err := r.start(ctx)
	if err != nil {
		return err
	}
	up := r.cfg.MinUp + time.Duration(r.rnd.Int63n(int64(r.cfg.MaxUp-r.cfg.MinUp)+1))
	var wg sync.WaitGroup
	stop := make(chan struct{})
	errs := make(chan error, r.cfg.Writers)
	for w := 0; w < r.cfg.Writers; w++ {
		c := &client{base: r.base, http: &http.Client{Timeout: 30 * time.Second}}
		if err := c.login(ctx); err != nil {
			srv.kill()
			return fmt.Errorf("crashtest: login: %w", err)
		}
		wr := &writer{id: w, epoch: epoch, c: c, m: r.model, fx: fx, rnd: rand.New(rand.NewSource(r.rnd.Int63()))}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := wr.run(ctx, stop); err != nil {
				errs <- err
			}
		}()
	}
	time.Sleep(up)
	srv.kill()
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		return err
	}
	r.logf("kill %d after %s", epoch, up.Round(time.Millisecond))
	return nil
}

// FreePort is a loopback port nobody listens on now.
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// CreateDatabase creates a fresh database on the server of adminURL and
// returns its URL and a function dropping it.
func CreateDatabase(ctx context.Context, adminURL string) (string, func(), error) {
	u, err := url.Parse(adminURL)
	if err != nil {
		return "", nil, fmt.Errorf("crashtest: PostgreSQL URL: %w", err)
	}
	admin, err := db.Open(ctx, adminURL, "")
	if err != nil {
		return "", nil, err
	}
	name := fmt.Sprintf("pf_crash_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		return "", nil, fmt.Errorf("crashtest: create database: %w", err)
	}
	u.Path = "/" + name
	drop := func() {
		if _, err := admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			fmt.Fprintf(os.Stderr, "crashtest: drop database %s: %v\n", name, err)
		}
		admin.Close()
	}
	return u.String(), drop, nil
}

// isOurs reports whether name was made by this tool.
func isOurs(name string) bool { return strings.HasPrefix(name, namePrefix) }

// namePrefix starts every name this tool writes.
const namePrefix = "crash-"

// Summary is the result as one line, as docs/reliability.md tabulates it.
func (res *Result) Summary() string {
	return fmt.Sprintf("database %s, seed %d: %d kills, %d writes sent, %d acknowledged, %d in doubt at a kill, %d orphan files swept, lost: %d",
		res.Database, res.Seed, res.Kills, res.Writes, res.Acknowledged, res.Unacknowledged, res.Orphans, len(res.Lost))
}
