// Package config holds the typed configuration of the server: defaults,
// overridden by PORTFOLIO_* environment variables, overridden by flags.
package config

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"
)

// Config is everything the server can be told at start.
type Config struct {
	Addr        string
	DatabaseURL string
	DataDir     string
	JWTSecret   string // empty: generated and kept in DataDir/jwt-secret
	PublicURL   string // base of links in mails
	LogLevel    slog.Level
	LogFormat   string // text or json

	AccessTokenTTL     time.Duration
	SessionIdleTimeout time.Duration
	SessionMaxLifetime time.Duration
	ResetLinkTTL       time.Duration
	VerifyLinkTTL      time.Duration

	MaxBodyBytes int64
	// MaxInFlight bounds the requests served at once; beyond it a request
	// waits up to QueueWait, then answers 503 with Retry-After (0: no bound).
	MaxInFlight int
	QueueWait   time.Duration
	// Turns are the admitted requests that run at once, the others
	// waiting in line in order, each at most TurnSpill (0: no line; -1:
	// two per CPU the process may use).
	Turns     int
	TurnSpill time.Duration
	// TrustedProxies are the reverse proxies (addresses or CIDR prefixes,
	// comma-separated) whose X-Forwarded-For names the client.
	TrustedProxies  string
	ShutdownTimeout time.Duration
	// DebugAddr, when set, serves Go's profiler (net/http/pprof) on a
	// second listener; keep it on a loopback or private address.
	DebugAddr string
	// MetricsToken, when set, opens /metrics on the main listener to
	// requests bearing it; without it the metrics are served on the debug
	// listener only.
	MetricsToken string

	SMTP SMTP

	// StorageURL says where document files live: empty keeps them in
	// the data directory (documents/), s3://bucket/prefix in a bucket of
	// an S3-compatible server reached with S3.
	StorageURL string
	S3         S3

	// IMAP is the mailbox incoming mail is fetched from.
	IMAP IMAP

	// TrafficLight holds the days before a deadline's notice date at which
	// its traffic light turns red and yellow (green before).
	TrafficLight TrafficLight

	// Imports bounds what one uploaded spreadsheet may make the server
	// read (decision 0067).
	Imports Imports
}

// Imports are the limits of a spreadsheet import (decision 0067): a file
// crossing one is refused with 413 as soon as it does, nothing kept.
type Imports struct {
	// MaxRows is the most rows below the headings of one sheet or CSV file.
	MaxRows int
	// MaxCells is the most cells of one sheet (also the most different
	// texts of a workbook).
	MaxCells int
	// MaxUnpackedBytes is the most a workbook's parts unpack to together.
	MaxUnpackedBytes int64
	// MaxPartBytes is the most one part of a workbook unpacks to (a sheet,
	// its texts), and the largest CSV file.
	MaxPartBytes int64
}

// TrafficLight are the thresholds of a deadline's traffic light in days:
// red when the notice date is at most Red days away (or past), yellow at
// most Yellow days, green otherwise.
type TrafficLight struct {
	Red, Yellow int
}

// IMAP configures incoming mail: a mailbox the job mail_fetch reads
// every 5 minutes. Without Addr no mail is fetched.
type IMAP struct {
	Addr     string // host:port
	Username string
	Password string
	Mailbox  string // default INBOX
	TLS      string // tls (default), starttls, none
}

// S3 reaches the bucket of StorageURL (decision 0034).
type S3 struct {
	Endpoint  string // host[:port]; default s3.amazonaws.com
	Region    string // empty: asked from the server
	AccessKey string // with SecretKey; both empty: AWS_* / MINIO_* variables or the IAM role
	SecretKey string
	PathStyle bool // address the bucket in the path (host/bucket/key) instead of the host name
	TLS       bool // HTTPS to the endpoint
}

// SMTP configures outgoing mail. Without Host, mail is kept in the outbox
// table and logged instead of sent.
type SMTP struct {
	Host     string
	Port     int
	Username string
	Password string
	From     string
	TLS      string // starttls (default), tls, none
}

// Defaults returns the configuration used when nothing is set.
func Defaults() Config {
	return Config{
		Addr:               ":8080",
		DataDir:            "data",
		PublicURL:          "http://localhost:8080",
		LogLevel:           slog.LevelInfo,
		LogFormat:          "text",
		AccessTokenTTL:     30 * time.Minute,
		SessionIdleTimeout: 12 * time.Hour,
		SessionMaxLifetime: 14 * 24 * time.Hour,
		ResetLinkTTL:       2 * time.Hour,
		VerifyLinkTTL:      7 * 24 * time.Hour,
		MaxBodyBytes:       2 << 20,
		MaxInFlight:        512,
		QueueWait:          time.Second,
		Turns:              -1,
		TurnSpill:          100 * time.Millisecond,
		ShutdownTimeout:    30 * time.Second,
		SMTP:               SMTP{Port: 587, From: "Portfolio <no-reply@localhost>", TLS: "starttls"},
		IMAP:               IMAP{Mailbox: "INBOX", TLS: "tls"},
		S3:                 S3{TLS: true},
		TrafficLight:       TrafficLight{Red: 30, Yellow: 90},
		Imports:            Imports{MaxRows: 200_000, MaxCells: 2_000_000, MaxUnpackedBytes: 256 << 20, MaxPartBytes: 128 << 20},
	}
}

// Register adds every option to fs as a flag whose default comes from the
// environment (PORTFOLIO_*) or the built-in default, so "--help" documents
// each one with its variable. Call fs.Parse, then Validate.
func Register(fs *flag.FlagSet, c *Config) {
	str := func(p *string, name, env, usage string) {
		*p = envOr(env, *p)
		fs.StringVar(p, name, *p, fmt.Sprintf("%s (env %s)", usage, env))
	}
	dur := func(p *time.Duration, name, env, usage string) {
		if v, ok := os.LookupEnv(env); ok {
			if d, err := time.ParseDuration(v); err == nil {
				*p = d
			}
		}
		fs.DurationVar(p, name, *p, fmt.Sprintf("%s (env %s)", usage, env))
	}
	str(&c.Addr, "addr", "PORTFOLIO_ADDR", "listen address")
	str(&c.DatabaseURL, "database-url", "PORTFOLIO_DATABASE_URL", "database URL: empty or sqlite:<file> for embedded SQLite in the data directory, postgres://... for PostgreSQL")
	str(&c.DataDir, "data-dir", "PORTFOLIO_DATA_DIR", "data directory for the SQLite file, documents and the generated JWT secret")
	str(&c.JWTSecret, "jwt-secret", "PORTFOLIO_JWT_SECRET", "secret signing access tokens (at least 32 bytes); generated and stored in the data directory when empty")
	str(&c.PublicURL, "public-url", "PORTFOLIO_PUBLIC_URL", "public base URL used in links sent by mail")
	str(&c.LogFormat, "log-format", "PORTFOLIO_LOG_FORMAT", "log format: text or json")
	level := envOr("PORTFOLIO_LOG_LEVEL", c.LogLevel.String())
	fs.Func("log-level", fmt.Sprintf("log level: debug, info, warn, error (env PORTFOLIO_LOG_LEVEL) (default %q)", strings.ToLower(level)), func(s string) error {
		return c.LogLevel.UnmarshalText([]byte(s))
	})
	_ = c.LogLevel.UnmarshalText([]byte(level))
	dur(&c.AccessTokenTTL, "access-token-ttl", "PORTFOLIO_ACCESS_TOKEN_TTL", "lifetime of an access token")
	dur(&c.SessionIdleTimeout, "session-idle-timeout", "PORTFOLIO_SESSION_IDLE_TIMEOUT", "a session unused this long ends")
	dur(&c.SessionMaxLifetime, "session-max-lifetime", "PORTFOLIO_SESSION_MAX_LIFETIME", "a session ends this long after login, used or not")
	dur(&c.ResetLinkTTL, "reset-link-ttl", "PORTFOLIO_RESET_LINK_TTL", "validity of a password reset link")
	dur(&c.VerifyLinkTTL, "verify-link-ttl", "PORTFOLIO_VERIFY_LINK_TTL", "validity of an account verification link")
	str(&c.TrustedProxies, "trusted-proxies", "PORTFOLIO_TRUSTED_PROXIES", "reverse proxies (addresses or CIDR prefixes, comma-separated) whose X-Forwarded-For names the client; empty: the peer address is the client")
	str(&c.DebugAddr, "debug-addr", "PORTFOLIO_DEBUG_ADDR", "address of a second listener serving the Go profiler at /debug/pprof/ (empty: off); never expose it publicly")
	str(&c.MetricsToken, "metrics-token", "PORTFOLIO_METRICS_TOKEN", "when set, GET /metrics on the main listener answers Prometheus metrics to requests with \"Authorization: Bearer <token>\" (empty: metrics only on the debug listener)")
	dur(&c.ShutdownTimeout, "shutdown-timeout", "PORTFOLIO_SHUTDOWN_TIMEOUT", "how long in-flight requests may finish after SIGTERM")
	if v, ok := os.LookupEnv("PORTFOLIO_MAX_BODY_BYTES"); ok {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			c.MaxBodyBytes = n
		}
	}
	fs.Int64Var(&c.MaxBodyBytes, "max-body-bytes", c.MaxBodyBytes, "largest JSON or form request body (env PORTFOLIO_MAX_BODY_BYTES)")
	str(&c.SMTP.Host, "smtp-host", "PORTFOLIO_SMTP_HOST", "SMTP server; empty keeps mail in the outbox table and the log")
	if v, ok := os.LookupEnv("PORTFOLIO_SMTP_PORT"); ok {
		if n, err := strconv.Atoi(v); err == nil {
			c.SMTP.Port = n
		}
	}
	fs.IntVar(&c.SMTP.Port, "smtp-port", c.SMTP.Port, "SMTP port (env PORTFOLIO_SMTP_PORT)")
	str(&c.SMTP.Username, "smtp-username", "PORTFOLIO_SMTP_USERNAME", "SMTP user name")
	str(&c.SMTP.Password, "smtp-password", "PORTFOLIO_SMTP_PASSWORD", "SMTP password")
	str(&c.SMTP.From, "smtp-from", "PORTFOLIO_SMTP_FROM", "sender address of mail")
	str(&c.SMTP.TLS, "smtp-tls", "PORTFOLIO_SMTP_TLS", "SMTP transport security: starttls, tls or none")
	str(&c.StorageURL, "storage-url", "PORTFOLIO_STORAGE_URL", "where document files live: empty for the data directory, s3://bucket/prefix for an S3-compatible bucket")
	str(&c.S3.Endpoint, "s3-endpoint", "PORTFOLIO_S3_ENDPOINT", "S3 server host[:port] (default s3.amazonaws.com)")
	str(&c.S3.Region, "s3-region", "PORTFOLIO_S3_REGION", "S3 region of the bucket (empty: asked from the server)")
	str(&c.S3.AccessKey, "s3-access-key", "PORTFOLIO_S3_ACCESS_KEY", "S3 access key id (empty with the secret: AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, MINIO_ROOT_USER/MINIO_ROOT_PASSWORD or the IAM role)")
	str(&c.S3.SecretKey, "s3-secret-key", "PORTFOLIO_S3_SECRET_KEY", "S3 secret access key")
	boolean := func(p *bool, name, env, usage string) {
		if v, ok := os.LookupEnv(env); ok {
			if b, err := strconv.ParseBool(v); err == nil {
				*p = b
			}
		}
		fs.BoolVar(p, name, *p, fmt.Sprintf("%s (env %s)", usage, env))
	}
	boolean(&c.S3.PathStyle, "s3-path-style", "PORTFOLIO_S3_PATH_STYLE", "address the bucket in the URL path (host/bucket/key), as most self-hosted S3 servers need; false picks by endpoint")
	boolean(&c.S3.TLS, "s3-tls", "PORTFOLIO_S3_TLS", "speak HTTPS to the S3 endpoint")
	str(&c.IMAP.Addr, "imap-addr", "PORTFOLIO_IMAP_ADDR", "IMAP server (host:port) incoming mail is fetched from; empty fetches none")
	str(&c.IMAP.Username, "imap-username", "PORTFOLIO_IMAP_USERNAME", "IMAP user name")
	str(&c.IMAP.Password, "imap-password", "PORTFOLIO_IMAP_PASSWORD", "IMAP password")
	str(&c.IMAP.Mailbox, "imap-mailbox", "PORTFOLIO_IMAP_MAILBOX", "IMAP mailbox of incoming mail")
	str(&c.IMAP.TLS, "imap-tls", "PORTFOLIO_IMAP_TLS", "IMAP transport security: tls, starttls or none")
	days := func(p *int, name, env, usage string) {
		if v, ok := os.LookupEnv(env); ok {
			if n, err := strconv.Atoi(v); err == nil {
				*p = n
			}
		}
		fs.IntVar(p, name, *p, fmt.Sprintf("%s (env %s)", usage, env))
	}
	days(&c.MaxInFlight, "max-in-flight", "PORTFOLIO_MAX_IN_FLIGHT", "requests served at once; beyond it a request waits up to the queue wait, then answers 503 with Retry-After (0: no bound)")
	dur(&c.QueueWait, "queue-wait", "PORTFOLIO_QUEUE_WAIT", "how long a request waits for a turn when the server is at its bound")
	days(&c.Turns, "turns", "PORTFOLIO_TURNS", "admitted requests that run at once while the others wait in line in the order they came (-1: two per CPU; 0: no line)")
	dur(&c.TurnSpill, "turn-spill", "PORTFOLIO_TURN_SPILL", "how long a request waits in line before it goes ahead without a turn")
	days(&c.TrafficLight.Red, "deadline-red-days", "PORTFOLIO_DEADLINE_RED_DAYS", "a deadline's traffic light is red this many days before its notice date or less")
	days(&c.TrafficLight.Yellow, "deadline-yellow-days", "PORTFOLIO_DEADLINE_YELLOW_DAYS", "a deadline's traffic light is yellow this many days before its notice date or less")
	days(&c.Imports.MaxRows, "import-max-rows", "PORTFOLIO_IMPORT_MAX_ROWS", "most rows below the headings of one imported sheet or CSV file; more answer 413")
	days(&c.Imports.MaxCells, "import-max-cells", "PORTFOLIO_IMPORT_MAX_CELLS", "most cells of one imported sheet (and different texts of a workbook); more answer 413")
	byteCount := func(p *int64, name, env, usage string) {
		if v, ok := os.LookupEnv(env); ok {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil {
				*p = n
			}
		}
		fs.Int64Var(p, name, *p, fmt.Sprintf("%s (env %s)", usage, env))
	}
	byteCount(&c.Imports.MaxUnpackedBytes, "import-max-unpacked-bytes", "PORTFOLIO_IMPORT_MAX_UNPACKED_BYTES", "most bytes an imported workbook's parts unpack to together; more answer 413")
	byteCount(&c.Imports.MaxPartBytes, "import-max-part-bytes", "PORTFOLIO_IMPORT_MAX_PART_BYTES", "most bytes one part (a sheet) of an imported workbook unpacks to, and the largest imported CSV file; more answer 413")
}

// Validate reports the first inconsistent setting.
func (c *Config) Validate() error {
	switch {
	case c.AccessTokenTTL < time.Second:
		return fmt.Errorf("config: access token lifetime %s is too short", c.AccessTokenTTL)
	case c.SessionIdleTimeout < c.AccessTokenTTL:
		return fmt.Errorf("config: session idle timeout %s is shorter than the access token lifetime %s", c.SessionIdleTimeout, c.AccessTokenTTL)
	case c.SessionMaxLifetime < c.SessionIdleTimeout:
		return fmt.Errorf("config: session lifetime %s is shorter than its idle timeout %s", c.SessionMaxLifetime, c.SessionIdleTimeout)
	case c.JWTSecret != "" && len(c.JWTSecret) < 32:
		return fmt.Errorf("config: the JWT secret must be at least 32 bytes")
	case c.LogFormat != "text" && c.LogFormat != "json":
		return fmt.Errorf("config: log format %q is neither text nor json", c.LogFormat)
	case c.SMTP.TLS != "starttls" && c.SMTP.TLS != "tls" && c.SMTP.TLS != "none":
		return fmt.Errorf("config: SMTP TLS mode %q is not starttls, tls or none", c.SMTP.TLS)
	case c.IMAP.TLS != "starttls" && c.IMAP.TLS != "tls" && c.IMAP.TLS != "none":
		return fmt.Errorf("config: IMAP TLS mode %q is not tls, starttls or none", c.IMAP.TLS)
	case c.TrafficLight.Red < 0 || c.TrafficLight.Yellow < c.TrafficLight.Red:
		return fmt.Errorf("config: traffic light days red %d, yellow %d: need 0 <= red <= yellow", c.TrafficLight.Red, c.TrafficLight.Yellow)
	case c.MaxBodyBytes < 1024:
		return fmt.Errorf("config: body limit %d is too small", c.MaxBodyBytes)
	case c.Imports.MaxRows < 1 || c.Imports.MaxCells < 1:
		return fmt.Errorf("config: import limits of %d rows and %d cells: need at least one of each", c.Imports.MaxRows, c.Imports.MaxCells)
	case c.Imports.MaxPartBytes < 64<<10 || c.Imports.MaxUnpackedBytes < c.Imports.MaxPartBytes:
		return fmt.Errorf("config: import limits of %d bytes a part and %d unpacked: need 64 KiB <= part <= unpacked", c.Imports.MaxPartBytes, c.Imports.MaxUnpackedBytes)
	}
	if !strings.HasPrefix(c.PublicURL, "http://") && !strings.HasPrefix(c.PublicURL, "https://") {
		return fmt.Errorf("config: public URL %q must start with http:// or https://", c.PublicURL)
	}
	c.PublicURL = strings.TrimRight(c.PublicURL, "/")
	if c.StorageURL != "" {
		if !strings.HasPrefix(c.StorageURL, "s3://") {
			return fmt.Errorf("config: storage URL %q: only s3://bucket/prefix is known (empty: the data directory)", c.StorageURL)
		}
		if (c.S3.AccessKey == "") != (c.S3.SecretKey == "") {
			return fmt.Errorf("config: set both the S3 access key and the secret key, or neither")
		}
	}
	return nil
}

func envOr(key, def string) string {
	if v, ok := os.LookupEnv(key); ok {
		return v
	}
	return def
}
