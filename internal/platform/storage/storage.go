// Package storage keeps opaque files ("objects") under flat keys, in a
// local directory or in an S3-compatible bucket, behind one interface:
// the documents module stores its files through it without knowing where
// they live (decision 0034).
package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"time"
)

// Info describes one stored object.
type Info struct {
	Key      string
	Size     int64
	Modified time.Time
}

// ErrNotExist is answered (wrapped) for a key nothing is stored under;
// it is fs.ErrNotExist, so errors.Is works with either.
var ErrNotExist = fs.ErrNotExist

// Backend is where objects live. Every method is safe for concurrent use.
// Objects are written once and never changed: Put on an existing key
// replaces it, but the documents module always writes under a new random
// key.
type Backend interface {
	// Put stores size bytes read from r under key. The bytes are streamed
	// to their place, never held in memory as a whole; a failed Put leaves
	// nothing under key that a reader could see half-written.
	Put(ctx context.Context, key string, r io.Reader, size int64) error
	// PutFile stores the local file at path under key and removes path:
	// the directory renames it into place, a bucket uploads it.
	PutFile(ctx context.Context, key, path string) error
	// Open opens the object of key for reading; the reader seeks (a bucket
	// answers ranged reads), so HTTP range requests work on it.
	Open(ctx context.Context, key string) (Object, error)
	// Remove deletes the object of key; a missing one is not an error.
	Remove(ctx context.Context, key string) error
	// Stat describes the object of key (ErrNotExist when there is none).
	Stat(ctx context.Context, key string) (Info, error)
	// List calls fn for every stored object, in no particular order;
	// fn's error stops the listing and is answered.
	List(ctx context.Context, fn func(Info) error) error
	// String names the place for logs and backups ("directory /x/y",
	// "s3://bucket/prefix").
	String() string
}

// Object is an open stored object.
type Object interface {
	io.ReadSeekCloser
	io.ReaderAt
}

// keyPattern is the shape of a key: a plain file name, so a key can never
// name a path outside the directory or another prefix of the bucket.
var keyPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*(\.[A-Za-z0-9]+)*$`)

// ValidKey reports whether key is a key this package stores under.
func ValidKey(key string) bool {
	return len(key) >= 3 && len(key) <= 200 && keyPattern.MatchString(key)
}

func checkKey(key string) error {
	if !ValidKey(key) {
		return fmt.Errorf("storage: %q is not a storage key", key)
	}
	return nil
}

// errShort is answered when a Put's reader ends before its size.
var errShort = errors.New("storage: the content is shorter than its size")
