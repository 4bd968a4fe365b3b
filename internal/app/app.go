// Package app wires the server once: configuration, logger, database,
// texts, mail, authentication and every module's routes; it starts and stops
// them together.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"portfolio/internal/access"
	"portfolio/internal/contracts"
	"portfolio/internal/dashboard"
	"portfolio/internal/documents"
	"portfolio/internal/errorboard"
	"portfolio/internal/events"
	"portfolio/internal/imports"
	"portfolio/internal/indexation"
	"portfolio/internal/invoices"
	"portfolio/internal/masterdata"
	"portfolio/internal/tickets"
	"runtime"
	"sync"
	"time"

	"portfolio/internal/auth"
	"portfolio/internal/config"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/jobs"
	"portfolio/internal/platform/deadline"
	"portfolio/internal/platform/mailbox"
	"portfolio/internal/platform/mailer"
	"portfolio/internal/platform/storage"
	"portfolio/internal/tables"
	"portfolio/internal/translations"
	"portfolio/internal/users"
	"portfolio/web"
)

// App is the wired product.
type App struct {
	Config  config.Config
	Log     *slog.Logger
	DB      *db.DB
	Catalog *i18n.Catalog
	Outbox  *mailer.Outbox
	Auth    *auth.Service
	Server  *httpapi.Server
	// Rights caches computed rights per rights generation, shared by every
	// module that checks rights.
	Rights *access.Cache
	// Engine is the table engine every domain module reads and writes
	// through (built in bindRoutes).
	Engine *tables.Engine
	// Documents is the file store of uploaded documents.
	Documents *documents.Store
	// documentService uploads and serves documents (bound in bindRoutes).
	documentService *documents.Service
	// metrics counts requests and reads the queue depths at each scrape.
	metrics *metrics
	// errors records failed answers for the error dashboard.
	errors *errorboard.Service
	// contractService keeps the deadlines' notice dates (bound in
	// bindRoutes).
	contractService *contracts.Service
	// Indexation is the index clause module (the seed imports the default
	// series through it).
	Indexation *indexation.Service
	// Invoices is the invoice review module.
	Invoices *invoices.Service
	// Imports is the spreadsheet import (large commits run as jobs).
	Imports *imports.Service

	// Events is the live event stream's hub (GET /events): it ends its
	// streams when shutdown begins.
	Events *events.Hub

	// OnShutdown, when set, runs as graceful shutdown begins.
	OnShutdown func()
	// Mail delivers the outbox in the background while serving.
	Mail *mailer.Deliverer
	// Jobs is the queue of background and scheduled work (River, on the
	// app's database), worked while serving.
	Jobs *jobs.Queue
}

// cachedUsers bounds the per-user rights cache.
const cachedUsers = 10000

// NewLogger builds the process logger from the configuration.
func NewLogger(cfg config.Config) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(os.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(os.Stderr, opts))
}

// New opens the database and wires every part. It does not migrate; call
// Migrate (serve does) before answering requests.
func New(ctx context.Context, cfg config.Config, log *slog.Logger) (*App, error) {
	if err := os.MkdirAll(cfg.DataDir, 0o750); err != nil {
		return nil, fmt.Errorf("app: data directory %s: %w", cfg.DataDir, err)
	}
	database, err := db.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	a, err := NewWithDB(cfg, log, database)
	if err != nil {
		database.Close()
		return nil, err
	}
	return a, nil
}

// NewWithDB wires every part around an open database (tests pass theirs).
// Close closes the database.
func NewWithDB(cfg config.Config, log *slog.Logger, database *db.DB) (*App, error) {
	catalog, err := i18n.Load()
	if err != nil {
		return nil, err
	}
	secret := []byte(cfg.JWTSecret)
	if len(secret) == 0 {
		if secret, err = auth.LoadOrCreateSecret(cfg.DataDir); err != nil {
			return nil, err
		}
	}
	a := &App{Config: cfg, Log: log, DB: database, Catalog: catalog, Outbox: mailer.NewOutbox(cfg.SMTP.From),
		Rights: access.NewCache(cachedUsers)}
	if a.Documents, err = openDocumentStore(cfg); err != nil {
		return nil, err
	}
	a.Auth, err = auth.NewService(auth.Deps{
		DB: database, Outbox: a.Outbox, Catalog: catalog, Log: log, Secret: secret, PublicURL: cfg.PublicURL,
		AccessTokenTTL: cfg.AccessTokenTTL, SessionIdleTimeout: cfg.SessionIdleTimeout, SessionMaxLifetime: cfg.SessionMaxLifetime,
		ResetLinkTTL: cfg.ResetLinkTTL, VerifyLinkTTL: cfg.VerifyLinkTTL, Rights: a.Rights,
	})
	if err != nil {
		return nil, err
	}
	a.Mail = &mailer.Deliverer{DB: database, Outbox: a.Outbox, Log: log}
	if cfg.SMTP.Host != "" {
		a.Mail.Sender = mailer.NewSMTPSender(mailer.SMTPConfig{
			Host: cfg.SMTP.Host, Port: cfg.SMTP.Port, Username: cfg.SMTP.Username, Password: cfg.SMTP.Password, TLS: cfg.SMTP.TLS,
		})
	}
	proxies, err := httpapi.ParseProxies(cfg.TrustedProxies)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	a.metrics = newMetrics(a)
	a.errors = errorboard.New(errorboard.Deps{DB: database, Log: log})
	observe := func(o httpapi.Observation) {
		a.metrics.observe(o)
		a.errors.Observe(o)
	}
	a.Server = httpapi.New(httpapi.Options{Logger: log, Catalog: catalog, MaxBodyBytes: cfg.MaxBodyBytes, SPA: web.Dist(),
		TrustedProxies: proxies, Observe: observe, MaxInFlight: cfg.MaxInFlight, QueueWait: cfg.QueueWait,
		Turns: turnsOf(cfg.Turns), TurnSpill: cfg.TurnSpill})
	a.Server.SetAuthenticator(a.Auth)
	a.Jobs = jobs.New(database, log, jobs.Options{})
	a.errors.Use(a.Jobs, a.Outbox)
	if err := a.bindRoutes(secret); err != nil {
		return nil, err
	}
	a.documentService.UseLinks(secret, a.Auth)
	a.documentService.UseMail(a.Outbox, cfg.SMTP.From)
	a.documentService.UseMailbox(mailbox.Config{Addr: cfg.IMAP.Addr, Username: cfg.IMAP.Username, Password: cfg.IMAP.Password,
		Mailbox: cfg.IMAP.Mailbox, TLS: cfg.IMAP.TLS})
	if err := a.registerJobs(); err != nil {
		return nil, err
	}
	return a, nil
}

// DocumentService is the documents module's service.
func (a *App) DocumentService() *documents.Service { return a.documentService }

// bindRoutes lets each module register its own routes; secret is the
// server's, from which the live stream derives its id key.
func (a *App) bindRoutes(secret []byte) error {
	bindHealth(a.Server, a.DB)
	bindMetrics(a.Server, a.metrics, a.Config.MetricsToken)
	auth.Bind(a.Server, a.Auth)
	translations.Bind(a.Server, &translations.Handler{DB: a.DB})
	engine := tables.MustNew(tables.Deps{DB: a.DB, Catalog: a.Catalog, Log: a.Log, Rights: a.Rights, Principals: a.Auth})
	a.Engine = engine
	a.errors.UseEngine(engine, a.Catalog)
	tables.Bind(a.Server, engine)
	users.Bind(a.Server, users.MustNew(users.Deps{DB: a.DB, Auth: a.Auth, Engine: engine, Catalog: a.Catalog, Outbox: a.Outbox, Log: a.Log}))
	a.documentService = documents.New(a.DB, engine, a.Documents, a.Catalog, a.Log)
	documents.Bind(a.Server, a.documentService)
	jobs.Bind(a.Server, a.Jobs)
	errorboard.Bind(a.Server, a.errors)
	errorboard.BindBackoffice(a.Server, a.errors)
	masterdata.Bind(a.Server, masterdata.New(a.DB, engine, a.Log))
	a.contractService = contracts.New(contracts.Deps{DB: a.DB, Engine: engine, Outbox: a.Outbox, Catalog: a.Catalog, PublicURL: a.Config.PublicURL, Principals: a.Auth,
		Lights: deadline.Thresholds{Red: a.Config.TrafficLight.Red, Yellow: a.Config.TrafficLight.Yellow}})
	a.Auth.OnPasswordChanged(contracts.ForgetCalendarLink)
	contracts.Bind(a.Server, a.contractService)
	a.Indexation = indexation.New(indexation.Deps{DB: a.DB, Engine: engine, Catalog: a.Catalog, Log: a.Log})
	a.Indexation.AfterChange(a.enqueueIndexAdjustments)
	indexation.Bind(a.Server, a.Indexation)
	a.Invoices = invoices.New(invoices.Deps{DB: a.DB, Engine: engine, Catalog: a.Catalog, Log: a.Log})
	invoices.Bind(a.Server, a.Invoices)
	a.contractService.AddDueSource(a.Invoices)
	ticketService := tickets.New(tickets.Deps{DB: a.DB, Engine: engine, Log: a.Log})
	ticketService.OnStamp(a.documentService.StampTicket)
	tickets.Bind(a.Server, ticketService)
	a.Imports = imports.New(imports.Deps{DB: a.DB, Engine: engine, Catalog: a.Catalog, Log: a.Log, Limits: imports.Limits{
		MaxRows: a.Config.Imports.MaxRows, MaxCells: a.Config.Imports.MaxCells,
		MaxUnpackedBytes: a.Config.Imports.MaxUnpackedBytes, MaxPartBytes: a.Config.Imports.MaxPartBytes}})
	a.Imports.UseQueue(a.Jobs, a.Auth)
	a.errors.UseImports(a.Imports)
	imports.Bind(a.Server, a.Imports)
	dashboard.Bind(a.Server, dashboard.New(dashboard.Deps{DB: a.DB, Engine: engine, Log: a.Log,
		Lights: deadline.Thresholds{Red: a.Config.TrafficLight.Red, Yellow: a.Config.TrafficLight.Yellow}}))
	var err error
	if a.Events, err = events.New(a.DB, engine, a.Log, events.Options{IDKey: secret}); err != nil {
		return err
	}
	// A comment changes a ticket's timeline, not the ticket: published as an
	// update of the ticket so that open timelines reload (decision 0027).
	ticketService.OnCommented(func(id int64) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := a.Events.Publish(ctx, "ticket", id, "update"); err != nil {
			a.Log.Error("tickets: publish comment", "ticket", id, "error", err)
		}
	})
	events.Bind(a.Server, a.Events, a.Auth)
	return nil
}

// registerJobs puts the scheduled maintenance on the job queue. Each runs
// once a UTC day (and when a server starts, if it has not run that day yet).
func (a *App) registerJobs() error {
	for _, j := range []jobs.Job{
		{Name: "document_sweep", Schedule: jobs.DailyAt(3, 0), Work: a.documentService.Sweep},
		// Incoming mail: a no-op without PORTFOLIO_IMAP_ADDR.
		{Name: "mail_fetch", Schedule: jobs.Every(5 * time.Minute), Work: a.documentService.FetchMail},
		{Name: "session_purge", Schedule: jobs.DailyAt(3, 20), Work: a.purgeSessions},
		// The keyword indexes merged into one segment each, in short steps,
		// before the statistics are taken (db.MergeTextIndexes).
		{Name: "text_index_merge", Schedule: jobs.DailyAt(3, 30), Work: a.DB.MergeTextIndexes},
		{Name: "planner_statistics", Schedule: jobs.DailyAt(3, 40), Work: func(ctx context.Context) error { return a.DB.Optimize(ctx, false) }},
		{Name: "deadline_notice_dates", Schedule: jobs.DailyAt(0, 5), Work: a.recomputeNoticeDates},
		{Name: "deadline_alerts", Schedule: jobs.DailyAt(5, 0), Work: a.sendDeadlineDigests},
		// Daily rather than monthly: the publisher's release day varies, and
		// a run that finds nothing new stores nothing (decision 0011).
		{Name: indexation.JobName, Schedule: jobs.DailyAt(4, 30), Work: a.runIndexAdjustments},
		// The commit of a large import, enqueued by its request.
		a.Imports.Job(),
	} {
		if err := a.Jobs.Register(j); err != nil {
			return err
		}
	}
	return nil
}

// Migrate applies pending migrations (ours, then the job queue's own
// tables) and brings the shipped texts into the translation table.
func (a *App) Migrate(ctx context.Context) error {
	applied, err := a.DB.Migrate(ctx, a.Jobs.Migrate)
	if err != nil {
		return err
	}
	if len(applied) > 0 {
		a.Log.Info("migrations applied", "versions", applied, "dialect", a.DB.Dialect())
	}
	if err := a.DB.Optimize(ctx, false); err != nil {
		return err
	}
	n, err := translations.Sync(ctx, a.DB, a.Catalog)
	if err != nil {
		return err
	}
	if n > 0 {
		a.Log.Info("texts updated", "count", n)
	}
	return nil
}

// Handler is the HTTP handler with all middleware.
func (a *App) Handler() http.Handler { return a.Server.Handler() }

// Close ends the live streams, stops the table engine's counts in the
// background and releases the job queue's connections and the database.
func (a *App) Close() error {
	a.Events.Close()
	if a.Engine != nil {
		a.Engine.Close()
	}
	a.Jobs.Close()
	return a.DB.Close()
}

// recomputeNoticeDates moves the notice dates of options whose date
// passed on to their next use (decision 0008).
func (a *App) recomputeNoticeDates(ctx context.Context) error {
	n, err := a.contractService.RecomputeNoticeDates(ctx)
	if n > 0 {
		a.Log.InfoContext(ctx, "notice dates moved on", "deadlines", n)
	}
	return err
}

// sendDeadlineDigests mails each responsible user the deadlines that came
// within one of their horizons.
func (a *App) sendDeadlineDigests(ctx context.Context) error {
	n, err := a.contractService.SendDeadlineDigests(ctx)
	if n > 0 {
		a.Log.InfoContext(ctx, "deadline digests queued", "mails", n)
	}
	return err
}

// runIndexAdjustments evaluates every index clause as the system.
func (a *App) runIndexAdjustments(ctx context.Context) error {
	res, err := a.Indexation.Run(tables.AsSystem(ctx), nil, false)
	if err != nil {
		return err
	}
	a.Log.InfoContext(ctx, "index clauses evaluated", "payments", res.Evaluated, "proposals", res.Created, "errors", len(res.Errors))
	return nil
}

// enqueueIndexAdjustments queues the index_adjustments job after an
// import changed values or a clause or payment changed what it yields; a
// failure to queue is logged (the daily run catches up).
func (a *App) enqueueIndexAdjustments(ctx context.Context) {
	if err := a.Jobs.EnqueueOnce(ctx, indexation.JobName); err != nil {
		a.Log.WarnContext(ctx, "index adjustments not queued", "error", err)
	}
}

// sessionRetention is how long ended sessions and used links are kept, for
// investigating incidents.
const sessionRetention = 30 * 24 * time.Hour

func (a *App) purgeSessions(ctx context.Context) error {
	n, err := a.Auth.PurgeExpired(ctx, sessionRetention)
	if err == nil && n > 0 {
		a.Log.Info("ended sessions purged", "rows", n)
	}
	return err
}

// Serve answers HTTP on the configured address until ctx ends, then lets
// in-flight requests finish (up to the shutdown timeout) and stops the
// background workers. ready, when not nil, receives the bound address.
func (a *App) Serve(ctx context.Context, ready func(addr string)) error {
	ln, err := net.Listen("tcp", a.Config.Addr)
	if err != nil {
		return fmt.Errorf("app: listen on %s: %w", a.Config.Addr, err)
	}
	srv := &http.Server{
		Handler:           a.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       10 * time.Minute, // uploads may take up to 600 s
		WriteTimeout:      10 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(a.Log.Handler(), slog.LevelWarn),
	}
	if a.OnShutdown != nil {
		srv.RegisterOnShutdown(a.OnShutdown)
	}
	// Open event streams would hold Shutdown until its timeout: end them.
	srv.RegisterOnShutdown(a.Events.Close)
	workers, stopWorkers := context.WithCancel(context.WithoutCancel(ctx))
	if err := a.Jobs.Start(workers); err != nil {
		stopWorkers()
		ln.Close()
		return err
	}
	// stopJobs lets running jobs finish within the shutdown timeout.
	stopJobs := func() error {
		stopCtx, cancel := context.WithTimeout(context.Background(), a.Config.ShutdownTimeout)
		defer cancel()
		return a.Jobs.Stop(stopCtx)
	}
	var wg sync.WaitGroup
	wg.Go(func() { a.Mail.Run(workers) })

	if a.Config.DebugAddr != "" {
		stopDebug, err := a.serveDebug(a.Config.DebugAddr)
		if err != nil {
			err = errors.Join(err, stopJobs())
			stopWorkers()
			wg.Wait()
			ln.Close()
			return err
		}
		defer stopDebug()
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if ready != nil {
		ready(ln.Addr().String())
	}
	a.Log.Info("serving", "addr", ln.Addr().String(), "database", a.DB.Dialect(), "public_url", a.Config.PublicURL)

	select {
	case err := <-errc:
		err = errors.Join(err, stopJobs())
		stopWorkers()
		wg.Wait()
		return err
	case <-ctx.Done():
	}
	a.Log.Info("shutting down: finishing in-flight requests", "timeout", a.Config.ShutdownTimeout)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), a.Config.ShutdownTimeout)
	defer cancel()
	err = srv.Shutdown(shutdownCtx)
	if jobErr := stopJobs(); jobErr != nil {
		a.Log.Error("stopping the job queue", "error", jobErr)
	}
	stopWorkers()
	wg.Wait()
	if errors.Is(<-errc, http.ErrServerClosed) && err == nil {
		a.Log.Info("stopped")
		return nil
	}
	return err
}

// openDocumentStore opens the store of document files: the data
// directory's documents/, or the bucket of cfg.StorageURL (uploads then
// staged in the data directory's documents-staging/).
func openDocumentStore(cfg config.Config) (*documents.Store, error) {
	bucket, err := Bucket(cfg)
	if err != nil {
		return nil, err
	}
	if bucket == nil {
		return documents.NewStore(filepath.Join(cfg.DataDir, "documents"))
	}
	return documents.NewStoreOn(bucket, filepath.Join(cfg.DataDir, StagingDir))
}

// Bucket answers the S3 bucket of cfg.StorageURL, checked to be reachable
// so a wrong setting fails at start (nil, nil without a storage URL: the
// documents live in the data directory).
func Bucket(cfg config.Config) (*storage.S3, error) {
	if cfg.StorageURL == "" {
		return nil, nil
	}
	s3, err := storage.NewS3(storage.S3Config{
		URL: cfg.StorageURL, Endpoint: cfg.S3.Endpoint, Region: cfg.S3.Region,
		AccessKey: cfg.S3.AccessKey, SecretKey: cfg.S3.SecretKey, PathStyle: cfg.S3.PathStyle, TLS: cfg.S3.TLS,
	})
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s3.Check(ctx); err != nil {
		return nil, fmt.Errorf("documents: %w", err)
	}
	return s3, nil
}

// StagingDir is the data directory's folder of uploads in flight when
// the documents live in a bucket.
const StagingDir = "documents-staging"

// turnsOf is the number of turns the setting asks for: -1 means two per
// CPU the process may use (what keeps two cores busy while a request
// waits on the database or the network).
func turnsOf(setting int) int {
	if setting < 0 {
		return 2 * runtime.GOMAXPROCS(0)
	}
	return setting
}
