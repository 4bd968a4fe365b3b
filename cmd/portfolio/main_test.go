package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/platform/storage"
	"portfolio/internal/platform/storage/s3test"
)

func runCLI(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), err
}

func TestVersionAndUnknownCommand(t *testing.T) {
	out, _, err := runCLI(t, "", "version")
	if err != nil || !strings.HasPrefix(out, "portfolio ") {
		t.Fatalf("version: %q %v", out, err)
	}
	if _, _, err := runCLI(t, "", "frobnicate"); err == nil || !strings.Contains(err.Error(), "unknown command") {
		t.Fatalf("unknown command: %v", err)
	}
}

func TestServeHelpDocumentsEveryVariable(t *testing.T) {
	_, help, _ := runCLI(t, "", "serve", "--help")
	for _, env := range []string{"PORTFOLIO_ADDR", "PORTFOLIO_DATABASE_URL", "PORTFOLIO_DATA_DIR", "PORTFOLIO_JWT_SECRET",
		"PORTFOLIO_PUBLIC_URL", "PORTFOLIO_LOG_LEVEL", "PORTFOLIO_SMTP_HOST", "PORTFOLIO_SMTP_PORT", "PORTFOLIO_SMTP_FROM",
		"PORTFOLIO_ACCESS_TOKEN_TTL", "PORTFOLIO_SESSION_IDLE_TIMEOUT", "PORTFOLIO_MAX_BODY_BYTES"} {
		if !strings.Contains(help, env) {
			t.Errorf("serve --help does not mention %s", env)
		}
	}
}

func TestSeedDemoIsIdempotentAndCreateAdmin(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i < 2; i++ {
		out, _, err := runCLI(t, "", "seed", "--demo", "--data-dir", dir, "--log-level", "warn")
		if err != nil || !strings.Contains(out, "admin@demo.test") || !strings.Contains(out, "Demo-Password-1") {
			t.Fatalf("seed run %d: %q %v", i+1, out, err)
		}
	}
	// Interactive: the answers come on stdin.
	out, _, err := runCLI(t, "ops@example.com\nOlga\nOps\nA-long-password-9\n", "user", "create-admin", "--data-dir", dir, "--log-level", "warn")
	if err != nil || !strings.Contains(out, "Administrator ops@example.com created") {
		t.Fatalf("create-admin: %q %v", out, err)
	}
	// The same address again is refused with a clear error.
	_, _, err = runCLI(t, "", "user", "create-admin", "--data-dir", dir, "--log-level", "warn",
		"--email", "OPS@example.com", "--firstname", "O", "--lastname", "P", "--password", "A-long-password-9")
	if err == nil {
		t.Fatal("a second admin with the same address was created")
	}
	// A weak password is refused.
	_, _, err = runCLI(t, "", "user", "create-admin", "--data-dir", dir, "--log-level", "warn",
		"--email", "weak@example.com", "--firstname", "W", "--lastname", "P", "--password", "short")
	if err == nil {
		t.Fatal("a weak password was accepted")
	}
}

// TestJobsListAndRun: "jobs list" shows the registered jobs with their
// schedule and last run; "jobs run" runs one and fails (non-zero exit)
// when the job fails or does not exist.
func TestJobsListAndRun(t *testing.T) {
	dir := t.TempDir()
	out, _, err := runCLI(t, "", "jobs", "list", "--data-dir", dir, "--log-level", "warn")
	if err != nil || !strings.Contains(out, "document_sweep") || !strings.Contains(out, "daily at 03:00 UTC") || !strings.Contains(out, "never run") {
		t.Fatalf("jobs list: %q %v", out, err)
	}
	out, _, err = runCLI(t, "", "jobs", "run", "document_sweep", "--data-dir", dir, "--log-level", "warn")
	if err != nil || !strings.HasPrefix(out, "document_sweep: completed") {
		t.Fatalf("jobs run: %q %v", out, err)
	}
	out, _, err = runCLI(t, "", "jobs", "list", "--data-dir", dir, "--log-level", "warn")
	if err != nil || !strings.Contains(out, "completed") || strings.Contains(firstLineWith(out, "document_sweep"), "never run") {
		t.Fatalf("jobs list after the run: %q %v", out, err)
	}

	// The sweep fails when it cannot tell whether a stored file is in use.
	old := time.Now().Add(-48 * time.Hour)
	file := filepath.Join(dir, "documents", "ab", "ab"+strings.Repeat("0", 30)+".pdf")
	if err := os.MkdirAll(filepath.Dir(file), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("%PDF-1.4"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(file, old, old); err != nil {
		t.Fatal(err)
	}
	exec := func(stmt string) {
		d, err := db.Open(context.Background(), "", dir)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if _, err := d.ExecContext(context.Background(), stmt); err != nil {
			t.Fatal(err)
		}
	}
	exec(`ALTER TABLE document RENAME TO document_away`)
	_, _, err = runCLI(t, "", "jobs", "run", "--data-dir", dir, "--log-level", "error", "document_sweep")
	if err == nil || !strings.Contains(err.Error(), "document_sweep failed") {
		t.Fatalf("a failing job run succeeded: %v", err)
	}
	exec(`ALTER TABLE document_away RENAME TO document`)
	out, _, err = runCLI(t, "", "jobs", "list", "--data-dir", dir, "--log-level", "warn")
	if err != nil || !strings.Contains(firstLineWith(out, "document_sweep"), "discarded") {
		t.Fatalf("jobs list after the failure: %q %v", out, err)
	}

	if _, _, err := runCLI(t, "", "jobs", "run", "nope", "--data-dir", dir, "--log-level", "warn"); err == nil {
		t.Fatal("an unknown job ran")
	}
	if _, _, err := runCLI(t, "", "jobs", "frobnicate"); err == nil {
		t.Fatal("an unknown jobs command succeeded")
	}
}

func firstLineWith(text, part string) string {
	for line := range strings.Lines(text) {
		if strings.Contains(line, part) {
			return line
		}
	}
	return ""
}

// TestBackupAndRestoreCommands: "backup --to" writes an archive of a data
// directory; "restore --from" brings it back into an empty one (the
// database with its users and the signing secret) and refuses to restore
// over an installation.
func TestBackupAndRestoreCommands(t *testing.T) {
	dir := t.TempDir()
	if _, _, err := runCLI(t, "", "seed", "--demo", "--data-dir", dir, "--log-level", "warn"); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(t.TempDir(), "portfolio-backup.tar.gz")
	out, _, err := runCLI(t, "", "backup", "--to", archive, "--data-dir", dir, "--log-level", "warn")
	if err != nil || !strings.Contains(out, "Backup written to") {
		t.Fatalf("backup: %q %v", out, err)
	}
	target := filepath.Join(t.TempDir(), "restored")
	out, _, err = runCLI(t, "", "restore", "--from", archive, "--data-dir", target)
	if err != nil || !strings.Contains(out, "Restored the backup") {
		t.Fatalf("restore: %q %v", out, err)
	}
	for _, name := range []string{"portfolio.db", "jwt-secret"} {
		if _, err := os.Stat(filepath.Join(target, name)); err != nil {
			t.Fatalf("restored %s: %v", name, err)
		}
	}
	restored, err := db.Open(context.Background(), "", target)
	if err != nil {
		t.Fatal(err)
	}
	defer restored.Close()
	var users int
	if err := restored.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM users WHERE user_email = 'admin@demo.test'`).Scan(&users); err != nil || users != 1 {
		t.Fatalf("restored users: %d %v", users, err)
	}
	if _, _, err := runCLI(t, "", "restore", "--from", archive, "--data-dir", target); err == nil {
		t.Fatal("a restore over an installation succeeded")
	}
	if _, _, err := runCLI(t, "", "backup", "--data-dir", dir, "--log-level", "warn"); err == nil || !strings.Contains(err.Error(), "--to") {
		t.Fatalf("backup without --to: %v", err)
	}
}

// TestBackupAndRestoreCommandsWithABucket: with the storage settings, the
// backup command copies the bucket's objects into the archive and the
// restore command puts them into the bucket's (empty) prefix, refusing a
// prefix that already holds documents.
func TestBackupAndRestoreCommandsWithABucket(t *testing.T) {
	srv := s3test.Start(t)
	settings := func(url string) []string {
		return []string{"--storage-url", url, "--s3-endpoint", srv.Config.Endpoint, "--s3-region", srv.Config.Region,
			"--s3-access-key", srv.Config.AccessKey, "--s3-secret-key", srv.Config.SecretKey, "--s3-path-style", "--s3-tls=false"}
	}
	dir := t.TempDir()
	if _, _, err := runCLI(t, "", append([]string{"seed", "--demo", "--data-dir", dir, "--log-level", "warn"}, settings(srv.Config.URL)...)...); err != nil {
		t.Fatal(err)
	}
	source, err := storage.NewS3(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	const key = "0123456789abcdef0123456789abcdef.pdf"
	if err := source.Put(context.Background(), key, strings.NewReader("%PDF-1.4 a stored object"), 24); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(t.TempDir(), "portfolio-backup.tar.gz")
	out, _, err := runCLI(t, "", append([]string{"backup", "--to", archive, "--data-dir", dir, "--log-level", "warn"}, settings(srv.Config.URL)...)...)
	if err != nil || !strings.Contains(out, "from s3://portfolio/docs/") {
		t.Fatalf("backup: %q %v", out, err)
	}
	moved, restored := "s3://portfolio/moved", filepath.Join(t.TempDir(), "restored")
	out, _, err = runCLI(t, "", append([]string{"restore", "--from", archive, "--data-dir", restored}, settings(moved)...)...)
	if err != nil || !strings.Contains(out, "into s3://portfolio/moved/") {
		t.Fatalf("restore: %q %v", out, err)
	}
	cfg := srv.Config
	cfg.URL = moved
	target, err := storage.NewS3(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := target.Stat(context.Background(), key); err != nil || info.Size != 24 {
		t.Fatalf("the object in the new prefix: %+v %v", info, err)
	}
	if _, err := os.Stat(filepath.Join(restored, "portfolio.db")); err != nil {
		t.Errorf("the database was not restored: %v", err)
	}
	if _, err := os.Stat(filepath.Join(restored, "documents")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("documents in the data directory: %v", err)
	}
	_, _, err = runCLI(t, "", append([]string{"restore", "--from", archive, "--data-dir", filepath.Join(t.TempDir(), "again")}, settings(moved)...)...)
	if err == nil || !strings.Contains(err.Error(), "holds documents") {
		t.Fatalf("a restore into a prefix with documents: %v", err)
	}
}
