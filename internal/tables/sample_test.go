package tables_test

import (
	"context"
	"fmt"
	"math/big"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/schema"
	"portfolio/internal/tables"
	"portfolio/internal/validate"
)

// sampler builds valid rows of any entity from the definitions alone:
// required fields get values of their type that pass their rules (length,
// pattern, bounds, date order), references point at rows it creates first
// (recursively), fields that are not shown are left out. New entities are
// covered without touching the tests.
type sampler struct {
	e    *env
	t    testing.TB
	ids  map[string]int64 // one shared row per entity
	seq  int
	reg  *schema.Registry
	stub bool
}

func newSampler(e *env, t testing.TB) *sampler {
	return &sampler{e: e, t: t, ids: map[string]int64{}, reg: schema.Default()}
}

// ensure returns the id of a shared row of entity (created on first use).
func (s *sampler) ensure(entity string) int64 {
	s.t.Helper()
	if id, ok := s.ids[entity]; ok {
		return id
	}
	id := s.fresh(entity, nil)
	s.ids[entity] = id
	return id
}

// fresh creates a new row of entity (through the API as admin, or with a
// plain INSERT for entities the API may not create) and returns its id.
func (s *sampler) fresh(entity string, override obj) int64 {
	s.t.Helper()
	ent, _ := s.reg.Entity(entity)
	if !tables.CreatableGenerically(ent) {
		return s.insertRaw(ent, override)
	}
	row := s.e.create(entity, s.data(ent, override))
	return id(row, ent.PK)
}

// data is valid create data for ent; override replaces members.
func (s *sampler) data(ent *schema.Entity, override obj) obj {
	s.t.Helper()
	s.seq++
	fresh := uniqueRefs(ent)
	rec := validate.Record{}
	out := obj{}
	set := func(f *schema.Field) {
		if v, ok := override[f.Name]; ok {
			out[f.Name], rec[f.Name] = v, toCanonical(f, v)
			return
		}
		v := s.value(ent, f, fresh[f.Name])
		out[f.Name], rec[f.Name] = v, toCanonical(f, v)
	}
	for i := range ent.Fields {
		f := &ent.Fields[i]
		if _, ok := override[f.Name]; ok || (writableOnCreate(f) && f.Required.Always()) {
			set(f)
		}
	}
	// Conditional requirements and visibility depend on other values:
	// settle them in a few rounds.
	env := &validate.Env{Creating: true, OptionsFilled: func(string, validate.Record) (bool, error) { return false, nil }}
	for round := 0; round < 3; round++ {
		for i := range ent.Fields {
			f := &ent.Fields[i]
			if !writableOnCreate(f) {
				continue
			}
			if _, given := out[f.Name]; given {
				if shown, _ := validate.Visible(f, withDefaults(ent, rec), env); !shown {
					if _, forced := override[f.Name]; !forced {
						delete(out, f.Name)
						delete(rec, f.Name)
					}
				}
				continue
			}
			if needed(f, withDefaults(ent, rec), env) {
				set(f)
			}
		}
	}
	group := s.groupOf(ent, out, override)
	s.narrow(ent, out, override, group)
	s.sameGroup(ent, out, override, group)
	return out
}

// groupOf is the customer group a new row of ent belongs to (0: none
// known): that of an anchor the test names, else of another named
// reference, else of a sampled anchor. References to customer-scoped rows
// must stay in it (checkTenant).
func (s *sampler) groupOf(ent *schema.Entity, out, override obj) int64 {
	s.t.Helper()
	anchors := tables.AnchorFields(ent.Name)
	for _, pass := range []func(string) bool{
		func(name string) bool { _, named := override[name]; return named && slices.Contains(anchors, name) },
		func(name string) bool { _, named := override[name]; return named },
		func(name string) bool { return slices.Contains(anchors, name) },
	} {
		for i := range ent.Fields {
			f := &ent.Fields[i]
			if f.Ref == "" || !pass(f.Name) {
				continue
			}
			if g := s.groupsOf(f.Ref, out[f.Name]); len(g) > 0 {
				return g[0]
			}
		}
	}
	return 0
}

// groupsOf answers the customer groups of row v (an id or a one-id list)
// of entity.
func (s *sampler) groupsOf(entity string, v any) []int64 {
	s.t.Helper()
	id, ok := v.(int64)
	if l, isList := v.([]int64); isList && len(l) > 0 {
		id, ok = l[0], true
	}
	if n, isInt := v.(int); isInt {
		id, ok = int64(n), true
	}
	if !ok || id <= 0 {
		return nil
	}
	g, err := tables.CustomerGroups(context.Background(), s.e.DB, entity, id)
	if err != nil {
		s.t.Fatalf("customer groups of %s %d: %v", entity, id, err)
	}
	return g
}

// sameGroup replaces sampled references to rows of another customer group
// than group by shared rows of group.
func (s *sampler) sameGroup(ent *schema.Entity, out, override obj, group int64) {
	s.t.Helper()
	if group == 0 {
		return
	}
	for i := range ent.Fields {
		f := &ent.Fields[i]
		if _, named := override[f.Name]; named || f.Ref == "" || len(f.OptionsWhere) > 0 {
			continue
		}
		v, sampled := out[f.Name]
		if !sampled {
			continue
		}
		if g := s.groupsOf(f.Ref, v); len(g) == 0 || slices.Contains(g, group) {
			continue
		}
		id := s.ensureIn(f.Ref, group)
		if _, isList := v.([]int64); isList {
			out[f.Name] = []int64{id}
		} else {
			out[f.Name] = id
		}
	}
}

// ensureIn returns the id of a shared row of entity in customer group
// group (created on first use with its first anchor in the group).
func (s *sampler) ensureIn(entity string, group int64) int64 {
	s.t.Helper()
	if entity == "customergroup" {
		return group
	}
	key := fmt.Sprintf("%s@%d", entity, group)
	if id, ok := s.ids[key]; ok {
		return id
	}
	id := s.fresh(entity, s.inGroup(entity, obj{}, group))
	s.ids[key] = id
	return id
}

// freshIn creates a new row of entity in customer group group.
func (s *sampler) freshIn(entity string, group int64, override obj) int64 {
	s.t.Helper()
	over := obj{}
	for k, v := range override {
		over[k] = v
	}
	return s.fresh(entity, s.inGroup(entity, over, group))
}

// inGroup adds to over the first anchor of entity, a row of group, unless
// over already names a row of a customer-scoped entity (which decides the
// group).
func (s *sampler) inGroup(entity string, over obj, group int64) obj {
	s.t.Helper()
	ent, _ := s.reg.Entity(entity)
	for name, v := range over {
		if f, ok := ent.Field(name); ok && f.Ref != "" && len(s.groupsOf(f.Ref, v)) > 0 {
			return over
		}
	}
	anchors := tables.AnchorFields(entity)
	if len(anchors) == 0 || group == 0 {
		return over
	}
	f, _ := ent.Field(anchors[0])
	over[f.Name] = s.ensureIn(f.Ref, group)
	return over
}

// narrow keeps list fields with an OptionsWhere among their options: a
// sampled value becomes a row of the target made with the siblings'
// values (a point of sale's contact person of its company); when the test
// names the value, sampled siblings take the named row's values instead.
// A narrowing sibling left empty is sampled for a required field; an
// optional field is then left out.
func (s *sampler) narrow(ent *schema.Entity, out, override obj, group int64) {
	s.t.Helper()
	for i := range ent.Fields {
		f := &ent.Fields[i]
		if len(f.OptionsWhere) == 0 || f.Ref == "" {
			continue
		}
		if _, sampled := out[f.Name]; !sampled {
			continue
		}
		target, _ := s.reg.Entity(f.Ref)
		if named, given := override[f.Name]; given {
			s.siblingsOf(ent, target, f, named, out, override)
			continue
		}
		over, key := obj{}, f.Ref
		links := map[string]any{} // via relation: the sibling value to link to
		for _, m := range f.OptionsWhere {
			v := any(literal(m.Value))
			if m.Source != "" {
				v = out[m.Source]
				if l, ok := v.([]int64); ok && len(l) > 0 {
					v = l[0]
				}
				if v == nil || fmt.Sprint(v) == "[]" {
					src, _ := ent.Field(m.Source)
					if !f.Required.Always() || src == nil {
						delete(out, f.Name)
						over = nil
						break
					}
					v = s.value(ent, src, false)
					out[m.Source] = v
				}
			}
			if m.Of != "" {
				v = s.fieldOf(ent, m.Source, m.Of, v)
			}
			if m.Via != "" {
				links[m.Via] = v
				key += fmt.Sprintf("|via %s=%v", m.Via, v)
				continue
			}
			if tf, ok := target.Field(m.Target); ok && tf.Through != "" && tf.Multiple {
				if n, ok := v.(int64); ok {
					v = []int64{n}
				}
			}
			over[m.Target] = v
			key += fmt.Sprintf("|%s=%v", m.Target, v)
		}
		if over == nil {
			continue
		}
		key += fmt.Sprintf("@%d", group)
		id, ok := s.ids[key]
		if !ok {
			id = s.fresh(f.Ref, s.inGroup(f.Ref, over, group))
			for via, v := range links {
				s.link(target, via, id, v)
			}
			s.ids[key] = id
		}
		if f.Through != "" && f.Multiple {
			out[f.Name] = []int64{id}
		} else {
			out[f.Name] = id
		}
	}
}

// siblingsOf sets the sampled siblings f's OptionsWhere narrows by (of
// ent) to the values of the row the test named for f; a named row that
// lacks such a value (a fresh contact person of no company) is given the
// sampled one, so a test may name any fresh row.
func (s *sampler) siblingsOf(ent, target *schema.Entity, f *schema.Field, named any, out, override obj) {
	s.t.Helper()
	ctx := context.Background()
	for _, m := range f.OptionsWhere {
		if _, given := override[m.Source]; m.Source == "" || given {
			continue
		}
		src, _ := ent.Field(m.Source)
		if m.Of != "" {
			out[m.Source] = s.sourceOf(target, named, src, m)
			continue
		}
		if m.Via != "" {
			if out[m.Source] == nil && src != nil {
				out[m.Source] = s.value(ent, src, false)
			}
			s.link(target, m.Via, named, out[m.Source])
			continue
		}
		if tf, ok := target.Field(m.Target); !ok || !tf.Stored() || src == nil || src.Through != "" {
			continue
		}
		var v any
		q := fmt.Sprintf(`SELECT "%s" FROM "%s" WHERE "%s" = ?`, m.Target, target.Table, target.PK)
		if err := s.e.DB.QueryRowContext(ctx, q, named).Scan(&v); err != nil {
			s.t.Fatalf("read %s %v: %v", target.Name, named, err)
		}
		if v != nil {
			out[m.Source] = v
			continue
		}
		if out[m.Source] == nil {
			out[m.Source] = s.value(ent, src, false)
		}
		q = fmt.Sprintf(`UPDATE "%s" SET "%s" = ? WHERE "%s" = ?`, target.Table, m.Target, target.PK)
		if _, err := s.e.DB.ExecContext(ctx, q, out[m.Source], named); err != nil {
			s.t.Fatalf("give %s %v its %s: %v", target.Name, named, m.Target, err)
		}
	}
}

// sourceOf is a shared row of src's entity whose field m.Of holds the
// value m.Target of the named row of target (a contract of a tax rate's
// company).
func (s *sampler) sourceOf(target *schema.Entity, named any, src *schema.Field, m schema.Match) any {
	s.t.Helper()
	var v any
	q := fmt.Sprintf(`SELECT "%s" FROM "%s" WHERE "%s" = ?`, m.Target, target.Table, target.PK)
	if err := s.e.DB.QueryRowContext(context.Background(), q, named).Scan(&v); err != nil {
		s.t.Fatalf("read %s %v: %v", target.Name, named, err)
	}
	key := fmt.Sprintf("%s|%s=%v", src.Ref, m.Of, v)
	if id, ok := s.ids[key]; ok {
		return id
	}
	id := s.fresh(src.Ref, obj{m.Of: v})
	s.ids[key] = id
	return id
}

// fieldOf reads field of of the row that sibling source of ent (value v)
// refers to.
func (s *sampler) fieldOf(ent *schema.Entity, source, of string, v any) any {
	s.t.Helper()
	src, _ := ent.Field(source)
	target, _ := s.reg.Entity(src.Ref)
	var out any
	q := fmt.Sprintf(`SELECT "%s" FROM "%s" WHERE "%s" = ?`, of, target.Table, target.PK)
	if err := s.e.DB.QueryRowContext(context.Background(), q, v).Scan(&out); err != nil {
		s.t.Fatalf("read %s %v: %v", target.Name, v, err)
	}
	return out
}

func writableOnCreate(f *schema.Field) bool { return f.Writable() && !f.HiddenOnCreate }

// needed reports whether a missing value of f would fail validation.
func needed(f *schema.Field, rec validate.Record, env *validate.Env) bool {
	if shown, _ := validate.Visible(f, rec, env); !shown {
		return false
	}
	if f.Required.When != nil {
		if ok, _ := validate.Holds(*f.Required.When, rec, env); ok {
			return true
		}
	}
	for _, r := range f.Rules {
		if r.Kind == schema.RuleRequiredIfNull && validate.Empty(rec[r.Field]) {
			return true
		}
	}
	return false
}

func withDefaults(ent *schema.Entity, rec validate.Record) validate.Record {
	out := validate.Record{}
	for i := range ent.Fields {
		f := &ent.Fields[i]
		if !f.Default.IsZero() {
			out[f.Name], _ = validate.Coerce(f.Type, f.Default.String())
		}
	}
	for k, v := range rec {
		out[k] = v
	}
	return out
}

func toCanonical(f *schema.Field, v any) any {
	if f.Through != "" {
		switch x := v.(type) {
		case []int64:
			return x
		case int64:
			return []int64{x}
		}
		return []int64{}
	}
	c, _ := validate.Coerce(f.Type, fmt.Sprint(v))
	if v == nil {
		return nil
	}
	return c
}

// uniqueRefs lists the references that are part of a unique set: each new
// row needs fresh referenced rows there.
func uniqueRefs(ent *schema.Entity) map[string]bool {
	out := map[string]bool{}
	for _, set := range ent.Unique {
		for _, c := range set {
			if f, ok := ent.Field(c); ok && f.Ref != "" {
				out[c] = true
			}
		}
	}
	return out
}

// value is a valid value of field f.
func (s *sampler) value(ent *schema.Entity, f *schema.Field, freshRef bool) any {
	s.t.Helper()
	switch {
	case f.Through != "" && f.Multiple:
		return []int64{s.ensure(f.Ref)}
	case f.Through != "":
		return s.ensure(f.Ref)
	case f.Ref != "":
		if freshRef {
			return s.fresh(f.Ref, nil)
		}
		return s.ensure(f.Ref)
	case len(f.Options) > 0:
		if !f.Default.IsZero() {
			return literal(f.Default)
		}
		return literal(f.Options[0].Value)
	case f.Type == schema.TypeInt && !f.Default.IsZero():
		// A count with a default (options exercised so far) starts at it:
		// other values ask for fields only a later step fills.
		return literal(f.Default)
	}
	return s.scalar(ent, f, s.seq)
}

func literal(l schema.Literal) any {
	if n, ok := l.Int64(); ok {
		return n
	}
	return l.String()
}

// scalar is a value of f's type that passes its rules; variant makes
// strings unique.
func (s *sampler) scalar(ent *schema.Entity, f *schema.Field, variant int) any {
	after, lower := false, false
	lo, hi := int64(1), int64(100)
	for _, r := range f.Rules {
		switch r.Kind {
		case schema.RuleDateAfter:
			after = true
		case schema.RuleLower:
			lower = true
		case schema.RuleMinValue:
			lo, _ = r.Value.Int64()
		case schema.RuleMaxValue:
			hi, _ = r.Value.Int64()
		}
	}
	switch f.Type {
	case schema.TypeBool:
		return 0
	case schema.TypeInt:
		if lower {
			return lo
		}
		return (lo+hi)/2 + int64(variant%3)
	case schema.TypeDecimal:
		if lower {
			return float64(lo) + 0.5
		}
		return float64((lo+hi)/2) + 0.25*float64(variant%3)
	case schema.TypeDate:
		if after {
			return "2031-06-30"
		}
		return "2030-01-15"
	case schema.TypeDateTime:
		if after {
			return "2031-06-30T12:00:00Z"
		}
		return "2030-01-15T09:30:00Z"
	}
	return s.text(f, variant)
}

// text is a unique string for f: an address for e-mail fields, a match
// of the pattern for fields with one, a name otherwise, within MaxLen.
func (s *sampler) text(f *schema.Field, variant int) string {
	if f.Name == "bankdata_iban" {
		return sampleIBAN(variant)
	}
	for _, r := range f.Checks() {
		if r.Kind == schema.RuleEmail {
			return fmt.Sprintf("sample%d@example.test", variant)
		}
		if r.Kind == schema.RuleRegex {
			return fromPattern(s.t, r.Pattern, variant)
		}
	}
	v := fmt.Sprintf("%s %d", strings.ReplaceAll(f.Name, "_", " "), variant)
	if f.MaxLen > 0 && len(v) > f.MaxLen {
		v = fmt.Sprintf("S%d", variant)
		if len(v) > f.MaxLen {
			v = v[len(v)-f.MaxLen:]
		}
	}
	return v
}

// sampleIBAN is a valid German IBAN (ISO 13616 check digits) that differs
// by variant: the masterdata module checks the digits on every write.
func sampleIBAN(variant int) string {
	bban := fmt.Sprintf("37040044%010d", variant)
	// Check digits: 98 − (BBAN + "DE00" as digits, D=13, E=14) mod 97.
	n := new(big.Int)
	n.SetString(bban+"131400", 10)
	check := 98 - new(big.Int).Mod(n, big.NewInt(97)).Int64()
	return fmt.Sprintf("DE%02d%s", check, bban)
}

// fromPattern generates a string matching a simple regular expression;
// variant picks different characters so repeated calls differ.
func fromPattern(t testing.TB, pattern string, variant int) string {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		t.Fatalf("pattern %s: %v", pattern, err)
	}
	var b strings.Builder
	pos := 0
	var gen func(r *syntax.Regexp)
	gen = func(r *syntax.Regexp) {
		switch r.Op {
		case syntax.OpLiteral:
			b.WriteString(string(r.Rune))
		case syntax.OpCharClass:
			var runes []rune
			for i := 0; i+1 < len(r.Rune); i += 2 {
				for c := r.Rune[i]; c <= r.Rune[i+1] && len(runes) < 64; c++ {
					if c != ' ' && c != '-' {
						runes = append(runes, c)
					}
				}
			}
			pos++
			b.WriteRune(runes[(variant*7+pos*13)%len(runes)])
		case syntax.OpConcat:
			for _, sub := range r.Sub {
				gen(sub)
			}
		case syntax.OpCapture:
			gen(r.Sub[0])
		case syntax.OpAlternate:
			gen(r.Sub[0])
		case syntax.OpRepeat, syntax.OpPlus, syntax.OpStar, syntax.OpQuest:
			n := r.Min
			switch r.Op {
			case syntax.OpPlus, syntax.OpStar:
				n = 3
			case syntax.OpRepeat:
				if n < 3 && (r.Max < 0 || r.Max >= 3) {
					n = 3
				}
			}
			for i := 0; i < n; i++ {
				gen(r.Sub[0])
			}
		}
	}
	gen(re)
	return b.String()
}

// link links row key of ent to row other through ent's many-to-many
// relation via, unless they are linked already.
func (s *sampler) link(ent *schema.Entity, via string, key, other any) {
	s.t.Helper()
	rel, _ := ent.Relation(via)
	l, ok := s.reg.Link(rel.Link)
	if !ok {
		s.t.Fatalf("link of %s.%s", ent.Name, via)
	}
	own, far, _ := l.End(ent.Name)
	ctx := context.Background()
	var n int
	q := fmt.Sprintf(`SELECT COUNT(*) FROM "%s" WHERE "%s" = ? AND "%s" = ?`, l.Table, own.Column, far.Column)
	if err := s.e.DB.QueryRowContext(ctx, q, key, other).Scan(&n); err != nil {
		s.t.Fatalf("read %s: %v", l.Table, err)
	}
	if n > 0 {
		return
	}
	q = fmt.Sprintf(`INSERT INTO "%s" ("%s", "%s") VALUES (?, ?)`, l.Table, own.Column, far.Column)
	if _, err := s.e.DB.ExecContext(ctx, q, key, other); err != nil {
		s.t.Fatalf("link %s %v to %v: %v", l.Table, key, other, err)
	}
}

// insertRaw stores a row of an entity the API may not create (text
// templates, e-mails, history) with a plain INSERT of its always-filled
// columns.
func (s *sampler) insertRaw(ent *schema.Entity, override obj) int64 {
	s.t.Helper()
	s.seq++
	var cols []string
	var args []any
	for i := range ent.Fields {
		f := &ent.Fields[i]
		if !f.Stored() || f.Name == ent.PK || f.Derived != nil {
			continue
		}
		v, ok := override[f.Name]
		if !ok {
			if !f.Required.Always() || !f.Default.IsZero() {
				continue
			}
			v = s.value(ent, f, false)
			if f.Type == schema.TypeDateTime {
				v, _ = validate.Coerce(f.Type, v)
			}
		}
		cols = append(cols, `"`+f.Name+`"`)
		args = append(args, v)
	}
	var newID int64
	q := fmt.Sprintf(`INSERT INTO "%s" (%s) VALUES (%s) RETURNING "%s"`, ent.Table, strings.Join(cols, ", "),
		strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", "), ent.PK)
	if err := s.e.DB.QueryRowContext(context.Background(), q, args...).Scan(&newID); err != nil {
		s.t.Fatalf("insert %s: %v", ent.Name, err)
	}
	return newID
}

// boardOfTeam is a demo board with a column whose responsible team is
// team, and a column of it without a responsible team (a ticket entering
// a column with a team is handed to that team): the ticket module lets a
// user see (and store tickets on) only the boards with a column of their
// teams (decision 0027), and a sampled fresh board has no columns at all.
func boardOfTeam(t *testing.T, d *db.DB, team int64) obj {
	t.Helper()
	var board, column int64
	if err := d.QueryRowContext(context.Background(), `SELECT bc.board_id, MIN(free.columnx_id) FROM board_columnx bc
		JOIN columnx c ON c.columnx_id = bc.columnx_id
		JOIN board_columnx fb ON fb.board_id = bc.board_id JOIN columnx free ON free.columnx_id = fb.columnx_id AND free.team_id IS NULL
		WHERE c.team_id = ? GROUP BY bc.board_id ORDER BY bc.board_id LIMIT 1`, team).Scan(&board, &column); err != nil {
		t.Fatalf("a board with a column of team %d and one without a team: %v", team, err)
	}
	return obj{"board_id": board, "columnx_id": column}
}
