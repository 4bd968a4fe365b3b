package backup

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"portfolio/internal/platform/storage"
)

// maxManifestBytes bounds the manifest read into memory.
const maxManifestBytes = 1 << 20

// Restore unpacks the archive r into dataDir (secret), dbPath (the SQLite
// database; empty for a PostgreSQL backup, whose database pg_restore
// brings back) and files (the document files; nil: the data directory's
// documents/). All must be empty of Portfolio data: a restore never
// overwrites an installation. It checks every name, the database's hash
// and integrity and that every document the database names arrived; on
// any failure it removes what it wrote.
func Restore(ctx context.Context, r io.Reader, dataDir, dbPath string, files storage.Backend) (m *Manifest, err error) {
	if err := mustBeEmpty(ctx, dataDir, dbPath, files); err != nil {
		return nil, err
	}
	var written, keys []string
	createdDir := ""
	if files == nil {
		createdDir = filepath.Join(dataDir, documentsName)
		if files, err = storage.NewDir(createdDir); err != nil {
			return nil, fmt.Errorf("backup: %w", err)
		}
	}
	defer func() {
		if err != nil {
			for _, p := range written {
				os.Remove(p)
			}
			for _, k := range keys {
				files.Remove(context.Background(), k)
			}
			if createdDir != "" {
				os.RemoveAll(createdDir)
			}
		}
	}()
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("backup: not a Portfolio backup (gzip): %w", err)
	}
	tr := tar.NewReader(gz)
	dbHash := ""
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("backup: read archive: %w", err)
		}
		if hdr.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("backup: the archive holds %q, which is not a regular file", hdr.Name)
		}
		name, err := archiveName(hdr.Name)
		if err != nil {
			return nil, err
		}
		switch name {
		case manifestName:
			if m, err = readManifest(tr); err != nil {
				return nil, err
			}
			continue
		case databaseName:
			if dbPath == "" {
				return nil, errors.New("backup: the archive holds a SQLite database, but the installation uses PostgreSQL")
			}
			sum, err := extract(tr, dbPath)
			written = append(written, dbPath)
			if err != nil {
				return nil, err
			}
			dbHash = sum
			continue
		}
		if key, ok := documentKey(name); ok {
			keys = append(keys, key)
			if err := files.Put(ctx, key, tr, hdr.Size); err != nil {
				return nil, fmt.Errorf("backup: restore document %s: %w", key, err)
			}
			continue
		}
		dst := filepath.Join(dataDir, filepath.FromSlash(name))
		_, err = extract(tr, dst)
		written = append(written, dst)
		if err != nil {
			return nil, err
		}
	}
	if m == nil {
		return nil, errors.New("backup: the archive has no manifest")
	}
	if err := verify(ctx, m, dbHash, dbPath, files); err != nil {
		return nil, err
	}
	return m, nil
}

// mustBeEmpty refuses a target that already holds a database or documents.
func mustBeEmpty(ctx context.Context, dataDir, dbPath string, files storage.Backend) error {
	if files != nil {
		errFull := errors.New("full")
		err := files.List(ctx, func(storage.Info) error { return errFull })
		if errors.Is(err, errFull) {
			return fmt.Errorf("backup: %s holds documents; restore into an empty place", files)
		}
		if err != nil {
			return fmt.Errorf("backup: %w", err)
		}
	}
	if dbPath != "" {
		if _, err := os.Stat(dbPath); err == nil {
			return fmt.Errorf("backup: %s exists; restore into an empty data directory", dbPath)
		}
	}
	for _, name := range []string{documentsName, secretName} {
		p := filepath.Join(dataDir, name)
		if _, err := os.Stat(p); err == nil {
			return fmt.Errorf("backup: %s exists; restore into an empty data directory", p)
		}
	}
	return nil
}

func readManifest(r io.Reader) (*Manifest, error) {
	var m Manifest
	if err := json.NewDecoder(io.LimitReader(r, maxManifestBytes)).Decode(&m); err != nil {
		return nil, fmt.Errorf("backup: read manifest: %w", err)
	}
	if m.Format != FormatVersion {
		return nil, fmt.Errorf("backup: archive format %d, this version reads %d", m.Format, FormatVersion)
	}
	return &m, nil
}

// extract writes r to a new file dst (never over an existing one) and
// answers its SHA-256.
func extract(r io.Reader, dst string) (string, error) {
	if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
		return "", fmt.Errorf("backup: create %s: %w", filepath.Dir(dst), err)
	}
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("backup: create %s: %w", dst, err)
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(f, h), r); err != nil {
		f.Close()
		return "", fmt.Errorf("backup: write %s: %w", dst, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return "", fmt.Errorf("backup: sync %s: %w", dst, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("backup: close %s: %w", dst, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// verify checks the restored database against the manifest: its hash, its
// integrity and that every document it names has its file.
func verify(ctx context.Context, m *Manifest, dbHash, dbPath string, files storage.Backend) error {
	if m.DatabaseSHA256 == "" {
		return nil // a PostgreSQL backup: the database comes from pg_dump
	}
	if dbHash != m.DatabaseSHA256 {
		return errors.New("backup: the database in the archive does not match its manifest (damaged archive)")
	}
	names, _, err := inspect(ctx, dbPath)
	if err != nil {
		return err
	}
	missing := map[string]bool{}
	for _, n := range m.MissingDocuments {
		missing[n] = true
	}
	found := map[string]bool{}
	err = files.List(ctx, func(i storage.Info) error { found[i.Key] = true; return nil })
	if err != nil {
		return fmt.Errorf("backup: list restored documents: %w", err)
	}
	for n := range names {
		if !found[n] && !missing[n] {
			return fmt.Errorf("backup: the document file %s is missing from the archive", n)
		}
	}
	return integrity(ctx, dbPath)
}

// integrity runs SQLite's integrity check on the restored database.
func integrity(ctx context.Context, dbPath string) error {
	c, err := openFile(ctx, dbPath)
	if err != nil {
		return err
	}
	defer c.Close()
	var result string
	if err := c.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&result); err != nil {
		return fmt.Errorf("backup: integrity check: %w", err)
	}
	if result != "ok" {
		return fmt.Errorf("backup: the restored database fails its integrity check: %s", result)
	}
	return nil
}
