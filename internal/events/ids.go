package events

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
)

// idSealer turns the hub's event ids into the ids a stream shows, and
// back. The hub's ids count every published write of every tenant (one
// sequence, the same on every instance); shown as they are, the gaps
// between the events a watcher receives would tell it how much happened
// in other tenants (issue 42). A stream therefore shows each id sealed
// with AES-GCM under a random nonce: opaque, different each time it is
// sent, and opened again when a client resumes with it (Last-Event-ID).
// Every instance derives the same key from the server's secret, so a
// stream resumes on any of them.
type idSealer struct {
	aead cipher.AEAD
}

// newIDSealer derives the sealing key from secret; an empty secret takes
// a random one (a stream then resumes only on this process).
func newIDSealer(secret []byte) (*idSealer, error) {
	if len(secret) == 0 {
		secret = make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return nil, fmt.Errorf("events: id key: %w", err)
		}
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte("portfolio events: stream ids"))
	block, err := aes.NewCipher(mac.Sum(nil))
	if err != nil {
		return nil, fmt.Errorf("events: id key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("events: id key: %w", err)
	}
	return &idSealer{aead: aead}, nil
}

// seal is id as a stream shows it.
func (s *idSealer) seal(id string) string {
	nonce := make([]byte, s.aead.NonceSize(), s.aead.NonceSize()+len(id)+s.aead.Overhead())
	_, _ = rand.Read(nonce) // crypto/rand.Read never fails (Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(s.aead.Seal(nonce, nonce, []byte(id), nil))
}

// open is the hub's id of a sealed one; ok is false for anything this
// server did not seal.
func (s *idSealer) open(sealed string) (id string, ok bool) {
	b, err := base64.RawURLEncoding.DecodeString(sealed)
	if err != nil || len(b) < s.aead.NonceSize() {
		return "", false
	}
	plain, err := s.aead.Open(nil, b[:s.aead.NonceSize()], b[s.aead.NonceSize():], nil)
	if err != nil {
		return "", false
	}
	return string(plain), true
}
