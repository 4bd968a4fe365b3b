package invoices

import (
	"context"
	"errors"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/letter"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// letterFile serves GET /contradictionpackages/{id}/letter.pdf?lang=de|fr|en.
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
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="contradiction-package-%d-%s.pdf"`, id, lang))
	w.Header().Set("Cache-Control", "no-store")
	_, err = w.Write(pdf)
	return err
}

// Letter renders the objection letter of contradiction package id in lang
// (de, fr or en; 422 otherwise), assembled from the text module
// contradiction_letter in that language: its name is the subject, its
// template text opens the letter, then every contradiction of the package
// with its points (title, text, claim; hidden points left out), a table of
// the sums, its left text as the closing, and its right-hand blocks as the
// information block beside the address. Placeholders: {{pos_name}},
// {{package_name}}, {{company_name}}, {{recipient}}, {{count}},
// {{points}}, {{statement_count}} and {{point_count}} (the counts with
// their noun, "1 Abrechnung", "3 Punkte"), {{sum}}, {{date}}. Whoever may read the package may have its
// letter (404 outside the caller's tenant).
func (s *Service) Letter(ctx context.Context, id int64, lang string) ([]byte, error) {
	if !i18n.Supported(lang) {
		return nil, apperr.Validation(apperr.FieldError{Field: "lang", Loc: []any{"query", "lang"},
			Key: "validation.one_of", Type: "enum", Args: map[string]string{"field": "lang", "values": "de, fr, en"}})
	}
	pkg, err := s.one(ctx, entityPackage, id, "contradictionpackage_name", "pos_id", "pos_id__label")
	if err != nil {
		return nil, err
	}
	t := func(key string) string { return s.catalog.T(lang, key, nil) }
	vars := map[string]string{"package_name": str(pkg["contradictionpackage_name"]), "pos_name": str(pkg["pos_id__label"]),
		"date": letter.Date(s.now(), lang), "company_name": "", "recipient": ""}
	if pos, ok := pkg["pos_id"].(int64); ok {
		if p, err := s.one(ctx, "pos", pos, "company_id__label"); err == nil {
			vars["company_name"] = str(p["company_id__label"])
		} else if !apperr.IsKind(err, apperr.KindNotFound) && !apperr.IsKind(err, apperr.KindForbidden) {
			return nil, err
		}
	}
	_, contras, err := s.relationRows(ctx, entityPackage, id, "contradictions")
	if err != nil {
		return nil, err
	}
	var body strings.Builder
	var facts []letter.Fact
	total, count := decimal.Zero, 0
	modules := map[string]textModule{}
	var recipient []string
	for _, c := range contras {
		cid, _ := c["contradiction_id"].(int64)
		if recipient == nil {
			if recipient, err = s.recipient(ctx, c["invoice_id"]); err != nil {
				return nil, err
			}
		}
		_, points, err := s.relationRows(ctx, entityContra, cid, "points")
		if err != nil {
			return nil, err
		}
		translated, err := s.translatedPoints(ctx, c["invoice_id"], lang, modules)
		if err != nil {
			return nil, err
		}
		name := str(c["contradiction_name"])
		fmt.Fprintf(&body, "<h2>%s</h2>", letter.Escape(name))
		sum := decimal.Zero
		for _, p := range points {
			if h, _ := p["hidden"].(int64); h == 1 {
				continue
			}
			claim := decimal.Zero
			if f, ok := p["contradictionpoint_claim"].(float64); ok {
				claim = Round2(decimal.NewFromFloat(f))
			}
			sum = sum.Add(claim)
			count++
			title, text := translated.of(p)
			fmt.Fprintf(&body, "<p><b>%s</b></p>%s%s", letter.Escape(title), text, claimLine(claim, lang, t))
		}
		facts = append(facts, letter.Fact{Label: name, Value: letter.Money(sum, lang)})
		total = total.Add(sum)
	}
	if len(recipient) > 0 {
		vars["recipient"] = recipient[0] // the name, for a module's {{recipient}}
	}
	facts = append(facts, letter.Fact{Label: t("letter.contradiction.total"), Value: letter.Money(total, lang)})
	vars["count"], vars["points"], vars["sum"] = strconv.Itoa(len(contras)), strconv.Itoa(count), letter.Money(total, lang)
	// The counts with their noun in the language's plural form ("1 Abrechnung").
	vars["statement_count"] = s.catalog.N(lang, "letter.contradiction.statements", int64(len(contras)), nil)
	vars["point_count"] = s.catalog.N(lang, "letter.contradiction.points", int64(count), nil)

	m, err := s.module(ctx, s.db, LetterModule, lang, map[string]textModule{})
	if err != nil {
		return nil, err
	}
	fill := func(field, tpl string) (string, error) {
		out, err := letter.Fill(tpl, vars)
		var unknown *letter.UnknownPlaceholdersError
		if errors.As(err, &unknown) {
			return "", apperr.Validation(apperr.FieldError{Field: field, Key: "server.invoices.module_placeholders", Type: "value_error",
				Args: map[string]string{"code": m.code, "detail": strings.Join(unknown.Names, ", ")}})
		}
		return out, err
	}
	subject, err := fill("textmodule_name", letter.Escape(m.name))
	if err != nil {
		return nil, err
	}
	opening, err := fill("textmodule_templatetext", m.template)
	if err != nil {
		return nil, err
	}
	closing, err := fill("textmodule_left_text", m.left)
	if err != nil {
		return nil, err
	}
	var info []string
	for i, b := range m.blocks {
		filled, err := fill("textmodule_right_text_"+strconv.Itoa(i+1), b)
		if err != nil {
			return nil, err
		}
		info = append(info, plainText(filled))
	}
	// The date once: above the subject unless the module's blocks say it.
	date := vars["date"]
	if slices.ContainsFunc(info, func(b string) bool { return strings.Contains(b, vars["date"]) }) {
		date = ""
	}
	return letter.Bytes(letter.Letter{
		Lang: lang, Title: plainText(subject), Subject: plainText(subject),
		Sender: nonEmpty(vars["company_name"]), Recipient: recipient,
		Date: date, Info: info,
		Body: opening + body.String(), Facts: facts, Closing: closing,
		PageLabel: t("letter.page"), Created: s.now(),
	})
}

// pointKey names a generated point of an invoice: its rule and the
// position it objects to (0 for none).
type pointKey struct {
	rule     string
	position int64
}

// translation is a generated point's title and text as stored (in the
// invoice company's language) and in the letter's language.
type translation struct{ stored, wanted newPoint }

// translations are an invoice's generated points in the letter's
// language (nil: the stored texts are in it already).
type translations map[pointKey]translation

// of answers the title and text a point has in the letter: what the
// generator wrote, in the letter's language, as long as it is what the
// generator would write again in the company's language (nobody changed
// it, and the invoice's figures still give it: else the translation would
// say something else than the point); anything else as written.
func (tr translations) of(p validate.Record) (title, text string) {
	title, text = str(p["contradictionpoint_title"]), str(p["contradictionpoint_text"])
	rule := str(p["contradictionpoint_rule"])
	if tr == nil || rule == "" {
		return title, text
	}
	position, _ := p["invoiceposition_id"].(int64)
	x, ok := tr[pointKey{rule, position}]
	if !ok {
		return title, text
	}
	if x.stored.title == title {
		title = x.wanted.title
	}
	if x.stored.text == text {
		text = x.wanted.text
	}
	return title, text
}

// translatedPoints generates the points of invoice again, in its
// company's language and in lang, from the same findings (nil when they
// are the same language, or the caller cannot see the invoice).
func (s *Service) translatedPoints(ctx context.Context, invoice any, lang string, modules map[string]textModule) (translations, error) {
	id, ok := invoice.(int64)
	if !ok {
		return nil, nil
	}
	invs, err := s.invoices(ctx, s.db, []int64{id})
	if err != nil {
		return nil, err
	}
	inv, ok := invs[id]
	if !ok || inv.lang == lang || inv.contract == 0 {
		return nil, nil
	}
	facts, err := s.facts(ctx, s.db, []int64{id}, invs)
	if err != nil {
		return nil, err
	}
	stored, err := s.wanted(ctx, s.db, inv, facts[id], modules)
	if err != nil {
		return nil, err
	}
	in := inv
	in.lang = lang
	wanted, err := s.wanted(ctx, s.db, in, facts[id], modules)
	if err != nil {
		return nil, err
	}
	out := make(translations, len(stored))
	for i, p := range stored {
		out[pointKey{p.rule, p.position}] = translation{stored: p, wanted: wanted[i]}
	}
	return out, nil
}

// claimLine closes a point in the letter: the amount objected to, or, for
// a point that claims nothing (a warning, decision 0061), a remark that
// no amount is claimed, so the letter asks rather than demands.
func claimLine(claim decimal.Decimal, lang string, t func(string) string) string {
	if !claim.IsPositive() {
		return "<p><i>" + letter.Escape(t("letter.contradiction.remark")) + "</i></p>"
	}
	return "<p>" + letter.Escape(t("letter.contradiction.claim")+t("letter.colon")) + "<b>" + letter.Escape(letter.Money(claim, lang)) + "</b></p>"
}

// recipient is the addressee block of the objection: the manager of the
// invoice's contract, else its owner (the partner companies of the
// contract), with the postal address of its first contact person who has
// one; empty when the caller sees none.
func (s *Service) recipient(ctx context.Context, invoice any) ([]string, error) {
	id, ok := invoice.(int64)
	if !ok {
		return nil, nil
	}
	inv, err := s.one(ctx, entityInvoice, id, "contract_id")
	if err != nil {
		return nil, err
	}
	contract, ok := inv["contract_id"].(int64)
	if !ok {
		return nil, nil
	}
	_, partners, err := s.relationRows(ctx, entityContract, contract, "partner_company")
	if apperr.IsKind(err, apperr.KindForbidden) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var chosen validate.Record
	for _, p := range partners {
		if str(p["partnercompany_name"]) == "" {
			continue
		}
		if p["partner_role"] == "manager" {
			chosen = p
			break
		}
		if chosen == nil {
			chosen = p
		}
	}
	if chosen == nil {
		return nil, nil
	}
	partner, _ := chosen["partnercompany_id"].(int64)
	address, err := s.partnerAddress(ctx, partner)
	if err != nil {
		return nil, err
	}
	return append([]string{str(chosen["partnercompany_name"])}, address...), nil
}

// partnerAddress is the postal address of a partner company's first
// contact person who has one, as lines (none when the caller may not read
// them).
func (s *Service) partnerAddress(ctx context.Context, partner int64) ([]string, error) {
	if partner == 0 {
		return nil, nil
	}
	_, contacts, err := s.relationRows(ctx, "partnercompany", partner, "contactperson")
	if apperr.IsKind(err, apperr.KindForbidden) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	for _, c := range contacts {
		id, ok := c["address_id"].(int64)
		if !ok {
			continue
		}
		a, err := s.one(ctx, "address", id, "address_street", "address_house_number", "address_extra", "city_zip", "city_name")
		if apperr.IsKind(err, apperr.KindForbidden) || apperr.IsKind(err, apperr.KindNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return nonEmpty(strings.TrimSpace(str(a["address_street"])+" "+str(a["address_house_number"])), str(a["address_extra"]),
			strings.TrimSpace(str(a["city_zip"])+" "+str(a["city_name"]))), nil
	}
	return nil, nil
}

// one reads the columns of record id of entity as the caller sees it.
func (s *Service) one(ctx context.Context, entity string, id int64, columns ...string) (map[string]any, error) {
	cur, err := s.engine.ListIn(ctx, s.db, tables.ListQuery{Entity: entity, Data: map[string]any{entity + "_id": id}, PerPage: 1, Columns: columns})
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

func str(v any) string {
	s, _ := v.(string)
	return s
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			out = append(out, x)
		}
	}
	return out
}

var (
	breakTags = regexp.MustCompile(`(?i)<br\s*/?>|</p>|</h[1-6]>|</li>|</div>`)
	anyTag    = regexp.MustCompile(`<[^>]*>`)
)

// plainText turns a text module's HTML into plain lines.
func plainText(h string) string {
	s := breakTags.ReplaceAllString(h, "\n")
	s = html.UnescapeString(anyTag.ReplaceAllString(s, ""))
	lines := strings.Split(s, "\n")
	out := lines[:0]
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
