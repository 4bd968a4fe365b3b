package validate_test

import (
	"encoding/json"
	"testing"
	"time"

	"portfolio/internal/apperr"
	"portfolio/internal/i18n"
	"portfolio/internal/schema"
	"portfolio/internal/validate"
)

// fields is a synthetic entity exercising every rule kind.
func fields() []*schema.Field {
	opt := schema.Requirement{Optional: true}
	return []*schema.Field{
		{Name: "name", Type: schema.TypeString, Kind: schema.KindText, MaxLen: 5},
		{Name: "mail", Type: schema.TypeString, Kind: schema.KindText, Required: opt, Rules: []schema.Rule{{Kind: schema.RuleEmail}}},
		{Name: "code", Type: schema.TypeString, Kind: schema.KindText, Required: opt, Regexp: `^[A-Z]{3}$`, RegexpMessage: "Three capitals, please."},
		{Name: "year", Type: schema.TypeInt, Kind: schema.KindNumber, Required: opt,
			Rules: []schema.Rule{{Kind: schema.RuleMinValue, Value: schema.Int(1900)}, {Kind: schema.RuleMaxValue, Value: schema.Int(2100)}}},
		{Name: "file", Type: schema.TypeInt, Kind: schema.KindNumber, Required: opt, Rules: []schema.Rule{{Kind: schema.RuleSize, Value: schema.Int(100)}}},
		{Name: "begin", Type: schema.TypeDate, Kind: schema.KindDate, Required: opt},
		{Name: "end", Type: schema.TypeDate, Kind: schema.KindDate, Required: opt, Rules: []schema.Rule{schema.DateAfter("begin")}},
		{Name: "total", Type: schema.TypeDecimal, Kind: schema.KindDecimal, Required: opt},
		{Name: "part", Type: schema.TypeDecimal, Kind: schema.KindDecimal, Required: opt, Rules: []schema.Rule{schema.Lower("total")}},
		{Name: "percent", Type: schema.TypeDecimal, Kind: schema.KindDecimal, Required: opt},
		{Name: "points", Type: schema.TypeDecimal, Kind: schema.KindDecimal, Required: opt, Rules: []schema.Rule{schema.RequiredIfNull("percent")}},
		{Name: "kind", Type: schema.TypeString, Kind: schema.KindText, Required: opt},
		{Name: "groups", Type: schema.TypeID, Kind: schema.KindList, Ref: "x", Through: "r", Multiple: true,
			Required: schema.Requirement{When: ptr(schema.In("kind", schema.Text("client")))}},
		{Name: "due", Type: schema.TypeDateTime, Kind: schema.KindDate, Required: opt, Rules: []schema.Rule{{Kind: schema.RuleNotPast}}},
		{Name: "secret", Type: schema.TypeString, Kind: schema.KindText, Required: opt, ShowWhen: ptr(schema.IsTruthy("flag"))},
		{Name: "flag", Type: schema.TypeBool, Kind: schema.KindCheckbox, Default: schema.Int(0)},
	}
}

func ptr(c schema.Cond) *schema.Cond { return &c }

func valid() validate.Record {
	return validate.Record{"name": "Anna", "points": 1.5, "flag": int64(0)}
}

func env(stored validate.Record) *validate.Env {
	return &validate.Env{Creating: stored == nil, Stored: stored, Today: "2024-06-10",
		Label: func(f string) string { return "«" + f + "»" }}
}

// render is what the HTTP layer shows for a field error in lang.
func render(c *i18n.Catalog, lang string, fe apperr.FieldError) string {
	if fe.Message != "" {
		return fe.Message
	}
	return c.T(lang, fe.Key, fe.Args)
}

func TestEveryRuleWithItsMessages(t *testing.T) {
	c := i18n.MustLoad()
	day := func(s string) time.Time { d, _ := time.Parse("2006-01-02", s); return d }
	cases := []struct {
		name   string
		change validate.Record
		stored validate.Record
		field  string
		typ    string
		en     string
		de, fr string
	}{
		{"required", validate.Record{"name": " "}, nil, "name", "missing",
			"«name» is required", "«name» ist erforderlich", "«name» est obligatoire"},
		{"max", validate.Record{"name": "Annabel"}, nil, "name", "max",
			"«name» must contain maximum 5 characters", "«name» darf höchstens 5 Zeichen enthalten", "«name» doit contenir au maximum 5 caractères"},
		{"email", validate.Record{"mail": "anna@"}, nil, "mail", "email",
			"«mail» must be a valid email address", "«mail» muss eine gültige E-Mail-Adresse sein", "«mail» doit être une adresse e-mail valide"},
		{"regex", validate.Record{"code": "abc"}, nil, "code", "regex",
			"Three capitals, please.", "Three capitals, please.", "Three capitals, please."},
		{"max_value", validate.Record{"year": int64(2101)}, nil, "year", "max_value",
			"«year» must be lower than 2100", "«year» muss kleiner als 2100 sein", "«year» doit être inférieur à 2100"},
		{"min_value", validate.Record{"year": int64(1899)}, nil, "year", "min_value",
			"«year» must be at least 1900", "«year» muss mindestens 1900 sein", "«year» doit être au moins égal à 1900"},
		{"size", validate.Record{"file": int64(100*1024 + 1)}, nil, "file", "size",
			"«file» size must be less than 100KB", "«file» muss kleiner als 100 KB sein", "La taille de «file» doit être inférieure à 100 Ko"},
		{"date_after", validate.Record{"begin": "2024-05-02", "end": "2024-05-01"}, nil, "end", "date_after",
			"This date must be after «begin»", "Dieses Datum muss nach «begin» liegen", "Cette date doit être postérieure à «begin»"},
		{"lower", validate.Record{"total": 5.0, "part": 5.5}, nil, "part", "lower",
			"The value must be lower than «total»", "Der Wert muss kleiner als «total» sein", "La valeur doit être inférieure à «total»"},
		{"required_if_null", validate.Record{"points": nil}, nil, "points", "required_if_null",
			"This field is required if «percent» is empty", "Dieses Feld ist erforderlich, wenn «percent» leer ist", "Ce champ est obligatoire si «percent» est vide"},
		{"required_if_null both", validate.Record{"percent": 2.0}, nil, "points", "required_if_null",
			"Fill in either this field or «percent», not both", "Füllen Sie entweder dieses Feld oder «percent» aus, nicht beide",
			"Remplissez soit ce champ, soit «percent», mais pas les deux"},
		{"required_if", validate.Record{"kind": "client", "groups": []int64{}}, nil, "groups", "missing",
			"«groups» is required", "«groups» ist erforderlich", "«groups» est obligatoire"},
		{"not_past", validate.Record{"due": day("2024-06-09")}, nil, "due", "not_past",
			"«due» must not be in the past", "«due» darf nicht in der Vergangenheit liegen", "«due» ne doit pas être dans le passé"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rec := valid()
			for k, v := range tc.change {
				rec[k] = v
			}
			errs, err := validate.Check(fields(), rec, env(tc.stored))
			if err != nil {
				t.Fatal(err)
			}
			if len(errs) != 1 || errs[0].Field != tc.field || errs[0].Type != tc.typ {
				t.Fatalf("errors %+v, want one %s on %s", errs, tc.typ, tc.field)
			}
			for lang, want := range map[string]string{"en": tc.en, "de": tc.de, "fr": tc.fr} {
				if got := render(c, lang, errs[0]); got != want {
					t.Errorf("%s: %q, want %q", lang, got, want)
				}
			}
		})
	}
}

func TestPassingValues(t *testing.T) {
	for name, change := range map[string]validate.Record{
		"valid":                          {},
		"empty passes value rules":       {"mail": "", "code": nil, "year": nil},
		"bounds are inclusive":           {"year": int64(2100), "begin": "2024-01-01", "end": "2024-01-01", "total": 5.0, "part": 5.0},
		"lower passes an empty other":    {"part": 9.0},
		"several addresses":              {"mail": "a@b.de; c@d.fr,e@f.com"},
		"required_if does not hold":      {"kind": "intern", "groups": []int64{}},
		"hidden fields are not checked":  {"secret": "anything"},
		"unchanged past date passes":     {"due": time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)},
		"today is not past":              {"due": time.Date(2024, 6, 10, 0, 0, 0, 0, time.UTC)},
		"required_if holds and is met":   {"kind": "client", "groups": []int64{4}},
		"percent filled, points omitted": {"percent": 2.0, "points": nil},
	} {
		t.Run(name, func(t *testing.T) {
			rec := valid()
			for k, v := range change {
				rec[k] = v
			}
			var stored validate.Record
			if name == "unchanged past date passes" {
				stored = validate.Record{"due": change["due"]}
			}
			errs, err := validate.Check(fields(), rec, env(stored))
			if err != nil || len(errs) != 0 {
				t.Fatalf("%+v %v", errs, err)
			}
		})
	}
}

func TestCoerce(t *testing.T) {
	num := func(s string) json.Number { return json.Number(s) }
	cases := []struct {
		t    schema.DataType
		in   any
		want any
		bad  bool
	}{
		{schema.TypeInt, num("12"), int64(12), false},
		{schema.TypeInt, "12", int64(12), false},
		{schema.TypeInt, num("12.0"), int64(12), false},
		{schema.TypeInt, num("12.5"), nil, true},
		{schema.TypeInt, num("3000000000"), nil, true},
		{schema.TypeID, num("0"), nil, true},
		{schema.TypeID, "", nil, false},
		{schema.TypeBool, true, int64(1), false},
		{schema.TypeBool, "0", int64(0), false},
		{schema.TypeBool, num("2"), nil, true},
		{schema.TypeDecimal, num("19.5"), 19.5, false},
		{schema.TypeDecimal, "abc", nil, true},
		{schema.TypeDate, "2024-02-29", "2024-02-29", false},
		{schema.TypeDate, "2024-02-30", nil, true},
		{schema.TypeDate, "2024-05-01T10:00:00Z", "2024-05-01", false},
		{schema.TypeDateTime, "2024-05-01 10:00:00", time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC), false},
		{schema.TypeDateTime, "2024-05-01T12:00:00+02:00", time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC), false},
		{schema.TypeDateTime, "yesterday", nil, true},
		{schema.TypeString, num("5"), nil, true},
		{schema.TypeString, "", "", false},
	}
	for _, tc := range cases {
		got, err := validate.Coerce(tc.t, tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("Coerce(%s, %#v) error %v", tc.t, tc.in, err)
			continue
		}
		if !tc.bad && !validate.Equal(got, tc.want) {
			t.Errorf("Coerce(%s, %#v) = %#v, want %#v", tc.t, tc.in, got, tc.want)
		}
	}
}

func TestConditions(t *testing.T) {
	rec := validate.Record{"a": int64(1), "b": "", "c": []int64{3, 4}, "d": "0"}
	holds := func(c schema.Cond) bool {
		ok, err := validate.Holds(c, rec, nil)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	checks := map[string]bool{
		"in with canonical text": holds(schema.In("a", schema.Text("1"))),
		"empty string is empty":  holds(schema.IsEmpty("b")),
		"list matches any":       holds(schema.In("c", schema.Int(4))),
		"not_in on empty":        holds(schema.NotIn("b", schema.Int(1))),
		"falsy zero text":        holds(schema.IsFalsy("d")),
		"all":                    holds(schema.AllOf(schema.IsFilled("a"), schema.IsTruthy("c"))),
		"any":                    holds(schema.AnyOf(schema.IsFilled("b"), schema.IsTruthy("a"))),
	}
	for name, ok := range checks {
		if !ok {
			t.Errorf("%s does not hold", name)
		}
	}
	if _, err := validate.Holds(schema.OptionsFilled("a"), rec, nil); err == nil {
		t.Errorf("options_filled without a lookup must fail")
	}
}
