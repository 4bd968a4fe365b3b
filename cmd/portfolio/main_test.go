package main

import (
	"bytes"
	"strings"
	"testing"
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
