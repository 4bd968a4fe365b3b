package schema

// Op is a condition operator.
type Op string

// The condition operators. Values are compared in canonical text form
// (Literal.String): 1 and "1" are equal. "Empty" means null, "" or an empty
// list; "truthy" means filled and not 0, "0" or false.
const (
	OpEmpty  Op = "empty"
	OpFilled Op = "filled"
	OpTruthy Op = "truthy"
	OpFalsy  Op = "falsy"  // empty or 0
	OpIn     Op = "in"     // filled and equal to one of Values
	OpNotIn  Op = "not_in" // empty or equal to none of Values
	// OpOptionsFilled holds when the options of list field Field (after its
	// OptionsWhere narrowing) are not empty: "only when the list is not
	// empty".
	OpOptionsFilled Op = "options_filled"
	OpAll           Op = "all" // every one of Conds holds
	OpAny           Op = "any" // at least one of Conds holds
)

// Cond is a condition over the fields of the row being validated (of the
// link row, for link attributes). It is plain data: the Go rule engine and
// the browser evaluate the same served JSON.
type Cond struct {
	Op     Op        `json:"op"`
	Field  string    `json:"field,omitempty"`
	Values []Literal `json:"values,omitempty"`
	Conds  []Cond    `json:"conds,omitempty"`
}

// IsEmpty holds when field is empty.
func IsEmpty(field string) Cond { return Cond{Op: OpEmpty, Field: field} }

// IsFilled holds when field is filled.
func IsFilled(field string) Cond { return Cond{Op: OpFilled, Field: field} }

// IsTruthy holds when field is filled and not 0.
func IsTruthy(field string) Cond { return Cond{Op: OpTruthy, Field: field} }

// IsFalsy holds when field is empty or 0.
func IsFalsy(field string) Cond { return Cond{Op: OpFalsy, Field: field} }

// In holds when field equals one of values.
func In(field string, values ...Literal) Cond { return Cond{Op: OpIn, Field: field, Values: values} }

// NotIn holds when field equals none of values (or is empty).
func NotIn(field string, values ...Literal) Cond {
	return Cond{Op: OpNotIn, Field: field, Values: values}
}

// OptionsFilled holds when list field has at least one option.
func OptionsFilled(field string) Cond { return Cond{Op: OpOptionsFilled, Field: field} }

// AllOf holds when every condition holds.
func AllOf(conds ...Cond) Cond { return Cond{Op: OpAll, Conds: conds} }

// AnyOf holds when at least one condition holds.
func AnyOf(conds ...Cond) Cond { return Cond{Op: OpAny, Conds: conds} }

// Fields lists every field the condition reads.
func (c Cond) Fields() []string {
	var out []string
	if c.Field != "" {
		out = append(out, c.Field)
	}
	for _, sub := range c.Conds {
		out = append(out, sub.Fields()...)
	}
	return out
}

// RuleKind names a validation rule of the specification.
type RuleKind string

// The rule kinds. Every rule except required and required_if passes on an
// empty value.
const (
	// RuleRequired: the value must not be empty. Message: "{field} is required".
	RuleRequired RuleKind = "required"
	// RuleRequiredIf: required while When holds.
	RuleRequiredIf RuleKind = "required_if"
	// RuleMax: at most Value characters.
	// Message: "{field} must contain maximum {length} characters".
	RuleMax RuleKind = "max"
	// RuleMaxValue: a number not above Value. Message: "{field} must be lower than {max}".
	RuleMaxValue RuleKind = "max_value"
	// RuleMinValue: a number not below Value.
	RuleMinValue RuleKind = "min_value"
	// RuleSize: a file of at most Value KB. Message: "{field} size must be less than {size}KB".
	RuleSize RuleKind = "size"
	// RuleEmail: an e-mail address (each one, for lists).
	RuleEmail RuleKind = "email"
	// RuleRegex: the value matches Pattern; Message is the per-field text.
	RuleRegex RuleKind = "regex"
	// RuleDateAfter: the value is greater than or equal to field Field
	// (when both are filled). Message: "This date must be after {attribute}".
	RuleDateAfter RuleKind = "date_after"
	// RuleRequiredIfNull: exactly one of this field and Field is filled.
	// Message: "This field is required if {attribute} is empty".
	RuleRequiredIfNull RuleKind = "required_if_null"
	// RuleLower: empty passes; the value is less than or equal to Field.
	// Message: "The value must be lower than {attribute}".
	RuleLower RuleKind = "lower"
	// RuleNotPast: a date that is set or changed is not before today
	// (unchanged stored values pass).
	RuleNotPast RuleKind = "not_past"
)

// Rule is one declarative validation rule of a field. When, if set, limits
// the rule to rows where the condition holds. Message overrides the
// built-in message of the kind (a translation key or an English text).
type Rule struct {
	Kind    RuleKind `json:"rule"`
	Field   string   `json:"field,omitempty"`
	Value   Literal  `json:"value,omitzero"`
	Pattern string   `json:"pattern,omitempty"`
	Message string   `json:"message,omitempty"`
	When    *Cond    `json:"when,omitempty"`
}

// DateAfter is the date_after rule against other.
func DateAfter(other string) Rule { return Rule{Kind: RuleDateAfter, Field: other} }

// Lower is the lower rule against other.
func Lower(other string) Rule { return Rule{Kind: RuleLower, Field: other} }

// RequiredIfNull is the required_if_null rule against other.
func RequiredIfNull(other string) Rule { return Rule{Kind: RuleRequiredIfNull, Field: other} }

// Checks returns every rule a value of the field must pass, in evaluation
// order: required (or required_if), max, regex, then the declared Rules.
// Booleans, read-only and derived fields carry no requirement (an empty
// boolean is 0). The caller skips the field when its ShowWhen does not
// hold, and skips it entirely when it is not Writable.
func (f *Field) Checks() []Rule {
	var out []Rule
	if f.Type != TypeBool && f.Writable() {
		switch {
		case f.Required.Always():
			out = append(out, Rule{Kind: RuleRequired})
		case f.Required.When != nil:
			c := *f.Required.When
			out = append(out, Rule{Kind: RuleRequiredIf, When: &c})
		}
	}
	if f.MaxLen > 0 {
		out = append(out, Rule{Kind: RuleMax, Value: Int(int64(f.MaxLen))})
	}
	if f.Regexp != "" {
		out = append(out, Rule{Kind: RuleRegex, Pattern: f.Regexp, Message: f.RegexpMessage})
	}
	return append(out, f.Rules...)
}

// DeriveFunc names how a derived field is computed.
type DeriveFunc string

// The derivations. Initials, Now and CurrentUser are stored (the writer
// computes them); the others are computed when rows are read and have no
// column.
const (
	// DeriveInitials: first letters of Args (user_abbreviation).
	DeriveInitials DeriveFunc = "initials"
	// DeriveNow: the time of the write.
	DeriveNow DeriveFunc = "now"
	// DeriveCurrentUser: the acting user's id.
	DeriveCurrentUser DeriveFunc = "current_user"
	// DeriveSum: sum of Field over the rows of Relation.
	DeriveSum DeriveFunc = "sum"
	// DeriveCount: number of rows of Relation.
	DeriveCount DeriveFunc = "count"
	// DeriveMin: smallest Field over the rows of Relation.
	DeriveMin DeriveFunc = "min"
	// DeriveNext: smallest date Field over the rows of Relation that is
	// today or later (the next of several dates).
	DeriveNext DeriveFunc = "next"
	// DeriveList: the distinct values of Field over Relation, comma-joined.
	DeriveList DeriveFunc = "list"
	// DeriveRef: Field of the row reached by following the foreign keys in
	// Args (address → city_id → city_zip).
	DeriveRef DeriveFunc = "ref"
	// DeriveDeadlineStatus: before_deadline, critical_yellow or
	// over_due_red from the yellow and red deadline fields in Args (and
	// none when the optional third, a closed flag, is 1).
	DeriveDeadlineStatus DeriveFunc = "deadline_status"
)

// Derivation says how a derived field is computed.
type Derivation struct {
	Func     DeriveFunc `json:"fn"`
	Args     []string   `json:"args,omitempty"`
	Relation string     `json:"relation,omitempty"`
	Field    string     `json:"field,omitempty"`
	// OnCreate limits a stored derivation to the create (user_abbreviation
	// is derived on create and kept afterwards).
	OnCreate bool `json:"on_create,omitempty"`
	// Only limits an aggregate to the relation rows whose field holds a
	// value (a contract's next notice date counts active deadlines only).
	Only *RowMatch `json:"only,omitempty"`
}

// RowMatch is "field = value" on the rows of a relation.
type RowMatch struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

// OnlyWhere limits the aggregate to relation rows whose field equals value.
func (d *Derivation) OnlyWhere(field, value string) *Derivation {
	d.Only = &RowMatch{Field: field, Value: value}
	return d
}

// Stored reports whether the writer stores the value in a column.
func (d *Derivation) Stored() bool {
	switch d.Func {
	case DeriveInitials, DeriveNow, DeriveCurrentUser:
		return true
	}
	return false
}

// Initials derives the first letters of fields.
func Initials(fields ...string) *Derivation {
	return &Derivation{Func: DeriveInitials, Args: fields}
}

// SumOver derives the sum of field over relation rows.
func SumOver(relation, field string) *Derivation {
	return &Derivation{Func: DeriveSum, Relation: relation, Field: field}
}

// CountOf derives the number of relation rows.
func CountOf(relation string) *Derivation {
	return &Derivation{Func: DeriveCount, Relation: relation}
}

// MinOver derives the smallest field over relation rows.
func MinOver(relation, field string) *Derivation {
	return &Derivation{Func: DeriveMin, Relation: relation, Field: field}
}

// NextOver derives the earliest date field over relation rows that is
// today or later.
func NextOver(relation, field string) *Derivation {
	return &Derivation{Func: DeriveNext, Relation: relation, Field: field}
}

// ListOf derives the distinct values of field over relation rows.
func ListOf(relation, field string) *Derivation {
	return &Derivation{Func: DeriveList, Relation: relation, Field: field}
}

// RefOf derives field of the row reached through the foreign keys path.
func RefOf(field string, path ...string) *Derivation {
	return &Derivation{Func: DeriveRef, Args: path, Field: field}
}

// Now derives the time of the write (onCreate: of the create only).
func Now(onCreate bool) *Derivation { return &Derivation{Func: DeriveNow, OnCreate: onCreate} }

// CurrentUser derives the acting user (onCreate: the creator).
func CurrentUser(onCreate bool) *Derivation {
	return &Derivation{Func: DeriveCurrentUser, OnCreate: onCreate}
}

// DeadlineStatus derives the ticket deadline status from two date fields;
// a closed flag field, when given, leaves closed records without one.
func DeadlineStatus(yellow, red string, closed ...string) *Derivation {
	return &Derivation{Func: DeriveDeadlineStatus, Args: append([]string{yellow, red}, closed...)}
}
