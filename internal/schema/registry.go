package schema

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Registry holds a validated set of entity and link definitions. It is
// immutable after New: every pointer it hands out is shared and must be
// treated as read-only.
type Registry struct {
	entities    []*Entity
	byName      map[string]*Entity
	byTable     map[string]*Entity
	links       []*Link
	linkByTable map[string]*Link
	relByAPI    map[string]relationRef
	// linkLists are the read-only entities derived from links' List; they
	// are found by Entity (byName) but not listed by Entities.
	linkLists []*Entity
}

type relationRef struct {
	entity   *Entity
	relation *Relation
}

// internalTables are tables no entity or link explains: the migration
// ledger, the tables of the auth and mail modules and the table engine's
// saved views (rows per user, served by /api/views only) and the rights
// generation counter (internal/access/cache.go), the data generation
// counters of cached counts (internal/tables/countcache.go), the postal codes of
// the state lookup (internal/masterdata/postal.go), the deadline alerts
// (internal/contracts/alerts.go), the calendar links
// (internal/contracts/calendar.go), the login throttle
// (internal/auth/throttle.go), the live event stream's tickets
// (internal/events/ticket.go) and the spreadsheet imports with their rows
// and remembered mappings (internal/imports/store.go), and the failed
// answers of the error dashboard (internal/errorboard).
var internalTables = []string{"schema_migrations", "auth_session", "refresh_token", "auth_link", "mail_outbox", "savedview", "rights_generation",
	"data_generation", "postalcode", "postalcode_load", "deadline_alert_setting", "digest_sent",
	"calendar_token", "login_throttle", "event_ticket", "data_import", "data_import_chunk", "import_mapping", "server_failure"}

// InternalTables lists the tables that belong to modules rather than to the
// table engine.
func InternalTables() []string { return slices.Clone(internalTables) }

// defaultRegistry is built when the package is initialised, so an
// inconsistent definition stops the program at start.
var defaultRegistry = mustNew(definitions())

func mustNew(entities []Entity, links []Link) *Registry {
	r, err := New(entities, links)
	if err != nil {
		panic(fmt.Sprintf("inconsistent definitions: %v", err))
	}
	return r
}

// Default returns the registry of Portfolio's definitions.
func Default() *Registry { return defaultRegistry }

// All lists Portfolio's entities in definition order.
func All() []*Entity { return defaultRegistry.Entities() }

// Get finds one of Portfolio's entities by name.
func Get(name string) (*Entity, bool) { return defaultRegistry.Entity(name) }

// Entities lists the table-owning entities in definition order; the
// entities derived from listed links are LinkLists.
func (r *Registry) Entities() []*Entity { return slices.Clone(r.entities) }

// LinkLists lists the read-only entities derived from the links declared
// listed (Link.List, decision 0012): the rows of a link across every owner.
// Entity finds them by name like any entity.
func (r *Registry) LinkLists() []*Entity { return slices.Clone(r.linkLists) }

// Entity finds an entity (or a listed link's entity) by name.
func (r *Registry) Entity(name string) (*Entity, bool) {
	e, ok := r.byName[name]
	return e, ok
}

// EntityByTable finds an entity by its table name.
func (r *Registry) EntityByTable(table string) (*Entity, bool) {
	e, ok := r.byTable[table]
	return e, ok
}

// Links lists the link tables.
func (r *Registry) Links() []*Link { return slices.Clone(r.links) }

// Link finds a link table by name.
func (r *Registry) Link(table string) (*Link, bool) {
	l, ok := r.linkByTable[table]
	return l, ok
}

// RelationByAPIName resolves "<entity>_<relation>_rel" (pos_location_rel).
func (r *Registry) RelationByAPIName(api string) (*Entity, *Relation, bool) {
	ref, ok := r.relByAPI[api]
	return ref.entity, ref.relation, ok
}

// Hop is one resolved step of a Path.
type Hop struct {
	From     string // entity the step starts at
	Field    string // foreign-key field of From that is followed, or ""
	Relation string // relation of From that is followed, or ""
	To       string // entity the step arrives at
}

// Hops resolves path from entity from. withRelations allows relation steps
// (tenant paths); derivations and has-many paths follow foreign keys only.
func (r *Registry) Hops(from string, p Path, withRelations bool) ([]Hop, error) {
	hops, err := r.hops(from, p, withRelations)
	if err != nil {
		return nil, fmt.Errorf("schema: path %v from %s: %w", p, from, err)
	}
	return hops, nil
}

func (r *Registry) hops(from string, p Path, withRelations bool) ([]Hop, error) {
	cur, ok := r.byName[from]
	if !ok {
		return nil, fmt.Errorf("unknown entity %q", from)
	}
	hops := make([]Hop, 0, len(p))
	for _, step := range p {
		if f, ok := cur.Field(step); ok && f.Ref != "" && f.Through == "" {
			next, ok := r.byName[f.Ref]
			if !ok {
				return nil, fmt.Errorf("%s.%s references unknown entity %q", cur.Name, step, f.Ref)
			}
			hops = append(hops, Hop{From: cur.Name, Field: step, To: next.Name})
			cur = next
			continue
		}
		if rel, ok := cur.Relation(step); ok && withRelations {
			next, ok := r.byName[rel.Target]
			if !ok {
				return nil, fmt.Errorf("%s relation %s targets unknown entity %q", cur.Name, step, rel.Target)
			}
			hops = append(hops, Hop{From: cur.Name, Relation: step, To: next.Name})
			cur = next
			continue
		}
		return nil, fmt.Errorf("step %q is not a foreign key of %s", step, cur.Name)
	}
	return hops, nil
}

// end returns the entity a path arrives at.
func (r *Registry) end(from string, p Path, withRelations bool) (string, error) {
	hops, err := r.hops(from, p, withRelations)
	if err != nil {
		return "", err
	}
	if len(hops) == 0 {
		return from, nil
	}
	return hops[len(hops)-1].To, nil
}

var identRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// New validates the definitions, fills their defaults (table, key,
// subjects, label, key field, link columns) and builds a registry. The
// error lists every inconsistency found.
func New(entities []Entity, links []Link) (*Registry, error) {
	r := &Registry{
		byName:      map[string]*Entity{},
		byTable:     map[string]*Entity{},
		linkByTable: map[string]*Link{},
		relByAPI:    map[string]relationRef{},
	}
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	for i := range entities {
		e := normalizeEntity(entities[i])
		if !identRE.MatchString(e.Name) || !identRE.MatchString(e.Table) {
			fail("entity %q: name and table must be lower-case identifiers", e.Name)
			continue
		}
		if _, dup := r.byName[e.Name]; dup {
			fail("entity %q defined twice", e.Name)
			continue
		}
		if other, dup := r.byTable[e.Table]; dup {
			fail("entities %q and %q share table %q", other.Name, e.Name, e.Table)
			continue
		}
		for j := range e.Fields {
			if _, dup := e.fieldIndex[e.Fields[j].Name]; dup {
				fail("%s: field %q defined twice", e.Name, e.Fields[j].Name)
			}
			e.fieldIndex[e.Fields[j].Name] = j
		}
		for j := range e.Relations {
			if _, dup := e.relationIndex[e.Relations[j].Name]; dup {
				fail("%s: relation %q defined twice", e.Name, e.Relations[j].Name)
			}
			e.relationIndex[e.Relations[j].Name] = j
		}
		r.entities = append(r.entities, e)
		r.byName[e.Name] = e
		r.byTable[e.Table] = e
	}

	for i := range links {
		l := links[i]
		l.Attrs = slices.Clone(l.Attrs)
		for _, end := range []*LinkEnd{&l.Left, &l.Right} {
			if e, ok := r.byName[end.Entity]; ok && end.Column == "" {
				end.Column = e.PK
			}
		}
		if !identRE.MatchString(l.Table) {
			fail("link %q: table must be a lower-case identifier", l.Table)
			continue
		}
		if _, dup := r.linkByTable[l.Table]; dup {
			fail("link table %q defined twice", l.Table)
			continue
		}
		if e, clash := r.byTable[l.Table]; clash {
			fail("link table %q is also the table of entity %q", l.Table, e.Name)
			continue
		}
		r.links = append(r.links, &l)
		r.linkByTable[l.Table] = &l
	}
	for _, l := range r.links {
		if l.List == nil {
			continue
		}
		e, err := r.deriveLinkList(l)
		if err != nil {
			fail("link %s: %v", l.Table, err)
			continue
		}
		for j := range e.Fields {
			if _, dup := e.fieldIndex[e.Fields[j].Name]; dup {
				fail("listed link %s: field %q defined twice", e.Name, e.Fields[j].Name)
			}
			e.fieldIndex[e.Fields[j].Name] = j
		}
		r.linkLists = append(r.linkLists, e)
		r.byName[e.Name] = e
	}
	for _, t := range internalTables {
		_, isEntity := r.byTable[t]
		_, isLink := r.linkByTable[t]
		if isEntity || isLink {
			fail("internal table %q is also defined as an entity or a link", t)
		}
	}

	// Through fields take the target of their relation.
	for _, e := range r.entities {
		for j := range e.Fields {
			f := &e.Fields[j]
			if f.Through == "" {
				continue
			}
			if rel, ok := e.Relation(f.Through); ok && f.Ref == "" {
				f.Ref = rel.Target
			}
		}
	}

	for _, e := range r.entities {
		errs = append(errs, r.validateEntity(e)...)
	}
	for _, e := range r.linkLists {
		errs = append(errs, r.validateEntity(e)...)
	}
	for _, l := range r.links {
		errs = append(errs, r.validateLink(l)...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	return r, nil
}

// deriveLinkList builds the read-only entity that lists the rows of link l
// across the owners of its List.Owner end: named like the link table, keyed
// by the link's own key, with the two ends as references, the link's
// attributes and the extra fields, all read-only; scoped through the
// owner's tenant paths, one step longer.
func (r *Registry) deriveLinkList(l *Link) (*Entity, error) {
	ls := l.List
	if l.ID == "" {
		return nil, errors.New("a listed link needs its own key (withID)")
	}
	own, other, ok := l.End(ls.Owner)
	if !ok {
		return nil, fmt.Errorf("listed by %q, which is neither end", ls.Owner)
	}
	owner, ok := r.byName[own.Entity]
	if !ok {
		return nil, fmt.Errorf("unknown owner %q", own.Entity)
	}
	far, ok := r.byName[other.Entity]
	if !ok {
		return nil, fmt.Errorf("unknown end %q", other.Entity)
	}
	if !far.Tenant.Global {
		// A row would need both ends visible; tenant paths are
		// alternatives, so only a global far end can be left out.
		return nil, fmt.Errorf("a listed link's far end must be global, %s is not", far.Name)
	}
	if _, dup := r.byName[l.Table]; dup {
		return nil, fmt.Errorf("the listed link's name %q is already an entity", l.Table)
	}
	relation := ""
	for i := range owner.Relations {
		rel := &owner.Relations[i]
		if rel.Kind == ManyToMany && rel.Link == l.Table {
			if relation != "" {
				return nil, fmt.Errorf("%s has two relations over the link", owner.Name)
			}
			relation = rel.Name
		}
	}
	if relation == "" {
		return nil, fmt.Errorf("%s has no relation over the link", owner.Name)
	}
	fields := []Field{
		{Name: l.ID, Type: TypeID, Kind: KindNumber, HiddenOnCreate: true, Required: Requirement{Optional: true}, Indexed: true},
		ref(own.Column, own.Entity),
		ref(other.Column, other.Entity),
	}
	fields = append(append(fields, slices.Clone(l.Attrs)...), ls.Extra...)
	for i := range fields {
		fields[i].ReadOnly = true
	}
	label := ls.Label
	if len(label) == 0 {
		label = []string{own.Column, other.Column}
	}
	tenant := TenantPath{Global: owner.Tenant.Global}
	longer := func(paths []Path) []Path {
		out := make([]Path, 0, len(paths))
		for _, p := range paths {
			out = append(out, append(Path{own.Column}, p...))
		}
		return out
	}
	tenant.Customer, tenant.Partner = longer(owner.Tenant.Customer), longer(owner.Tenant.Partner)
	if len(owner.Tenant.CustomerRead) > 0 {
		tenant.CustomerRead = longer(owner.Tenant.CustomerRead)
	}
	return normalizeEntity(Entity{
		Name: l.Table, Table: l.Table, PK: l.ID, Subject: ls.Subject, Group: owner.Group,
		Doc:   fmt.Sprintf("The %s rows of every %s (link %s), read-only.", other.Entity, owner.Name, l.Table),
		Label: label, Fields: fields, Tenant: tenant,
		Limits: Limits{NoCreate: true, NoUpdate: true, NoDelete: true},
		Listed: &ListedLink{Link: l.Table, Owner: owner.Name, Relation: relation},
	}), nil
}

func normalizeEntity(in Entity) *Entity {
	e := in
	e.Fields = slices.Clone(in.Fields)
	e.Relations = slices.Clone(in.Relations)
	e.Label = slices.Clone(in.Label)
	if e.Table == "" {
		e.Table = e.Name
	}
	if e.PK == "" {
		e.PK = e.Name + "_id"
	}
	if e.Subject == "" {
		e.Subject = e.Name
	}
	if e.AccessSubject == "" {
		e.AccessSubject = e.Subject
	}
	if !slices.ContainsFunc(e.Fields, func(f Field) bool { return f.Name == e.PK }) {
		pk := Field{Name: e.PK, Type: TypeID, Kind: KindNumber, ReadOnly: true, HiddenOnCreate: true,
			Required: Requirement{Optional: true}, Indexed: true}
		e.Fields = append([]Field{pk}, e.Fields...)
	}
	for i := range e.Fields {
		if e.Fields[i].Type == TypeBool && e.Fields[i].Default.IsZero() {
			e.Fields[i].Default = Int(0)
		}
	}
	if len(e.Label) == 0 && slices.ContainsFunc(e.Fields, func(f Field) bool { return f.Name == e.Name+"_name" }) {
		e.Label = []string{e.Name + "_name"}
	}
	for _, l := range e.Label {
		for i := range e.Fields {
			if e.Fields[i].Name == l && e.Fields[i].Type == TypeString && e.Fields[i].Stored() {
				e.Fields[i].Searchable = true
			}
		}
	}
	e.fieldIndex = map[string]int{}
	e.relationIndex = map[string]int{}
	return &e
}

func (r *Registry) validateEntity(e *Entity) []error {
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: "+format, append([]any{e.Name}, args...)...))
	}
	if pk, ok := e.Field(e.PK); !ok || pk.Type != TypeID || !pk.Stored() {
		fail("primary key %q must be a stored id field", e.PK)
	}
	if len(e.Label) == 0 {
		fail("no default label (no %s_name field and no Label)", e.Name)
	}
	for _, l := range e.Label {
		if _, ok := e.Field(l); !ok {
			fail("label field %q is not a field", l)
		}
	}
	for _, cols := range e.Unique {
		for _, c := range cols {
			if f, ok := e.Field(c); !ok || !f.Stored() {
				fail("unique column %q is not a stored field", c)
			}
		}
	}
	has := func(name string) bool { _, ok := e.Field(name); return ok }
	for i := range e.Fields {
		for _, err := range r.validateField(e.Name, &e.Fields[i], has, e) {
			errs = append(errs, fmt.Errorf("%s.%s: %w", e.Name, e.Fields[i].Name, err))
		}
	}
	for i := range e.Relations {
		rel := &e.Relations[i]
		if !identRE.MatchString(rel.Name) {
			fail("relation %q: name must be a lower-case identifier", rel.Name)
			continue
		}
		api := rel.APIName(e.Name)
		if other, dup := r.relByAPI[api]; dup {
			fail("relation %s has the same API name %q as a relation of %s", rel.Name, api, other.entity.Name)
		}
		r.relByAPI[api] = relationRef{entity: e, relation: rel}
		if _, ok := r.byName[rel.Target]; !ok {
			fail("relation %s targets unknown entity %q", rel.Name, rel.Target)
			continue
		}
		switch rel.Kind {
		case HasMany:
			if len(rel.Via) == 0 || rel.Link != "" {
				fail("has-many relation %s needs a Via path and no Link", rel.Name)
				continue
			}
			end, err := r.end(rel.Target, rel.Via, false)
			if err != nil {
				fail("relation %s: %v", rel.Name, err)
			} else if end != e.Name {
				fail("relation %s: path %v from %s ends at %s, not at the owner", rel.Name, rel.Via, rel.Target, end)
			}
		case ManyToMany:
			l, ok := r.linkByTable[rel.Link]
			if !ok || len(rel.Via) != 0 {
				fail("many-to-many relation %s needs a known Link (got %q) and no Via", rel.Name, rel.Link)
				continue
			}
			own, other, ok := l.End(e.Name)
			if !ok || other.Entity != rel.Target || own.Entity == other.Entity {
				fail("relation %s: link %s does not join %s and %s", rel.Name, l.Table, e.Name, rel.Target)
			}
		default:
			fail("relation %s: unknown kind %q", rel.Name, rel.Kind)
		}
	}
	errs = append(errs, r.validateTenant(e)...)
	return errs
}

func (r *Registry) validateTenant(e *Entity) []error {
	var errs []error
	t := e.Tenant
	if t.Global == (len(t.Customer)+len(t.Partner) > 0) {
		return []error{fmt.Errorf("%s: tenant must be either Global or have Customer/Partner paths", e.Name)}
	}
	check := func(paths []Path, root string) {
		for _, p := range paths {
			end, err := r.end(e.Name, p, true)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: tenant path %v: %w", e.Name, p, err))
			} else if end != root {
				errs = append(errs, fmt.Errorf("%s: tenant path %v ends at %s, not %s", e.Name, p, end, root))
			}
		}
	}
	check(t.Customer, "customergroup")
	check(t.CustomerRead, "customergroup")
	check(t.Partner, "partnergroup")
	return errs
}

var kindTypes = map[Kind][]DataType{
	KindText:         {TypeString},
	KindTextarea:     {TypeString},
	KindHTML:         {TypeString},
	KindPassword:     {TypeString},
	KindColor:        {TypeString},
	KindSmiley:       {TypeString},
	KindFile:         {TypeString},
	KindList:         {TypeID},
	KindCustomList:   {TypeID},
	KindListSelect:   {TypeID},
	KindCustomSelect: {TypeString, TypeInt, TypeBool},
	KindYesNo:        {TypeBool},
	KindCheckbox:     {TypeBool},
	KindBoolean:      {TypeBool},
	KindDate:         {TypeDate, TypeDateTime},
	KindDatePicker:   {TypeDate},
	KindNumber:       {TypeInt, TypeID, TypeDecimal},
	KindDecimal:      {TypeDecimal},
}

var ruleKinds = map[RuleKind]bool{
	RuleRequired: true, RuleRequiredIf: true, RuleMax: true, RuleMaxValue: true, RuleMinValue: true,
	RuleSize: true, RuleEmail: true, RuleRegex: true, RuleDateAfter: true, RuleRequiredIfNull: true,
	RuleLower: true, RuleNotPast: true,
}

// validateField checks one field of an entity (owner != nil) or of a link
// (owner == nil); has reports the sibling fields a rule may name.
func (r *Registry) validateField(ownerName string, f *Field, has func(string) bool, owner *Entity) []error {
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if !identRE.MatchString(f.Name) {
		fail("name must be a lower-case identifier")
	}
	if f.Name == RowVersionColumn {
		fail("%s is implicit", RowVersionColumn)
	}
	if types, ok := kindTypes[f.Kind]; !ok {
		fail("unknown kind %q", f.Kind)
	} else if !slices.Contains(types, f.Type) {
		fail("kind %q does not fit type %q", f.Kind, f.Type)
	}
	if f.MaxLen < 0 || (f.MaxLen > 0 && f.Type != TypeString) {
		fail("max length only for strings")
	}
	if f.Regexp != "" {
		if _, err := regexp.Compile(f.Regexp); err != nil {
			fail("regexp: %v", err)
		}
		if f.RegexpMessage == "" {
			fail("regexp without failure message")
		}
	}
	if f.Type == TypeID && f.Ref == "" && (owner == nil || f.Name != owner.PK) {
		fail("id field without Ref")
	}
	if f.Ref != "" {
		if _, ok := r.byName[f.Ref]; !ok {
			fail("references unknown entity %q", f.Ref)
		}
		if f.Type != TypeID {
			fail("a reference must have type id")
		}
	}
	if f.Reader && (f.Ref != UserEntity || !f.Stored()) {
		fail("a reader must be a stored reference to %s", UserEntity)
	}
	switch f.OnDelete {
	case "", "cascade", "set null":
	default:
		fail("unknown on-delete action %q", f.OnDelete)
	}
	if f.OnDelete != "" && (f.Ref == "" || !f.Stored()) {
		fail("on-delete action without a stored reference")
	}
	if f.Through != "" {
		if owner == nil {
			fail("link attributes cannot be stored through relations")
		} else if rel, ok := owner.Relation(f.Through); !ok || rel.Kind != ManyToMany {
			fail("through %q is not a many-to-many relation of %s", f.Through, ownerName)
		} else if rel.Target != f.Ref {
			fail("through relation %s targets %s, not %s", f.Through, rel.Target, f.Ref)
		}
	}
	if f.Multiple && f.Through == "" {
		fail("multiple values need a Through relation")
	}
	for _, name := range f.OptionLabel {
		if target, ok := r.byName[f.Ref]; !ok {
			fail("option label without a reference")
		} else if _, ok := target.Field(name); !ok {
			fail("option label: %s has no field %q", f.Ref, name)
		}
	}
	for _, m := range f.OptionsWhere {
		target, ok := r.byName[f.Ref]
		if !ok {
			fail("options filter without a reference")
			break
		}
		if m.Via != "" {
			r.validateLinkedMatch(target, m, ownerFieldRef(owner, m.Source), fail)
			continue
		}
		if _, ok := target.Field(m.Target); !ok {
			fail("options filter: %s has no field %q", f.Ref, m.Target)
		}
		if (m.Source == "") == m.Value.IsZero() {
			fail("options filter on %s needs either a sibling field or a value", m.Target)
		} else if m.Source != "" && !has(m.Source) {
			fail("options filter: no sibling field %q", m.Source)
		}
		if m.Of != "" {
			r.validateOfMatch(m, ownerFieldRef(owner, m.Source), fail)
		}
	}
	if !f.Default.IsZero() && !literalFits(f.Default, f.Type) {
		fail("default %s does not fit type %s", f.Default, f.Type)
	}
	seen := map[string]bool{}
	for _, o := range f.Options {
		if !literalFits(o.Value, f.Type) {
			fail("option %s does not fit type %s", o.Value, f.Type)
		}
		if seen[o.Value.String()] {
			fail("option %s twice", o.Value)
		}
		seen[o.Value.String()] = true
	}
	if f.Kind == KindCustomSelect && len(f.Options) == 0 {
		fail("custom-select without options")
	}
	if !f.Default.IsZero() && len(f.Options) > 0 && !seen[f.Default.String()] {
		fail("default %s is not one of the options", f.Default)
	}
	if f.Unit != "" && !has(f.Unit) {
		fail("unit field %q is not a sibling", f.Unit)
	}
	if f.Unit == "" && f.UnitKey != "" {
		fail("unit key without unit field")
	}
	conds := []*Cond{f.ShowWhen, f.Required.When}
	for i := range f.Rules {
		rule := &f.Rules[i]
		conds = append(conds, rule.When)
		if !ruleKinds[rule.Kind] {
			fail("unknown rule %q", rule.Kind)
			continue
		}
		switch rule.Kind {
		case RuleDateAfter, RuleLower, RuleRequiredIfNull:
			if rule.Field == "" || !has(rule.Field) || rule.Field == f.Name {
				fail("rule %s names unknown field %q", rule.Kind, rule.Field)
			}
		case RuleMaxValue, RuleMinValue, RuleSize:
			if !rule.Value.IsNumber() {
				fail("rule %s needs a numeric value", rule.Kind)
			}
		case RuleRegex:
			if _, err := regexp.Compile(rule.Pattern); err != nil {
				fail("rule regex: %v", err)
			}
		case RuleRequired, RuleRequiredIf, RuleMax:
			fail("rule %s is declared through Required and MaxLen", rule.Kind)
		}
		if rule.Kind == RuleDateAfter && f.Type != TypeDate && f.Type != TypeDateTime {
			fail("date_after on a non-date field")
		}
	}
	for _, c := range conds {
		if c == nil {
			continue
		}
		if err := validateCond(*c, has); err != nil {
			fail("condition: %v", err)
		}
	}
	if f.Derived != nil {
		if owner == nil {
			fail("link attributes cannot be derived")
		} else if err := r.validateDerivation(owner, f); err != nil {
			fail("derivation: %v", err)
		}
	}
	if f.Type == TypeBool && f.Default.IsZero() {
		fail("booleans must default (to 0 unless stated)")
	}
	return errs
}

func validateCond(c Cond, has func(string) bool) error {
	switch c.Op {
	case OpAll, OpAny:
		if len(c.Conds) == 0 || c.Field != "" || len(c.Values) > 0 {
			return fmt.Errorf("%s needs sub-conditions only", c.Op)
		}
		for _, sub := range c.Conds {
			if err := validateCond(sub, has); err != nil {
				return err
			}
		}
		return nil
	case OpIn, OpNotIn:
		if len(c.Values) == 0 {
			return fmt.Errorf("%s needs values", c.Op)
		}
	case OpEmpty, OpFilled, OpTruthy, OpFalsy, OpOptionsFilled:
		if len(c.Values) > 0 {
			return fmt.Errorf("%s takes no values", c.Op)
		}
	default:
		return fmt.Errorf("unknown operator %q", c.Op)
	}
	if len(c.Conds) > 0 {
		return fmt.Errorf("%s takes no sub-conditions", c.Op)
	}
	if !has(c.Field) {
		return fmt.Errorf("%s reads unknown field %q", c.Op, c.Field)
	}
	return nil
}

func (r *Registry) validateDerivation(e *Entity, f *Field) error {
	d := f.Derived
	switch d.Func {
	case DeriveInitials, DeriveDeadlineStatus:
		if len(d.Args) == 0 {
			return fmt.Errorf("%s needs argument fields", d.Func)
		}
		for _, a := range d.Args {
			if _, ok := e.Field(a); !ok {
				return fmt.Errorf("%s reads unknown field %q", d.Func, a)
			}
		}
	case DeriveNow:
		if f.Type != TypeDateTime {
			return errors.New("now needs a datetime field")
		}
	case DeriveCurrentUser:
		if f.Ref != "user" {
			return errors.New("current_user needs a reference to user")
		}
	case DeriveSum, DeriveMin, DeriveNext, DeriveList, DeriveCount:
		rel, ok := e.Relation(d.Relation)
		if !ok {
			return fmt.Errorf("%s over unknown relation %q", d.Func, d.Relation)
		}
		if d.Func == DeriveCount {
			return nil
		}
		if _, ok := r.RelationField(rel, d.Field); !ok {
			return fmt.Errorf("relation %s has no field %q", rel.Name, d.Field)
		}
		if d.Only != nil {
			if _, ok := r.RelationField(rel, d.Only.Field); !ok {
				return fmt.Errorf("relation %s has no field %q to limit on", rel.Name, d.Only.Field)
			}
		}
	case DeriveRef:
		end, err := r.end(e.Name, d.Args, false)
		if err != nil {
			return err
		}
		target := r.byName[end]
		if _, ok := target.Field(d.Field); !ok || len(d.Args) == 0 {
			return fmt.Errorf("%s has no field %q", end, d.Field)
		}
	default:
		return fmt.Errorf("unknown derivation %q", d.Func)
	}
	return nil
}

// ownerFieldRef is the entity sibling field name of owner refers to ("" when
// there is no such field or it refers to nothing).
func ownerFieldRef(owner *Entity, name string) string {
	if owner == nil {
		return ""
	}
	if f, ok := owner.Field(name); ok {
		return f.Ref
	}
	return ""
}

// validateLinkedMatch checks a narrowing through a link: Via is a
// many-to-many relation of the referenced entity whose far end is what the
// sibling Source refers to, and nothing else is set.
func (r *Registry) validateLinkedMatch(target *Entity, m Match, sourceRef string, fail func(string, ...any)) {
	if m.Target != "" || !m.Value.IsZero() || m.IfFilled {
		fail("options filter via %s takes only a sibling field", m.Via)
	}
	rel, ok := target.Relation(m.Via)
	if !ok || rel.Kind != ManyToMany {
		fail("options filter via %q: not a many-to-many relation of %s", m.Via, target.Name)
		return
	}
	if sourceRef == "" {
		fail("options filter via %s: sibling %q is no list field", m.Via, m.Source)
	} else if rel.Target != sourceRef {
		fail("options filter via %s links %s, but sibling %q refers to %s", m.Via, rel.Target, m.Source, sourceRef)
	}
}

// validateOfMatch checks a narrowing by a field of the row a sibling
// refers to: the sibling is a list field and its entity stores field Of.
func (r *Registry) validateOfMatch(m Match, sourceRef string, fail func(string, ...any)) {
	src, ok := r.byName[sourceRef]
	if !ok {
		fail("options filter of %s: sibling %q is no list field", m.Of, m.Source)
		return
	}
	if f, ok := src.Field(m.Of); !ok || !f.Stored() {
		fail("options filter: %s stores no field %q", src.Name, m.Of)
	}
}

// RelationField finds a field of the rows of relation rel: a link attribute
// or a field of the target entity.
func (r *Registry) RelationField(rel *Relation, name string) (*Field, bool) {
	if l, ok := r.linkByTable[rel.Link]; ok && rel.Kind == ManyToMany {
		if f, ok := l.Attr(name); ok {
			return f, true
		}
	}
	if t, ok := r.byName[rel.Target]; ok {
		return t.Field(name)
	}
	return nil, false
}

func (r *Registry) validateLink(l *Link) []error {
	var errs []error
	fail := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("link %s: "+format, append([]any{l.Table}, args...)...))
	}
	names := map[string]bool{}
	for _, end := range []LinkEnd{l.Left, l.Right} {
		if _, ok := r.byName[end.Entity]; !ok {
			fail("unknown entity %q", end.Entity)
		}
		if !identRE.MatchString(end.Column) {
			fail("bad key column %q", end.Column)
		}
		switch end.OnDelete {
		case "", "cascade", "set null":
		default:
			fail("unknown on-delete action %q", end.OnDelete)
		}
		names[end.Column] = true
	}
	if l.Left.Column == l.Right.Column {
		fail("both ends use column %q", l.Left.Column)
	}
	if l.ID != "" {
		if names[l.ID] {
			fail("id column %q clashes with a key column", l.ID)
		}
		names[l.ID] = true
	}
	for i := range l.Attrs {
		if names[l.Attrs[i].Name] {
			fail("attribute %q defined twice or clashes with a key", l.Attrs[i].Name)
		}
		names[l.Attrs[i].Name] = true
	}
	has := func(n string) bool { return names[n] }
	for i := range l.Attrs {
		for _, err := range r.validateField(l.Table, &l.Attrs[i], has, nil) {
			errs = append(errs, fmt.Errorf("link %s.%s: %w", l.Table, l.Attrs[i].Name, err))
		}
	}
	// A relation row carries the target's fields and the link's attributes
	// side by side, so their names must not clash, except for a reference
	// to the same entity: the pair's own value (contract_area.usagetype_id
	// next to area.usagetype_id), which wins in relation rows.
	for _, end := range []LinkEnd{l.Left, l.Right} {
		e, ok := r.byName[end.Entity]
		if !ok {
			continue
		}
		for _, a := range l.Attrs {
			if f, clash := e.Field(a.Name); clash && (a.Ref == "" || f.Ref != a.Ref) {
				fail("attribute %q clashes with a field of %s", a.Name, e.Name)
			}
		}
	}
	for _, cols := range l.Unique {
		for _, c := range cols {
			if !names[c] {
				fail("unique column %q is not a column", c)
			}
		}
	}
	return errs
}

func literalFits(l Literal, t DataType) bool {
	switch t {
	case TypeID, TypeInt:
		_, ok := l.Int64()
		return ok
	case TypeBool:
		n, ok := l.Int64()
		return ok && (n == 0 || n == 1)
	case TypeDecimal:
		if !l.IsNumber() {
			return false
		}
		_, err := strconv.ParseFloat(l.String(), 64)
		return err == nil
	case TypeString:
		return l.IsText()
	case TypeDate:
		return l.IsText() && len(l.String()) == len("2006-01-02")
	case TypeDateTime:
		return l.IsText() && strings.Contains(l.String(), " ")
	}
	return false
}
