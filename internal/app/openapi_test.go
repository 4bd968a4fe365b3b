package app_test

import (
	"io"
	"log/slog"
	"os"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"portfolio/internal/app"
	"portfolio/internal/config"
	"portfolio/internal/testkit"
)

// TestEveryRouteIsDocumented: each route the server binds appears with its
// method in docs/api/openapi.yaml, and the document names no route the
// server lacks.
func TestEveryRouteIsDocumented(t *testing.T) {
	raw, err := os.ReadFile("../../docs/api/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]any `yaml:"paths"`
	}
	if err := yaml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			if method == "parameters" || method == "summary" || method == "description" {
				continue
			}
			documented[strings.ToUpper(method)+" "+path] = true
		}
	}
	cfg := config.Defaults()
	cfg.DataDir = t.TempDir()
	a, err := app.NewWithDB(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), testkit.NewSQLite(t))
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for _, p := range a.Server.Patterns() {
		method, path, ok := strings.Cut(p, " ")
		if !ok {
			t.Errorf("route %q has no method", p)
			continue
		}
		path = strings.TrimSuffix(path, "{$}")
		key := method + " " + path
		served[key] = true
		if !documented[key] {
			t.Errorf("route %s is not documented in docs/api/openapi.yaml", key)
		}
	}
	for key := range documented {
		if !served[key] {
			t.Errorf("docs/api/openapi.yaml documents %s, which the server does not answer", key)
		}
	}
}
