package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
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
// not-before and type, and returns the user and session ids.
func (s *Service) parseAccessToken(raw string) (userID int64, sessionID string, err error) {
	var c accessClaims
	parser := jwt.NewParser(
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithIssuer(tokenIssuer),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithTimeFunc(s.clock),
	)
	if _, err := parser.ParseWithClaims(raw, &c, func(*jwt.Token) (any, error) { return s.secret, nil }); err != nil {
		return 0, "", fmt.Errorf("%w: %w", errBadToken, err)
	}
	id, err := strconv.ParseInt(c.Subject, 10, 64)
	if err != nil || id <= 0 || c.Type != tokenType || c.SessionID == "" {
		return 0, "", fmt.Errorf("%w: bad claims", errBadToken)
	}
	return id, c.SessionID, nil
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
