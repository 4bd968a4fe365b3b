package documents

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"portfolio/internal/platform/pdfmark"
	"portfolio/internal/platform/storage"
)

// Store keeps document files in a storage backend (the data directory or
// an S3 bucket, decision 0034), each under a random key. An upload is
// written to a local staging file first, checked there, and only then
// moved (renamed, or streamed to the bucket) under its key, so a failed
// upload leaves nothing half-written where readers look.
type Store struct {
	files storage.Backend
	tmp   string
}

// NewStore returns a store in the local directory dir, creating it (the
// layout of earlier versions: dir/ab/abcd….pdf, uploads staged in
// dir/tmp).
func NewStore(dir string) (*Store, error) {
	d, err := storage.NewDir(dir)
	if err != nil {
		return nil, fmt.Errorf("documents: create store %s: %w", dir, err)
	}
	return &Store{files: d, tmp: d.TempDir()}, nil
}

// NewStoreOn returns a store keeping its files in files and staging
// uploads in the local directory tmp, created if need be.
func NewStoreOn(files storage.Backend, tmp string) (*Store, error) {
	if err := os.MkdirAll(tmp, 0o750); err != nil {
		return nil, fmt.Errorf("documents: create staging directory %s: %w", tmp, err)
	}
	return &Store{files: files, tmp: tmp}, nil
}

// Files is the backend the store keeps its files in (backups read it).
func (s *Store) Files() storage.Backend { return s.files }

// pdfMagic starts every PDF file.
var pdfMagic = []byte("%PDF-")

// Errors of Put the caller turns into answers.
var (
	errEmpty    = errors.New("documents: empty file")
	errNotPDF   = errors.New("documents: not a PDF file")
	errTooLarge = errors.New("documents: file too large")
)

// keyPattern is the shape of the keys Put makes; Open refuses any other,
// so a stored key can never name a path outside the store.
var keyPattern = regexp.MustCompile(`^[0-9a-f]{32}\.(pdf|png|bin)$`)

// Put stores the PDF read from r, at most maxBytes long, and returns its
// key, size and SHA-256 (hex). An empty file, a file that does not start
// like a PDF or whose structure pdfcpu cannot read (header, cross
// references, pages), or a longer one is refused and nothing is kept.
// The file streams to a staging file and from there to its place; it is
// never held in memory as a whole.
func (s *Store) Put(ctx context.Context, r io.Reader, maxBytes int64) (key string, size int64, sum string, err error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(len(pdfMagic))
	if len(head) == 0 {
		return "", 0, "", errEmpty
	}
	if err != nil || !bytes.Equal(head, pdfMagic) {
		return "", 0, "", errNotPDF
	}
	return s.put(ctx, br, maxBytes, "pdf", func(f *os.File) error {
		if _, err := pdfmark.Check(f); err != nil {
			return errNotPDF
		}
		return nil
	})
}

// PutBytes stores b (a stamped or signed copy, a signature image) under a
// new key ending in ext ("pdf", "png", or "bin" for a mail's attachment
// that is not a PDF) and returns its key and SHA-256.
func (s *Store) PutBytes(ctx context.Context, b []byte, ext string) (key, sum string, err error) {
	key, _, sum, err = s.put(ctx, bytes.NewReader(b), int64(len(b)), ext, nil)
	return key, sum, err
}

// put writes r to a staging file, checks it, and moves it to the backend
// under a random key.
func (s *Store) put(ctx context.Context, r io.Reader, maxBytes int64, ext string, check func(*os.File) error) (key string, size int64, sum string, err error) {
	tmp, err := os.CreateTemp(s.tmp, "upload-*")
	if err != nil {
		return "", 0, "", fmt.Errorf("documents: temporary file: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	h := sha256.New()
	size, err = io.Copy(io.MultiWriter(tmp, h), io.LimitReader(r, maxBytes+1))
	if err != nil {
		return "", 0, "", fmt.Errorf("documents: write upload: %w", err)
	}
	if size > maxBytes {
		return "", 0, "", errTooLarge
	}
	if check != nil {
		if _, err = tmp.Seek(0, io.SeekStart); err != nil {
			return "", 0, "", fmt.Errorf("documents: check upload: %w", err)
		}
		if err = check(tmp); err != nil {
			return "", 0, "", err
		}
	}
	if err = tmp.Sync(); err != nil {
		return "", 0, "", fmt.Errorf("documents: sync upload: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return "", 0, "", fmt.Errorf("documents: close upload: %w", err)
	}
	var b [16]byte
	if _, err = rand.Read(b[:]); err != nil {
		return "", 0, "", fmt.Errorf("documents: key: %w", err)
	}
	key = hex.EncodeToString(b[:]) + "." + ext
	if !keyPattern.MatchString(key) {
		return "", 0, "", fmt.Errorf("documents: bad extension %q", ext)
	}
	if err = s.files.PutFile(ctx, key, tmp.Name()); err != nil {
		return "", 0, "", fmt.Errorf("documents: store file: %w", err)
	}
	return key, size, hex.EncodeToString(h.Sum(nil)), nil
}

// Open opens the file of key: a reader that seeks (ranged reads on a
// bucket), closed by the caller.
func (s *Store) Open(ctx context.Context, key string) (storage.Object, error) {
	if !keyPattern.MatchString(key) {
		return nil, fmt.Errorf("documents: %q is not a storage key", key)
	}
	f, err := s.files.Open(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("documents: open %s: %w", key, err)
	}
	return f, nil
}

// Remove deletes the file of key (a transaction that stored its row failed).
func (s *Store) Remove(ctx context.Context, key string) error {
	if !keyPattern.MatchString(key) {
		return fmt.Errorf("documents: %q is not a storage key", key)
	}
	if err := s.files.Remove(ctx, key); err != nil {
		return fmt.Errorf("documents: remove %s: %w", key, err)
	}
	return nil
}

// Sweep removes the files nobody names any more: stored files for which
// inUse reports false and staging files, both only once older than
// minAge, so an upload in flight (stored, its row not yet committed) is
// never touched. It reports how many files it removed.
func (s *Store) Sweep(ctx context.Context, inUse func(key string) (bool, error), minAge time.Duration, now time.Time) (int, error) {
	removed := 0
	entries, err := os.ReadDir(s.tmp)
	if err != nil {
		return 0, fmt.Errorf("documents: sweep: %w", err)
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || e.IsDir() || now.Sub(info.ModTime()) < minAge {
			continue // gone meanwhile, or young
		}
		if err := os.Remove(filepath.Join(s.tmp, e.Name())); err != nil && !errors.Is(err, os.ErrNotExist) {
			return removed, fmt.Errorf("documents: sweep %s: %w", e.Name(), err)
		}
		removed++
	}
	var old []string
	err = s.files.List(ctx, func(i storage.Info) error {
		if !keyPattern.MatchString(i.Key) || now.Sub(i.Modified) < minAge {
			return nil // not ours, or young
		}
		used, err := inUse(i.Key)
		if err != nil || used {
			return err
		}
		old = append(old, i.Key)
		return nil
	})
	if err != nil {
		return removed, fmt.Errorf("documents: sweep: %w", err)
	}
	for _, key := range old {
		if err := s.files.Remove(ctx, key); err != nil {
			return removed, fmt.Errorf("documents: sweep: %w", err)
		}
		removed++
	}
	return removed, nil
}
