package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"math/big"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"

	"portfolio/internal/apperr"
)

// Argon2id parameters of new hashes (OWASP's first recommendation:
// 19 MiB, two passes, one lane).
const (
	argonMemory  = 19456
	argonTime    = 2
	argonThreads = 1
	argonSaltLen = 16
	argonKeyLen  = 32
)

// Password policy.
const (
	MinPasswordLen = 10
	MaxPasswordLen = 200
)

var b64 = base64.RawStdEncoding

// HashPassword hashes pw with argon2id and returns the PHC string
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>.
func HashPassword(pw string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("auth: salt: %w", err)
	}
	key := argon2.IDKey([]byte(pw), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemory, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// VerifyPassword reports whether pw matches the PHC hash. A malformed hash,
// or one with parameters outside sane bounds (which could make checking it
// a denial of service), never matches.
func VerifyPassword(hash, pw string) bool {
	p, ok := parsePHC(hash)
	if !ok {
		return false
	}
	key := argon2.IDKey([]byte(pw), p.salt, p.time, p.memory, p.threads, uint32(len(p.key)))
	return subtle.ConstantTimeCompare(key, p.key) == 1
}

type phc struct {
	memory, time uint32
	threads      uint8
	salt, key    []byte
}

func parsePHC(hash string) (phc, bool) {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return phc{}, false
	}
	var p phc
	var threads uint32
	if n, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.memory, &p.time, &threads); err != nil || n != 3 {
		return phc{}, false
	}
	if p.memory < 8 || p.memory > 1<<20 || p.time < 1 || p.time > 16 || threads < 1 || threads > 16 {
		return phc{}, false
	}
	p.threads = uint8(threads)
	var err error
	if p.salt, err = b64.DecodeString(parts[4]); err != nil || len(p.salt) < 8 {
		return phc{}, false
	}
	if p.key, err = b64.DecodeString(parts[5]); err != nil || len(p.key) < 16 || len(p.key) > 64 {
		return phc{}, false
	}
	return p, true
}

// checkPolicy returns the field error of a password that breaks the policy:
// at least MinPasswordLen characters with a letter and a digit, at most
// MaxPasswordLen.
func checkPolicy(field, pw string) *apperr.FieldError {
	n := utf8.RuneCountInString(pw)
	if n > MaxPasswordLen {
		return &apperr.FieldError{Field: field, Key: "validation.max", Type: "max", Args: map[string]string{"length": fmt.Sprint(MaxPasswordLen)}}
	}
	if n < MinPasswordLen || !strings.ContainsFunc(pw, unicode.IsLetter) || !strings.ContainsFunc(pw, unicode.IsDigit) {
		return &apperr.FieldError{Field: field, Key: "validation.password_weak", Type: "password_weak", Args: map[string]string{"length": fmt.Sprint(MinPasswordLen)}}
	}
	return nil
}

// Character classes of generated passwords; look-alike characters (l, I,
// O, 0, 1) are left out so a password read aloud survives.
const (
	genLower   = "abcdefghijkmnopqrstuvwxyz"
	genUpper   = "ABCDEFGHJKLMNPQRSTUVWXYZ"
	genDigits  = "23456789"
	genSymbols = "!#$%&*+-=?@_"
	genLength  = 16
)

// GeneratePassword returns a random password of 16 characters with at least
// one lower-case letter, upper-case letter, digit and symbol.
func GeneratePassword() (string, error) {
	classes := []string{genLower, genUpper, genDigits, genSymbols}
	all := strings.Join(classes, "")
	out := make([]byte, 0, genLength)
	for _, c := range classes {
		ch, err := pick(c)
		if err != nil {
			return "", err
		}
		out = append(out, ch)
	}
	for len(out) < genLength {
		ch, err := pick(all)
		if err != nil {
			return "", err
		}
		out = append(out, ch)
	}
	if err := shuffle(out); err != nil {
		return "", err
	}
	return string(out), nil
}

func pick(set string) (byte, error) {
	i, err := randInt(len(set))
	if err != nil {
		return 0, err
	}
	return set[i], nil
}

func randInt(n int) (int, error) {
	v, err := rand.Int(rand.Reader, big.NewInt(int64(n)))
	if err != nil {
		return 0, fmt.Errorf("auth: random: %w", err)
	}
	return int(v.Int64()), nil
}

// shuffle is a Fisher-Yates shuffle driven by crypto/rand.
func shuffle(b []byte) error {
	for i := len(b) - 1; i > 0; i-- {
		j, err := randInt(i + 1)
		if err != nil {
			return err
		}
		b[i], b[j] = b[j], b[i]
	}
	return nil
}
