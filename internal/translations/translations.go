// Package translations keeps the editable translation tables (UI texts and
// attribute labels) in step with the texts shipped in the binary, and serves
// them to the browser through POST /specific-api.
package translations

import (
	"context"
	"fmt"
	"net/http"
	"sort"

	"portfolio/internal/apperr"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
)

// Sync writes the shipped UI texts of every language into the translation
// table: new keys are added and shipped changes update texts nobody edited;
// texts an administrator changed are kept. It runs at every start.
func Sync(ctx context.Context, d *db.DB, c *i18n.Catalog) (int, error) {
	n := 0
	err := d.InTx(ctx, func(tx *db.Tx) error {
		for _, lang := range i18n.Languages {
			texts := c.Texts(lang)
			keys := make([]string, 0, len(texts))
			for k := range texts {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				res, err := tx.ExecContext(ctx, `INSERT INTO translation (translation_key, translation_lang, translation_text)
					VALUES (?, ?, ?)
					ON CONFLICT (translation_key, translation_lang) DO UPDATE SET translation_text = excluded.translation_text
					WHERE translation.translation_edited = 0 AND translation.translation_text <> excluded.translation_text`,
					k, lang, texts[k])
				if err != nil {
					return fmt.Errorf("translations: sync %s/%s: %w", lang, k, err)
				}
				if rows, _ := res.RowsAffected(); rows > 0 {
					n++
				}
			}
		}
		return nil
	})
	return n, err
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
