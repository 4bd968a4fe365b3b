package schema

import (
	"strings"
	"testing"
)

// TestDefinitionsAreConsistent builds the registry the program builds at
// start; an inconsistent definition fails here before it panics in main.
func TestDefinitionsAreConsistent(t *testing.T) {
	r, err := New(definitions())
	if err != nil {
		t.Fatalf("definitions are inconsistent:\n%v", err)
	}
	if got, want := len(r.Entities()), len(Default().Entities()); got != want {
		t.Fatalf("a fresh registry has %d entities, the default one %d", got, want)
	}
}

// minimal is a small consistent definition set the cases below break.
func minimal() ([]Entity, []Link) {
	return []Entity{
			{Name: "customergroup", Tenant: byCustomer(Path{}), Fields: []Field{name("customergroup_name")},
				Relations: []Relation{
					hasMany("things", "thing", "customergroup_id"),
					manyToMany("tags", "tag", "customergroup_tag"),
				}},
			{Name: "partnergroup", Tenant: byPartner(Path{}), Fields: []Field{name("partnergroup_name")}},
			{Name: "tag", Tenant: global, Fields: []Field{name("tag_name")}},
			{Name: "thing", Tenant: byCustomer(Path{"customergroup_id"}), Fields: []Field{
				ref("customergroup_id", "customergroup"),
				name("thing_name"),
				day("thing_from"),
				day("thing_to").optional().after("thing_from"),
				integer("thing_count").derive(CountOf("parts")),
			}, Relations: []Relation{hasMany("parts", "part", "thing_id")}},
			{Name: "part", Tenant: byCustomer(Path{"thing_id", "customergroup_id"}), Fields: []Field{
				ref("thing_id", "thing").cascade(),
				name("part_name"),
			}},
		}, []Link{
			link("customergroup_tag", "customergroup", "tag", validity(false)...),
		}
}

func TestNewRejectsInconsistentDefinitions(t *testing.T) {
	if _, err := New(minimal()); err != nil {
		t.Fatalf("the minimal definitions are inconsistent: %v", err)
	}
	thing := func(es []Entity) *Entity { return &es[3] }
	cases := []struct {
		name   string
		break_ func(es []Entity, ls []Link) ([]Entity, []Link)
		want   string // substring of the error; "" means valid
	}{
		{"duplicate entity", func(es []Entity, ls []Link) ([]Entity, []Link) {
			return append(es, Entity{Name: "tag", Tenant: global, Fields: []Field{name("tag_name")}}), ls
		}, `entity "tag" defined twice`},
		{"duplicate field", func(es []Entity, ls []Link) ([]Entity, []Link) {
			thing(es).Fields = append(thing(es).Fields, name("thing_name"))
			return es, ls
		}, `field "thing_name" defined twice`},
		{"unknown reference", func(es []Entity, ls []Link) ([]Entity, []Link) {
			thing(es).Fields = append(thing(es).Fields, ref("owner_id", "owner"))
			return es, ls
		}, `references unknown entity "owner"`},
		{"rule names unknown field", func(es []Entity, ls []Link) ([]Entity, []Link) {
			thing(es).Fields[3] = thing(es).Fields[3].after("thing_start")
			return es, ls
		}, `rule date_after names unknown field "thing_start"`},
		{"condition reads unknown field", func(es []Entity, ls []Link) ([]Entity, []Link) {
			thing(es).Fields[2] = thing(es).Fields[2].showWhen(AllOf(IsTruthy("nope")))
			return es, ls
		}, `reads unknown field "nope"`},
		{"unknown label field", func(es []Entity, ls []Link) ([]Entity, []Link) {
			thing(es).Label = []string{"thing_title"}
			return es, ls
		}, `label field "thing_title"`},
		{"no label", func(es []Entity, ls []Link) ([]Entity, []Link) {
			return append(es, Entity{Name: "plain", Tenant: global, Fields: []Field{str("title", 10)}}), ls
		}, "no default label"},
		{"tenant undeclared", func(es []Entity, ls []Link) ([]Entity, []Link) {
			thing(es).Tenant = TenantPath{}
			return es, ls
		}, "tenant must be either Global"},
		{"tenant path ends elsewhere", func(es []Entity, ls []Link) ([]Entity, []Link) {
			thing(es).Tenant = byPartner(Path{"customergroup_id"})
			return es, ls
		}, "ends at customergroup, not partnergroup"},
		{"has-many path does not lead back", func(es []Entity, ls []Link) ([]Entity, []Link) {
			es[0].Relations[0].Via = Path{"thing_name"}
			return es, ls
		}, `step "thing_name" is not a foreign key of thing`},
		{"unknown link", func(es []Entity, ls []Link) ([]Entity, []Link) {
			es[0].Relations[1].Link = "customergroup_label"
			return es, ls
		}, "needs a known Link"},
		{"through a has-many relation", func(es []Entity, ls []Link) ([]Entity, []Link) {
			es[0].Fields = append(es[0].Fields, multi("thing_id", "thing", "things"))
			return es, ls
		}, `through "things" is not a many-to-many relation`},
		{"default of the wrong type", func(es []Entity, ls []Link) ([]Entity, []Link) {
			thing(es).Fields[1] = thing(es).Fields[1].def(Int(3))
			return es, ls
		}, "default 3 does not fit type string"},
		{"default not an option", func(es []Entity, ls []Link) ([]Entity, []Link) {
			thing(es).Fields = append(thing(es).Fields, enum("thing_kind", opt("a", "A")).def(Text("b")))
			return es, ls
		}, "default b is not one of the options"},
		{"kind does not fit type", func(es []Entity, ls []Link) ([]Entity, []Link) {
			thing(es).Fields[1] = thing(es).Fields[1].kind(KindCheckbox)
			return es, ls
		}, `kind "checkbox" does not fit type "string"`},
		{"bad regexp", func(es []Entity, ls []Link) ([]Entity, []Link) {
			thing(es).Fields[1] = thing(es).Fields[1].regex(`^[a-z`, "letters")
			return es, ls
		}, "regexp:"},
		{"derivation over unknown relation", func(es []Entity, ls []Link) ([]Entity, []Link) {
			thing(es).Fields[4] = integer("thing_count").derive(SumOver("pieces", "tag_name"))
			return es, ls
		}, `sum over unknown relation "pieces"`},
		{"link attribute clashes with a field", func(es []Entity, ls []Link) ([]Entity, []Link) {
			ls[0].Attrs = append(ls[0].Attrs, str("tag_name", 10))
			return es, ls
		}, `attribute "tag_name" clashes with a field of tag`},
		{"narrowing via no relation of the target", func(es []Entity, ls []Link) ([]Entity, []Link) {
			thing(es).Fields = append(thing(es).Fields, ref("tag_id", "tag").whereLinked("things", "customergroup_id"))
			return es, ls
		}, `options filter via "things": not a many-to-many relation of tag`},
		{"narrowing via a link to another entity", func(es []Entity, ls []Link) ([]Entity, []Link) {
			thing(es).Fields = append(thing(es).Fields, ref("other_id", "customergroup").whereLinked("tags", "customergroup_id"))
			return es, ls
		}, `options filter via tags links tag, but sibling "customergroup_id" refers to customergroup`},
		{"narrowing via a link by no list field", func(es []Entity, ls []Link) ([]Entity, []Link) {
			thing(es).Fields = append(thing(es).Fields, ref("other_id", "customergroup").whereLinked("tags", "thing_name"))
			return es, ls
		}, `sibling "thing_name" is no list field`},
		{"relation API names collide", func(es []Entity, ls []Link) ([]Entity, []Link) {
			// thing + x_parts and thing_x + parts are both thing_x_parts_rel.
			thing(es).Relations = append(thing(es).Relations, hasMany("x_parts", "part", "thing_id"))
			es[4].Fields = append(es[4].Fields, ref("thing_x_id", "thing_x").optional())
			return append(es, Entity{Name: "thing_x", Tenant: global, Fields: []Field{name("thing_x_name")},
				Relations: []Relation{hasMany("parts", "part", "thing_x_id")}}), ls
		}, `same API name "thing_x_parts_rel"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(c.break_(minimal()))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("New() error = %v, want one mentioning %q", err, c.want)
			}
		})
	}
}
