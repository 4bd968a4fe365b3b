// Package translations keeps the editable translation tables (UI texts and
// attribute labels) in step with the texts shipped in the binary, and serves
// them to the browser through POST /specific-api.
package translations

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
)

// Sync writes the shipped texts of every language into the editable tables:
// the UI texts of c into translation and the attribute labels
// (i18n.LoadAttributes) into attribute_i18n. New keys are added and shipped
// changes update texts nobody edited; texts an administrator changed
// (translation_edited or attribute_edited = 1) are kept. A UI text whose key
// is no longer shipped is removed, edited or not: no screen asks for it any
// more, and a key split into plural forms ("grid.row_count" into
// "grid.row_count_one" and "_other") would otherwise linger in the Back
// office without a shipped text to revert to. Attribute labels of keys no
// longer shipped stay (they may name fields an administrator added). It
// runs at every start, so it reads each table once and writes only the
// differences, in multi-row statements. It returns the number of rows
// inserted, updated or removed.
func Sync(ctx context.Context, d *db.DB, c *i18n.Catalog) (int, error) {
	labels, err := i18n.LoadAttributes()
	if err != nil {
		return 0, err
	}
	n := 0
	err = d.InTx(ctx, func(tx *db.Tx) error {
		for _, s := range []struct {
			t       textTable
			catalog *i18n.Catalog
		}{{uiTexts, c}, {attributeLabels, labels}} {
			m, err := syncTable(ctx, tx, s.t, s.catalog)
			if err != nil {
				return err
			}
			n += m
		}
		return nil
	})
	return n, err
}

// textTable names the columns of a table holding one editable text per key
// and language. The names are constants of this package, never input.
type textTable struct {
	table, key, lang, text, edited string
	// dropRetired removes the rows of keys the binary no longer ships.
	dropRetired bool
}

var (
	uiTexts         = textTable{"translation", "translation_key", "translation_lang", "translation_text", "translation_edited", true}
	attributeLabels = textTable{"attribute_i18n", "attribute_name", "attribute_lang", "attribute_nice_name", "attribute_edited", false}
)

// syncBatch is the number of rows per multi-row upsert (three parameters
// each, far below either database's parameter limit).
const syncBatch = 200

type textRow struct{ key, lang, text string }

// syncTable brings the shipped texts of c into t and returns the number of
// rows written.
func syncTable(ctx context.Context, tx *db.Tx, t textTable, c *i18n.Catalog) (int, error) {
	type stored struct {
		text   string
		edited bool
	}
	have := map[[2]string]stored{}
	rows, err := tx.QueryContext(ctx, fmt.Sprintf(`SELECT %s, %s, %s, %s FROM %s`, t.key, t.lang, t.text, t.edited, t.table))
	if err != nil {
		return 0, fmt.Errorf("translations: read %s: %w", t.table, err)
	}
	for rows.Next() {
		var k, lang, text string
		var edited int
		if err := rows.Scan(&k, &lang, &text, &edited); err != nil {
			rows.Close()
			return 0, fmt.Errorf("translations: read %s: %w", t.table, err)
		}
		have[[2]string{k, lang}] = stored{text: text, edited: edited != 0}
	}
	if err := rows.Close(); err != nil {
		return 0, fmt.Errorf("translations: read %s: %w", t.table, err)
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("translations: read %s: %w", t.table, err)
	}

	var changes []textRow
	shipped := map[[2]string]bool{}
	for _, lang := range i18n.Languages {
		texts := c.UITexts(lang)
		keys := make([]string, 0, len(texts))
		for k := range texts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			shipped[[2]string{k, lang}] = true
			cur, ok := have[[2]string{k, lang}]
			if !ok || (!cur.edited && cur.text != texts[k]) {
				changes = append(changes, textRow{key: k, lang: lang, text: texts[k]})
			}
		}
	}

	n := 0
	if t.dropRetired {
		var err error
		if n, err = dropRetired(ctx, tx, t, have, shipped); err != nil {
			return n, err
		}
	}
	for start := 0; start < len(changes); start += syncBatch {
		batch := changes[start:min(start+syncBatch, len(changes))]
		var q strings.Builder
		fmt.Fprintf(&q, `INSERT INTO %s (%s, %s, %s) VALUES `, t.table, t.key, t.lang, t.text)
		args := make([]any, 0, 3*len(batch))
		for i, r := range batch {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?, ?)")
			args = append(args, r.key, r.lang, r.text)
		}
		// A concurrent start may have written the same rows meanwhile: the
		// conflict clause applies the same rule again instead of failing.
		fmt.Fprintf(&q, ` ON CONFLICT (%[2]s, %[3]s) DO UPDATE SET %[4]s = excluded.%[4]s
			WHERE %[1]s.%[5]s = 0 AND %[1]s.%[4]s <> excluded.%[4]s`, t.table, t.key, t.lang, t.text, t.edited)
		res, err := tx.ExecContext(ctx, q.String(), args...)
		if err != nil {
			return n, fmt.Errorf("translations: sync %s: %w", t.table, err)
		}
		if affected, err := res.RowsAffected(); err == nil {
			n += int(affected)
		}
	}
	return n, nil
}

// dropRetired removes the rows of t whose key and language are in have but
// not shipped, and returns how many it removed.
func dropRetired[V any](ctx context.Context, tx *db.Tx, t textTable, have map[[2]string]V, shipped map[[2]string]bool) (int, error) {
	retired := map[string][]any{}
	for kl := range have {
		if !shipped[kl] {
			retired[kl[1]] = append(retired[kl[1]], kl[0])
		}
	}
	n := 0
	for lang, keys := range retired {
		for start := 0; start < len(keys); start += syncBatch {
			batch := keys[start:min(start+syncBatch, len(keys))]
			q := fmt.Sprintf(`DELETE FROM %s WHERE %s = ? AND %s IN (?%s)`, t.table, t.lang, t.key, strings.Repeat(", ?", len(batch)-1))
			res, err := tx.ExecContext(ctx, q, append([]any{lang}, batch...)...)
			if err != nil {
				return n, fmt.Errorf("translations: remove retired %s: %w", t.table, err)
			}
			if affected, err := res.RowsAffected(); err == nil {
				n += int(affected)
			}
		}
	}
	return n, nil
}

// Handler serves POST /specific-api.
type Handler struct {
	DB *db.DB
}

// Bind registers the route.
func Bind(srv *httpapi.Server, h *Handler) {
	srv.Handle("POST /specific-api", h.specificAPI, httpapi.Public())
}

type specificRequest struct {
	Entity  string `json:"entity"`
	Action  string `json:"action"`
	PerPage int    `json:"per_page"`
	Lang    string `json:"lang"`
}

// The two entities the browser loads through this call.
const (
	entityTexts  = "1__translation_i18n"
	entityLabels = "1__attribute_i18n"
)

func (h *Handler) specificAPI(w http.ResponseWriter, r *http.Request) error {
	var req specificRequest
	if err := httpapi.DecodeJSON(r, &req, false); err != nil {
		return err
	}
	lang := req.Lang
	if lang == "" {
		lang = i18n.LangFrom(r.Context())
	}
	if !i18n.Supported(lang) {
		return apperr.Validation(apperr.FieldError{Field: "lang", Key: "validation.one_of", Type: "enum",
			Args: map[string]string{"values": "en, de, fr"}})
	}
	if req.Action != "" && req.Action != "read-rich" {
		return apperr.Validation(apperr.FieldError{Field: "action", Key: "validation.one_of", Type: "enum",
			Args: map[string]string{"values": "read-rich"}})
	}
	var query, keyName, textName string
	switch req.Entity {
	case entityTexts:
		query = `SELECT translation_key, translation_text FROM translation WHERE translation_lang = ? ORDER BY translation_key`
		keyName, textName = "translation_id", "translation_text"
	case entityLabels:
		query = `SELECT attribute_name, attribute_nice_name FROM attribute_i18n WHERE attribute_lang = ? ORDER BY attribute_name`
		keyName, textName = "attribute_name", "attribute_nice_name"
	default:
		return apperr.Validation(apperr.FieldError{Field: "entity", Key: "validation.one_of", Type: "enum",
			Args: map[string]string{"values": entityTexts + ", " + entityLabels}})
	}
	rows, err := h.DB.QueryContext(r.Context(), query, lang)
	if err != nil {
		return fmt.Errorf("specific-api: %w", err)
	}
	defer rows.Close()
	out := []map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return fmt.Errorf("specific-api: scan: %w", err)
		}
		out = append(out, map[string]string{keyName: k, textName: v})
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("specific-api: %w", err)
	}
	w.Header().Set("Content-Language", lang)
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": map[string]any{"data": out, "total": len(out)}})
	return nil
}
