// Package auth runs accounts and sessions: login with lockout, short-lived
// JWT access tokens checked against the session on every request, rotating
// refresh tokens bound to a browser, password change, reset and
// verification links sent by mail, the current user record and the creation
// of users. Decisions are written down in
// docs/decisions/0003-login-and-sessions.md.
package auth

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/db"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/genmap"
	"portfolio/internal/platform/mailer"
)

// Deps is what the service needs. Zero durations take the defaults of
// internal/config; a nil Now is time.Now; a nil Log discards.
type Deps struct {
	DB      *db.DB
	Outbox  *mailer.Outbox
	Catalog *i18n.Catalog
	Log     *slog.Logger
	// Secret signs access tokens (HS256); at least 32 bytes.
	Secret []byte
	// PublicURL is the base of the links sent by mail, without a trailing
	// slash ("https://portfolio.example.com").
	PublicURL string

	AccessTokenTTL     time.Duration
	SessionIdleTimeout time.Duration
	SessionMaxLifetime time.Duration
	ResetLinkTTL       time.Duration
	VerifyLinkTTL      time.Duration

	// Now is the clock; tests move it.
	Now func() time.Time
	// Rights caches computed rights per rights generation; nil makes one.
	// Share one cache with every module that checks rights.
	Rights *access.Cache
}

// Service is the accounts and sessions service. It is safe for concurrent
// use; between requests it keeps only its configuration and caches that
// are valid for one rights generation (see access.Cache).
type Service struct {
	db        *db.DB
	outbox    *mailer.Outbox
	catalog   *i18n.Catalog
	log       *slog.Logger
	secret    []byte
	publicURL string
	clock     func() time.Time

	accessTTL   time.Duration
	idleTimeout time.Duration
	maxLifetime time.Duration
	resetTTL    time.Duration
	verifyTTL   time.Duration

	rights      *access.Cache
	memberships *genmap.Map[memberships]
	// verified are the access tokens whose signature was checked.
	verified *verifiedTokens

	// dummyHash is verified for unknown users so that their answer takes
	// as long as a wrong password.
	dummyHash string

	// passwordHooks run with every password change (OnPasswordChanged).
	passwordHooks []PasswordHook
}

// Limits of the login and session rules.
const (
	// RefreshGrace is how long after its rotation a refresh token is
	// refused without revoking its session (two tabs refreshing at once).
	RefreshGrace = 20 * time.Second
	// touchInterval throttles the last-use writes of a session.
	touchInterval = time.Minute
	// MinSecretBytes is the shortest accepted signing secret.
	MinSecretBytes = 32
	// cachedUsers bounds the per-user caches of memberships and rights.
	cachedUsers = 10000
)

// NewService checks d and returns a service.
func NewService(d Deps) (*Service, error) {
	switch {
	case d.DB == nil:
		return nil, errors.New("auth: no database")
	case d.Outbox == nil:
		return nil, errors.New("auth: no mail outbox")
	case d.Catalog == nil:
		return nil, errors.New("auth: no message catalog")
	case len(d.Secret) < MinSecretBytes:
		return nil, fmt.Errorf("auth: the signing secret has %d bytes, at least %d are needed", len(d.Secret), MinSecretBytes)
	case !strings.HasPrefix(d.PublicURL, "http://") && !strings.HasPrefix(d.PublicURL, "https://"):
		return nil, fmt.Errorf("auth: public URL %q must start with http:// or https://", d.PublicURL)
	}
	s := &Service{
		db: d.DB, outbox: d.Outbox, catalog: d.Catalog, log: d.Log,
		secret:      append([]byte(nil), d.Secret...),
		publicURL:   strings.TrimRight(d.PublicURL, "/"),
		clock:       d.Now,
		accessTTL:   orDefault(d.AccessTokenTTL, 30*time.Minute),
		idleTimeout: orDefault(d.SessionIdleTimeout, 12*time.Hour),
		maxLifetime: orDefault(d.SessionMaxLifetime, 14*24*time.Hour),
		resetTTL:    orDefault(d.ResetLinkTTL, 2*time.Hour),
		verifyTTL:   orDefault(d.VerifyLinkTTL, 7*24*time.Hour),
		rights:      d.Rights,
		memberships: genmap.New[memberships](cachedUsers),
		verified:    newVerifiedTokens(),
	}
	if s.rights == nil {
		s.rights = access.NewCache(cachedUsers)
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.clock == nil {
		s.clock = time.Now
	}
	dummy, err := HashPassword(RandomToken())
	if err != nil {
		return nil, fmt.Errorf("auth: dummy hash: %w", err)
	}
	s.dummyHash = dummy
	return s, nil
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// now is the current time in UTC at the precision both databases keep.
func (s *Service) now() time.Time { return s.clock().UTC().Truncate(time.Microsecond) }

// today returns today's date and tomorrow's as YYYY-MM-DD, in the server's
// time zone, for the valid_from/valid_to checks of roles and teams.
func (s *Service) today() (today, tomorrow string) {
	t := s.clock()
	return t.Format(time.DateOnly), t.AddDate(0, 0, 1).Format(time.DateOnly)
}
