package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Claims of an access token.
const (
	tokenIssuer = "portfolio"
	tokenType   = "access"
)

// accessClaims are the claims of an access token: sub (user id), sid
// (session id), typ "access", iss, iat, nbf and exp.
type accessClaims struct {
	SessionID string `json:"sid"`
	Type      string `json:"typ"`
	jwt.RegisteredClaims
}

// issueAccessToken signs an access token for the session.
func (s *Service) issueAccessToken(userID int64, sessionID string, now time.Time) (string, error) {
	claims := accessClaims{
		SessionID: sessionID,
		Type:      tokenType,
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    tokenIssuer,
			Subject:   strconv.FormatInt(userID, 10),
			IssuedAt:  jwt.NewNumericDate(now),
			NotBefore: jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(s.accessTTL)),
		},
	}
	signed, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.secret)
	if err != nil {
		return "", fmt.Errorf("auth: sign access token: %w", err)
	}
	return signed, nil
}

// errBadToken is the cause of every refused access token; the caller only
// ever sees server.auth.token_invalid.
var errBadToken = errors.New("auth: bad access token")

// parseAccessToken checks signature (HS256 only), issuer, expiry (required),
// not-before and type, and returns the user and session ids. A token
// verified before is only checked against its time window again.
func (s *Service) parseAccessToken(raw string) (userID int64, sessionID string, err error) {
	now := s.clock()
	if v, ok := s.verified.get(raw); ok {
		if now.Before(v.from) || !now.Before(v.until) {
			return 0, "", fmt.Errorf("%w: outside its time window", errBadToken)
		}
		return v.userID, v.sessionID, nil
	}
	var c accessClaims
	parser := jwt.NewParser(
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(tokenIssuer),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithTimeFunc(func() time.Time { return now }),
	)
	if _, err := parser.ParseWithClaims(raw, &c, func(*jwt.Token) (any, error) { return s.secret, nil }); err != nil {
		return 0, "", fmt.Errorf("%w: %w", errBadToken, err)
	}
	id, err := strconv.ParseInt(c.Subject, 10, 64)
	if err != nil || id <= 0 || c.Type != tokenType || c.SessionID == "" {
		return 0, "", fmt.Errorf("%w: bad claims", errBadToken)
	}
	s.verified.put(raw, verifiedToken{userID: id, sessionID: c.SessionID, from: c.window(), until: c.ExpiresAt.Time})
	return id, c.SessionID, nil
}

// window is when the token starts to be valid: its not-before and
// issued-at times, the later of them.
func (c *accessClaims) window() time.Time {
	var from time.Time
	for _, t := range []*jwt.NumericDate{c.NotBefore, c.IssuedAt} {
		if t != nil && t.After(from) {
			from = t.Time
		}
	}
	return from
}

// verifiedTokens remember the access tokens whose signature and claims
// were checked: a client sends the same token with every request, and
// checking it again was a twentieth of a list page's CPU. A token is the
// key as a whole, so only the very bytes verified are recognized; the
// session behind it is still read on every request (loadSession).
type verifiedTokens struct {
	mu     sync.Mutex
	tokens map[string]verifiedToken
}

// verifiedToken is what a verified token says, and when it is valid.
type verifiedToken struct {
	userID      int64
	sessionID   string
	from, until time.Time
}

// maxVerifiedTokens bounds the memory: the map starts afresh when full.
const maxVerifiedTokens = 10_000

func newVerifiedTokens() *verifiedTokens {
	return &verifiedTokens{tokens: map[string]verifiedToken{}}
}

func (v *verifiedTokens) get(raw string) (verifiedToken, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	t, ok := v.tokens[raw]
	return t, ok
}

func (v *verifiedTokens) put(raw string, t verifiedToken) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if len(v.tokens) >= maxVerifiedTokens {
		clear(v.tokens)
	}
	v.tokens[raw] = t
}

// RandomToken returns 32 random bytes, base64url encoded: refresh tokens and
// mailed link tokens.
func RandomToken() string {
	var b [32]byte
	// crypto/rand.Read never fails on supported platforms (it panics
	// instead), so there is no error to handle.
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// newSessionID returns a random session id (128 bits, hex).
func newSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// HashToken is how refresh and link tokens are stored: only their SHA-256,
// so a database leak does not hand out sessions. The tokens carry 256
// random bits, so a plain hash (no salt, no stretching) is enough.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
