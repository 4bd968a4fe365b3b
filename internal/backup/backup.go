// Package backup writes and restores a consistent copy of what a
// Portfolio installation keeps: the SQLite database (taken online with
// VACUUM INTO while the server writes), the document files and the
// signing secret, in one gzip-compressed tar archive with a manifest.
// On PostgreSQL the database is backed up with pg_dump (README); the
// archive then holds the files and says so in its manifest. The document
// files are read through the storage interface, so the archive is the
// same whether they live in the data directory or in an S3 bucket
// (decision 0034), and a restore writes them to either.
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
	"path"
	"path/filepath"

	"portfolio/internal/platform/storage"
	"strings"
	"time"

	"portfolio/internal/db"
)

// Names inside the archive.
const (
	manifestName  = "manifest.json"
	databaseName  = "portfolio.db"
	secretName    = "jwt-secret"
	documentsName = "documents"
	// FormatVersion is the archive layout; Restore refuses others.
	FormatVersion = 1
)

// Manifest describes an archive: what it holds and how to check it.
type Manifest struct {
	Format    int       `json:"format"`
	CreatedAt time.Time `json:"created_at"`
	Dialect   string    `json:"dialect"`
	// Migration is the newest migration applied to the copied database.
	Migration int64 `json:"migration,omitempty"`
	// DatabaseSHA256 is the hash of portfolio.db in the archive (SQLite).
	DatabaseSHA256 string `json:"database_sha256,omitempty"`
	Documents      int    `json:"documents"`
	DocumentBytes  int64  `json:"document_bytes"`
	// MissingDocuments are stored names the copied database refers to
	// whose file was gone when the files were copied (a document deleted
	// and swept while the backup ran); zero in a complete backup.
	MissingDocuments []string `json:"missing_documents,omitempty"`
	// DocumentStorage is where the files were copied from ("directory
	// …" or "s3://bucket/prefix/"), for the record.
	DocumentStorage string `json:"document_storage,omitempty"`
	Note            string `json:"note,omitempty"`
}

// Write writes a backup of database d, the signing secret of dataDir and
// the document files of files (the data directory's or a bucket's) to w. The database copy is
// taken first, in one statement that sees one committed state; the files
// are copied afterwards, so every file the copy refers to is there (files
// are only ever added, or swept days after nothing names them).
func Write(ctx context.Context, d *db.DB, dataDir string, files storage.Backend, w io.Writer) (*Manifest, error) {
	m := &Manifest{Format: FormatVersion, CreatedAt: time.Now().UTC().Truncate(time.Second), Dialect: string(d.Dialect()),
		DocumentStorage: files.String()}
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	var referenced map[string]bool
	if d.Dialect() == db.SQLite {
		snapshot, err := snapshotSQLite(ctx, d)
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(filepath.Dir(snapshot))
		if referenced, m.Migration, err = inspect(ctx, snapshot); err != nil {
			return nil, err
		}
		if m.DatabaseSHA256, err = addFile(tw, databaseName, snapshot); err != nil {
			return nil, err
		}
	} else {
		m.Note = "PostgreSQL: back up the database with pg_dump (see README); this archive holds the files"
	}
	if err := addOptional(tw, secretName, filepath.Join(dataDir, secretName)); err != nil {
		return nil, err
	}
	copied, err := addDocuments(ctx, tw, files, m)
	if err != nil {
		return nil, err
	}
	for name := range referenced {
		if !copied[name] {
			m.MissingDocuments = append(m.MissingDocuments, name)
		}
	}
	if err := addJSON(tw, manifestName, m); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("backup: finish archive: %w", err)
	}
	if err := gz.Close(); err != nil {
		return nil, fmt.Errorf("backup: finish compression: %w", err)
	}
	return m, nil
}

// snapshotSQLite copies the database into a new temporary file with
// VACUUM INTO: a consistent, compact copy taken while others write.
func snapshotSQLite(ctx context.Context, d *db.DB) (string, error) {
	dir, err := os.MkdirTemp("", "portfolio-backup-*")
	if err != nil {
		return "", fmt.Errorf("backup: temporary directory: %w", err)
	}
	file := filepath.Join(dir, databaseName)
	if _, err := d.ExecContext(ctx, `VACUUM INTO ?`, file); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("backup: copy the database: %w", err)
	}
	return file, nil
}

// inspect opens a copied database and answers the stored document names
// it refers to and its newest migration.
func inspect(ctx context.Context, file string) (map[string]bool, int64, error) {
	c, err := openFile(ctx, file)
	if err != nil {
		return nil, 0, err
	}
	defer c.Close()
	var migration int64
	if err := c.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&migration); err != nil {
		return nil, 0, fmt.Errorf("backup: migration of %s: %w", file, err)
	}
	rows, err := c.QueryContext(ctx, `SELECT document_file FROM document WHERE document_file IS NOT NULL AND document_file <> ''`)
	if err != nil {
		return nil, 0, fmt.Errorf("backup: documents of %s: %w", file, err)
	}
	defer rows.Close()
	names := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, 0, fmt.Errorf("backup: documents of %s: %w", file, err)
		}
		names[name] = true
	}
	return names, migration, rows.Err()
}

// openFile opens the SQLite database in file.
func openFile(ctx context.Context, file string) (*db.DB, error) {
	c, err := db.Open(ctx, "file:"+file, "")
	if err != nil {
		return nil, fmt.Errorf("backup: open %s: %w", file, err)
	}
	return c, nil
}

// addDocuments copies every stored file of files into the archive under
// documents/<first two characters>/<key> (the data directory's layout),
// streaming each, and answers the keys copied. A file removed between
// the listing and its copy (swept) is skipped.
func addDocuments(ctx context.Context, tw *tar.Writer, files storage.Backend, m *Manifest) (map[string]bool, error) {
	var infos []storage.Info
	if err := files.List(ctx, func(i storage.Info) error { infos = append(infos, i); return nil }); err != nil {
		return nil, fmt.Errorf("backup: list documents: %w", err)
	}
	copied := map[string]bool{}
	for _, i := range infos {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f, err := files.Open(ctx, i.Key)
		if errors.Is(err, storage.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("backup: copy documents: %w", err)
		}
		size, err := f.Seek(0, io.SeekEnd)
		if err == nil {
			_, err = f.Seek(0, io.SeekStart)
		}
		if err == nil {
			hdr := &tar.Header{Name: documentName(i.Key), Mode: 0o600, Size: size, ModTime: i.Modified, Typeflag: tar.TypeReg}
			if err = tw.WriteHeader(hdr); err == nil {
				_, err = io.Copy(tw, io.LimitReader(f, size))
			}
		}
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("backup: copy document %s: %w", i.Key, err)
		}
		m.DocumentBytes += size
		m.Documents++
		copied[i.Key] = true
	}
	return copied, nil
}

// documentName is the archive name of the file of key.
func documentName(key string) string { return path.Join(documentsName, key[:2], key) }

// documentKey answers the key of an archive name documents/ab/abcd….
func documentKey(name string) (string, bool) {
	key := path.Base(name)
	return key, storage.ValidKey(key) && name == documentName(key)
}

// addFile adds the file at src as name and answers its SHA-256.
func addFile(tw *tar.Writer, name, src string) (string, error) {
	f, err := os.Open(src)
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("backup: %s: %w", name, err)
	}
	hdr := &tar.Header{Name: name, Mode: 0o600, Size: info.Size(), ModTime: info.ModTime(), Typeflag: tar.TypeReg}
	if err := tw.WriteHeader(hdr); err != nil {
		return "", fmt.Errorf("backup: %s: %w", name, err)
	}
	h := sha256.New()
	if _, err := io.Copy(io.MultiWriter(tw, h), io.LimitReader(f, info.Size())); err != nil {
		return "", fmt.Errorf("backup: %s: %w", name, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// addOptional adds src as name when it exists.
func addOptional(tw *tar.Writer, name, src string) error {
	if _, err := addFile(tw, name, src); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func addJSON(tw *tar.Writer, name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("backup: %s: %w", name, err)
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(b)), ModTime: time.Now(), Typeflag: tar.TypeReg}); err != nil {
		return fmt.Errorf("backup: %s: %w", name, err)
	}
	if _, err := tw.Write(b); err != nil {
		return fmt.Errorf("backup: %s: %w", name, err)
	}
	return nil
}

// archiveName checks a name read from an archive: a relative path to a
// regular file Portfolio writes (the manifest, the database, the secret,
// a file under documents/), never one that leaves the directory.
func archiveName(name string) (string, error) {
	clean := path.Clean(name)
	switch {
	case clean != name, path.IsAbs(clean), strings.HasPrefix(clean, "../"), clean == "..", strings.Contains(clean, "\\"):
		return "", fmt.Errorf("backup: the archive names %q, which is not a plain relative path", name)
	case clean == manifestName, clean == databaseName, clean == secretName:
		return clean, nil
	case strings.HasPrefix(clean, documentsName+"/"):
		if _, ok := documentKey(clean); ok {
			return clean, nil
		}
	}
	return "", fmt.Errorf("backup: the archive holds %q, which is not part of a Portfolio backup", name)
}
