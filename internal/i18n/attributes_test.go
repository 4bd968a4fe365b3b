package i18n

import (
	"slices"
	"testing"
)

func TestLoadAttributes(t *testing.T) {
	c, err := LoadAttributes()
	if err != nil {
		t.Fatal(err)
	}
	en := c.Keys(Default)
	if len(en) == 0 {
		t.Fatal("no English attribute labels")
	}
	for _, lang := range Languages {
		if keys := c.Keys(lang); !slices.Equal(keys, en) {
			t.Errorf("%s has %d keys, English %d: the files must list the same keys", lang, len(keys), len(en))
		}
		for k, v := range c.Texts(lang) {
			if v == "" {
				t.Errorf("%s: empty label for %q", lang, k)
			}
		}
	}
	if got := c.T("de", "pos", nil); got != "Filialen" {
		t.Errorf("pos in German: %q", got)
	}
}
