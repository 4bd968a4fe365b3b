package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Dir keeps objects as files in a local directory: the object of key
// "abcd.pdf" is the file dir/ab/abcd.pdf, written to dir/tmp first and
// renamed into place, so a reader never sees half a file.
type Dir struct {
	dir string
}

// NewDir returns the directory store in dir, creating it and its tmp
// directory.
func NewDir(dir string) (*Dir, error) {
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o750); err != nil {
		return nil, fmt.Errorf("storage: create %s: %w", dir, err)
	}
	return &Dir{dir: dir}, nil
}

// TempDir is the directory's staging area (same file system, so a staged
// file is renamed into place, never copied).
func (d *Dir) TempDir() string { return filepath.Join(d.dir, "tmp") }

func (d *Dir) String() string { return "directory " + d.dir }

func (d *Dir) path(key string) string { return filepath.Join(d.dir, key[:2], key) }

// Put writes r to a temporary file, syncs it and renames it into place.
func (d *Dir) Put(ctx context.Context, key string, r io.Reader, size int64) (err error) {
	if err := checkKey(key); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(d.TempDir(), "put-*")
	if err != nil {
		return fmt.Errorf("storage: temporary file: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	n, err := io.Copy(tmp, io.LimitReader(r, size))
	if err != nil {
		return fmt.Errorf("storage: write %s: %w", key, err)
	}
	if n != size {
		return errShort
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("storage: sync %s: %w", key, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("storage: close %s: %w", key, err)
	}
	return d.PutFile(ctx, key, tmp.Name())
}

// PutFile renames the file at path into place (path should be in
// TempDir, on the same file system).
func (d *Dir) PutFile(_ context.Context, key, path string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	dst := d.path(key)
	if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
		return fmt.Errorf("storage: directory of %s: %w", key, err)
	}
	if err := os.Rename(path, dst); err != nil {
		return fmt.Errorf("storage: store %s: %w", key, err)
	}
	return nil
}

// Open opens the file of key.
func (d *Dir) Open(_ context.Context, key string) (Object, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	f, err := os.Open(d.path(key))
	if err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", key, err)
	}
	return f, nil
}

// Remove deletes the file of key.
func (d *Dir) Remove(_ context.Context, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if err := os.Remove(d.path(key)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: remove %s: %w", key, err)
	}
	return nil
}

// Stat describes the file of key.
func (d *Dir) Stat(_ context.Context, key string) (Info, error) {
	if err := checkKey(key); err != nil {
		return Info{}, err
	}
	fi, err := os.Stat(d.path(key))
	if err != nil {
		return Info{}, fmt.Errorf("storage: stat %s: %w", key, err)
	}
	return Info{Key: key, Size: fi.Size(), Modified: fi.ModTime()}, nil
}

// List walks the directory (not tmp), answering the files stored under
// their key's two-character subdirectory; anything else is not ours.
func (d *Dir) List(ctx context.Context, fn func(Info) error) error {
	err := filepath.WalkDir(d.dir, func(p string, e fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed while walking
		}
		if err != nil {
			return err
		}
		if e.IsDir() {
			if p == d.TempDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		name := e.Name()
		if !ValidKey(name) || filepath.Base(filepath.Dir(p)) != name[:2] || filepath.Dir(filepath.Dir(p)) != filepath.Clean(d.dir) {
			return nil
		}
		fi, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		return fn(Info{Key: name, Size: fi.Size(), Modified: fi.ModTime()})
	})
	if err != nil {
		return fmt.Errorf("storage: list %s: %w", d.dir, err)
	}
	return nil
}
