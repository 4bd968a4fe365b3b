package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"portfolio/internal/app"
	"portfolio/internal/backup"
	"portfolio/internal/config"
	"portfolio/internal/db"
	"portfolio/internal/platform/storage"
)

// cmdBackup writes an online backup (SQLite database, documents, signing
// secret) to --to. The archive appears only when it is complete: it is
// written beside the target and renamed into place.
func cmdBackup(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var to string
	return withApp(ctx, "backup", args, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&to, "to", "", "write the backup archive (.tar.gz) to `FILE`")
	}, func(a *app.App) error {
		if to == "" {
			return errors.New("say where the backup goes: --to FILE")
		}
		tmp, err := os.CreateTemp(filepath.Dir(to), ".portfolio-backup-*")
		if err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		defer os.Remove(tmp.Name())
		m, err := backup.Write(ctx, a.DB, a.Config.DataDir, a.Documents.Files(), tmp)
		if err == nil {
			err = tmp.Sync()
		}
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		if err := os.Rename(tmp.Name(), to); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		fmt.Fprintf(stdout, "Backup written to %s: %s database (migration %d), %d document files (%d bytes) from %s.\n",
			to, m.Dialect, m.Migration, m.Documents, m.DocumentBytes, m.DocumentStorage)
		if m.Note != "" {
			fmt.Fprintln(stdout, m.Note)
		}
		if len(m.MissingDocuments) > 0 {
			fmt.Fprintf(stderr, "warning: %d documents were deleted while the backup ran; their files are not in it: %s\n",
				len(m.MissingDocuments), strings.Join(m.MissingDocuments, ", "))
		}
		return nil
	})
}

// cmdRestore unpacks a backup into an empty data directory (and, for
// SQLite, the database file the configuration names). It never opens the
// app: nothing may be created before the archive is in place.
func cmdRestore(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := config.Defaults()
	fs := flag.NewFlagSet("portfolio restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	config.Register(fs, &cfg)
	var from string
	fs.StringVar(&from, "from", "", "restore the backup archive `FILE`")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if from == "" {
		return errors.New("say which backup to restore: --from FILE")
	}
	f, err := os.Open(from)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer f.Close()
	dbPath := ""
	if !strings.HasPrefix(cfg.DatabaseURL, "postgres://") && !strings.HasPrefix(cfg.DatabaseURL, "postgresql://") {
		dbPath = db.SQLitePath(cfg.DatabaseURL, cfg.DataDir)
	}
	if err := os.MkdirAll(cfg.DataDir, 0o750); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	// With PORTFOLIO_STORAGE_URL the documents go back into the bucket
	// (an empty prefix), otherwise into the data directory.
	var files storage.Backend
	if bucket, err := app.Bucket(cfg); err != nil {
		return fmt.Errorf("restore: %w", err)
	} else if bucket != nil {
		files = bucket
	}
	m, err := backup.Restore(ctx, f, cfg.DataDir, dbPath, files)
	if err != nil {
		return err
	}
	where := filepath.Join(cfg.DataDir, "documents")
	if files != nil {
		where = files.String()
	}
	fmt.Fprintf(stdout, "Restored the backup of %s into %s: %s database (migration %d), %d document files into %s.\n",
		m.CreatedAt.Format("2006-01-02 15:04:05 MST"), cfg.DataDir, m.Dialect, m.Migration, m.Documents, where)
	if m.Note != "" {
		fmt.Fprintln(stdout, m.Note)
	}
	return nil
}
