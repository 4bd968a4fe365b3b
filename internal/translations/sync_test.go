package translations

import (
	"context"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/i18n"
	"portfolio/internal/testkit"
)

func countRows(t *testing.T, d *db.DB, table string) int {
	t.Helper()
	var n int
	if err := d.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM `+db.QuoteIdent(table)).Scan(&n); err != nil {
		t.Fatalf("count %s: %v", table, err)
	}
	return n
}

func label(t *testing.T, d *db.DB, key, lang string) (string, int) {
	t.Helper()
	var text string
	var edited int
	err := d.QueryRowContext(context.Background(),
		`SELECT attribute_nice_name, attribute_edited FROM attribute_i18n WHERE attribute_name = ? AND attribute_lang = ?`, key, lang).
		Scan(&text, &edited)
	if err != nil {
		t.Fatalf("label %s/%s: %v", key, lang, err)
	}
	return text, edited
}

func TestSyncAttributeLabels(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		ui := i18n.MustLoad()
		labels := i18n.MustLoadAttributes()
		wantLabels, wantTexts := 0, 0
		for _, lang := range i18n.Languages {
			wantLabels += len(labels.Keys(lang))
			wantTexts += len(ui.UITexts(lang))
		}

		n, err := Sync(ctx, d, ui)
		if err != nil {
			t.Fatalf("first sync: %v", err)
		}
		if n != wantLabels+wantTexts {
			t.Errorf("first sync wrote %d rows, want %d", n, wantLabels+wantTexts)
		}
		if got := countRows(t, d, "attribute_i18n"); got != wantLabels {
			t.Errorf("attribute_i18n has %d rows, want %d", got, wantLabels)
		}
		if got := countRows(t, d, "translation"); got != wantTexts {
			t.Errorf("translation has %d rows, want %d", got, wantTexts)
		}
		var serverKeys int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM translation WHERE translation_key LIKE 'server.%' OR translation_key LIKE 'mail.%'`).Scan(&serverKeys); err != nil {
			t.Fatal(err)
		}
		if serverKeys != 0 {
			t.Errorf("%d server messages were written into the UI texts", serverKeys)
		}
		for _, c := range []struct{ key, lang, want string }{
			{"pos", "en", "Points of sale"}, {"pos", "de", "Filialen"}, {"pos", "fr", "Points de vente"},
			{"pos_name", "en", "Name"}, {"team_type.intern", "de", "Intern"}, {"pos_location_rel", "fr", "Sites"},
		} {
			if got, _ := label(t, d, c.key, c.lang); got != c.want {
				t.Errorf("%s/%s = %q, want %q", c.key, c.lang, got, c.want)
			}
		}

		// An administrator edits one label; another drifts from the shipped
		// text without being edited; a third and a UI text disappear; a label
		// no longer shipped stays; a UI text no longer shipped (a key split
		// into plural forms), edited or not, goes.
		for _, stmt := range []struct {
			sql  string
			args []any
		}{
			{`UPDATE attribute_i18n SET attribute_nice_name = ?, attribute_edited = 1 WHERE attribute_name = ? AND attribute_lang = ?`, []any{"Filialen", "pos", "de"}},
			{`UPDATE attribute_i18n SET attribute_nice_name = ? WHERE attribute_name = ? AND attribute_lang = ?`, []any{"Old text", "pos_name", "fr"}},
			{`DELETE FROM attribute_i18n WHERE attribute_name = ? AND attribute_lang = ?`, []any{"contract_id", "en"}},
			{`DELETE FROM translation WHERE translation_key = ? AND translation_lang = ?`, []any{"table.pos", "de"}},
			{`INSERT INTO attribute_i18n (attribute_name, attribute_lang, attribute_nice_name) VALUES (?, ?, ?)`, []any{"retired_field", "en", "Retired"}},
			{`INSERT INTO translation (translation_key, translation_lang, translation_text) VALUES (?, ?, ?)`, []any{"grid.row_count", "en", "{{count}} rows"}},
			{`INSERT INTO translation (translation_key, translation_lang, translation_text, translation_edited) VALUES (?, ?, ?, 1)`, []any{"grid.row_count", "de", "{{count}} Datensätze"}},
		} {
			if _, err := d.ExecContext(ctx, stmt.sql, stmt.args...); err != nil {
				t.Fatalf("%s: %v", stmt.sql, err)
			}
		}
		n, err = Sync(ctx, d, ui)
		if err != nil {
			t.Fatalf("second sync: %v", err)
		}
		if n != 5 {
			t.Errorf("second sync wrote %d rows, want 5 (one restored, two re-added, two removed)", n)
		}
		var retired int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM translation WHERE translation_key = ?`, "grid.row_count").Scan(&retired); err != nil {
			t.Fatal(err)
		}
		if retired != 0 {
			t.Errorf("%d rows of the retired UI text grid.row_count stay", retired)
		}
		if got, edited := label(t, d, "pos", "de"); got != "Filialen" || edited != 1 {
			t.Errorf("edited label overwritten: %q (edited %d)", got, edited)
		}
		if got, _ := label(t, d, "pos_name", "fr"); got != "Nom" {
			t.Errorf("unedited label not restored: %q", got)
		}
		if got, _ := label(t, d, "contract_id", "en"); got != "Contract" {
			t.Errorf("deleted label not re-added: %q", got)
		}
		if got, _ := label(t, d, "retired_field", "en"); got != "Retired" {
			t.Errorf("label no longer shipped was removed or changed: %q", got)
		}
		if got := countRows(t, d, "translation"); got != wantTexts {
			t.Errorf("translation has %d rows after re-sync, want %d", got, wantTexts)
		}

		if n, err := Sync(ctx, d, ui); err != nil || n != 0 {
			t.Errorf("third sync: wrote %d rows (want 0), err %v", n, err)
		}
	})
}
