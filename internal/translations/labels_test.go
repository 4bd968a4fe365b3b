package translations

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"portfolio/internal/i18n"
	"portfolio/internal/schema"
)

// servedLabelKeys lists every key the table definitions ask the label
// lookup for (recorded from Serve itself, so new fields, options, link
// attributes and relations are covered as soon as they are defined), plus
// each entity name, the key of its list title.
func servedLabelKeys(t *testing.T) map[string]bool {
	t.Helper()
	r := schema.Default()
	keys := map[string]bool{}
	record := func(key, _ string) string { keys[key] = true; return "" }
	// The entities derived from listed links are served like the others.
	served := append(r.Entities(), r.LinkLists()...)
	for _, e := range served {
		if _, err := r.Serve(e.Name, "en", record); err != nil {
			t.Fatalf("serve %s: %v", e.Name, err)
		}
	}
	for _, e := range served {
		// The entity name is the key of the plural list title, so no
		// field, option or relation may use it as well.
		if keys[e.Name] {
			t.Errorf("entity name %q is also asked for as a field, option or relation label", e.Name)
		}
	}
	for _, e := range served {
		keys[e.Name] = true
	}
	return keys
}

func TestAttributeLabelFilesMatchDefinitions(t *testing.T) {
	want := servedLabelKeys(t)
	labels := i18n.MustLoadAttributes()
	for _, lang := range i18n.Languages {
		texts := labels.Texts(lang)
		for _, k := range slices.Sorted(maps.Keys(want)) {
			if strings.TrimSpace(texts[k]) == "" {
				t.Errorf("attributes/%s.json: no text for %q (the table definitions ask for it)", lang, k)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(texts)) {
			if !want[k] {
				t.Errorf("attributes/%s.json: stale key %q (no field, option, relation or entity has it)", lang, k)
			}
		}
	}
}

func TestServeUsesShippedLabels(t *testing.T) {
	labels := i18n.MustLoadAttributes()
	label := func(key, lang string) string { return labels.Texts(lang)[key] }
	def, err := schema.Serve("pos", "de", label)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range def.Attributes {
		got[a.Attribute] = a.AttributeI18n
	}
	for _, r := range def.Relations {
		got[r.API] = r.Label
	}
	for k, want := range map[string]string{"pos_name": "Name", "company_id": "Gesellschaft", "pos_opening_date": "Eröffnungsdatum", "pos_location_rel": "Standorte"} {
		if got[k] != want {
			t.Errorf("pos %s in German: got %q, want %q", k, got[k], want)
		}
	}
}
