package errorboard

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"portfolio/internal/apperr"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/mailer"
	"portfolio/internal/tables"
)

// The Back Office (/app/backoffice) besides the jobs screen
// (internal/jobs): the mail outbox, the edits of the translation tables
// and the rights generation. Administrators only: all three are the
// installation's, not a tenant's.

// outboxLimit bounds the outbox list: the newest messages.
const outboxLimit = 200

// translationLimit bounds the translation list.
const translationLimit = 500

// UseEngine gives the Back Office the table engine (the translation
// edits are written through it: rights, validation, row_version,
// history) and the catalog of shipped texts.
func (s *Service) UseEngine(e *tables.Engine, c *i18n.Catalog) { s.engine, s.catalog = e, c }

// BindBackoffice registers the Back Office's routes.
func BindBackoffice(srv *httpapi.Server, s *Service) {
	h := &handler{s: s}
	srv.Handle("GET /backoffice/outbox", h.outbox)
	srv.Handle("GET /backoffice/translations", h.translations)
	srv.Handle("PUT /backoffice/translations/{table}/{id}", h.editTranslation)
	srv.Handle("POST /backoffice/translations/{table}/{id}/revert", h.revertTranslation)
	srv.Handle("GET /backoffice/rights-generation", h.rightsGeneration)
	srv.Handle("POST /backoffice/rights-generation/bump", h.bumpRightsGeneration)
}

// adminOnly lets administrators through.
func adminOnly(ctx context.Context) error {
	p, ok := auth.PrincipalFrom(ctx)
	if !ok {
		return apperr.Unauthorized("server.auth.not_authenticated")
	}
	if !p.IsAdmin() {
		return apperr.Forbidden("server.auth.forbidden")
	}
	return nil
}

// outbox serves GET /backoffice/outbox?state=: the newest messages.
func (h *handler) outbox(w http.ResponseWriter, r *http.Request) error {
	if err := adminOnly(r.Context()); err != nil {
		return err
	}
	state := r.URL.Query().Get("state")
	if !slices.Contains([]string{"", mailer.StatePending, mailer.StateRetrying, mailer.StateGivenUp, mailer.StateSent, mailer.StateDismissed}, state) {
		return apperr.Validation(apperr.FieldError{Loc: []any{"query", "state"}, Field: "state", Key: "validation.one_of", Type: "enum",
			Args: map[string]string{"field": "state", "values": "pending, retrying, given_up, sent, dismissed"}})
	}
	msgs, err := mailer.ListOutbox(r.Context(), h.s.db, state, outboxLimit)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": msgs})
	return nil
}

// textTable names the columns of one translation table (constants, never
// input).
type textTable struct {
	entity, pk, key, lang, text, edited string
	// shipped answers the texts the binary ships for lang.
	shipped func(s *Service, lang string) (map[string]string, error)
}

var textTables = map[string]textTable{
	"translation": {"translation", "translation_id", "translation_key", "translation_lang", "translation_text", "translation_edited",
		func(s *Service, lang string) (map[string]string, error) { return s.catalog.UITexts(lang), nil }},
	"attribute_i18n": {"attribute_i18n", "attribute_i18n_id", "attribute_name", "attribute_lang", "attribute_nice_name", "attribute_edited",
		func(_ *Service, lang string) (map[string]string, error) {
			c, err := i18n.LoadAttributes()
			if err != nil {
				return nil, err
			}
			return c.UITexts(lang), nil
		}},
}

// TranslationRow is one text of a translation table with the text the
// binary ships for it.
type TranslationRow struct {
	Table      string `json:"table"`
	ID         int64  `json:"id"`
	Key        string `json:"key"`
	Lang       string `json:"lang"`
	Text       string `json:"text"`
	Shipped    string `json:"shipped"`
	Edited     bool   `json:"edited"`
	RowVersion int64  `json:"row_version"`
}

// Translations answers the texts of both tables that differ from the
// shipped ones or are marked edited (kept over shipped changes), or, with
// all, every text; q narrows to keys and texts containing it.
func (s *Service) Translations(ctx context.Context, all bool, q string) ([]TranslationRow, int, error) {
	if s.catalog == nil {
		return nil, 0, errors.New("errorboard: no catalog")
	}
	q = strings.ToLower(strings.TrimSpace(q))
	out := []TranslationRow{}
	total := 0
	for _, name := range []string{"translation", "attribute_i18n"} {
		t := textTables[name]
		shipped := map[string]map[string]string{}
		for _, lang := range i18n.Languages {
			m, err := t.shipped(s, lang)
			if err != nil {
				return nil, 0, err
			}
			shipped[lang] = m
		}
		rows, err := s.db.QueryContext(ctx, fmt.Sprintf(`SELECT %s, %s, %s, %s, %s, row_version FROM %s ORDER BY %s, %s`,
			t.pk, t.key, t.lang, t.text, t.edited, t.entity, t.key, t.lang))
		if err != nil {
			return nil, 0, fmt.Errorf("errorboard: read %s: %w", name, err)
		}
		for rows.Next() {
			var r TranslationRow
			var edited int
			if err := rows.Scan(&r.ID, &r.Key, &r.Lang, &r.Text, &edited, &r.RowVersion); err != nil {
				rows.Close()
				return nil, 0, fmt.Errorf("errorboard: read %s: %w", name, err)
			}
			r.Table, r.Edited, r.Shipped = name, edited == 1, shipped[r.Lang][r.Key]
			if !all && !r.Edited && r.Text == r.Shipped {
				continue
			}
			if q != "" && !strings.Contains(strings.ToLower(r.Key), q) && !strings.Contains(strings.ToLower(r.Text), q) {
				continue
			}
			total++
			if len(out) < translationLimit {
				out = append(out, r)
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, 0, fmt.Errorf("errorboard: read %s: %w", name, err)
		}
	}
	return out, total, nil
}

// EditTranslation stores text as the text of row id of table through the
// engine (update right, validation, the row_version the caller read,
// history) and marks it edited, so that the texts shipped with a later
// version no longer overwrite it. revert instead restores the shipped
// text and clears the mark.
func (s *Service) EditTranslation(ctx context.Context, table string, id, rowVersion int64, text string, revert bool) (*TranslationRow, error) {
	t, ok := textTables[table]
	if !ok || s.engine == nil {
		return nil, notFound()
	}
	edited := 1
	err := s.db.InTx(ctx, func(tx *db.Tx) error {
		if revert {
			var key, lang string
			err := tx.QueryRowContext(ctx, fmt.Sprintf(`SELECT %s, %s FROM %s WHERE %s = ?`, t.key, t.lang, t.entity, t.pk), id).Scan(&key, &lang)
			if errors.Is(err, sql.ErrNoRows) {
				return notFound()
			}
			if err != nil {
				return fmt.Errorf("errorboard: read %s %d: %w", table, id, err)
			}
			shipped, err := t.shipped(s, lang)
			if err != nil {
				return err
			}
			var found bool
			if text, found = shipped[key]; !found {
				return apperr.Conflict("server.backoffice.not_shipped").WithCode("not_shipped")
			}
			edited = 0
		}
		err := s.engine.UpdateIn(ctx, tx, tables.UpdateCommand{Entity: t.entity, ID: id, RowVersion: rowVersion, Data: map[string]any{t.text: text}})
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, fmt.Sprintf(`UPDATE %s SET %s = ? WHERE %s = ?`, t.entity, t.edited, t.pk), edited, id)
		if err != nil {
			return fmt.Errorf("errorboard: mark %s %d: %w", table, id, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.translation(ctx, t, id)
}

// translation reads row id of t with its shipped text.
func (s *Service) translation(ctx context.Context, t textTable, id int64) (*TranslationRow, error) {
	r := TranslationRow{Table: t.entity, ID: id}
	var edited int
	err := s.db.QueryRowContext(ctx, fmt.Sprintf(`SELECT %s, %s, %s, %s, row_version FROM %s WHERE %s = ?`,
		t.key, t.lang, t.text, t.edited, t.entity, t.pk), id).Scan(&r.Key, &r.Lang, &r.Text, &edited, &r.RowVersion)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound()
	}
	if err != nil {
		return nil, fmt.Errorf("errorboard: read %s %d: %w", t.entity, id, err)
	}
	shipped, err := t.shipped(s, r.Lang)
	if err != nil {
		return nil, err
	}
	r.Edited, r.Shipped = edited == 1, shipped[r.Key]
	return &r, nil
}

func (h *handler) translations(w http.ResponseWriter, r *http.Request) error {
	if err := adminOnly(r.Context()); err != nil {
		return err
	}
	rows, total, err := h.s.Translations(r.Context(), r.URL.Query().Get("all") == "1", r.URL.Query().Get("q"))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"data": rows, "total": total})
	return nil
}

func (h *handler) editTranslation(w http.ResponseWriter, r *http.Request) error {
	return h.changeTranslation(w, r, false)
}

func (h *handler) revertTranslation(w http.ResponseWriter, r *http.Request) error {
	return h.changeTranslation(w, r, true)
}

func (h *handler) changeTranslation(w http.ResponseWriter, r *http.Request, revert bool) error {
	if err := adminOnly(r.Context()); err != nil {
		return err
	}
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	var body struct {
		Text       *string `json:"text"`
		RowVersion int64   `json:"row_version"`
	}
	if err := httpapi.DecodeJSON(r, &body, true); err != nil {
		return err
	}
	text := ""
	if !revert {
		if body.Text == nil {
			return apperr.Validation(apperr.FieldError{Loc: []any{"body", "text"}, Field: "text", Key: "validation.required", Type: "missing",
				Args: map[string]string{"field": "text"}})
		}
		text = *body.Text
	}
	row, err := h.s.EditTranslation(r.Context(), r.PathValue("table"), id, body.RowVersion, text, revert)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, row)
	return nil
}

// RightsGeneration is the current rights generation: the counter that
// every change of roles, teams, memberships, table groups, crud flags or
// access rows bumps (migration 0010), and with it every cache of computed
// rights (access.Cache) on every instance.
type RightsGeneration struct {
	Generation int64 `json:"generation"`
}

func (h *handler) rightsGeneration(w http.ResponseWriter, r *http.Request) error {
	if err := adminOnly(r.Context()); err != nil {
		return err
	}
	var g RightsGeneration
	if err := h.s.db.QueryRowContext(r.Context(), `SELECT generation FROM rights_generation WHERE rights_generation_id = 1`).Scan(&g.Generation); err != nil {
		return fmt.Errorf("errorboard: rights generation: %w", err)
	}
	httpapi.WriteJSON(w, http.StatusOK, g)
	return nil
}

// bumpRightsGeneration serves POST /backoffice/rights-generation/bump:
// every user's rights are computed anew on their next request (after a
// change the triggers do not see, such as a restore of a table by hand).
func (h *handler) bumpRightsGeneration(w http.ResponseWriter, r *http.Request) error {
	if err := adminOnly(r.Context()); err != nil {
		return err
	}
	var g RightsGeneration
	err := h.s.db.QueryRowContext(r.Context(), `UPDATE rights_generation SET generation = generation + 1 WHERE rights_generation_id = 1
		RETURNING generation`).Scan(&g.Generation)
	if err != nil {
		return fmt.Errorf("errorboard: bump the rights generation: %w", err)
	}
	p, _ := auth.PrincipalFrom(r.Context())
	h.s.log.Info("rights generation bumped", "generation", g.Generation, "user", p.UserID)
	httpapi.WriteJSON(w, http.StatusOK, g)
	return nil
}
