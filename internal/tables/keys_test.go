package tables_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"portfolio/internal/i18n"
	"portfolio/internal/schema"
)

// TestMessageKeysExist: every message key the engine and the validator
// use, literal or built (type errors, entity names), has a text in
// English, German and French.
func TestMessageKeysExist(t *testing.T) {
	c := i18n.MustLoad()
	keyRE := regexp.MustCompile(`"((?:server\.tables|server\.auth|server\.error|validation)\.[a-z_.]+[a-z_])"`)
	keys := map[string]bool{}
	for _, dir := range []string{".", "../validate"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range keyRE.FindAllStringSubmatch(string(src), -1) {
				if !strings.HasSuffix(m[1], ".") {
					keys[m[1]] = true
				}
			}
		}
	}
	for _, typ := range []string{"int", "id", "bool", "decimal", "date", "datetime", "string", "list", "option"} {
		keys["validation.type."+typ] = true
	}
	for _, e := range append(schema.All(), schema.Default().LinkLists()...) {
		keys["entity."+e.Name], keys["entity."+e.Name+".plural"] = true, true
	}
	if len(keys) < 150 {
		t.Fatalf("found only %d keys: the scan is broken", len(keys))
	}
	for k := range keys {
		for _, lang := range i18n.Languages {
			if !c.Has(lang, k) {
				t.Errorf("%s has no %s text", k, lang)
			}
		}
	}
}
