// Package schema is the single source of truth for Portfolio's entities: their
// fields (storage type, form kind, length, regex, requirement, default,
// visibility, derivation), validation rules, relations (one-to-many and
// many-to-many link tables with their own attributes), default list label,
// permission subject, tenant path and limits.
//
// The definitions drive the migrations' agreement test, the generic table
// engine (query, write, relations, export, history) and, through Serve, the
// table definitions the React app renders its generic screens from. Rules
// and conditions are plain data (see Rule and Cond) so the Go evaluator and
// the browser evaluate the same declarations.
//
// The registry (Default, All, Get) is built and validated once at program
// start; an inconsistent definition panics there. Everything it returns is
// shared and read-only.
package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// DataType is how a field's value is stored and exchanged.
type DataType string

// The data types. Each maps to one column type in the migrations:
// id → {{BIGINT}} (or {{PK}}), string → TEXT, int → INTEGER,
// decimal → NUMERIC(18,4), bool → SMALLINT 0/1, date → DATE,
// datetime → {{TIMESTAMP}}.
const (
	TypeID       DataType = "id"
	TypeString   DataType = "string"
	TypeInt      DataType = "int"
	TypeDecimal  DataType = "decimal"
	TypeBool     DataType = "bool"
	TypeDate     DataType = "date"
	TypeDateTime DataType = "datetime"
)

// Kind is the generic form field kind of the shell specification; it is
// served as attribute_datatype_hint and picks the React input.
type Kind string

// The form field kinds, spelled as the specification spells them.
const (
	KindText         Kind = "text"
	KindTextarea     Kind = "textarea"
	KindHTML         Kind = "html"
	KindList         Kind = "list"          // select over the referenced entity (Multiple for several)
	KindCustomList   Kind = "custom_list"   // select fed by a module endpoint rather than the generic list
	KindListSelect   Kind = "list_select"   // list with search-as-you-type
	KindYesNo        Kind = "yesno"         // Yes/No select storing 1/0
	KindCustomSelect Kind = "custom-select" // select over fixed Options
	KindCheckbox     Kind = "checkbox"
	KindFile         Kind = "file"
	KindPassword     Kind = "password" // optionally generated (Field.Generate)
	KindColor        Kind = "color"
	KindSmiley       Kind = "smiley"
	KindDatePicker   Kind = "date-picker" // a start_date/end_date range picker
	KindDate         Kind = "date"        // with time when the type is datetime
	KindBoolean      Kind = "boolean"     // inline 1/0 switch
	KindNumber       Kind = "number"
	KindDecimal      Kind = "decimal" // step 0.01
)

// Literal is a constant in a definition: a default, an option value or a
// value a condition compares with. The zero Literal means "none".
type Literal struct {
	kind literalKind
	num  int64
	text string
}

type literalKind uint8

const (
	litNone literalKind = iota
	litInt
	litDecimal
	litText
)

// Int is an integer literal (also ids and booleans 0/1).
func Int(n int64) Literal { return Literal{kind: litInt, num: n} }

// Decimal is a decimal literal written in canonical form, e.g. "24.5".
func Decimal(s string) Literal { return Literal{kind: litDecimal, text: s} }

// Text is a string literal (also dates "2000-01-01" and date-times).
func Text(s string) Literal { return Literal{kind: litText, text: s} }

// IsZero reports whether the literal is absent.
func (l Literal) IsZero() bool { return l.kind == litNone }

// IsNumber reports whether the literal is an integer or a decimal.
func (l Literal) IsNumber() bool { return l.kind == litInt || l.kind == litDecimal }

// IsText reports whether the literal is a string.
func (l Literal) IsText() bool { return l.kind == litText }

// Int64 returns the integer value and whether the literal is an integer.
func (l Literal) Int64() (int64, bool) { return l.num, l.kind == litInt }

// String is the canonical text form; conditions compare values in this form
// ("1" equals 1, "extern_client" equals "extern_client").
func (l Literal) String() string {
	switch l.kind {
	case litInt:
		return strconv.FormatInt(l.num, 10)
	case litDecimal, litText:
		return l.text
	}
	return ""
}

// MarshalJSON writes numbers as JSON numbers and strings as JSON strings.
func (l Literal) MarshalJSON() ([]byte, error) {
	switch l.kind {
	case litInt:
		return []byte(strconv.FormatInt(l.num, 10)), nil
	case litDecimal:
		if _, err := strconv.ParseFloat(l.text, 64); err != nil {
			return nil, fmt.Errorf("schema: decimal literal %q: %w", l.text, err)
		}
		return []byte(l.text), nil
	case litText:
		return json.Marshal(l.text)
	}
	return []byte("null"), nil
}

// UnmarshalJSON reads what MarshalJSON writes: integral numbers become Int,
// other numbers Decimal, strings Text, null the zero Literal.
func (l *Literal) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*l = Literal{}
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("schema: literal: %w", err)
		}
		*l = Text(s)
	default:
		if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
			*l = Int(n)
			return nil
		}
		if _, err := strconv.ParseFloat(string(b), 64); err != nil {
			return fmt.Errorf("schema: literal %s is neither number nor string", b)
		}
		*l = Decimal(string(b))
	}
	return nil
}

// Option is one fixed choice of an enumerated field (team_type, deadline
// status, ...). Label is the English text; Serve asks the label lookup for
// "<field>.<value>" first.
type Option struct {
	Value Literal `json:"value"`
	Label string  `json:"label"`
}

// Requirement says when a field must be filled. The zero value is "always
// required", the specification's default ("fields are required unless
// marked optional").
type Requirement struct {
	// Optional fields may stay empty.
	Optional bool `json:"optional,omitempty"`
	// When, if set, makes the field required only while the condition holds
	// (required_if); otherwise it may stay empty.
	When *Cond `json:"when,omitempty"`
}

// Always reports whether the field is unconditionally required.
func (r Requirement) Always() bool { return !r.Optional && r.When == nil }

// Match narrows the options of a list field: the referenced rows whose
// Target column equals this row's Source field (bankdata of the chosen
// partner company, choices of the chosen criteria; when Source holds several
// values, any of them), or equals the constant Value (parent teams are intern
// teams), or, with Via, that are linked to Source's value through their
// many-to-many relation Via (a contract's location is one of the chosen
// point of sale's locations). Exactly one of Source and Value is set, and
// exactly one of Target and Via.
type Match struct {
	Target string  `json:"target,omitempty"`
	Source string  `json:"source,omitempty"`
	Value  Literal `json:"value,omitzero"`
	// Via names a many-to-many relation of the referenced entity whose far
	// end is the entity Source refers to; any link row counts, whatever its
	// own attributes (validity periods) say.
	Via string `json:"via,omitempty"`
	// IfFilled narrows only while Source has a value; an empty Source
	// offers every row (otherwise an empty Source offers none).
	IfFilled bool `json:"if_filled,omitempty"`
	// Of, with Source a sibling reference, compares Target with field Of of
	// the row Source refers to rather than with Source itself: a recurring
	// payment has no company of its own, its tax rate belongs to the
	// company of its contract.
	Of string `json:"of,omitempty"`
}

// Field is one attribute of an entity or of a link table.
type Field struct {
	// Name is the attribute and column name (spec spelling kept).
	Name string
	// Type is how the value is stored.
	Type DataType
	// Kind is the form field kind (attribute_datatype_hint).
	Kind Kind
	// Label is the English nice name used when no attribute_i18n text exists.
	Label string
	// MaxLen is the maximum length in characters; 0 means unlimited.
	MaxLen int
	// Regexp must match a non-empty value (Go RE2 and JavaScript compatible
	// syntax); RegexpMessage is the per-field failure message.
	Regexp, RegexpMessage string
	// Required says when the field must be filled.
	Required Requirement
	// Default is written whenever the field is left empty (on create and on
	// update), so a column with a default can be NOT NULL. Booleans always
	// default to 0.
	Default Literal
	// ReadOnly fields are never written through the generic API.
	ReadOnly bool
	// Immutable fields are written on create only (team_for_all_customer).
	Immutable bool
	// HiddenOnCreate and HiddenOnUpdate hide the field in the create or the
	// edit form; a hidden field is neither validated nor written.
	HiddenOnCreate, HiddenOnUpdate bool
	// Help: the field has a help text, the attribute text "<field>.help",
	// served as attribute_help and shown under the form's input.
	Help bool
	// WriteOnly values are accepted but never read back (passwords).
	WriteOnly bool
	// Masked values (IBANs) are read in full only by callers who may update
	// the entity; everyone else reads them masked (the first and the last
	// four characters) in lists, records, labels, exports and history, and
	// cannot search, filter or sort by the hidden characters.
	Masked bool
	// Internal columns belong to modules (normalised e-mail, storage keys):
	// not served, not listed, not writable through the generic API.
	Internal bool
	// ShowWhen, if set, shows the field only while the condition holds; a
	// field that is not shown is neither validated nor written (it is
	// stored empty).
	ShowWhen *Cond
	// Derived marks a computed value and says how it is computed.
	Derived *Derivation
	// Ref names the referenced entity of a foreign key (Type id) or of a
	// multi-select stored through a relation.
	Ref string
	// OnDelete is the foreign key's delete action: "" (no action),
	// "cascade" or "set null".
	OnDelete string
	// OptionsWhere narrows a list field's options by fields of this row.
	OptionsWhere []Match
	// Reader, on a reference to the users (UserEntity), names a person
	// who must be able to read the record: a deadline's or an invoice's
	// responsible user. The engine offers and accepts only users with the
	// read right on the entity who see every row the record's tenant
	// anchors name (the deadline's contract), so a job that writes to
	// them, reading as them, has something to write.
	Reader bool
	// OptionLabel names the fields of the referenced entity its options
	// are labelled by, when its own label does not tell them apart (a tax
	// rate: its value and its company); empty: the entity's label.
	OptionLabel []string
	// Through names a many-to-many relation of the same entity that stores
	// this (multi-)select; such a field has no column.
	Through string
	// Multiple lets a list field hold several values (only with Through).
	Multiple bool
	// Rules are the cross-field and value rules beyond Required, MaxLen and
	// Regexp (see Field.Checks for the complete list).
	Rules []Rule
	// Unit names the sibling field holding this number's unit; UnitKey is
	// the unit group (unit.unit_key) offered when that sibling references
	// unit. A unit selector is required whenever it is shown.
	Unit, UnitKey string
	// Options are the fixed choices of an enumerated field.
	Options []Option
	// Searchable fields take part in the list keyword search (filter_all).
	Searchable bool
	// Indexed fields are filtered or sorted on by list screens; the
	// agreement test demands an index leading with the column. Foreign keys
	// and the first label field are indexed implicitly.
	Indexed bool
	// Accept lists the file extensions a file field takes (".pdf").
	Accept []string
	// Generate lets a password field offer a generated value.
	Generate bool
}

// Stored reports whether the field is a column of its table: multi-selects
// stored through relations and values computed at read time are not.
func (f *Field) Stored() bool {
	return f.Through == "" && (f.Derived == nil || f.Derived.Stored())
}

// Writable reports whether the generic API accepts a value for the field.
func (f *Field) Writable() bool {
	return !f.ReadOnly && !f.Internal && f.Derived == nil
}

// Limits restrict what the generic screens and API offer for an entity.
type Limits struct {
	NoCreate bool `json:"no_create,omitempty"`
	NoUpdate bool `json:"no_update,omitempty"`
	NoDelete bool `json:"no_delete,omitempty"`
	// NoGenericList disables listing through the generic read-rich call
	// (document: listed only through its module's endpoints).
	NoGenericList bool `json:"no_generic_list,omitempty"`
}

// ReadOnly reports whether nothing may be written (trackrecord, texttemplate_variable).
func (l Limits) ReadOnly() bool { return l.NoCreate && l.NoUpdate && l.NoDelete }

// Path is a chain of steps from an entity to another: each step is a
// foreign-key field of the current entity (followed to its Ref) or the name
// of one of its relations (followed to the relation's target).
type Path []string

// TenantPath says how a row reaches the customer group and/or partner group
// that scopes it for external users. A row is visible to an external client
// user when any Customer path ends at the user's customer group, to an
// external partner user when any Partner path ends at the user's partner
// group. Global entities (lookups, administration) are not tenant-scoped;
// every entity must say which it is.
type TenantPath struct {
	Global   bool
	Customer []Path // each ends at entity customergroup; an empty path: the row is the customer group
	Partner  []Path // each ends at entity partnergroup; an empty path: the row is the partner group
	// CustomerRead paths, each ending at entity customergroup, let the
	// client users of the group they reach read a row they do not own,
	// never write it: the landlord and the property manager of the
	// group's locations and contracts, and their contact persons. A row's
	// customer group, which its references must share, comes from the
	// Customer paths alone.
	CustomerRead []Path
}

// RelKind tells how a relation finds its rows.
type RelKind string

// The relation kinds.
const (
	// HasMany: rows of Target whose Via path of foreign keys leads back to
	// the owner (one step: a direct child; more: read-only, e.g. a
	// company's tickets through their points of sale).
	HasMany RelKind = "has_many"
	// ManyToMany: rows of Target joined through the Link table, whose
	// attributes belong to each pair (valid_from, comment, ...).
	ManyToMany RelKind = "many_to_many"
)

// Relation is a relation tab of an entity. The API calls it
// "<entity>_<name>_rel" (pos_location_rel, contract_deadlines_rel).
type Relation struct {
	Name   string
	Kind   RelKind
	Target string
	// Via (HasMany): foreign-key fields from the target back to the owner.
	Via Path
	// Link (ManyToMany): the link table.
	Link string
	// Label is the English tab title used when no attribute_i18n text exists.
	Label string
}

// APIName is the name the API uses for the relation of owner entity e.
func (r *Relation) APIName(owner string) string { return owner + "_" + r.Name + "_rel" }

// Direct reports whether rows can be added from the owner: a many-to-many
// link or a one-step has-many whose foreign key the writer fills.
func (r *Relation) Direct() bool { return r.Kind == ManyToMany || len(r.Via) == 1 }

// LinkEnd is one side of a link table: the column holding the entity's key.
type LinkEnd struct {
	Entity   string
	Column   string
	OnDelete string // "" (no action), "cascade" or "set null"
}

// Link is a many-to-many link table, defined once and used by the relations
// of both ends.
type Link struct {
	Table string
	// ID names the link's own single-column key when the same pair may
	// occur several times (periods, roles); empty means the pair is the key.
	ID          string
	Left, Right LinkEnd
	// Attrs are the pair's own attributes.
	Attrs []Field
	// Unique lists column sets that must be unique beyond the key.
	Unique [][]string
	// List, when set, lists the link's rows across every owner of one end,
	// as a read-only entity the registry derives (decision 0012).
	List *LinkList
}

// LinkList declares that the rows of a link with its own key are listed
// across the owners of one end (the criteria of every contract), through
// the generic list, export and saved views. The registry derives a
// read-only entity named like the link table: its key, the two ends as
// references, the link's attributes and Extra. A row is in the caller's
// tenant when its owner is (the owner's tenant paths, one step longer);
// the far end must be Global. Reading the rows needs list on Subject and
// what reading the owner's relation tab needs. Writes stay on that tab.
type LinkList struct {
	// Owner is the end whose entity owns the rows (contract).
	Owner string
	// Subject is the list's own permission subject (criteria).
	Subject string
	// Label lists the fields of the rows' default label; defaults to the
	// two ends' columns.
	Label []string
	// Extra are read-time fields computed from the row (RefOf through the
	// owner: its point of sale).
	Extra []Field
}

// ListedLink marks an entity the registry derived from a link's List: it
// reads the rows of Link, owned by Owner through Owner's relation
// Relation. Such an entity has no row_version and is never written.
type ListedLink struct {
	Link     string
	Owner    string
	Relation string
}

// End returns the end for entity, and the other end.
func (l *Link) End(entity string) (own, other LinkEnd, ok bool) {
	switch entity {
	case l.Left.Entity:
		return l.Left, l.Right, true
	case l.Right.Entity:
		return l.Right, l.Left, true
	}
	return LinkEnd{}, LinkEnd{}, false
}

// Attr finds a link attribute by name.
func (l *Link) Attr(name string) (*Field, bool) {
	for i := range l.Attrs {
		if l.Attrs[i].Name == name {
			return &l.Attrs[i], true
		}
	}
	return nil, false
}

// Entity is one table-backed entity.
type Entity struct {
	// Name is the entity name used in routes and the API (/app/table/pos).
	Name string
	// Table is the SQL table; defaults to Name ("user" lives in "users").
	Table string
	// PK is the single-column primary key; defaults to Name + "_id".
	PK string
	// Subject is the permission subject of the c/r/u/d table rights (the
	// table name in table groups); defaults to Name.
	Subject string
	// AccessSubject is the subject of the table-access rules (list, read,
	// create, update, remove, note, seeHeader and relation tabs) when it is
	// spelt differently (service_object, customer_group, partner_company,
	// payment_info); defaults to Subject.
	AccessSubject string
	// Group is the domain group the entity is defined in (accounts, ...).
	Group string
	// Doc says in a sentence what a row is.
	Doc string
	// Label lists the fields of the default list label (address: zip, city
	// name, street); defaults to <name>_name.
	Label []string
	// Fields are the attributes; the primary key is added when missing.
	Fields []Field
	// Relations are the relation tabs.
	Relations []Relation
	// Tenant says how rows are scoped for external users.
	Tenant TenantPath
	// Limits restrict the generic screens.
	Limits Limits
	// Lookup marks master-data tables edited inline in their list.
	Lookup bool
	// Small marks an entity of few rows (dozens, a few thousand at most)
	// that lists of other entities reference on every row: users, teams,
	// boards, priorities, currencies. With Lookup it makes FewRows.
	Small bool
	// Unique lists column sets that must be unique (besides the key).
	Unique [][]string
	// Listed is set on the read-only entities derived from a link's List
	// (Registry.LinkLists); they are not among Registry.Entities.
	Listed *ListedLink

	fieldIndex    map[string]int
	relationIndex map[string]int
}

// FewRows reports whether e has few rows, so that lists referencing it
// read its labels and fields from memory rather than joining it (decision
// 0049): a lookup table or a Small entity.
func (e *Entity) FewRows() bool { return e.Lookup || e.Small }

// Field finds a field by name.
func (e *Entity) Field(name string) (*Field, bool) {
	i, ok := e.fieldIndex[name]
	if !ok {
		return nil, false
	}
	return &e.Fields[i], true
}

// TenantAnchors are the reference fields the entity's Customer paths start
// with, each once: the rows that decide a record's customer group (a
// deadline: its contract; an e-mail: its point of sale, contract and
// ticket).
func (e *Entity) TenantAnchors() []*Field {
	var out []*Field
	for _, p := range e.Tenant.Customer {
		if len(p) == 0 {
			continue
		}
		f, ok := e.Field(p[0])
		if !ok || f.Ref == "" || f.Through != "" || slices.Contains(out, f) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// Relation finds a relation by its short name (location, deadlines).
func (e *Entity) Relation(name string) (*Relation, bool) {
	i, ok := e.relationIndex[name]
	if !ok {
		return nil, false
	}
	return &e.Relations[i], true
}

// Columns returns the stored fields in definition order (the primary key
// first); row_version is not a field.
func (e *Entity) Columns() []*Field {
	out := make([]*Field, 0, len(e.Fields))
	for i := range e.Fields {
		if e.Fields[i].Stored() {
			out = append(out, &e.Fields[i])
		}
	}
	return out
}

// RowVersionColumn is the optimistic-locking counter every entity table has.
const RowVersionColumn = "row_version"

// UserEntity is the entity of the people who log in, the principals the
// engine acts for.
const UserEntity = "user"
