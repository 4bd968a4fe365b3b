package auth

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

func TestHashAndVerifyPassword(t *testing.T) {
	h, err := HashPassword("Correct-horse-9")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("not a PHC argon2id string: %s", h)
	}
	other, _ := HashPassword("Correct-horse-9")
	if other == h {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	cases := []struct {
		name, hash, pw string
		want           bool
	}{
		{"right", h, "Correct-horse-9", true},
		{"wrong", h, "correct-horse-9", false},
		{"empty", h, "", false},
		{"empty hash", "", "Correct-horse-9", false},
		{"bcrypt", "$2a$10$abcdefghijklmnopqrstuuNpk0pTZvJKrTkR2q8dc0hMGXz6c1J5q", "x", false},
		{"wrong version", strings.Replace(h, "v=19", "v=16", 1), "Correct-horse-9", false},
		{"huge memory", strings.Replace(h, "m=19456", "m=99999999", 1), "Correct-horse-9", false},
		{"bad salt", strings.Join(append(strings.Split(h, "$")[:4], "!!", strings.Split(h, "$")[5]), "$"), "Correct-horse-9", false},
		{"truncated", h[:len(h)-10], "Correct-horse-9", false},
	}
	for _, c := range cases {
		if got := VerifyPassword(c.hash, c.pw); got != c.want {
			t.Errorf("%s: got %v", c.name, got)
		}
	}
}

func TestPasswordPolicy(t *testing.T) {
	cases := []struct {
		pw   string
		want string // "" passes, else the failing rule type
	}{
		{"Correct-horse-9", ""},
		{"abcdefghi1", ""},
		{"äöüßéèàçñ7", ""},
		{"abcdefgh1", "password_weak"},
		{"abcdefghijk", "password_weak"},
		{"1234567890", "password_weak"},
		{strings.Repeat("a1", 101), "max"},
	}
	for _, c := range cases {
		f := checkPolicy("password", c.pw)
		got := ""
		if f != nil {
			got = f.Type
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.pw, got, c.want)
		}
	}
}

func TestGeneratePassword(t *testing.T) {
	seen := map[string]bool{}
	for range 200 {
		p, err := GeneratePassword()
		if err != nil {
			t.Fatal(err)
		}
		if len(p) != 16 || seen[p] {
			t.Fatalf("bad or repeated password %q", p)
		}
		seen[p] = true
		has := map[string]bool{}
		for _, r := range p {
			switch {
			case unicode.IsLower(r):
				has["lower"] = true
			case unicode.IsUpper(r):
				has["upper"] = true
			case unicode.IsDigit(r):
				has["digit"] = true
			case strings.ContainsRune(genSymbols, r):
				has["symbol"] = true
			default:
				t.Fatalf("unexpected character %q in %q", r, p)
			}
		}
		if len(has) != 4 || checkPolicy("p", p) != nil {
			t.Fatalf("%q misses a class or the policy: %v", p, has)
		}
	}
}

func TestLoadOrCreateSecret(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	s1, err := LoadOrCreateSecret(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(s1) < MinSecretBytes {
		t.Fatalf("secret of %d bytes", len(s1))
	}
	st, err := os.Stat(filepath.Join(dir, SecretFile))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode().Perm())
	}
	s2, err := LoadOrCreateSecret(dir)
	if err != nil || string(s2) != string(s1) {
		t.Fatalf("second load: %q, %v", s2, err)
	}
	if err := os.WriteFile(filepath.Join(dir, SecretFile), []byte("short\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreateSecret(dir); err == nil {
		t.Fatal("short secret accepted")
	}
}

func TestNewServiceChecksDeps(t *testing.T) {
	if _, err := NewService(Deps{}); err == nil {
		t.Fatal("empty deps accepted")
	}
}
