package contracts

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"portfolio/internal/access"
	"portfolio/internal/apperr"
	"portfolio/internal/httpapi"
	"portfolio/internal/i18n"
	"portfolio/internal/platform/deadline"
	"portfolio/internal/tables"
)

// Page sizes of GET /contracts/deadlines: 50 unless per_page says
// otherwise, and never more than 500 (the contracts of one page are read
// with one "in" condition, which the engine caps at 1,000 values).
const (
	deadlinesPerPage    = 50
	deadlinesMaxPerPage = 500
)

// deadlineOrders are the columns the deadline list may be sorted by: the
// deadline's own indexed columns and its contract's label.
var deadlineOrders = map[string]bool{
	fieldNotice: true, fieldStatus: true, "contractaction_type": true, "contractaction_id": true,
	"contractaction_acting_by": true, "contract_id__label": true,
}

// deadlineStatuses are the statuses the list may be narrowed to.
var deadlineStatuses = map[string]bool{
	StatusActive: true, StatusInactive: true, StatusCancelled: true, StatusPulled: true, StatusStopped: true,
}

// DeadlineQuery asks for one page of the caller's deadlines.
type DeadlineQuery struct {
	// From and To bound the notice date (YYYY-MM-DD, both included; empty:
	// open).
	From, To string
	// Statuses narrow the list to these statuses (empty: all).
	Statuses []string
	// Responsible narrows the list to the deadlines this user answers for
	// (0: everyone's).
	Responsible int64
	// Contract narrows the list to one contract's deadlines (0: all).
	Contract int64
	// Keyword is the engine's keyword search over the deadline's labels.
	Keyword string
	Page    int
	PerPage int
	// OrderBy is one of deadlineOrders (default: the notice date), Order
	// ASC or DESC.
	OrderBy, Order string
}

// DeadlineRow is one row of GET /contracts/deadlines: the deadline with its
// contract, the contract's point of sale and company, and its traffic
// light as of today.
type DeadlineRow struct {
	ID            int64   `json:"contractaction_id"`
	ContractID    int64   `json:"contract_id"`
	ContractLabel *string `json:"contract_id__label"`
	PosLabel      *string `json:"pos_id__label"`
	CompanyLabel  *string `json:"company_id__label"`
	Type          string  `json:"contractaction_type"`
	ActingBy      *string `json:"contractaction_acting_by"`
	NoticeDate    *string `json:"contractaction_notice_date"`
	// EffectiveDate is the end the notice is for (decision 0008).
	EffectiveDate *string `json:"contractaction_effective_date"`
	// Expired: used up, nothing left to watch.
	Expired      bool           `json:"contractaction_expired"`
	TrafficLight deadline.Light `json:"traffic_light"`
	Status       string         `json:"contractaction_status"`
	// Rule is what produced the notice date, Explanation the same in
	// the caller's language.
	Rule        Explanation `json:"rule"`
	Explanation string      `json:"explanation"`
	RowVersion  int64       `json:"row_version"`
}

// DeadlinePage is the answer of GET /contracts/deadlines, shaped like the
// other custom lists.
type DeadlinePage struct {
	Data  []DeadlineRow `json:"data"`
	Links struct {
		Pagination Pagination `json:"pagination"`
	} `json:"links"`
}

// Pagination is the pagination member of a custom list answer.
type Pagination struct {
	CurrentPage int   `json:"current_page"`
	LastPage    int64 `json:"last_page"`
	PerPage     int   `json:"per_page"`
	Total       int64 `json:"total"`
	// TotalAsOf: Total was counted at that moment and is being counted
	// again (tables.Page.TotalAsOf, decision 0057).
	TotalAsOf *time.Time `json:"total_as_of,omitempty"`
}

// deadlineColumns are the columns the page statement reads: the
// deadline's own, and its contract's label, point of sale and company,
// which the definitions derive through the contract in the same statement.
var deadlineColumns = append([]string{"contract_id", "contract_id__label", "contract_pos_name", "contract_company_name",
	"contractaction_acting_by", fieldStatus}, explanationColumns...)

// explanationColumns are the stored fields a deadline's explanation is
// rendered from (storedExplanation).
var explanationColumns = []string{"contractaction_type", fieldRule, fieldTo, "contractaction_notice_period_value",
	"contractaction_notice_period_unit", "contractaction_options_count", fieldExercised, fieldNotice, fieldEffective,
	fieldUses, fieldExpired, "contractaction_resiliation_date"}

// ParseDeadlineQuery reads the query parameters of GET /contracts/deadlines:
// from, to, status (repeated or comma-separated), keyword, page, per_page,
// order_by and order; 422 on a malformed one (at ["query", name]).
func ParseDeadlineQuery(v url.Values) (DeadlineQuery, error) {
	c, err := tables.ParseCustomQuery(v)
	if err != nil {
		return DeadlineQuery{}, err
	}
	q := DeadlineQuery{Keyword: c.Keyword, Page: max(c.Page, 1), PerPage: c.PerPage, OrderBy: c.OrderBy, Order: c.Order}
	if q.PerPage == 0 {
		q.PerPage = deadlinesPerPage
	}
	if q.PerPage > deadlinesMaxPerPage {
		return q, queryError("per_page", "validation.max_value", "value_error", map[string]string{"max": fmt.Sprint(deadlinesMaxPerPage)})
	}
	if q.OrderBy == "" {
		q.OrderBy = fieldNotice
	}
	if !deadlineOrders[q.OrderBy] {
		return q, queryError("order_by", "validation.one_of", "enum", map[string]string{"values": strings.Join(sortedNames(deadlineOrders), ", ")})
	}
	for _, name := range []string{"from", "to"} {
		s := v.Get(name)
		if s == "" {
			continue
		}
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return q, queryError(name, "validation.type.date", "type_error", nil)
		}
		if name == "from" {
			q.From = s
		} else {
			q.To = s
		}
	}
	if q.Contract, err = tables.QueryID(v, "contract_id"); err != nil {
		return q, err
	}
	if q.From != "" && q.To != "" && q.To < q.From {
		return q, queryError("to", "validation.date_after", "date_after", map[string]string{"attribute": "from"})
	}
	for _, raw := range v["status"] {
		for _, s := range strings.Split(raw, ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			if !deadlineStatuses[s] {
				return q, queryError("status", "validation.one_of", "enum", map[string]string{"values": strings.Join(sortedNames(deadlineStatuses), ", ")})
			}
			q.Statuses = append(q.Statuses, s)
		}
	}
	return q, nil
}

// queryError is the 422 answer for query parameter name.
func queryError(name, key, typ string, args map[string]string) error {
	a := map[string]string{"field": name}
	for k, v := range args {
		a[k] = v
	}
	return apperr.Validation(apperr.FieldError{Field: name, Loc: []any{"query", name}, Key: key, Type: typ, Args: a})
}

// sortedNames lists the keys of set in order.
func sortedNames(set map[string]bool) []string { return slices.Sorted(maps.Keys(set)) }

// Deadlines answers one page of the deadlines of the caller's contracts.
//
// Rights: the list right on deadlines (contractaction) and on contracts,
// since every row shows its contract's point of sale and company (403
// otherwise, before anything is read). Tenant: the page is the engine's
// list, so each row is one the caller's generic deadline list would show.
func (s *Service) Deadlines(ctx context.Context, q DeadlineQuery) (*DeadlinePage, error) {
	for _, entity := range []string{entityDeadline, entityContract} {
		if err := s.engine.Require(ctx, access.ActionList, entity); err != nil {
			return nil, err
		}
	}
	lq := tables.ListQuery{Entity: entityDeadline, Search: q.Keyword, OrderBy: q.OrderBy, OrderDir: q.Order,
		Page: q.Page, PerPage: q.PerPage, Count: true, Columns: deadlineColumns, Filter: noticeWindow(q.From, q.To)}
	lq.Data = map[string]any{}
	if len(q.Statuses) > 0 {
		statuses := make([]any, len(q.Statuses))
		for i, st := range q.Statuses {
			statuses[i] = st
		}
		lq.Data[fieldStatus] = statuses
	}
	if q.Responsible > 0 {
		lq.Data[fieldResponsible] = q.Responsible
	}
	if q.Contract > 0 {
		lq.Data["contract_id"] = q.Contract
	}
	return s.deadlinePage(ctx, lq)
}

// noticeWindow is the engine filter "notice date from from to to" (nil:
// no window).
func noticeWindow(from, to string) json.RawMessage {
	var conds []map[string]string
	if from != "" {
		conds = append(conds, map[string]string{"field": fieldNotice, "op": "gte", "value": from})
	}
	if to != "" {
		conds = append(conds, map[string]string{"field": fieldNotice, "op": "lte", "value": to})
	}
	if len(conds) == 0 {
		return nil
	}
	b, _ := json.Marshal(conds) // plain strings: cannot fail
	return b
}

// deadlinePage reads the page of deadlines and its pagination.
func (s *Service) deadlinePage(ctx context.Context, lq tables.ListQuery) (*DeadlinePage, error) {
	cur, err := s.engine.ListIn(ctx, s.db, lq)
	if err != nil {
		return nil, err
	}
	defer cur.Close()
	today := s.now().UTC()
	lang := i18n.LangFrom(ctx)
	page := &DeadlinePage{Data: make([]DeadlineRow, 0, lq.PerPage)}
	// Columns by position, found once: a map per row (Record) cost 200 of
	// a page's 2,800 allocations.
	id, contract, label := cur.Index("contractaction_id"), cur.Index("contract_id"), cur.Index("contract_id__label")
	pos, company := cur.Index("contract_pos_name"), cur.Index("contract_company_name")
	actingBy, status, version := cur.Index("contractaction_acting_by"), cur.Index(fieldStatus), cur.Index("row_version")
	rule := make([]int, len(explanationColumns))
	for i, c := range explanationColumns {
		rule[i] = cur.Index(c)
	}
	facts := make(map[string]any, len(explanationColumns))
	for cur.Next() {
		for i, c := range explanationColumns {
			facts[c] = cur.Value(rule[i])
		}
		r := DeadlineRow{ContractLabel: optString(cur.Value(label)), PosLabel: optString(cur.Value(pos)),
			CompanyLabel: optString(cur.Value(company)), ActingBy: optString(cur.Value(actingBy)),
			NoticeDate: optString(facts[fieldNotice]), EffectiveDate: optString(facts[fieldEffective])}
		r.ID, _ = cur.Value(id).(int64)
		r.ContractID, _ = cur.Value(contract).(int64)
		r.RowVersion, _ = cur.Value(version).(int64)
		r.Type, _ = facts["contractaction_type"].(string)
		r.Status, _ = cur.Value(status).(string)
		expired, _ := facts[fieldExpired].(int64)
		r.Expired = expired == 1
		if r.NoticeDate != nil {
			r.TrafficLight = lightOf(s.lights, *r.NoticeDate, r.Status, r.Expired, today)
		}
		r.Rule = storedExplanation(facts)
		r.Explanation = s.Explain(lang, r.Rule)
		page.Data = append(page.Data, r)
	}
	if err := cur.Err(); err != nil {
		return nil, err
	}
	p := cur.Page()
	var total int64
	if p.Total != nil {
		total = *p.Total
	}
	page.Links.Pagination = Pagination{CurrentPage: lq.Page, PerPage: lq.PerPage, Total: total, TotalAsOf: p.TotalAsOf,
		LastPage: max((total+int64(lq.PerPage)-1)/int64(lq.PerPage), 1)}
	return page, nil
}

func optString(v any) *string {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	return &s
}

// deadlines serves GET /contracts/deadlines.
func (h *handler) deadlines(w http.ResponseWriter, r *http.Request) error {
	q, err := ParseDeadlineQuery(r.URL.Query())
	if err != nil {
		return err
	}
	page, err := h.s.Deadlines(r.Context(), q)
	if err != nil {
		return err
	}
	httpapi.WriteJSON(w, http.StatusOK, page)
	return nil
}
