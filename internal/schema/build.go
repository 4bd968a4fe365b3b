package schema

// The unexported helpers below keep the per-domain definition files short
// and uniform. Each returns a plain value; chained modifiers return a
// modified copy, so nothing is shared between definitions.

// Common maximum lengths.
const (
	lenCode  = 20   // short codes and abbreviations
	lenShort = 50   // numbers, phone numbers, zip codes
	lenName  = 255  // names and titles
	lenEmail = 254  // RFC 5321 path limit
	lenMemo  = 4000 // descriptions and comments
)

func str(name string, maxLen int) Field {
	return Field{Name: name, Type: TypeString, Kind: KindText, MaxLen: maxLen}
}

// name is the searchable default-label text column of an entity.
func name(field string) Field { return str(field, lenName).search() }

func memo(name string) Field {
	return Field{Name: name, Type: TypeString, Kind: KindTextarea, MaxLen: lenMemo}
}

func htmlText(name string) Field { return Field{Name: name, Type: TypeString, Kind: KindHTML} }

func integer(name string) Field { return Field{Name: name, Type: TypeInt, Kind: KindNumber} }

func decimal(name string) Field { return Field{Name: name, Type: TypeDecimal, Kind: KindDecimal} }

// flag is a boolean; booleans default to 0.
func flag(name string) Field {
	return Field{Name: name, Type: TypeBool, Kind: KindCheckbox, Default: Int(0)}
}

func day(name string) Field { return Field{Name: name, Type: TypeDate, Kind: KindDate} }

func stamp(name string) Field { return Field{Name: name, Type: TypeDateTime, Kind: KindDate} }

func ref(name, target string) Field {
	return Field{Name: name, Type: TypeID, Kind: KindList, Ref: target}
}

// multi is a multi-select of target rows stored through relation.
func multi(name, target, relation string) Field {
	return Field{Name: name, Type: TypeID, Kind: KindList, Ref: target, Through: relation, Multiple: true}
}

func enum(name string, options ...Option) Field {
	return Field{Name: name, Type: TypeString, Kind: KindCustomSelect, Options: options}
}

func opt(value, label string) Option { return Option{Value: Text(value), Label: label} }

func optInt(value int64, label string) Option { return Option{Value: Int(value), Label: label} }

// enumInt is an enumerated integer column (firmengroup_type 1/0).
func enumInt(name string, options ...Option) Field {
	return Field{Name: name, Type: TypeInt, Kind: KindCustomSelect, Options: options}
}

func (f Field) maxLen(n int) Field { f.MaxLen = n; return f }

func (f Field) generate() Field { f.Generate = true; return f }

// throughOne stores a single select through a many-to-many relation.
func (f Field) throughOne(relation string) Field { f.Through = relation; return f }

func (f Field) optional() Field { f.Required = Requirement{Optional: true}; return f }

func (f Field) requiredWhen(c Cond) Field { f.Required = Requirement{When: &c}; return f }

func (f Field) showWhen(c Cond) Field { f.ShowWhen = &c; return f }

func (f Field) def(l Literal) Field { f.Default = l; return f }

func (f Field) readOnly() Field { f.ReadOnly = true; return f }

func (f Field) immutable() Field { f.Immutable = true; return f }

func (f Field) hideOnCreate() Field { f.HiddenOnCreate = true; return f }

// withHelp gives the field a help text (the attribute text "<field>.help").
func (f Field) withHelp() Field { f.Help = true; return f }

func (f Field) hideOnUpdate() Field { f.HiddenOnUpdate = true; return f }

func (f Field) writeOnly() Field { f.WriteOnly = true; return f }

func (f Field) masked() Field { f.Masked = true; return f }

func (f Field) internal() Field {
	f.Internal = true
	f.Required = Requirement{Optional: true}
	return f
}

func (f Field) kind(k Kind) Field { f.Kind = k; return f }

func (f Field) regex(pattern, message string) Field {
	f.Regexp, f.RegexpMessage = pattern, message
	return f
}

func (f Field) rules(rs ...Rule) Field {
	f.Rules = append(append([]Rule(nil), f.Rules...), rs...)
	return f
}

// after adds date_after: the value is not before other.
func (f Field) after(other string) Field { return f.rules(DateAfter(other)) }

func (f Field) email() Field {
	if f.MaxLen == 0 {
		f.MaxLen = lenEmail
	}
	return f.rules(Rule{Kind: RuleEmail})
}

func (f Field) maxValue(n int64) Field { return f.rules(Rule{Kind: RuleMaxValue, Value: Int(n)}) }

func (f Field) minValue(n int64) Field { return f.rules(Rule{Kind: RuleMinValue, Value: Int(n)}) }

func (f Field) sizeKB(n int64) Field { return f.rules(Rule{Kind: RuleSize, Value: Int(n)}) }

func (f Field) unit(field, key string) Field { f.Unit, f.UnitKey = field, key; return f }

func (f Field) cascade() Field { f.OnDelete = "cascade"; return f }

func (f Field) setNull() Field { f.OnDelete = "set null"; return f }

// reader marks a reference to the users as naming a person who must be
// able to read the record (Field.Reader).
func (f Field) reader() Field { f.Reader = true; return f }

func (f Field) where(target, source string) Field {
	f.OptionsWhere = append(append([]Match(nil), f.OptionsWhere...), Match{Target: target, Source: source})
	return f
}

// whereIfFilled narrows by source only while source has a value.
func (f Field) whereIfFilled(target, source string) Field {
	f.OptionsWhere = append(append([]Match(nil), f.OptionsWhere...), Match{Target: target, Source: source, IfFilled: true})
	return f
}

// whereOf narrows to the referenced rows whose target equals field of of
// the row the sibling reference source refers to.
func (f Field) whereOf(target, source, of string) Field {
	f.OptionsWhere = append(append([]Match(nil), f.OptionsWhere...), Match{Target: target, Source: source, Of: of})
	return f
}

// whereLinked narrows to the referenced rows linked to source's value
// through their many-to-many relation via.
func (f Field) whereLinked(via, source string) Field {
	f.OptionsWhere = append(append([]Match(nil), f.OptionsWhere...), Match{Via: via, Source: source})
	return f
}

// optionLabel labels the field's options by fields of the referenced
// entity (Field.OptionLabel).
func (f Field) optionLabel(fields ...string) Field { f.OptionLabel = fields; return f }

func (f Field) whereValue(target string, v Literal) Field {
	f.OptionsWhere = append(append([]Match(nil), f.OptionsWhere...), Match{Target: target, Value: v})
	return f
}

func (f Field) search() Field { f.Searchable = true; return f }

func (f Field) index() Field { f.Indexed = true; return f }

func (f Field) label(s string) Field { f.Label = s; return f }

// derive marks a computed field: read-only, never required.
func (f Field) derive(d *Derivation) Field {
	f.Derived, f.ReadOnly = d, true
	f.Required = Requirement{Optional: true}
	return f
}

func hasMany(name, target string, via ...string) Relation {
	return Relation{Name: name, Kind: HasMany, Target: target, Via: via}
}

func manyToMany(name, target, link string) Relation {
	return Relation{Name: name, Kind: ManyToMany, Target: target, Link: link}
}

var global = TenantPath{Global: true}

func byCustomer(paths ...Path) TenantPath { return TenantPath{Customer: paths} }

func byPartner(paths ...Path) TenantPath { return TenantPath{Partner: paths} }

// readByCustomer lets the client users of the customer groups paths reach
// read the rows, not write them (TenantPath.CustomerRead).
func (t TenantPath) readByCustomer(paths ...Path) TenantPath {
	t.CustomerRead = append(append([]Path(nil), t.CustomerRead...), paths...)
	return t
}

func (t TenantPath) orPartner(paths ...Path) TenantPath {
	t.Partner = append(append([]Path(nil), t.Partner...), paths...)
	return t
}

// link is a link table keyed by the pair; the left end (the owner the link
// is edited from) cascades on delete, the right end refuses deletion of a
// row still linked.
func link(table, left, right string, attrs ...Field) Link {
	return Link{
		Table: table,
		Left:  LinkEnd{Entity: left, OnDelete: "cascade"},
		Right: LinkEnd{Entity: right},
		Attrs: attrs,
	}
}

// withID gives the link its own key column, for pairs that may repeat.
func (l Link) withID(column string) Link { l.ID = column; return l }

// listed lists the link's rows across the owners of end owner, under the
// permission subject subject, with extra read-time fields (LinkList).
func (l Link) listed(owner, subject string, extra ...Field) Link {
	l.List = &LinkList{Owner: owner, Subject: subject, Extra: extra}
	return l
}

func (l Link) cascadeBoth() Link { l.Right.OnDelete = "cascade"; return l }

func (l Link) unique(cols ...string) Link {
	l.Unique = append(append([][]string(nil), l.Unique...), cols)
	return l
}

// validity are the valid_from/valid_to attributes of a time-bound link;
// valid_to is optional and not before valid_from.
func validity(fromRequired bool) []Field {
	from := day("valid_from").label("Valid from")
	if !fromRequired {
		from = from.optional()
	}
	return []Field{from, day("valid_to").label("Valid to").optional().after("valid_from")}
}

// masterData is a global table with a name, an optional description and
// extra fields.
func masterData(entity, doc string, extra ...Field) Entity {
	fields := []Field{name(entity + "_name"), memo(entity + "_description").optional()}
	return Entity{Name: entity, Doc: doc, Tenant: global, Fields: append(fields, extra...)}
}

// lookup is master data edited inline in its list.
func lookup(entity, doc string, extra ...Field) Entity {
	e := masterData(entity, doc, extra...)
	e.Lookup = true
	return e
}

// idList is an id list literal for In/NotIn.
func idList(ids ...int64) []Literal {
	out := make([]Literal, len(ids))
	for i, id := range ids {
		out[i] = Int(id)
	}
	return out
}

func (f Field) withOptions(options ...Option) Field { f.Options = options; return f }

func (e Entity) withRelations(rs ...Relation) Entity {
	e.Relations = append(append([]Relation(nil), e.Relations...), rs...)
	return e
}

func (f Field) accept(exts ...string) Field { f.Accept = exts; return f }
