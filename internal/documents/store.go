package documents

import (
	"bufio"
	"bytes"
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
)

// Store keeps document files on disk under one directory (object storage
// later, ROADMAP): each file under a random key, written to a temporary
// file first and renamed into place, so a failed upload leaves nothing
// half-written where readers look.
type Store struct {
	dir string
}

// NewStore returns a store in dir, creating it.
func NewStore(dir string) (*Store, error) {
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o750); err != nil {
		return nil, fmt.Errorf("documents: create store %s: %w", dir, err)
	}
	return &Store{dir: dir}, nil
}

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
func (s *Store) Put(r io.Reader, maxBytes int64) (key string, size int64, sum string, err error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(len(pdfMagic))
	if len(head) == 0 {
		return "", 0, "", errEmpty
	}
	if err != nil || !bytes.Equal(head, pdfMagic) {
		return "", 0, "", errNotPDF
	}
	return s.put(br, maxBytes, "pdf", func(f *os.File) error {
		if _, err := pdfmark.Check(f); err != nil {
			return errNotPDF
		}
		return nil
	})
}

// PutBytes stores b (a stamped or signed copy, a signature image) under a
// new key ending in ext ("pdf", "png", or "bin" for a mail's attachment
// that is not a PDF) and returns its key and SHA-256.
func (s *Store) PutBytes(b []byte, ext string) (key, sum string, err error) {
	key, _, sum, err = s.put(bytes.NewReader(b), int64(len(b)), ext, nil)
	return key, sum, err
}

// put writes r to a temporary file, checks it, and renames it into place
// under a random key.
func (s *Store) put(r io.Reader, maxBytes int64, ext string, check func(*os.File) error) (key string, size int64, sum string, err error) {
	tmp, err := os.CreateTemp(filepath.Join(s.dir, "tmp"), "upload-*")
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
	path := s.path(key)
	if err = os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return "", 0, "", fmt.Errorf("documents: store directory: %w", err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return "", 0, "", fmt.Errorf("documents: store file: %w", err)
	}
	return key, size, hex.EncodeToString(h.Sum(nil)), nil
}

// Open opens the file of key.
func (s *Store) Open(key string) (*os.File, error) {
	if !keyPattern.MatchString(key) {
		return nil, fmt.Errorf("documents: %q is not a storage key", key)
	}
	f, err := os.Open(s.path(key))
	if err != nil {
		return nil, fmt.Errorf("documents: open %s: %w", key, err)
	}
	return f, nil
}

// Remove deletes the file of key (a transaction that stored its row failed).
func (s *Store) Remove(key string) error {
	if !keyPattern.MatchString(key) {
		return fmt.Errorf("documents: %q is not a storage key", key)
	}
	if err := os.Remove(s.path(key)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("documents: remove %s: %w", key, err)
	}
	return nil
}

func (s *Store) path(key string) string { return filepath.Join(s.dir, key[:2], key) }

// Sweep removes the files nobody names any more: stored files for which
// inUse reports false and temporary files, both only once older than
// minAge, so an upload in flight (stored, its row not yet committed) is
// never touched. It reports how many files it removed.
func (s *Store) Sweep(inUse func(key string) (bool, error), minAge time.Duration, now time.Time) (int, error) {
	removed := 0
	err := filepath.WalkDir(s.dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if now.Sub(info.ModTime()) < minAge {
			return nil
		}
		if name := d.Name(); keyPattern.MatchString(name) {
			used, err := inUse(name)
			if err != nil || used {
				return err
			}
		} else if filepath.Base(filepath.Dir(path)) != "tmp" {
			return nil // not ours
		}
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("documents: sweep %s: %w", path, err)
		}
		removed++
		return nil
	})
	if err != nil {
		return removed, fmt.Errorf("documents: sweep: %w", err)
	}
	return removed, nil
}
