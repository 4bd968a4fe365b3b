package indexation

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/letter"
	"portfolio/internal/tables"
)

// Rule is how a clause produced one proposal: a code (Basis, the
// threshold's kind) with the figures the explanation names. It is stored
// with the proposal as JSON (indexadjustment_rule) and rendered by
// Explain in the reader's language, for the screen and the letter alike
// (decision 0011).
type Rule struct {
	// Key fingerprints what the rule depends on besides the proposal's
	// values and amounts (Clause.ruleKey): a run compares it, not the text.
	Key string `json:"key"`
	// Basis is "percent" or "points": what the threshold measures.
	Basis string `json:"basis"`
	// Change is the rate of change in percent (2 decimals), Points the
	// change in points.
	Change decimal.Decimal `json:"change"`
	Points decimal.Decimal `json:"points"`
	// Decimals and Rounded: the rate as the clause rounds it.
	Decimals *int32          `json:"decimals,omitempty"`
	Rounded  decimal.Decimal `json:"rounded,omitzero"`
	// Threshold is the clause's threshold (nil: any change), MoreThan its
	// rule.
	Threshold *decimal.Decimal `json:"threshold,omitempty"`
	MoreThan  bool             `json:"more_than,omitempty"`
	// Transmission is the share passed on, Applied the rent's change in
	// percent (2 decimals), Bound "max" or "min" when the cap or the floor
	// set it.
	Transmission decimal.Decimal `json:"transmission"`
	Applied      decimal.Decimal `json:"applied"`
	Bound        string          `json:"bound,omitempty"`
	// MinMonths and Since: the rent stays unchanged that many months
	// since that day (YYYY-MM-DD).
	MinMonths int    `json:"min_months,omitempty"`
	Since     string `json:"since,omitempty"`
	// ScheduleMonths and ScheduleFrom: the fixed schedule.
	ScheduleMonths int    `json:"schedule_months,omitempty"`
	ScheduleFrom   string `json:"schedule_from,omitempty"`
	// FirstAllowed is set when the proposal takes effect in the first month
	// the payment and its contract allow (YYYY-MM-DD).
	FirstAllowed string `json:"first_allowed,omitempty"`
	// UpwardOnly: the clause ignores decreases (it may be void).
	UpwardOnly bool `json:"upward_only,omitempty"`
}

// RuleOf is the Rule of proposal p of c's walk.
func (c Clause) RuleOf(p Proposal) Rule {
	rate, since := p.rate, p.since
	r := Rule{Key: strconv.FormatUint(c.ruleKey(c.wordingKey(), p), 16), Basis: "points", Change: p.ChangePercent, Points: p.ChangePoints, MoreThan: c.MoreThan,
		Transmission: c.Transmission, UpwardOnly: c.UpwardOnly}
	threshold := c.MinPoints
	if c.InPercent {
		r.Basis, threshold = "percent", c.MinPercent
	}
	if threshold != nil && !threshold.IsZero() {
		t := threshold.Abs()
		r.Threshold = &t
	}
	if c.Rounds {
		d := c.Decimals
		r.Decimals, r.Rounded = &d, rate.Num
	}
	num, den, bound := c.rentRate(rate)
	r.Applied, r.Bound = num.DivRound(den, 2), bound
	if c.MinMonths > 0 {
		r.MinMonths, r.Since = c.MinMonths, since.First().Format(time.DateOnly)
	}
	if c.ScheduleMonths > 0 {
		r.ScheduleMonths, r.ScheduleFrom = c.ScheduleMonths, c.Begin.First().Format(time.DateOnly)
	}
	if p.first {
		r.FirstAllowed = p.Effective.Format(time.DateOnly)
	}
	return r
}

// ruleVersion changes when the Rule's form changes: every stored
// proposal is then replaced with its new rule.
const ruleVersion = 1

// wordingKey fingerprints the clause fields a Rule depends on (the same
// for every proposal of the clause: a run computes it once per payment).
func (c Clause) wordingKey() uint64 {
	h := fnv.New64a()
	text := func(d *decimal.Decimal) string {
		if d == nil {
			return "-"
		}
		return d.String() // trailing zeros trimmed: 5 and 5.0000 agree
	}
	fmt.Fprint(h, ruleVersion, c.InPercent, text(c.MinPercent), text(c.MinPoints), text(&c.Transmission), c.Rounds, c.Decimals,
		c.MoreThan, c.MinMonths, c.ScheduleMonths, c.ScheduleMonths > 0 && c.Begin != 0, int(c.Begin), text(c.MaxPercent),
		text(c.MinRentPercent), c.UpwardOnly)
	return h.Sum64()
}

// ruleKey is the Rule's fingerprint of proposal p given the clause's
// wordingKey: with equal values and amounts, equal keys give equal rules.
func (c Clause) ruleKey(wording uint64, p Proposal) uint64 {
	k := wording*1_000_003 ^ uint64(b2i(p.first))
	if c.MinMonths > 0 {
		k = k*1_000_003 ^ uint64(p.since)
	}
	if c.MaxPercent != nil || c.MinRentPercent != nil {
		_, _, bound := c.rentRate(p.rate)
		k = k*1_000_003 ^ map[string]uint64{"": 1, "max": 2, "min": 3}[bound]
	}
	return k
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// storedKey reads the key of a stored rule without decoding it (the run
// compares every stored proposal): 0 when it has none.
func storedKey(rule string) uint64 {
	const prefix = `{"key":"`
	if !strings.HasPrefix(rule, prefix) {
		return 0
	}
	end := strings.IndexByte(rule[len(prefix):], '"')
	if end < 0 {
		return 0
	}
	k, err := strconv.ParseUint(rule[len(prefix):len(prefix)+end], 16, 64)
	if err != nil {
		return 0
	}
	return k
}

// JSON is the stored form of r.
func (r Rule) JSON() string {
	b, err := json.Marshal(r)
	if err != nil {
		return "" // a Rule of decimals, ints and strings always marshals
	}
	return string(b)
}

// Explanation is a proposal's rule in words, and the warning it carries
// (empty when none).
type Explanation struct {
	Text    string `json:"text"`
	Warning string `json:"warning,omitempty"`
}

// Explain renders the stored rule (indexadjustment_rule) in lang through
// the catalogue; a proposal stored before rules were recorded says so.
func Explain(cat *i18n.Catalog, lang, stored string) Explanation {
	var r Rule
	if stored == "" || json.Unmarshal([]byte(stored), &r) != nil || r.Basis == "" {
		return Explanation{Text: cat.T(lang, "server.indexation.rule.unknown", nil)}
	}
	t := func(key string, args map[string]string) string {
		return cat.T(lang, "server.indexation.rule."+key, args)
	}
	num := func(d decimal.Decimal, places int32) string { return letter.Number(d, places, lang) }
	signed := func(d decimal.Decimal, places int32) string {
		if d.IsPositive() {
			return "+" + num(d, places)
		}
		return num(d, places)
	}
	// The change, its rounding and the threshold form the first clause
	// of the sentence; the other conditions follow, separated by "; ".
	head := []string{t("change", map[string]string{"change": signed(r.Change, 2)})}
	if r.Basis == "points" {
		head[0] = t("change_points", map[string]string{"points": signed(r.Points, 1), "change": signed(r.Change, 2)})
	}
	if r.Decimals != nil {
		head = append(head, t("rounded", map[string]string{"rounded": num(r.Rounded, *r.Decimals),
			"decimals": t("decimals_"+strconv.Itoa(int(*r.Decimals)), nil)}))
	}
	head = append(head, thresholdText(t, r, num))
	parts := []string{strings.Join(head, ", ")}
	if !r.Transmission.Equal(hundred) {
		parts = append(parts, t("transmission", map[string]string{"transmission": num(r.Transmission, places(r.Transmission))}))
	}
	switch r.Bound {
	case "max":
		parts = append(parts, t("capped", map[string]string{"bound": num(r.Applied, places(r.Applied))}))
	case "min":
		parts = append(parts, t("floored", map[string]string{"bound": num(r.Applied, places(r.Applied))}))
	}
	day := func(s string) string {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return s
		}
		return letter.Date(d, lang)
	}
	if r.MinMonths > 0 {
		parts = append(parts, t("min_months", map[string]string{"months": strconv.Itoa(r.MinMonths), "since": day(r.Since)}))
	}
	if r.ScheduleMonths > 0 {
		parts = append(parts, t("schedule", map[string]string{"months": strconv.Itoa(r.ScheduleMonths), "from": day(r.ScheduleFrom)}))
	}
	if r.FirstAllowed != "" {
		parts = append(parts, t("first_allowed", map[string]string{"date": day(r.FirstAllowed)}))
	}
	out := Explanation{Text: strings.Join(parts, "; ")}
	if r.UpwardOnly {
		out.Warning = t("upward_only", nil)
	}
	return out
}

// thresholdText is the threshold part of the explanation.
func thresholdText(t func(string, map[string]string) string, r Rule, num func(decimal.Decimal, int32) string) string {
	if r.Threshold == nil {
		return t("any_change", nil)
	}
	key := "threshold_" + r.Basis
	if r.MoreThan {
		key = "more_than_" + r.Basis
	}
	return t(key, map[string]string{"threshold": num(*r.Threshold, places(*r.Threshold))})
}

// places is the number of decimals d is written with (5 → 0, 2.5 → 1).
func places(d decimal.Decimal) int32 {
	s := d.String()
	if _, frac, ok := strings.Cut(s, "."); ok {
		return int32(len(frac))
	}
	return 0
}

// maxExplained bounds one explanations call (a screen's page of proposals).
const maxExplained = 2000

type explainBody struct {
	IDs []int64 `json:"ids"`
}

// ExplainedAdjustment is one adjustment's explanation.
type ExplainedAdjustment struct {
	ID int64 `json:"indexadjustment_id"`
	Explanation
}

// explanations serves POST /indexadjustments/explanations: the rule of
// each named adjustment in words, in the caller's language.
func (h *handler) explanations(w http.ResponseWriter, r *http.Request) error {
	var body explainBody
	if err := httpapi.DecodeJSON(r, &body, true); err != nil {
		return err
	}
	if len(body.IDs) > maxExplained {
		return apperr.Validation(apperr.FieldError{Loc: []any{"body", "ids"}, Key: "server.indexation.too_many_ids", Type: "value_error",
			Args: map[string]string{"max": strconv.Itoa(maxExplained)}})
	}
	out, err := h.s.Explanations(r.Context(), body.IDs, i18n.LangFrom(r.Context()))
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, map[string]any{"explanations": out})
	return nil
}

// Explanations renders the rules of the adjustments ids in lang, those the
// caller sees (others are left out, like a list leaves them out), in the
// order of ids.
func (s *Service) Explanations(ctx context.Context, ids []int64, lang string) ([]ExplainedAdjustment, error) {
	out := []ExplainedAdjustment{}
	if len(ids) == 0 {
		return out, nil
	}
	in := make([]any, len(ids))
	for i, id := range ids {
		in[i] = id
	}
	cur, err := s.engine.ListIn(ctx, s.db, tables.ListQuery{Entity: entityAdjustment, Data: map[string]any{"indexadjustment_id": in},
		PerPage: len(ids), Columns: []string{"indexadjustment_rule"}})
	if err != nil {
		return nil, err
	}
	defer cur.Close()
	rules := map[int64]string{}
	for cur.Next() {
		rec := cur.Record()
		rule, _ := rec["indexadjustment_rule"].(string)
		rules[idOf(rec["indexadjustment_id"])] = rule
	}
	if err := cur.Err(); err != nil {
		return nil, err
	}
	for _, id := range ids {
		if rule, ok := rules[id]; ok {
			out = append(out, ExplainedAdjustment{ID: id, Explanation: Explain(s.catalog, lang, rule)})
		}
	}
	return out, nil
}
