package auth

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
)

// Login throttling (decision 0003). Wrong guesses are counted in three
// buckets: the account from one client address, the account from anywhere
// and the client address for any account. Each bucket lets a few failures
// pass, then makes the next attempt wait, twice as long after each further
// failure, up to throttleMaxWait. While a bucket waits, logins in it answer
// 429 with Retry-After before any password is verified: a flood costs the
// server a lookup, not an argon2id hash. The buckets are counted the same
// for an address that has no account, so neither the answers nor their
// timing tell which addresses exist; and since a victim logging in from
// their own address shares only the account-wide bucket with an attacker
// elsewhere, and that bucket allows many more failures, guessing costs the
// attacker far more than it costs the victim. A successful login clears the
// account's buckets; a password reset clears them from every address.
type throttleBucket struct {
	kind string
	// free failures pass without delay.
	free int
}

var (
	bucketAccountClient = throttleBucket{"account-client", 5}
	bucketAccount       = throttleBucket{"account", 50}
	bucketClient        = throttleBucket{"client", 30}
)

const (
	// throttleFirstWait is the wait after the first failure beyond a
	// bucket's free ones; it doubles with each further failure.
	throttleFirstWait = 30 * time.Second
	throttleMaxWait   = 15 * time.Minute
	// throttleForget: a bucket whose last failure is older starts again.
	throttleForget = time.Hour
)

// throttleKey is one bucket's row key for one attempt.
type throttleKey struct {
	bucket  throttleBucket
	key     string
	account string // the account's hash, for the rows a reset clears
}

// throttleKeys are the buckets an attempt with this email from this client
// counts in. A request without a known client address (tests calling the
// service directly) counts in the account bucket only.
func throttleKeys(email, client string) []throttleKey {
	account := hashKey("account", normalizeEmail(email))
	keys := []throttleKey{{bucketAccount, account, account}}
	if client != "" {
		keys = append(keys,
			throttleKey{bucketAccountClient, hashKey("account-client", normalizeEmail(email)+"\x00"+client), account},
			throttleKey{bucketClient, hashKey("client", client), ""})
	}
	return keys
}

func hashKey(kind, value string) string {
	sum := sha256.Sum256([]byte(kind + "\x00" + value))
	return hex.EncodeToString(sum[:])
}

// waitOf is how long a bucket waits after its failures-th failure.
func (b throttleBucket) waitOf(failures int) time.Duration {
	over := failures - b.free
	if over <= 0 {
		return 0
	}
	wait := throttleFirstWait
	for i := 1; i < over && wait < throttleMaxWait; i++ {
		wait *= 2
	}
	return min(wait, throttleMaxWait)
}

// errTooManyAttempts is the answer while a bucket waits.
func errTooManyAttempts(wait time.Duration) error {
	return apperr.New(apperr.KindTooMany, "server.auth.too_many_attempts").WithCode("too_many_attempts").After(wait)
}

// checkThrottle answers 429 when one of the attempt's buckets is waiting.
func (s *Service) checkThrottle(ctx context.Context, keys []throttleKey) error {
	now := s.now()
	var latest time.Time
	for _, k := range keys {
		var until sql.NullTime
		err := s.db.QueryRowContext(ctx, `SELECT blocked_until FROM login_throttle WHERE throttle_key = ?`, k.key).Scan(&until)
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return fmt.Errorf("auth: read login throttle: %w", err)
		case until.Valid && until.Time.After(now) && until.Time.After(latest):
			latest = until.Time
		}
	}
	if latest.IsZero() {
		return nil
	}
	return errTooManyAttempts(latest.Sub(now))
}

// recordFailure counts a failed attempt in its buckets and starts their
// waits; it answers how long the longest of them now waits.
func (s *Service) recordFailure(ctx context.Context, keys []throttleKey) (time.Duration, error) {
	now := s.now()
	var longest time.Duration
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		for _, k := range keys {
			var failures int
			if err := tx.QueryRowContext(ctx, `INSERT INTO login_throttle (throttle_key, account_hash, failures, last_failure_at)
				VALUES (?, ?, 1, ?)
				ON CONFLICT (throttle_key) DO UPDATE SET
					failures = CASE WHEN login_throttle.last_failure_at < ? THEN 1 ELSE login_throttle.failures + 1 END,
					last_failure_at = excluded.last_failure_at
				RETURNING failures`, k.key, nullIfEmpty(k.account), now, now.Add(-throttleForget)).Scan(&failures); err != nil {
				return fmt.Errorf("auth: count failed login: %w", err)
			}
			wait := k.bucket.waitOf(failures)
			if wait == 0 {
				continue
			}
			if _, err := tx.ExecContext(ctx, `UPDATE login_throttle SET blocked_until = ? WHERE throttle_key = ?`,
				now.Add(wait), k.key); err != nil {
				return fmt.Errorf("auth: start login wait: %w", err)
			}
			longest = max(longest, wait)
		}
		return nil
	})
	return longest, err
}

// clearThrottle forgets the failures of an account (from every address)
// after it proved its password or reset it.
func clearThrottle(ctx context.Context, q db.Querier, email string) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM login_throttle WHERE account_hash = ?`,
		hashKey("account", normalizeEmail(email))); err != nil {
		return fmt.Errorf("auth: clear login throttle: %w", err)
	}
	return nil
}

// purgeThrottle removes buckets whose last failure is long forgotten.
func purgeThrottle(ctx context.Context, q db.Querier, now time.Time) (int64, error) {
	res, err := q.ExecContext(ctx, `DELETE FROM login_throttle WHERE last_failure_at < ?`, now.Add(-throttleForget-throttleMaxWait))
	if err != nil {
		return 0, fmt.Errorf("auth: purge login throttle: %w", err)
	}
	n, _ := res.RowsAffected()
	return n, nil
}

func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
