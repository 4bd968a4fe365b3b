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
	"io/fs"
	"os"
	"path/filepath"
)

// maxManifestBytes bounds the manifest read into memory.
const maxManifestBytes = 1 << 20

// Restore unpacks the archive r into dataDir (documents, secret) and
// dbPath (the SQLite database; empty for a PostgreSQL backup, whose
// database pg_restore brings back). Both must be empty of Portfolio data:
// a restore never overwrites an installation. It checks every name, the
// database's hash and integrity and that every document the database
// names arrived; on any failure it removes what it wrote.
func Restore(ctx context.Context, r io.Reader, dataDir, dbPath string) (m *Manifest, err error) {
	if err := mustBeEmpty(dataDir, dbPath); err != nil {
		return nil, err
	}
	var written []string
	defer func() {
		if err != nil {
			for _, p := range written {
				os.Remove(p)
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
	if err := verify(ctx, m, dbHash, dataDir, dbPath); err != nil {
		return nil, err
	}
	return m, nil
}

// mustBeEmpty refuses a target that already holds a database or documents.
func mustBeEmpty(dataDir, dbPath string) error {
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
func verify(ctx context.Context, m *Manifest, dbHash, dataDir, dbPath string) error {
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
	docs := filepath.Join(dataDir, documentsName)
	found := map[string]bool{}
	err = filepath.WalkDir(docs, func(p string, e fs.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			found[e.Name()] = true
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	})
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
