package schema

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// LabelFunc returns the attribute_i18n text of key in lang, or "" when there
// is none. Serve asks it for attribute names (pos_name), option keys
// (<field>.<value>, e.g. team_type.intern) and relation API names
// (pos_location_rel).
type LabelFunc func(key, lang string) string

// TableDefinition is one entity's definition as the server delivers it to
// the generic screens: the specification's attribute fields plus the rules,
// kinds, references, relations and defaults a generic form needs.
type TableDefinition struct {
	Table         string                `json:"table"`
	Lang          string                `json:"lang"`
	PrimaryKey    string                `json:"primary_key"`
	Subject       string                `json:"subject"`
	AccessSubject string                `json:"access_subject"`
	Label         []string              `json:"label"`
	InlineEdit    bool                  `json:"inline_edit"`
	Limits        ServedLimits          `json:"limits"`
	Attributes    []AttributeDefinition `json:"attributes"`
	Relations     []RelationDefinition  `json:"relations"`
}

// ServedLimits says which generic actions exist for the entity (the user's
// rights narrow them further).
type ServedLimits struct {
	Create bool `json:"create"`
	Update bool `json:"update"`
	Delete bool `json:"delete"`
	List   bool `json:"list"`
}

// AttributeDefinition is one served field. The first six members are the
// specification's table definition; Rules is the complete list of checks
// (Field.Checks), to be evaluated only while ShowWhen holds.
type AttributeDefinition struct {
	Attribute                     string `json:"attribute"`
	AttributeI18n                 string `json:"attribute_i18n"`
	AttributeRegexp               string `json:"attribute_regexp"`
	AttributeRegexpFailureMessage string `json:"attribute_regexp_failure_message"`
	AttributeDatatypeHint         Kind   `json:"attribute_datatype_hint"`
	AttributeDatatypeLen          int    `json:"attribute_datatype_len"`
	// AttributeHelp is the field's help text in the language served (the
	// attribute text "<field>.help" of a field with Help), "" when it has
	// none.
	AttributeHelp string `json:"attribute_help,omitempty"`

	Type           DataType       `json:"type"`
	Required       bool           `json:"required"`
	RequiredWhen   *Cond          `json:"required_when,omitempty"`
	ShowWhen       *Cond          `json:"show_when,omitempty"`
	Default        Literal        `json:"default,omitzero"`
	ReadOnly       bool           `json:"read_only,omitempty"`
	Immutable      bool           `json:"immutable,omitempty"`
	HiddenOnCreate bool           `json:"hidden_on_create,omitempty"`
	HiddenOnUpdate bool           `json:"hidden_on_update,omitempty"`
	WriteOnly      bool           `json:"write_only,omitempty"`
	Masked         bool           `json:"masked,omitempty"`
	Multiple       bool           `json:"multiple,omitempty"`
	Ref            *RefDefinition `json:"ref,omitempty"`
	Options        []Option       `json:"options,omitempty"`
	Unit           *UnitSelector  `json:"unit,omitempty"`
	Derived        *Derivation    `json:"derived,omitempty"`
	Rules          []Rule         `json:"rules"`
	Searchable     bool           `json:"searchable,omitempty"`
	Sortable       bool           `json:"sortable,omitempty"`
	Accept         []string       `json:"accept,omitempty"`
	Generate       bool           `json:"generate,omitempty"`
}

// RefDefinition tells a list field where its options come from: the rows of
// Table (keyed by Key, shown by Label), narrowed by Where.
type RefDefinition struct {
	Table string   `json:"table"`
	Key   string   `json:"key"`
	Label []string `json:"label"`
	Where []Match  `json:"where,omitempty"`
}

// UnitSelector is the unit selector shown next to a number: the sibling
// field holding the unit and the unit group offered.
type UnitSelector struct {
	Field string `json:"field"`
	Key   string `json:"key,omitempty"`
}

// RelationDefinition is one served relation tab. API is the name the
// generic read-rich call takes ('{table}_{list}_rel').
type RelationDefinition struct {
	Name   string  `json:"name"`
	API    string  `json:"api"`
	Label  string  `json:"label"`
	Kind   RelKind `json:"kind"`
	Target string  `json:"target"`
	// ForeignKey is the target field a new row from this tab gets the
	// owner's key in (one-step has-many).
	ForeignKey string `json:"foreign_key,omitempty"`
	Via        Path   `json:"via,omitempty"`
	// Link, OwnKey and TargetKey describe a many-to-many link table.
	Link      string `json:"link,omitempty"`
	OwnKey    string `json:"own_key,omitempty"`
	TargetKey string `json:"target_key,omitempty"`
	// ReadOnly relations list rows but cannot add them (multi-step paths).
	ReadOnly bool `json:"read_only,omitempty"`
	// Subject, when set, is the tab's own permission subject (the tabs the
	// permission model governs one by one): showing the tab needs list on
	// it, linking needs update on it. Empty: the target entity's rights.
	Subject string `json:"subject,omitempty"`
	// Attributes are the link's own attributes (valid_from, comment, ...).
	Attributes []AttributeDefinition `json:"attributes,omitempty"`
}

// Serve renders entity name of the default registry for lang.
func Serve(name, lang string, label LabelFunc) (TableDefinition, error) {
	return defaultRegistry.Serve(name, lang, label)
}

// Serve renders one entity's definition for lang; label supplies the
// attribute_i18n texts (nil: English defaults only). Internal fields are
// left out.
func (r *Registry) Serve(name, lang string, label LabelFunc) (TableDefinition, error) {
	e, ok := r.byName[name]
	if !ok {
		return TableDefinition{}, fmt.Errorf("schema: serve: unknown entity %q", name)
	}
	if label == nil {
		label = func(string, string) string { return "" }
	}
	def := TableDefinition{
		Table:         e.Name,
		Lang:          lang,
		PrimaryKey:    e.PK,
		Subject:       e.Subject,
		AccessSubject: e.AccessSubject,
		Label:         append([]string(nil), e.Label...),
		InlineEdit:    e.Lookup,
		Limits: ServedLimits{
			Create: !e.Limits.NoCreate,
			Update: !e.Limits.NoUpdate,
			Delete: !e.Limits.NoDelete,
			List:   !e.Limits.NoGenericList,
		},
		Attributes: []AttributeDefinition{},
		Relations:  []RelationDefinition{},
	}
	for i := range e.Fields {
		if f := &e.Fields[i]; !f.Internal {
			def.Attributes = append(def.Attributes, r.serveField(e.Name, f, lang, label))
		}
	}
	for i := range e.Relations {
		def.Relations = append(def.Relations, r.serveRelation(e, &e.Relations[i], lang, label))
	}
	return def, nil
}

// servedWhere is what the options action of list field f of entity owner
// reads from the record: its OptionsWhere, and for a reader (Field.Reader)
// the record's tenant anchors as sources without a target, which the
// engine reads to find who may read the record (no condition on the
// referenced rows' own columns).
func (r *Registry) servedWhere(f *Field, owner string) []Match {
	if !f.Reader {
		return f.OptionsWhere
	}
	out := append([]Match(nil), f.OptionsWhere...)
	if e, ok := r.byName[owner]; ok {
		for _, a := range e.TenantAnchors() {
			out = append(out, Match{Source: a.Name})
		}
	}
	return out
}

func (r *Registry) serveField(owner string, f *Field, lang string, label LabelFunc) AttributeDefinition {
	a := AttributeDefinition{
		Attribute:                     f.Name,
		AttributeI18n:                 firstNonEmpty(label(f.Name, lang), f.Label, humanize(owner, f.Name)),
		AttributeRegexp:               f.Regexp,
		AttributeRegexpFailureMessage: f.RegexpMessage,
		AttributeDatatypeHint:         f.Kind,
		AttributeDatatypeLen:          f.MaxLen,
		Type:                          f.Type,
		Required:                      f.Writable() && f.Type != TypeBool && f.Required.Always(),
		RequiredWhen:                  f.Required.When,
		ShowWhen:                      f.ShowWhen,
		Default:                       f.Default,
		ReadOnly:                      !f.Writable(),
		Immutable:                     f.Immutable,
		HiddenOnCreate:                f.HiddenOnCreate,
		HiddenOnUpdate:                f.HiddenOnUpdate,
		WriteOnly:                     f.WriteOnly,
		Masked:                        f.Masked,
		Multiple:                      f.Multiple,
		Derived:                       f.Derived,
		Rules:                         append([]Rule{}, f.Checks()...),
		Searchable:                    f.Searchable,
		Sortable:                      f.Stored() && !f.WriteOnly,
		Accept:                        f.Accept,
		Generate:                      f.Generate,
	}
	if f.Ref != "" {
		if t, ok := r.byName[f.Ref]; ok {
			a.Ref = &RefDefinition{Table: t.Name, Key: t.PK, Label: t.Label, Where: r.servedWhere(f, owner)}
		}
	}
	if f.Unit != "" {
		a.Unit = &UnitSelector{Field: f.Unit, Key: f.UnitKey}
	}
	if f.Help {
		a.AttributeHelp = label(f.Name+".help", lang)
	}
	for _, o := range f.Options {
		o.Label = firstNonEmpty(label(f.Name+"."+o.Value.String(), lang), o.Label)
		a.Options = append(a.Options, o)
	}
	return a
}

func (r *Registry) serveRelation(e *Entity, rel *Relation, lang string, label LabelFunc) RelationDefinition {
	api := rel.APIName(e.Name)
	d := RelationDefinition{
		Name:     rel.Name,
		API:      api,
		Label:    firstNonEmpty(label(api, lang), rel.Label, humanize("", rel.Name)),
		Kind:     rel.Kind,
		Target:   rel.Target,
		ReadOnly: !rel.Direct(),
	}
	switch rel.Kind {
	case HasMany:
		d.Via = rel.Via
		if len(rel.Via) == 1 {
			d.ForeignKey = rel.Via[0]
		}
	case ManyToMany:
		l := r.linkByTable[rel.Link]
		own, other, _ := l.End(e.Name)
		d.Link, d.OwnKey, d.TargetKey = l.Table, own.Column, other.Column
		for i := range l.Attrs {
			d.Attributes = append(d.Attributes, r.serveField(l.Table, &l.Attrs[i], lang, label))
		}
	}
	return d
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// humanize turns a field name into an English label: the owner prefix and
// the _id suffix go, underscores become spaces (contract_begin_date →
// "Begin date", company_id → "Company").
func humanize(owner, name string) string {
	s := strings.TrimSuffix(name, "_id")
	if owner != "" {
		if rest, ok := strings.CutPrefix(s, owner+"_"); ok && rest != "" {
			s = rest
		}
	}
	s = strings.ReplaceAll(s, "_", " ")
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}
