package contracts

import (
	"strconv"
	"time"

	"portfolio/internal/i18n"
)

// Explanation says which rule produced a deadline's notice date: a code
// and its parameters (dates as YYYY-MM-DD), rendered in the reader's
// language by Service.Explain. The deadline list, the calendar feed and the
// alert mail render it with that one function (decision 0008).
type Explanation struct {
	// Code is one of none, plain (a date whose end is not known: stored
	// before the end was derived), notice (a resiliation), option (an active
	// option open), extension (an automatic option or extension open),
	// lapsed (an active option not declared in time), exercised (every
	// option exercised) and used_up (the last extension's date passed).
	Code string `json:"code"`
	// Args: notice and end (the dates), basis (calendar rule: the end the
	// notice is given to, date … year_end; or statutory_580a), period_value
	// and period_unit (the notice period), n (the option or extension this
	// deadline is about, from 1) and count (the options count; "" for
	// unlimited).
	Args map[string]string `json:"args"`
}

// Explain is the explanation of notice n of deadline dl.
func Explain(dl Deadline, n Notice) Explanation {
	if n.Date == nil {
		return Explanation{Code: "none", Args: map[string]string{}}
	}
	basis := dl.To
	if basis == "" {
		basis = ToDate
	}
	if dl.Rule == Rule580a {
		basis = Rule580a
	}
	args := map[string]string{"notice": n.Date.Format(time.DateOnly), "basis": basis,
		"period_value": strconv.Itoa(dl.Notice.Value), "period_unit": dl.Notice.Unit, "n": strconv.Itoa(n.Uses + 1), "count": ""}
	if n.End != nil {
		args["end"] = n.End.Format(time.DateOnly)
	}
	if dl.OptionsCount != nil {
		args["count"] = strconv.Itoa(*dl.OptionsCount)
	}
	code := "notice"
	switch {
	case n.End == nil: // stored before the end was derived, not recomputed since
		code = "plain"
	case dl.Type == TypeResiliation || dl.Type == TypeSpecialResiliation:
	case dl.Type == TypeActiveOption && exercisedAll(dl, n):
		code = "exercised"
	case dl.Type == TypeActiveOption && n.Expired:
		code = "lapsed"
	case dl.Type == TypeActiveOption:
		code = "option"
	case n.Expired:
		code = "used_up"
	default:
		code = "extension"
	}
	return Explanation{Code: code, Args: args}
}

// Explain renders e in lang (the server catalogue's deadline.* texts).
func (s *Service) Explain(lang string, e Explanation) string {
	if !i18n.Supported(lang) {
		lang = i18n.Default
	}
	a := e.Args
	t := func(key string, args map[string]string) string { return s.catalog.T(lang, key, args) }
	count := a["count"]
	if count == "" {
		count = t("deadline.unlimited", nil)
	}
	basis := t("deadline.basis."+a["basis"], map[string]string{
		"period": s.period(lang, a["period_value"], a["period_unit"]),
		"month":  s.monthOf(lang, a["notice"]),
	})
	return t("deadline.rule."+e.Code, map[string]string{"notice": s.dayOf(lang, a["notice"]), "end": s.dayOf(lang, a["end"]),
		"basis": basis, "n": a["n"], "count": count})
}

// period renders a notice period ("6 months").
func (s *Service) period(lang, value, unit string) string {
	form := "other"
	if value == "1" {
		form = "one"
	}
	return s.catalog.T(lang, "deadline.period."+unit+"."+form, map[string]string{"n": value})
}

// dayOf renders a date (YYYY-MM-DD) in lang ("31 December 2027"); "" for
// none.
func (s *Service) dayOf(lang, iso string) string {
	d, err := time.Parse(time.DateOnly, iso)
	if err != nil {
		return ""
	}
	return s.catalog.LongDate(lang, d)
}

// monthOf renders the month of a date (YYYY-MM-DD) in lang ("July 2027").
func (s *Service) monthOf(lang, iso string) string {
	d, err := time.Parse(time.DateOnly, iso)
	if err != nil {
		return ""
	}
	return s.catalog.T(lang, "deadline.month_year", map[string]string{
		"month": s.catalog.T(lang, "deadline.month."+strconv.Itoa(int(d.Month())), nil), "year": strconv.Itoa(d.Year())})
}

// storedExplanation is the explanation of a deadline as stored: its own
// fields and the values derived with its notice date, as a row of the
// engine (int64) or its JSON (float64) gives them.
func storedExplanation(row map[string]any) Explanation {
	str := func(k string) string { v, _ := row[k].(string); return v }
	num := func(k string) (int, bool) {
		switch v := row[k].(type) {
		case int64:
			return int(v), true
		case float64:
			return int(v), true
		case bool:
			if v {
				return 1, true
			}
			return 0, true
		}
		return 0, false
	}
	dl := Deadline{Type: str("contractaction_type"), Rule: str(fieldRule), To: str(fieldTo),
		Notice: Period{Unit: str("contractaction_notice_period_unit")}}
	dl.Notice.Value, _ = num("contractaction_notice_period_value")
	dl.Exercised, _ = num(fieldExercised)
	if c, ok := num("contractaction_options_count"); ok {
		dl.OptionsCount = &c
	}
	var n Notice
	n.Date, _ = dateOf(row[fieldNotice])
	n.End, _ = dateOf(row[fieldEffective])
	if n.End == nil && (dl.To == "" || dl.To == ToDate) && dl.Rule != Rule580a {
		n.End, _ = dateOf(row["contractaction_resiliation_date"]) // a resiliation's end before migration 0051 derived it
	}
	n.Uses, _ = num(fieldUses)
	expired, _ := num(fieldExpired)
	n.Expired = expired == 1
	return Explain(dl, n)
}
