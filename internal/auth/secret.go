package auth

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// SecretFile is the name of the generated signing secret in the data
// directory.
const SecretFile = "jwt-secret"

// LoadOrCreateSecret returns the signing secret kept in dataDir/jwt-secret,
// creating it (32 random bytes, hex encoded, mode 0600) when absent. Several
// instances starting at once agree on one secret: the file is created
// exclusively and a loser reads the winner's file.
func LoadOrCreateSecret(dataDir string) ([]byte, error) {
	path := filepath.Join(dataDir, SecretFile)
	if secret, err := readSecret(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return secret, err
	}
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return nil, fmt.Errorf("auth: create data directory for the secret: %w", err)
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return nil, fmt.Errorf("auth: generate secret: %w", err)
	}
	text := hex.EncodeToString(raw[:])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return readSecret(path)
	}
	if err != nil {
		return nil, fmt.Errorf("auth: create %s: %w", path, err)
	}
	if _, err := f.WriteString(text + "\n"); err != nil {
		f.Close()
		return nil, fmt.Errorf("auth: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("auth: write %s: %w", path, err)
	}
	return []byte(text), nil
}

func readSecret(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("auth: read secret: %w", err)
	}
	secret := strings.TrimSpace(string(b))
	if len(secret) < MinSecretBytes {
		return nil, fmt.Errorf("auth: the secret in %s has %d bytes, at least %d are needed", path, len(secret), MinSecretBytes)
	}
	return []byte(secret), nil
}
