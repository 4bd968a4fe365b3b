// Package i18n holds the product's texts in English, German and French: the
// UI texts (locales/, served to the browser through POST /specific-api and
// seeded into the editable translation table) and the server's own messages
// (server/, used for error details). It also picks a request's language.
package i18n

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Languages are the supported language codes; the first is the default.
var Languages = []string{"en", "de", "fr"}

// Default is the language used when nothing else matches.
const Default = "en"

//go:embed locales/*.json server/*.json
var files embed.FS

// Catalog maps language → key → text. It is immutable after Load.
type Catalog struct {
	texts map[string]map[string]string
	// ui holds the keys of the UI texts (locales/), the ones the browser
	// loads; server messages stay on the server.
	ui map[string]bool
}

// Load reads the embedded UI and server texts of every language.
func Load() (*Catalog, error) {
	c := &Catalog{texts: map[string]map[string]string{}, ui: map[string]bool{}}
	for _, lang := range Languages {
		merged := map[string]string{}
		for _, dir := range []string{"locales", "server"} {
			b, err := fs.ReadFile(files, path.Join(dir, lang+".json"))
			if err != nil {
				return nil, fmt.Errorf("i18n: read %s/%s.json: %w", dir, lang, err)
			}
			var m map[string]string
			if err := json.Unmarshal(b, &m); err != nil {
				return nil, fmt.Errorf("i18n: parse %s/%s.json: %w", dir, lang, err)
			}
			for k, v := range m {
				merged[k] = v
				if dir == "locales" {
					c.ui[k] = true
				}
			}
		}
		c.texts[lang] = merged
	}
	return c, nil
}

// MustLoad is Load for program start and tests: the files are embedded, so a
// failure is a build defect.
func MustLoad() *Catalog {
	c, err := Load()
	if err != nil {
		panic(err)
	}
	return c
}

// T translates key into lang, falling back to English and then to the key,
// and fills {name} placeholders from args.
func (c *Catalog) T(lang, key string, args map[string]string) string {
	text, ok := c.texts[lang][key]
	if !ok {
		text, ok = c.texts[Default][key]
	}
	if !ok {
		text = key
	}
	for k, v := range args {
		text = strings.ReplaceAll(text, "{"+k+"}", v)
	}
	return text
}

// Has reports whether key exists in lang.
func (c *Catalog) Has(lang, key string) bool {
	_, ok := c.texts[lang][key]
	return ok
}

// Keys lists the keys of lang in sorted order.
func (c *Catalog) Keys(lang string) []string {
	keys := make([]string, 0, len(c.texts[lang]))
	for k := range c.texts[lang] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Texts returns a copy of lang's texts.
func (c *Catalog) Texts(lang string) map[string]string {
	out := make(map[string]string, len(c.texts[lang]))
	for k, v := range c.texts[lang] {
		out[k] = v
	}
	return out
}

// UITexts returns a copy of lang's UI texts (locales/): what the browser
// loads through POST /specific-api. Server messages share some key names
// (validation.*) with other placeholders, so they are not among them.
func (c *Catalog) UITexts(lang string) map[string]string {
	out := make(map[string]string, len(c.ui))
	for k, v := range c.texts[lang] {
		if c.ui[k] {
			out[k] = v
		}
	}
	return out
}

// Supported reports whether lang is one of Languages.
func Supported(lang string) bool {
	for _, l := range Languages {
		if l == lang {
			return true
		}
	}
	return false
}

// Negotiate picks the best supported language from an Accept-Language
// header ("de-DE,de;q=0.9,en;q=0.8"), or Default.
func Negotiate(header string) string {
	best, bestQ := Default, -1.0
	for _, part := range strings.Split(header, ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if _, err := fmt.Sscanf(v, "%g", &q); err != nil {
				continue
			}
		}
		base, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(tag)), "-")
		if Supported(base) && q > bestQ {
			best, bestQ = base, q
		}
	}
	return best
}

type langKey struct{}

// WithLang stores the request language in ctx.
func WithLang(ctx context.Context, lang string) context.Context {
	return context.WithValue(ctx, langKey{}, lang)
}

// LangFrom reads the request language from ctx (Default when unset).
func LangFrom(ctx context.Context) string {
	if l, ok := ctx.Value(langKey{}).(string); ok {
		return l
	}
	return Default
}

// LongDate renders a day in lang the way letters and explanations write
// it ("31 December 2027", "31. Dezember 2027", "31 décembre 2027"), from
// the server catalogue's deadline.date and deadline.month.N texts.
func (c *Catalog) LongDate(lang string, d time.Time) string {
	return c.T(lang, "deadline.date", map[string]string{"day": strconv.Itoa(d.Day()),
		"month": c.T(lang, "deadline.month."+strconv.Itoa(int(d.Month())), nil), "year": strconv.Itoa(d.Year())})
}
