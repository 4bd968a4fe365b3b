package validate

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"portfolio/internal/schema"
)

// Record is a row being validated or written: field name → canonical value.
// Canonical values by schema.DataType:
//
//	id, int, bool  int64 (booleans 0 or 1)
//	decimal        float64
//	string         string
//	date           string "2006-01-02"
//	datetime       time.Time in UTC, whole seconds
//	multi-select   []int64 (fields stored through a relation)
//
// nil is the empty value of every type.
type Record map[string]any

// DateLayout is the canonical form of a date.
const DateLayout = "2006-01-02"

// TypeError says that a value does not fit a field's type. Expected names
// the type ("int", "decimal", "bool", "date", "datetime", "string", "list").
type TypeError struct {
	Expected string
}

// Error names the expected type.
func (e *TypeError) Error() string { return "value is not a valid " + e.Expected }

// Coerce converts a value decoded from JSON (with json.Decoder.UseNumber:
// nil, bool, json.Number, string, []any, map[string]any) into the canonical
// value of type t. Empty strings become nil for every type but string.
// Numbers may come as JSON numbers or numeric strings; booleans as true,
// false, 0, 1, "0", "1", "true" or "false"; dates as "2006-01-02" (a
// date-time's date part is taken); date-times as RFC 3339, "2006-01-02
// 15:04:05", "2006-01-02T15:04" or a bare date (midnight UTC).
func Coerce(t schema.DataType, raw any) (any, error) {
	if raw == nil {
		return nil, nil
	}
	if s, ok := raw.(string); ok && s == "" && t != schema.TypeString {
		return nil, nil
	}
	switch t {
	case schema.TypeID, schema.TypeInt:
		return coerceInt(raw, t)
	case schema.TypeBool:
		return coerceBool(raw)
	case schema.TypeDecimal:
		return coerceDecimal(raw)
	case schema.TypeString:
		if s, ok := raw.(string); ok {
			return s, nil
		}
		return nil, &TypeError{Expected: "string"}
	case schema.TypeDate:
		return coerceDate(raw)
	case schema.TypeDateTime:
		return coerceDateTime(raw)
	}
	return nil, fmt.Errorf("validate: unknown data type %q", t)
}

// CoerceList converts a JSON array of ids (a multi-select) into []int64;
// null and an empty array are the empty list.
func CoerceList(raw any) ([]int64, error) {
	if raw == nil {
		return []int64{}, nil
	}
	items, ok := raw.([]any)
	if !ok {
		// A single id is accepted as a one-element list.
		v, err := coerceInt(raw, schema.TypeID)
		if err != nil || v == nil {
			return nil, &TypeError{Expected: "list"}
		}
		return []int64{v.(int64)}, nil
	}
	out := make([]int64, 0, len(items))
	seen := map[int64]bool{}
	for _, it := range items {
		v, err := coerceInt(it, schema.TypeID)
		if err != nil || v == nil {
			return nil, &TypeError{Expected: "list"}
		}
		if n := v.(int64); !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

func numberText(raw any) (string, bool) {
	switch v := raw.(type) {
	case json.Number:
		return v.String(), true
	case string:
		return strings.TrimSpace(v), true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	case int64:
		return strconv.FormatInt(v, 10), true
	case int:
		return strconv.Itoa(v), true
	}
	return "", false
}

func coerceInt(raw any, t schema.DataType) (any, error) {
	s, ok := numberText(raw)
	if !ok {
		return nil, &TypeError{Expected: "int"}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		// 12.0 is a whole number too.
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return nil, &TypeError{Expected: "int"}
		}
		n = int64(f)
	}
	if t == schema.TypeID && n <= 0 {
		return nil, &TypeError{Expected: "id"}
	}
	if t == schema.TypeInt && (n > math.MaxInt32 || n < math.MinInt32) {
		// INTEGER columns hold 32 bits on PostgreSQL.
		return nil, &TypeError{Expected: "int"}
	}
	return n, nil
}

func coerceBool(raw any) (any, error) {
	switch v := raw.(type) {
	case bool:
		if v {
			return int64(1), nil
		}
		return int64(0), nil
	case json.Number, string, int64, int, float64:
		s, _ := numberText(v)
		switch strings.ToLower(s) {
		case "1", "true":
			return int64(1), nil
		case "0", "false":
			return int64(0), nil
		}
	}
	return nil, &TypeError{Expected: "bool"}
}

func coerceDecimal(raw any) (any, error) {
	s, ok := numberText(raw)
	if !ok {
		return nil, &TypeError{Expected: "decimal"}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || math.Abs(f) >= 1e14 {
		return nil, &TypeError{Expected: "decimal"}
	}
	return f, nil
}

func coerceDate(raw any) (any, error) {
	s, ok := raw.(string)
	if !ok {
		return nil, &TypeError{Expected: "date"}
	}
	s = strings.TrimSpace(s)
	if len(s) > len(DateLayout) {
		t, err := ParseDateTime(s)
		if err != nil {
			return nil, &TypeError{Expected: "date"}
		}
		return t.Format(DateLayout), nil
	}
	d, err := time.Parse(DateLayout, s)
	if err != nil || d.Year() < 1 || d.Year() > 9999 {
		return nil, &TypeError{Expected: "date"}
	}
	return d.Format(DateLayout), nil
}

func coerceDateTime(raw any) (any, error) {
	s, ok := raw.(string)
	if !ok {
		return nil, &TypeError{Expected: "datetime"}
	}
	t, err := ParseDateTime(strings.TrimSpace(s))
	if err != nil {
		return nil, &TypeError{Expected: "datetime"}
	}
	return t, nil
}

// dateTimeLayouts are the date-time forms accepted from clients and read
// back from the databases (SQLite keeps text; drivers format time.Time as
// RFC 3339).
var dateTimeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999-07:00",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04",
	"2006-01-02 15:04",
	DateLayout,
}

// ParseDateTime parses the accepted date-time forms; values without a zone
// are UTC. The result is UTC, truncated to whole seconds.
func ParseDateTime(s string) (time.Time, error) {
	for _, layout := range dateTimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			if t.Year() < 1 || t.Year() > 9999 {
				break
			}
			return t.UTC().Truncate(time.Second), nil
		}
	}
	return time.Time{}, &TypeError{Expected: "datetime"}
}

// Empty reports whether v is the empty value: nil, a blank string or an
// empty list. 0 is not empty (an unchecked box is 0).
func Empty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return strings.TrimSpace(x) == ""
	case []int64:
		return len(x) == 0
	}
	return false
}

// Text is the canonical text form conditions compare in: 1 and "1" are
// equal; dates "2006-01-02"; date-times "2006-01-02 15:04:05"; a list is
// not text (see Holds).
func Text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case time.Time:
		return x.UTC().Format("2006-01-02 15:04:05")
	case bool:
		if x {
			return "1"
		}
		return "0"
	}
	return fmt.Sprint(v)
}

// Equal reports whether two canonical values are the same (lists compare
// as sets).
func Equal(a, b any) bool {
	if Empty(a) || Empty(b) {
		return Empty(a) && Empty(b)
	}
	la, aList := a.([]int64)
	lb, bList := b.([]int64)
	if aList || bList {
		if !aList || !bList || len(la) != len(lb) {
			return false
		}
		set := make(map[int64]bool, len(la))
		for _, x := range la {
			set[x] = true
		}
		for _, x := range lb {
			if !set[x] {
				return false
			}
		}
		return true
	}
	if ta, ok := a.(time.Time); ok {
		tb, ok := b.(time.Time)
		return ok && ta.Equal(tb)
	}
	return Text(a) == Text(b)
}

// number returns v as a float64 when it is numeric.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// compare orders two filled canonical values of the same kind: numbers
// numerically, date-times in time, everything else as text (dates in
// canonical form order correctly). ok is false when they cannot be compared.
func compare(a, b any) (int, bool) {
	if x, ok := number(a); ok {
		y, ok := number(b)
		if !ok {
			return 0, false
		}
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		}
		return 0, true
	}
	ta, aTime := a.(time.Time)
	tb, bTime := b.(time.Time)
	switch {
	case aTime && bTime:
		return ta.Compare(tb), true
	case aTime:
		return strings.Compare(ta.Format(DateLayout), Text(b)), true
	case bTime:
		return strings.Compare(Text(a), tb.Format(DateLayout)), true
	}
	sa, aok := a.(string)
	sb, bok := b.(string)
	if !aok || !bok {
		return 0, false
	}
	return strings.Compare(sa, sb), true
}
