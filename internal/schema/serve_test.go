package schema_test

import (
	"encoding/json"
	"strings"
	"testing"

	"portfolio/internal/schema"
)

// labels is an attribute_i18n stand-in.
var labels = map[string]string{
	"de/pos_name":                 "Name der Filiale",
	"de/team_type.intern":         "Intern",
	"de/pos_location_rel":         "Standorte",
	"de/valid_from":               "Gültig ab",
	"en/partnercompany_shortname": "Short name",
}

func lookup(key, lang string) string { return labels[lang+"/"+key] }

func attribute(t *testing.T, def schema.TableDefinition, name string) schema.AttributeDefinition {
	t.Helper()
	for _, a := range def.Attributes {
		if a.Attribute == name {
			return a
		}
	}
	t.Fatalf("%s has no attribute %s", def.Table, name)
	return schema.AttributeDefinition{}
}

func TestServe(t *testing.T) {
	cases := []struct {
		entity, lang string
		check        func(t *testing.T, def schema.TableDefinition)
	}{
		{"pos", "de", func(t *testing.T, def schema.TableDefinition) {
			if def.PrimaryKey != "pos_id" || def.Subject != "pos" || !def.Limits.Create || !def.Limits.List || def.InlineEdit {
				t.Errorf("table = %+v", def)
			}
			name := attribute(t, def, "pos_name")
			if name.AttributeI18n != "Name der Filiale" || name.AttributeDatatypeHint != schema.KindText ||
				name.AttributeDatatypeLen != 255 || !name.Required || !name.Searchable || !name.Sortable {
				t.Errorf("pos_name = %+v", name)
			}
			if a := attribute(t, def, "pos_name_external"); a.Required || a.AttributeI18n != "Name external" {
				t.Errorf("pos_name_external = %+v", a)
			}
			if a := attribute(t, def, "pos_internal_id"); a.Default != schema.Int(56) || a.AttributeDatatypeHint != schema.KindNumber {
				t.Errorf("pos_internal_id = %+v", a)
			}
			cp := attribute(t, def, "contactperson_id")
			if cp.Ref == nil || cp.Ref.Table != "contactperson" || cp.Ref.Key != "contactperson_id" ||
				strings.Join(cp.Ref.Label, ",") != "contactperson_firstname,contactperson_lastname" || cp.AttributeI18n != "Contactperson" {
				t.Errorf("contactperson_id = %+v / %+v", cp, cp.Ref)
			}
			if id := attribute(t, def, "pos_id"); !id.ReadOnly || !id.HiddenOnCreate || id.Required {
				t.Errorf("pos_id = %+v", id)
			}
			var names []string
			for _, r := range def.Relations {
				names = append(names, r.API)
			}
			if got := strings.Join(names, " "); got != "pos_location_rel pos_area_rel pos_contract_rel pos_tag_rel pos_ticket_rel "+
				"pos_contradiction_package_rel pos_ta_invoices_rel pos_document_rel pos_email_rel" {
				t.Errorf("relations = %s", got)
			}
			loc := def.Relations[0]
			if loc.Label != "Standorte" || loc.Kind != schema.ManyToMany || loc.Link != "pos_location" ||
				loc.OwnKey != "pos_id" || loc.TargetKey != "location_id" || loc.ReadOnly {
				t.Errorf("pos_location_rel = %+v", loc)
			}
			if c := def.Relations[2]; c.ForeignKey != "pos_id" || c.ReadOnly {
				t.Errorf("pos_contract_rel = %+v", c)
			}
			if inv := def.Relations[6]; !inv.ReadOnly || strings.Join(inv.Via, ",") != "contract_id,pos_id" {
				t.Errorf("pos_ta_invoices_rel = %+v", inv)
			}
		}},
		{"partnercompany", "en", func(t *testing.T, def schema.TableDefinition) {
			a := attribute(t, def, "partnercompany_shortname")
			if a.AttributeI18n != "Short name" || a.AttributeDatatypeLen != 10 || a.Rules[1].Kind != schema.RuleMax {
				t.Errorf("shortname = %+v", a)
			}
			if def.AccessSubject != "partner_company" {
				t.Errorf("access subject %q", def.AccessSubject)
			}
		}},
		{"bankdata", "en", func(t *testing.T, def schema.TableDefinition) {
			iban := attribute(t, def, "bankdata_iban")
			if iban.AttributeRegexp == "" || !strings.HasPrefix(iban.AttributeRegexpFailureMessage, "Enter the IBAN") || iban.AttributeI18n != "IBAN" {
				t.Errorf("iban = %+v", iban)
			}
			if a := attribute(t, def, "bankdata_is_active"); a.Required || a.Default != schema.Int(0) || a.AttributeDatatypeHint != schema.KindCheckbox {
				t.Errorf("is_active = %+v", a)
			}
		}},
		{"team", "de", func(t *testing.T, def schema.TableDefinition) {
			tt := attribute(t, def, "team_type")
			if len(tt.Options) != 4 || tt.Options[0].Label != "Intern" || tt.Options[1].Label != "External client" ||
				tt.AttributeDatatypeHint != schema.KindCustomSelect {
				t.Errorf("team_type options = %+v", tt.Options)
			}
			cg := attribute(t, def, "customergroup_id")
			if !cg.Multiple || cg.Required || cg.RequiredWhen == nil || cg.ShowWhen == nil || cg.Ref.Table != "customergroup" || cg.Sortable {
				t.Errorf("customergroup_id = %+v", cg)
			}
			if a := attribute(t, def, "team_for_all_customer"); !a.Immutable || a.Default != schema.Int(1) {
				t.Errorf("team_for_all_customer = %+v", a)
			}
			users := def.Relations[0]
			if users.API != "team_users_rel" || len(users.Attributes) != 2 || users.Attributes[0].AttributeI18n != "Gültig ab" {
				t.Errorf("team_users_rel = %+v", users)
			}
		}},
		{"user", "en", func(t *testing.T, def schema.TableDefinition) {
			for _, a := range def.Attributes {
				if a.Attribute == "user_email_normalized" || a.Attribute == "user_verified_at" {
					t.Errorf("internal field %s is served", a.Attribute)
				}
			}
			pw := attribute(t, def, "user_password")
			if !pw.WriteOnly || !pw.HiddenOnUpdate || pw.Required || !pw.Generate || pw.AttributeDatatypeHint != schema.KindPassword || pw.Sortable {
				t.Errorf("user_password = %+v", pw)
			}
			ab := attribute(t, def, "user_abbreviation")
			if !ab.ReadOnly || ab.Derived == nil || ab.Required || len(ab.Rules) != 1 {
				t.Errorf("user_abbreviation = %+v", ab)
			}
			if def.Table != "user" || def.PrimaryKey != "user_id" {
				t.Errorf("user table = %s / %s", def.Table, def.PrimaryKey)
			}
		}},
		{"document", "en", func(t *testing.T, def schema.TableDefinition) {
			if def.Limits.List || !def.Limits.Create {
				t.Errorf("document limits = %+v", def.Limits)
			}
			f := attribute(t, def, "document_file")
			if f.AttributeDatatypeHint != schema.KindFile || strings.Join(f.Accept, ",") != ".pdf" {
				t.Errorf("document_file = %+v", f)
			}
		}},
		{"textmodule", "en", func(t *testing.T, def schema.TableDefinition) {
			if def.Limits.Create || def.Limits.Delete || !def.Limits.Update {
				t.Errorf("textmodule limits = %+v", def.Limits)
			}
		}},
		{"translation", "fr", func(t *testing.T, def schema.TableDefinition) {
			if !def.InlineEdit || def.Lang != "fr" {
				t.Errorf("translation = %+v", def)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.entity, func(t *testing.T) {
			def, err := schema.Serve(c.entity, c.lang, lookup)
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, def)
		})
	}
	if _, err := schema.Serve("nope", "en", nil); err == nil {
		t.Error("serving an unknown entity succeeded")
	}
}

// TestServedJSON pins the wire shape the browser reads: the specification's
// attribute_* members, rules and conditions as plain data.
func TestServedJSON(t *testing.T) {
	def, err := schema.Serve("contract", "en", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(def)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{
		`"table":"contract"`,
		`{"attribute":"contract_name","attribute_i18n":"Name","attribute_regexp":"","attribute_regexp_failure_message":"","attribute_datatype_hint":"text","attribute_datatype_len":255,"type":"string","required":true,`,
		`"rules":[{"rule":"required"},{"rule":"date_after","field":"contract_begin_date"}]`,
		`"options":[{"value":0,"label":"Pending"},{"value":1,"label":"Resiliated"}]`,
		`"derived":{"fn":"sum","relation":"area","field":"rentalspace_value"}`,
		`"api":"contract_deadlines_rel"`,
		`"attribute":"value"`,
		`"show_when":{"op":"in","field":"criteria_id","values":[1,39]}`,
		`"unit":{"field":"unit_id","key":"area"}`,
		`"default":1`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("served JSON lacks %s", want)
		}
	}
	// Every served rule is one the evaluators know.
	var back struct {
		Attributes []struct {
			Rules []schema.Rule `json:"rules"`
		} `json:"attributes"`
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Attributes) != len(def.Attributes) || back.Attributes[0].Rules == nil {
		t.Errorf("attributes do not round-trip")
	}
}

func TestLiteralJSON(t *testing.T) {
	cases := []struct {
		lit  schema.Literal
		json string
	}{
		{schema.Int(56), `56`},
		{schema.Decimal("24.5"), `24.5`},
		{schema.Text("2000-01-01 00:00:00"), `"2000-01-01 00:00:00"`},
		{schema.Literal{}, `null`},
	}
	for _, c := range cases {
		b, err := json.Marshal(c.lit)
		if err != nil || string(b) != c.json {
			t.Errorf("Marshal(%v) = %s, %v; want %s", c.lit, b, err, c.json)
		}
		var back schema.Literal
		if err := json.Unmarshal(b, &back); err != nil || back != c.lit {
			t.Errorf("Unmarshal(%s) = %v, %v", b, back, err)
		}
	}
	if _, err := json.Marshal(schema.Decimal("x")); err == nil {
		t.Error("a malformed decimal marshalled")
	}
}

func TestChecks(t *testing.T) {
	cases := []struct {
		entity, field string
		want          string
	}{
		{"pos", "pos_name", `[{"rule":"required"},{"rule":"max","value":255}]`},
		{"pos", "pos_name_external", `[{"rule":"max","value":255}]`},
		{"currency", "currency_iso4217", `[{"rule":"required"},{"rule":"max","value":3},{"rule":"regex","pattern":"^[A-Z]{3}$","message":"Enter the three-letter ISO 4217 code, e.g. EUR."}]`},
		{"recurringpayment", "bankdata_id", `[{"rule":"required_if","when":{"op":"options_filled","field":"bankdata_id"}}]`},
		{"invoiceposition", "flat_rate", `null`},
		{"user", "user_email", `[{"rule":"required"},{"rule":"max","value":254},{"rule":"email"}]`},
	}
	for _, c := range cases {
		e, _ := schema.Get(c.entity)
		f, _ := e.Field(c.field)
		b, _ := json.Marshal(f.Checks())
		if string(b) != c.want {
			t.Errorf("%s.%s checks = %s, want %s", c.entity, c.field, b, c.want)
		}
	}
}
