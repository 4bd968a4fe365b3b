// Command portfolio is the whole product in one binary: the API server with
// the embedded web app, and the commands to migrate, seed and administer it.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"golang.org/x/term"

	"portfolio/internal/app"
	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/config"
	"portfolio/internal/i18n"
	"portfolio/internal/jobs"
	"portfolio/internal/seed"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

const usage = `portfolio — lease portfolio and invoice review back office

Usage:
  portfolio serve               run the server (migrates first)
  portfolio migrate             apply database migrations
  portfolio seed --demo         create demo data (idempotent)
  portfolio seed --scale N      generate N points of sale for load tests
  portfolio user create-admin   create an administrator (interactive or flags)
  portfolio jobs list           list the background jobs, their schedule and last run
  portfolio jobs run NAME       run a background job now; fails when the job fails
  portfolio backup --to FILE    write an online backup (database, documents, secret)
  portfolio restore --from FILE restore a backup into an empty data directory
  portfolio version             print the version

Run "portfolio <command> --help" for the options of a command; every option
can also be set with a PORTFOLIO_* environment variable.
`

func main() {
	ballast := gcBallast(os.Getenv)
	err := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	runtime.KeepAlive(ballast)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "portfolio:", describe(err))
		}
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch args[0] {
	case "serve":
		return cmdServe(ctx, args[1:], stderr)
	case "migrate":
		return withApp(ctx, "migrate", args[1:], stderr, nil, func(a *app.App) error { return migrate(ctx, a) })
	case "seed":
		return cmdSeed(ctx, args[1:], stdout, stderr)
	case "user":
		if len(args) < 2 || args[1] != "create-admin" {
			return errors.New(`unknown user command: use "portfolio user create-admin"`)
		}
		return cmdCreateAdmin(ctx, args[2:], stdin, stdout, stderr)
	case "jobs":
		return cmdJobs(ctx, args[1:], stdout, stderr)
	case "backup":
		return cmdBackup(ctx, args[1:], stdout, stderr)
	case "restore":
		return cmdRestore(ctx, args[1:], stdout, stderr)
	case "version", "--version", "-v":
		fmt.Fprintln(stdout, "portfolio", buildVersion())
		return nil
	case "help", "--help", "-h":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// describe renders an error for the terminal: classified errors as their
// English text with the failing fields, others as they are.
func describe(err error) string {
	e, ok := apperr.As(err)
	if !ok {
		return err.Error()
	}
	catalog := i18n.MustLoad()
	text := e.Message
	if e.Key != "" {
		text = catalog.T(i18n.Default, e.Key, e.Args)
	}
	for _, f := range e.Fields {
		msg := f.Message
		if msg == "" {
			args := map[string]string{"field": f.Field}
			for k, v := range f.Args {
				args[k] = v
			}
			msg = catalog.T(i18n.Default, f.Key, args)
		}
		text += "\n  " + f.Field + ": " + msg
	}
	return text
}

func buildVersion() string {
	if version != "dev" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return version
}

// withApp parses the common configuration flags (plus extra ones), builds
// the app and runs fn with it.
func withApp(ctx context.Context, name string, args []string, stderr io.Writer, extra func(*flag.FlagSet), fn func(*app.App) error) error {
	cfg := config.Defaults()
	fs := flag.NewFlagSet("portfolio "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	config.Register(fs, &cfg)
	if extra != nil {
		extra(fs)
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	a, err := app.New(ctx, cfg, app.NewLogger(cfg))
	if err != nil {
		return err
	}
	defer a.Close()
	return fn(a)
}

func cmdServe(ctx context.Context, args []string, stderr io.Writer) error {
	return withApp(ctx, "serve", args, stderr, nil, func(a *app.App) error {
		if err := migrate(ctx, a); err != nil {
			return err
		}
		return a.Serve(ctx, nil)
	})
}

// migrate applies the migrations, then brings a seeded database's default
// rights to the current ones (seed.ApplyRights, decision 0059).
func migrate(ctx context.Context, a *app.App) error {
	if err := a.Migrate(ctx); err != nil {
		return err
	}
	return seed.ApplyRights(ctx, a.DB)
}

func cmdSeed(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var demo bool
	var scale int
	var scaleInvoices float64
	var scaleGroup int64
	return withApp(ctx, "seed", args, stderr, func(fs *flag.FlagSet) {
		fs.BoolVar(&demo, "demo", false, "create the demo data set (idempotent)")
		fs.IntVar(&scale, "scale", 0, "generate a portfolio of `N` points of sale for load tests (after the base and demo data; adds N more on every run)")
		fs.Float64Var(&scaleInvoices, "scale-invoices", seed.DefaultScaleInvoices, "invoices (with 4 positions each) per generated contract")
		fs.Int64Var(&scaleGroup, "scale-group", 0, "put every generated point of sale into this existing customer group `id` (e.g. 1, the demo's) instead of new groups")
	}, func(a *app.App) error {
		if !demo && scale == 0 {
			return errors.New("nothing to seed: pass --demo and/or --scale N")
		}
		if err := a.Migrate(ctx); err != nil {
			return err
		}
		if demo {
			logins, err := seed.Demo(ctx, a)
			if err != nil {
				return err
			}
			if err := seed.DemoDeadlines(ctx, a.DB, time.Now()); err != nil {
				return err
			}
			if err := seed.DemoMail(ctx, a, time.Now()); err != nil {
				return err
			}
			if err := seed.DemoConditions(ctx, a.DB); err != nil {
				return err
			}
			if err := seed.DemoIndexClauses(ctx, a.DB); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "Demo data ready. Demo logins (password %q, for demos only):\n", seed.DemoPassword)
			for _, l := range logins {
				fmt.Fprintf(stdout, "  %-28s %s\n", l.Email, l.Description)
			}
		}
		if scale == 0 {
			return nil
		}
		if !demo {
			if err := seed.Base(ctx, a.DB); err != nil {
				return err
			}
		}
		start := time.Now()
		lastStep := -1
		rows := 0
		report := func(done, total int) {
			rows = done
			pct := 100 * done / max(total, 1)
			if step := pct / 5; step > lastStep {
				lastStep = step
				fmt.Fprintf(stdout, "scale: %3d%%  %d of %d rows  %.0f rows/s\n", pct, done, total, float64(done)/time.Since(start).Seconds())
			}
		}
		if err := seed.Scale(ctx, a.DB, scale, report, seed.WithScaleInvoices(scaleInvoices), seed.WithScaleGroup(scaleGroup)); err != nil {
			return err
		}
		elapsed := time.Since(start)
		fmt.Fprintf(stdout, "Generated %d points of sale (%d rows) on %s in %s: %.0f rows/s.\n",
			scale, rows, a.DB.Dialect(), elapsed.Round(time.Millisecond), float64(rows)/elapsed.Seconds())
		return nil
	})
}

func cmdCreateAdmin(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var email, first, last, password string
	return withApp(ctx, "user create-admin", args, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&email, "email", "", "email address (asked when empty)")
		fs.StringVar(&first, "firstname", "", "first name (asked when empty)")
		fs.StringVar(&last, "lastname", "", "last name (asked when empty)")
		fs.StringVar(&password, "password", "", "password (asked without echo when empty; env PORTFOLIO_ADMIN_PASSWORD)")
	}, func(a *app.App) error {
		if password == "" {
			password = os.Getenv("PORTFOLIO_ADMIN_PASSWORD")
		}
		in := bufio.NewReader(stdin)
		var err error
		for _, q := range []struct {
			v      *string
			prompt string
			secret bool
		}{{&email, "Email: ", false}, {&first, "First name: ", false}, {&last, "Last name: ", false}, {&password, "Password: ", true}} {
			if *q.v == "" {
				if *q.v, err = ask(in, stdin, stdout, q.prompt, q.secret); err != nil {
					return err
				}
			}
		}
		if err := a.Migrate(ctx); err != nil {
			return err
		}
		id, err := seed.CreateAdmin(ctx, a, auth.NewUser{Email: email, FirstName: first, LastName: last, Password: password})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Administrator %s created (user id %d).\n", email, id)
		return nil
	})
}

// ask reads one answer; secrets are read without echo from a terminal.
func ask(in *bufio.Reader, stdin io.Reader, stdout io.Writer, prompt string, secret bool) (string, error) {
	fmt.Fprint(stdout, prompt)
	if f, ok := stdin.(*os.File); ok && secret && term.IsTerminal(int(f.Fd())) {
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(stdout)
		if err != nil {
			return "", fmt.Errorf("read password: %w", err)
		}
		return strings.TrimSpace(string(b)), nil
	}
	line, err := in.ReadString('\n')
	if err != nil && !(errors.Is(err, io.EOF) && line != "") {
		return "", fmt.Errorf("read answer: %w", err)
	}
	answer := strings.TrimSpace(line)
	if answer == "" {
		return "", fmt.Errorf("no answer to %q", strings.TrimSpace(prompt))
	}
	return answer, nil
}

// cmdJobs lists the background jobs or runs one now, against the
// configured database.
func cmdJobs(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const use = `use "portfolio jobs list" or "portfolio jobs run NAME"`
	if len(args) == 0 {
		return errors.New(use)
	}
	sub, args := args[0], args[1:]
	switch sub {
	case "list":
		return withApp(ctx, "jobs list", args, stderr, nil, func(a *app.App) error {
			if err := a.Migrate(ctx); err != nil {
				return err
			}
			list, err := a.Jobs.List(ctx)
			if err != nil {
				return err
			}
			return printJobs(stdout, list)
		})
	case "run":
		var name string
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			name, args = args[0], args[1:]
		}
		var fs *flag.FlagSet
		return withApp(ctx, "jobs run", args, stderr, func(f *flag.FlagSet) { fs = f }, func(a *app.App) error {
			if name == "" && fs.NArg() > 0 {
				name = fs.Arg(0)
			}
			if name == "" {
				return errors.New(use)
			}
			if err := a.Migrate(ctx); err != nil {
				return err
			}
			started := time.Now()
			st, err := a.Jobs.RunNow(ctx, name)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s: %s in %s\n", st.Name, st.State, time.Since(started).Round(time.Millisecond))
			return nil
		})
	}
	return fmt.Errorf("unknown jobs command %q: %s", sub, use)
}

// printJobs writes the jobs as a table.
func printJobs(w io.Writer, list []jobs.Status) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tSCHEDULE\tLAST RUN\tSTATE\tATTEMPTS\tNEXT RUN\tLAST ERROR")
	at := func(t *time.Time) string {
		if t == nil {
			return "-"
		}
		return t.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	for _, st := range list {
		schedule, state := st.Schedule, st.State
		if schedule == "" {
			schedule = "on demand"
		}
		if state == "" {
			state = "never run"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d/%d\t%s\t%s\n", st.Name, schedule, at(st.LastRunAt), state,
			st.Attempts, st.MaxAttempts, at(st.NextRunAt), st.LastError)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("print jobs: %w", err)
	}
	return nil
}
