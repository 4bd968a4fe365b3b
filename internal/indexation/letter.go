package indexation

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/letter"
	"portfolio/internal/tables"
)

// TemplateCode is the text template of the adjustment letter (the base seed
// ships it in German, French and English) and of the text modules, one per
// language, in which administrators edit its wording (decision 0065).
const TemplateCode = "index_adjustment_letter"

// letterFacts are the figures the letter's table shows, in order: the
// adjustment's own fields, and how each is written.
var letterFacts = []struct{ key, field string }{
	{"letter.index.clause", "clause_name"},
	{"letter.index.series", "index_name"},
	{"letter.index.reference", "reference"},
	{"letter.index.current", "current"},
	{"letter.index.change_points", "change_points"},
	{"letter.index.change_percent", "change_percent_fact"},
	{"letter.index.transmission", "transmission_percent_fact"},
	{"letter.index.old_amount", "old_amount"},
	{"letter.index.new_amount", "new_amount"},
	{"letter.index.effective_date", "effective_date"},
}

// letterFile serves GET /indexadjustments/{id}/letter.pdf?lang=de|fr|en.
func (h *handler) letterFile(w http.ResponseWriter, r *http.Request) error {
	id, err := httpapi.PathID(r, "id")
	if err != nil {
		return err
	}
	lang := r.URL.Query().Get("lang")
	if lang == "" {
		lang = i18n.LangFrom(r.Context())
	}
	pdf, err := h.s.Letter(r.Context(), id, lang)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="index-adjustment-%d-%s.pdf"`, id, lang))
	w.Header().Set("Cache-Control", "no-store")
	_, err = w.Write(pdf)
	return err
}

// Letter renders the adjustment letter of adjustment id in lang (de, fr or
// en; 422 otherwise) as a PDF file. Whoever may read the adjustment may
// have its letter (404 outside the caller's tenant, like the record).
func (s *Service) Letter(ctx context.Context, id int64, lang string) ([]byte, error) {
	if !i18n.Supported(lang) {
		return nil, apperr.Validation(apperr.FieldError{Field: "lang", Loc: []any{"query", "lang"},
			Key: "validation.one_of", Type: "enum", Args: map[string]string{"field": "lang", "values": "de, fr, en"}})
	}
	vars, sender, err := s.letterData(ctx, id, lang)
	if err != nil {
		return nil, err
	}
	tpl, field, err := s.template(ctx, lang)
	if err != nil {
		return nil, err
	}
	body, err := letter.Fill(tpl, vars)
	var unknown *letter.UnknownPlaceholdersError
	if errors.As(err, &unknown) {
		return nil, apperr.Validation(apperr.FieldError{Field: field,
			Key: "server.indexation.template_placeholders", Type: "value_error",
			Args: map[string]string{"names": strings.Join(unknown.Names, ", ")}})
	}
	if err != nil {
		return nil, err
	}
	t := func(key string) string { return s.catalog.T(lang, key, nil) }
	facts := make([]letter.Fact, 0, len(letterFacts))
	for _, f := range letterFacts {
		facts = append(facts, letter.Fact{Label: t(f.key), Value: vars[f.field]})
	}
	return letter.Bytes(letter.Letter{
		Lang: lang, Title: t("letter.index.title"),
		Sender: sender, Recipient: []string{vars["recipient_name"]},
		Date:    letter.Date(s.now(), lang),
		Body:    body,
		Facts:   facts,
		Closing: ruleParagraphs(t, vars) + "<p>" + t("letter.index.closing") + "</p><p>" + letter.Escape(firstOr(sender, "")) + "</p>",
		Footer:  vars["index_source"], PageLabel: t("letter.page"),
		Created: s.now(),
	})
}

// ruleParagraphs say, below the figures, the rule that produced them and
// the warning it carries (an upward-only clause may be void).
func ruleParagraphs(t func(string) string, vars map[string]string) string {
	out := "<p><b>" + letter.Escape(t("letter.index.rule")) + ":</b> " + letter.Escape(vars["rule"]) + "</p>"
	if vars["rule_warning"] != "" {
		out += "<p><b>" + letter.Escape(t("letter.index.warning")) + ":</b> " + letter.Escape(vars["rule_warning"]) + "</p>"
	}
	return out
}

// letterData reads what the letter says, each row through the engine as
// the caller: the adjustment, its payment, contract, clause and series, and
// the contract's company as the sender.
func (s *Service) letterData(ctx context.Context, id int64, lang string) (map[string]string, []string, error) {
	adj, err := s.one(ctx, entityAdjustment, id, "recurringpayment_id", "indexclause_id",
		"indexadjustment_reference_month", "indexadjustment_current_month", "indexadjustment_reference_value",
		"indexadjustment_current_value", "indexadjustment_change_points", "indexadjustment_change_percent",
		"indexadjustment_old_amount", "indexadjustment_new_amount", "indexadjustment_effective_date", "indexadjustment_rule")
	if err != nil {
		return nil, nil, err
	}
	pay, err := s.one(ctx, entityPayment, idOf(adj["recurringpayment_id"]), "recurringpayment_name", "contract_id",
		"contract_id__label", "partnercompany_id__label")
	if err != nil {
		return nil, nil, err
	}
	contract, err := s.one(ctx, entityContract, idOf(pay["contract_id"]), "pos_id__label", "company_id", "company_id__label")
	if err != nil {
		return nil, nil, err
	}
	clause, err := s.one(ctx, entityClause, idOf(adj["indexclause_id"]), "indexclause_name", "indextransmission_percent",
		"priceindex_id")
	if err != nil {
		return nil, nil, err
	}
	series, err := s.one(ctx, entitySeries, idOf(clause["priceindex_id"]), "priceindex_name", "priceindex_code",
		"priceindex_source", "priceindex_licence")
	if err != nil {
		return nil, nil, err
	}
	text := func(m map[string]any, k string) string {
		if v, ok := m[k]; ok && v != nil {
			return fmt.Sprint(v)
		}
		return ""
	}
	money := func(k string) string { return formatMoney(text(adj, k), lang) }
	seriesText := func(part string) string {
		return s.shippedSeriesText(lang, text(series, "priceindex_code"), part, text(series, "priceindex_"+part))
	}
	vars := map[string]string{
		"payment_name":         text(pay, "recurringpayment_name"),
		"contract_name":        text(pay, "contract_id__label"),
		"pos_name":             text(contract, "pos_id__label"),
		"clause_name":          text(clause, "indexclause_name"),
		"index_name":           seriesText("name"),
		"reference_month":      formatMonth(text(adj, "indexadjustment_reference_month"), lang),
		"reference_value":      formatNumber(text(adj, "indexadjustment_reference_value"), 1, lang),
		"current_month":        formatMonth(text(adj, "indexadjustment_current_month"), lang),
		"current_value":        formatNumber(text(adj, "indexadjustment_current_value"), 1, lang),
		"change_points":        formatNumber(text(adj, "indexadjustment_change_points"), 2, lang),
		"change_percent":       formatNumber(text(adj, "indexadjustment_change_percent"), 2, lang),
		"transmission_percent": formatNumber(text(clause, "indextransmission_percent"), 0, lang),
		"old_amount":           money("indexadjustment_old_amount"),
		"new_amount":           money("indexadjustment_new_amount"),
		"effective_date":       formatDay(text(adj, "indexadjustment_effective_date"), lang),
		"recipient_name":       text(pay, "partnercompany_id__label"),
		"index_source":         strings.TrimSpace(seriesText("source") + " " + seriesText("licence")),
	}
	why := Explain(s.catalog, lang, text(adj, "indexadjustment_rule"))
	vars["rule"], vars["rule_warning"] = why.Text, why.Warning
	vars["reference"] = vars["reference_month"] + ": " + vars["reference_value"]
	vars["current"] = vars["current_month"] + ": " + vars["current_value"]
	vars["change_percent_fact"] = vars["change_percent"] + " %"
	vars["transmission_percent_fact"] = vars["transmission_percent"] + " %"
	sender := []string{text(contract, "company_id__label")}
	return vars, sender, nil
}

// shippedSeriesTexts are the price index series the product ships (migration
// 0017), by code: the catalogue key of their name, source and licence in
// every language, and the texts the migration stored. The stored texts are
// German or English whatever the letter's language; a letter says them in
// its own language while the series still holds them, and says what an
// administrator wrote instead as written.
var shippedSeriesTexts = map[string]struct {
	key  string
	rows map[string]string
}{
	"DE-VPI-61111-0002": {key: "letter.index.shipped_series.de_vpi", rows: map[string]string{
		"name":    "Verbraucherpreisindex für Deutschland (VPI)",
		"source":  `Statistisches Bundesamt (Destatis), GENESIS-Online table 61111-0002 "Verbraucherpreisindex: Deutschland, Monate", 2020 = 100`,
		"licence": "© Statistisches Bundesamt (Destatis), 2024; reuse permitted with attribution under the Data licence Germany – attribution – version 2.0 (dl-de/by-2-0)",
	}},
}

// shippedSeriesText is part (name, source or licence) of the series with
// code in lang when the series is a shipped one whose part is still the
// shipped text; stored otherwise.
func (s *Service) shippedSeriesText(lang, code, part, stored string) string {
	shipped, ok := shippedSeriesTexts[code]
	if !ok || shipped.rows[part] != stored {
		return stored
	}
	return s.catalog.T(lang, shipped.key+"."+part, nil)
}

// template reads the letter's wording in lang and the field it is in: the
// text module of the letter's code and language, which administrators
// edit, else the product's read-only text template. Both are global data
// every letter needs, read for the system whoever asks.
func (s *Service) template(ctx context.Context, lang string) (content, field string, err error) {
	for _, src := range []struct {
		entity, field string
		data          map[string]any
	}{
		{"textmodule", "textmodule_templatetext", map[string]any{"textmodule_code": TemplateCode, "textmodule_language": lang}},
		{"texttemplate", "texttemplate_content_" + lang, map[string]any{"texttemplate_code": TemplateCode}},
	} {
		content, found, err := s.wording(ctx, src.entity, src.field, src.data)
		if err != nil || found {
			return content, src.field, err
		}
	}
	return "", "", apperr.NotFound("server.indexation.no_template")
}

// wording reads field of the first row of entity with data's values; found
// is false when there is none or its text is empty.
func (s *Service) wording(ctx context.Context, entity, field string, data map[string]any) (text string, found bool, err error) {
	cur, err := s.engine.ListIn(tables.AsSystem(ctx), s.db, tables.ListQuery{Entity: entity, Data: data, PerPage: 1, Columns: []string{field}})
	if err != nil {
		return "", false, err
	}
	defer cur.Close()
	if cur.Next() {
		text, _ = cur.Record()[field].(string)
	}
	if err := cur.Err(); err != nil {
		return "", false, fmt.Errorf("indexation: read the letter's wording (%s): %w", entity, err)
	}
	return text, strings.TrimSpace(text) != "", nil
}

// one reads the given columns of row id of entity through the engine's
// list (labels included); 404 when the caller does not see it.
func (s *Service) one(ctx context.Context, entity string, id int64, columns ...string) (map[string]any, error) {
	pk := entity + "_id"
	cur, err := s.engine.ListIn(ctx, s.db, tables.ListQuery{Entity: entity, Data: map[string]any{pk: id}, PerPage: 1, Columns: columns})
	if err != nil {
		return nil, err
	}
	defer cur.Close()
	if !cur.Next() {
		if err := cur.Err(); err != nil {
			return nil, err
		}
		return nil, apperr.NotFound("server.error.not_found")
	}
	return cur.Record(), cur.Err()
}

func idOf(v any) int64 {
	n, _ := v.(int64)
	return n
}

func firstOr(s []string, def string) string {
	if len(s) == 0 {
		return def
	}
	return s[0]
}

// formatNumber writes the decimal text s with places decimals in lang (s
// as it is when it is no number).
func formatNumber(s string, places int32, lang string) string {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return s
	}
	return letter.Number(d, places, lang)
}

// formatMoney writes the decimal text s as euros in lang.
func formatMoney(s, lang string) string {
	d, err := decimal.NewFromString(s)
	if err != nil {
		return s
	}
	return letter.Money(d, lang)
}

func formatMonth(s, lang string) string {
	m, err := ParseMonth(s)
	if err != nil {
		return s
	}
	return letter.Month(m.Year(), time.Month(int(m)%12+1), lang)
}

func formatDay(s, lang string) string {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return s
	}
	return letter.Date(t, lang)
}
