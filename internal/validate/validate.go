// Package validate evaluates the declarative rules of internal/schema over
// a record: the one server-side implementation of the rule and condition
// semantics the browser mirrors from the served definitions.
//
// The semantics, in one place:
//
//   - Values are canonical (see Record and Coerce). "Empty" is nil, a blank
//     string or an empty list; 0 is filled.
//   - A field takes part in a write only when it is Visible: writable, not
//     hidden in the form at hand (create or update) and its ShowWhen holds.
//     Invisible fields are neither validated nor written.
//   - Rules run in Field.Checks order; the first failing rule of a field is
//     its error (one error per field). A rule with When applies only while
//     When holds.
//   - required: filled. required_if: filled while the condition holds.
//     Every other rule passes an empty value.
//   - max: at most Value characters (runes). max_value / min_value: a number
//     not above / below Value. size: a size in bytes not above Value KB.
//     email: one bare address, or several separated by "," or ";". regex:
//     the whole rule's pattern matches (patterns anchor themselves).
//   - date_after: value ≥ the other field; lower: value ≤ the other field;
//     both pass when the other field is empty. Dates compare as dates,
//     date-times in time, numbers numerically.
//   - required_if_null: exactly one of the field and the other is filled
//     (both empty: "required if {attribute} is empty"; both filled: "only
//     one of").
//   - not_past: a date set or changed by this write is not before today;
//     an unchanged stored value passes.
//
// Messages are translation keys (Key* constants) with the placeholders
// {field} and {attribute} filled with translated labels, so the HTTP layer
// renders them in the request's language.
package validate
