package validate

import (
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"portfolio/internal/apperr"
	"portfolio/internal/schema"
)

// Env is what rule evaluation needs beyond the record.
type Env struct {
	// Creating is true for a create (fields hidden on create are skipped),
	// false for an update (fields hidden on update are skipped).
	Creating bool
	// Stored is the record as stored before an update (nil on create):
	// not_past passes unchanged values.
	Stored Record
	// Today is the current date, "2006-01-02" (not_past).
	Today string
	// Label returns the translated label of a field ({field}, {attribute});
	// nil uses the field name.
	Label func(field string) string
	// Text translates the declared message of a field's rule (regex
	// failure messages) and returns it unchanged when it has no
	// translation; nil keeps it.
	Text func(field, message string) string
	// OptionsFilled answers options_filled: whether list field has at least
	// one option for rec (its OptionsWhere narrowing applied).
	OptionsFilled func(field string, rec Record) (bool, error)
}

// Message keys of the rules (internal/i18n/server/*.json), with their
// placeholders.
const (
	KeyRequired       = "validation.required"         // {field} is required
	KeyMax            = "validation.max"              // {field} must contain maximum {length} characters
	KeyMaxValue       = "validation.max_value"        // {field} must be lower than {max}
	KeyMinValue       = "validation.min_value"        // {field} must be at least {min}
	KeySize           = "validation.size"             // {field} size must be less than {size}KB
	KeyEmail          = "validation.email"            // {field} must be a valid email address
	KeyRegex          = "validation.regex"            // {field} has an invalid format (when no per-field message)
	KeyDateAfter      = "validation.date_after"       // This date must be after {attribute}
	KeyRequiredIfNull = "validation.required_if_null" // This field is required if {attribute} is empty
	KeyOnlyOneOf      = "validation.only_one_of"      // Fill in either this field or {attribute}, not both
	KeyLower          = "validation.lower"            // The value must be lower than {attribute}
	KeyNotPast        = "validation.not_past"         // {field} must not be in the past
)

// Visible reports whether field f takes part in a write of rec: it is
// writable, not hidden in this form (create or update) and its ShowWhen
// holds. A field that is not visible is neither validated nor written.
func Visible(f *schema.Field, rec Record, env *Env) (bool, error) {
	if !f.Writable() || (env.Creating && f.HiddenOnCreate) || (!env.Creating && f.HiddenOnUpdate) {
		return false, nil
	}
	if f.ShowWhen == nil {
		return true, nil
	}
	return Holds(*f.ShowWhen, rec, env)
}

// Check evaluates the rules of fields (an entity's or a link's) over rec
// and returns one error per failing field (its first failing rule), in
// field order. Fields that are not Visible are skipped. The error return is
// for evaluation failures (an options lookup that failed), not for invalid
// values.
func Check(fields []*schema.Field, rec Record, env *Env) ([]apperr.FieldError, error) {
	var out []apperr.FieldError
	for _, f := range fields {
		ok, err := Visible(f, rec, env)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		fe, err := checkField(f, rec, env)
		if err != nil {
			return nil, err
		}
		if fe != nil {
			out = append(out, *fe)
		}
	}
	return out, nil
}

// checkField returns the first failing rule of f.
func checkField(f *schema.Field, rec Record, env *Env) (*apperr.FieldError, error) {
	for _, r := range f.Checks() {
		if r.When != nil && r.Kind != schema.RuleRequiredIf {
			ok, err := Holds(*r.When, rec, env)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		fe, err := checkRule(f, r, rec, env)
		if err != nil || fe != nil {
			return fe, err
		}
	}
	return nil, nil
}

func (env *Env) label(field string) string {
	if env.Label != nil {
		if l := env.Label(field); l != "" {
			return l
		}
	}
	return field
}

// fail builds the field error of rule r on f.
func (env *Env) fail(f *schema.Field, r schema.Rule, key, typ string, args map[string]string) *apperr.FieldError {
	if args == nil {
		args = map[string]string{}
	}
	args["field"] = env.label(f.Name)
	fe := &apperr.FieldError{Field: f.Name, Key: key, Type: typ, Args: args}
	if r.Message != "" {
		// A declared message replaces the built-in one; it is a
		// translation key or a text (regex messages are texts).
		fe.Key = r.Message
		if env.Text != nil {
			fe.Key, fe.Message = "", env.Text(f.Name, r.Message)
		}
	}
	return fe
}

func checkRule(f *schema.Field, r schema.Rule, rec Record, env *Env) (*apperr.FieldError, error) {
	v := rec[f.Name]
	switch r.Kind {
	case schema.RuleRequired:
		if Empty(v) {
			return env.fail(f, r, KeyRequired, "missing", nil), nil
		}
	case schema.RuleRequiredIf:
		ok, err := Holds(*r.When, rec, env)
		if err != nil {
			return nil, err
		}
		if ok && Empty(v) {
			return env.fail(f, r, KeyRequired, "missing", nil), nil
		}
	case schema.RuleRequiredIfNull:
		other := rec[r.Field]
		if Empty(v) && Empty(other) {
			return env.fail(f, r, KeyRequiredIfNull, string(r.Kind), map[string]string{"attribute": env.label(r.Field)}), nil
		}
		if !Empty(v) && !Empty(other) {
			return env.fail(f, r, KeyOnlyOneOf, string(r.Kind), map[string]string{"attribute": env.label(r.Field)}), nil
		}
	default:
		if Empty(v) {
			return nil, nil // every other rule passes an empty value
		}
		return checkValue(f, r, v, rec, env), nil
	}
	return nil, nil
}

// checkValue evaluates the rules that only look at a filled value.
func checkValue(f *schema.Field, r schema.Rule, v any, rec Record, env *Env) *apperr.FieldError {
	limit := r.Value.String()
	switch r.Kind {
	case schema.RuleMax:
		n, _ := r.Value.Int64()
		if s, ok := v.(string); ok && int64(utf8.RuneCountInString(s)) > n {
			return env.fail(f, r, KeyMax, "max", map[string]string{"length": limit})
		}
	case schema.RuleMaxValue, schema.RuleMinValue:
		x, ok := number(v)
		bound, err := strconv.ParseFloat(limit, 64)
		if !ok || err != nil {
			return nil
		}
		if r.Kind == schema.RuleMaxValue && x > bound {
			return env.fail(f, r, KeyMaxValue, string(r.Kind), map[string]string{"max": limit})
		}
		if r.Kind == schema.RuleMinValue && x < bound {
			return env.fail(f, r, KeyMinValue, string(r.Kind), map[string]string{"min": limit})
		}
	case schema.RuleSize:
		// The value of a size rule is a size in bytes (uploads report it).
		kb, _ := r.Value.Int64()
		if x, ok := number(v); ok && x > float64(kb)*1024 {
			return env.fail(f, r, KeySize, "size", map[string]string{"size": limit})
		}
	case schema.RuleEmail:
		if !validEmails(Text(v)) {
			return env.fail(f, r, KeyEmail, "email", nil)
		}
	case schema.RuleRegex:
		if !matches(r.Pattern, Text(v)) {
			return env.fail(f, r, KeyRegex, "regex", nil)
		}
	case schema.RuleDateAfter, schema.RuleLower:
		return checkOrder(f, r, v, rec[r.Field], env)
	case schema.RuleNotPast:
		if changed(env.Stored, f.Name, v) && before(v, env.Today) {
			return env.fail(f, r, KeyNotPast, string(r.Kind), nil)
		}
	}
	return nil
}

// checkOrder: date_after wants v ≥ other, lower wants v ≤ other; both pass
// when the other value is empty.
func checkOrder(f *schema.Field, r schema.Rule, v, other any, env *Env) *apperr.FieldError {
	if Empty(other) {
		return nil
	}
	c, ok := compare(v, other)
	if !ok {
		return nil
	}
	args := map[string]string{"attribute": env.label(r.Field)}
	if r.Kind == schema.RuleDateAfter && c < 0 {
		return env.fail(f, r, KeyDateAfter, string(r.Kind), args)
	}
	if r.Kind == schema.RuleLower && c > 0 {
		return env.fail(f, r, KeyLower, string(r.Kind), args)
	}
	return nil
}

// validEmails checks one address or a list separated by commas or
// semicolons: each a bare address (no display name).
func validEmails(s string) bool {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' })
	if len(parts) == 0 {
		return false
	}
	for _, p := range parts {
		p = strings.TrimSpace(p)
		addr, err := mail.ParseAddress(p)
		if err != nil || addr.Address != p || addr.Name != "" {
			return false
		}
	}
	return true
}

func matches(pattern, s string) bool {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return false // definitions are checked at start; never reached
	}
	return re.MatchString(s)
}

func changed(stored Record, field string, v any) bool {
	if stored == nil {
		return true
	}
	return !Equal(stored[field], v)
}

// before reports whether the date (or date-time's date) v is before today.
func before(v any, today string) bool {
	var d string
	switch x := v.(type) {
	case time.Time:
		d = x.UTC().Format(DateLayout)
	case string:
		d = x
	default:
		return false
	}
	return today != "" && d < today
}

// ErrorOf is a convenience for callers that turn field errors into the
// 422 answer: nil when there are none.
func ErrorOf(fields []apperr.FieldError) error {
	if len(fields) == 0 {
		return nil
	}
	return apperr.Validation(fields...)
}

// TypeFieldError is the 422 item for a value of the wrong type.
func TypeFieldError(field, label string, err *TypeError) apperr.FieldError {
	return apperr.FieldError{Field: field, Key: "validation.type." + err.Expected, Type: "type_error",
		Args: map[string]string{"field": label}}
}
