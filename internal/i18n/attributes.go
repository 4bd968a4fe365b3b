package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
)

// attributeFiles are the shipped attribute labels ("nice names"): one flat
// JSON object per language mapping every key the table definitions ask for
// (attribute names such as pos_name, option keys such as team_type.intern,
// relation API names such as pos_location_rel, and entity names as list
// titles) to its text.
//
//go:embed attributes/*.json
var attributeFiles embed.FS

// LoadAttributes reads the embedded attribute labels of every language into
// a Catalog of their own, kept apart from the UI texts because they are
// synchronised into a different table (attribute_i18n) and edited there.
func LoadAttributes() (*Catalog, error) {
	c := &Catalog{texts: map[string]map[string]string{}, ui: map[string]bool{}}
	for _, lang := range Languages {
		name := path.Join("attributes", lang+".json")
		b, err := fs.ReadFile(attributeFiles, name)
		if err != nil {
			return nil, fmt.Errorf("i18n: read %s: %w", name, err)
		}
		var m map[string]string
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("i18n: parse %s: %w", name, err)
		}
		c.texts[lang] = m
		for k := range m {
			c.ui[k] = true // every label is served to the browser
		}
	}
	return c, nil
}

// MustLoadAttributes is LoadAttributes for program start and tests: the
// files are embedded, so a failure is a build defect.
func MustLoadAttributes() *Catalog {
	c, err := LoadAttributes()
	if err != nil {
		panic(err)
	}
	return c
}
