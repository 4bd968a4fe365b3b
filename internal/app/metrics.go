package app

import (
	"context"
	"crypto/subtle"
	"database/sql"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
)

// metrics are the Prometheus metrics of one app: requests per route and
// status, their durations, and what is read at each scrape (database pool,
// job queue, mail outbox, live event watchers). Each app has its own
// registry: nothing global.
type metrics struct {
	registry  *prometheus.Registry
	requests  *prometheus.CounterVec
	durations *prometheus.HistogramVec
}

// scrapeTimeout bounds the queries a scrape runs.
const scrapeTimeout = 2 * time.Second

func newMetrics(a *App) *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "portfolio_http_requests_total", Help: "Answered HTTP requests by route pattern and status.",
		}, []string{"route", "status"}),
		durations: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "portfolio_http_request_duration_seconds", Help: "Time to answer HTTP requests by route pattern.",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route"}),
	}
	m.registry.MustRegister(m.requests, m.durations,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		collectors.NewDBStatsCollector(a.DB.Pool(), "portfolio"),
		&queryCollector{db: a.DB, log: a.Log},
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "portfolio_sqlite_writer_busy_seconds_total", Help: "Time SQLite's single writer was held by a transaction (0 on PostgreSQL).",
		}, func() float64 { return a.DB.WriterStats().Busy.Seconds() }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "portfolio_sqlite_writer_transactions_total", Help: "Transactions SQLite's writer ran (0 on PostgreSQL).",
		}, func() float64 { return float64(a.DB.WriterStats().Members) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "portfolio_sqlite_writer_groups_total", Help: "Shared transactions (group commits) those transactions formed (0 on PostgreSQL).",
		}, func() float64 { return float64(a.DB.WriterStats().Groups) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "portfolio_event_watchers", Help: "Open live event streams (GET /events).",
		}, func() float64 {
			if a.Events == nil {
				return 0
			}
			return float64(a.Events.Watchers())
		}))
	return m
}

// observe counts one answered request.
func (m *metrics) observe(o httpapi.Observation) {
	route := o.Pattern
	if route == "" {
		route = "other" // the single-page app and unknown paths: one series, not one per path
	}
	m.requests.WithLabelValues(route, strconv.Itoa(o.Status)).Inc()
	m.durations.WithLabelValues(route).Observe(o.Duration.Seconds())
}

// handler serves the metrics in Prometheus' text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{Registry: m.registry})
}

// bindMetrics serves GET /metrics on the main listener to requests that
// bear the configured token; without a token the path is unknown there
// (the debug listener serves it).
func bindMetrics(srv *httpapi.Server, m *metrics, token string) {
	h := m.handler()
	srv.Handle("GET /metrics", func(w http.ResponseWriter, r *http.Request) error {
		if token == "" {
			return apperr.NotFound("server.error.not_found")
		}
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(token)) != 1 {
			return apperr.Unauthorized("server.auth.not_authenticated")
		}
		h.ServeHTTP(w, r)
		return nil
	}, httpapi.Public())
}

// queryCollector reads, at each scrape, the job queue by state and the
// mail outbox.
type queryCollector struct {
	db  *db.DB
	log *slog.Logger
}

var (
	jobsDesc = prometheus.NewDesc("portfolio_jobs", "Jobs in the queue by state (available, scheduled, running, retryable: waiting or failing; discarded: given up).",
		[]string{"state"}, nil)
	outboxDesc = prometheus.NewDesc("portfolio_mail_outbox", "Mails not yet delivered: pending (never tried) and failing (tried, will be retried).",
		[]string{"state"}, nil)
)

func (c *queryCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- jobsDesc
	ch <- outboxDesc
}

func (c *queryCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	c.collect(ctx, ch, jobsDesc, `SELECT state, COUNT(*) FROM river_job WHERE state <> 'completed' GROUP BY state`)
	c.collect(ctx, ch, outboxDesc, `SELECT CASE WHEN mail_attempts = 0 THEN 'pending' ELSE 'failing' END, COUNT(*)
		FROM mail_outbox WHERE sent_at IS NULL GROUP BY CASE WHEN mail_attempts = 0 THEN 'pending' ELSE 'failing' END`)
}

// collect sends one gauge per row (label, count) of query; a failed query
// is logged and leaves its series out of this scrape.
func (c *queryCollector) collect(ctx context.Context, ch chan<- prometheus.Metric, desc *prometheus.Desc, query string) {
	rows, err := c.db.QueryContext(ctx, query)
	if err != nil {
		c.log.Warn("metrics: scrape query failed", "error", err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var label sql.NullString
		var n float64
		if err := rows.Scan(&label, &n); err != nil {
			c.log.Warn("metrics: scrape query failed", "error", err)
			return
		}
		ch <- prometheus.MustNewConstMetric(desc, prometheus.GaugeValue, n, label.String)
	}
	if err := rows.Err(); err != nil {
		c.log.Warn("metrics: scrape query failed", "error", err)
	}
}
