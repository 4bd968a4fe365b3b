package schema_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"portfolio/internal/schema"
)

// The entities either specification names (contract area link and contract
// criteria are link tables, see TestSpecRelations).
var specEntities = []string{
	"user", "role", "team", "usertype", "function", "tablegroup", "tablename", "crud", "access",
	"customergroup", "company", "companydetails", "taxrate", "bankdata", "payment", "partnercompany",
	"partnergroup", "kreditornumber", "address", "city", "country", "currency", "language", "contactperson",
	"contactdetails", "contacttitle", "contactsalutation", "partnertype", "pos", "tag", "area", "location",
	"contract", "contractaction", "serviceobject", "specialright", "criteria", "criteriatype", "choice",
	"sachkonto", "indexclause", "recurringpayment", "recurringpaymenttype", "maturitytype", "unit",
	"areatype", "usagetype", "contracttype", "locationtype", "serviceobjecttype", "documentcontracttype",
	"product", "invoice", "invoiceposition", "invoicecriteria", "invoicevaluetype", "costtype",
	"externalcosttype", "inspectionresult", "claimtype", "rating", "resultcategorization", "savingtype",
	"contradiction", "contradictionpackage", "contradictionpoint", "textmodule", "texttemplate",
	"texttemplate_variable", "ticket", "board", "columnx", "priority", "defaultvalue", "trackrecord",
	"document", "documenttype", "subdocumenttype", "email", "translation", "attribute_i18n",
}

func TestSpecEntitiesAreDefined(t *testing.T) {
	for _, name := range specEntities {
		e, ok := schema.Get(name)
		if !ok {
			t.Errorf("entity %s is not defined", name)
			continue
		}
		if e.Subject == "" || e.Group == "" || e.Doc == "" || len(e.Label) == 0 {
			t.Errorf("%s: subject %q, group %q, doc %q, label %v: all are needed", name, e.Subject, e.Group, e.Doc, e.Label)
		}
	}
	if e, _ := schema.Get("user"); e.Table != "users" {
		t.Errorf("user lives in table %q, want users", e.Table)
	}
}

// TestSpecRelations checks the relation tabs of both specifications by the
// names the API uses ('{table}_{list}_rel') and, for links, the attributes
// the relation carries.
func TestSpecRelations(t *testing.T) {
	cases := []struct {
		api    string
		target string
		attrs  []string // link attributes that must exist
	}{
		{"pos_location_rel", "location", nil},
		{"pos_area_rel", "area", nil},
		{"pos_contract_rel", "contract", nil},
		{"pos_tag_rel", "tag", nil},
		{"pos_ticket_rel", "ticket", nil},
		{"pos_contradiction_package_rel", "contradictionpackage", nil},
		{"pos_ta_invoices_rel", "invoice", nil},
		{"pos_document_rel", "document", nil},
		{"pos_email_rel", "email", nil},
		{"contract_invoice_rel", "invoice", nil},
		{"contract_area_rel", "area", []string{"usagetype_id", "unit_id", "rentalspace_value", "allocationspace_value", "mainusage", "valid_from", "valid_to", "description"}},
		{"contract_partner_company_rel", "partnercompany", []string{"partner_role"}},
		{"contract_document_rel", "document", []string{"documentcontracttype_id"}},
		{"contract_deadlines_rel", "contractaction", nil},
		{"contract_recurring_payment_rel", "recurringpayment", nil},
		{"contract_service_object_rel", "serviceobject", nil},
		{"contract_costtype_rel", "costtype", []string{"comment"}},
		{"contract_criteria_rel", "criteria", []string{"value", "choice_id", "valid_from", "valid_to", "exists", "is_obsolete", "comment"}},
		{"contract_specialright_rel", "specialright", []string{"description", "date", "is_availed", "is_passive", "prior_notice_date", "termination_date"}},
		{"company_tickets_rel", "ticket", nil},
		{"company_contradiction_rel", "contradiction", nil},
		{"company_review_invoices_rel", "invoice", nil},
		{"company_sales_order_rel", "salesorder", nil},
		{"company_contact_person_rel", "contactperson", nil},
		{"company_appointment_track_rel", "appointmenttrack", nil},
		{"company_bank_data_rel", "bankdata", nil},
		{"company_pos_rel", "pos", nil},
		{"company_payments_rel", "payment", nil},
		{"company_users_rel", "user", nil},
		{"company_tax_rates_rel", "taxrate", nil},
		{"user_customergroups_rel", "customergroup", []string{"valid_from", "valid_to"}},
		{"user_companies_rel", "company", []string{"valid_from", "valid_to"}},
		{"user_pos_rel", "pos", []string{"valid_from", "valid_to"}},
		{"team_users_rel", "user", []string{"valid_from", "valid_to"}},
		{"team_roles_rel", "role", nil},
		{"role_users_rel", "user", nil},
		{"location_areas_rel", "area", nil},
		{"location_partnercompany_rel", "partnercompany", []string{"partnertype_id", "valid_from", "valid_to"}},
		{"partnercompany_contactperson_rel", "contactperson", nil},
		{"partnercompany_bankdata_rel", "bankdata", nil},
		{"partnercompany_kreditornumber_rel", "kreditornumber", nil},
		{"partnergroup_partnercompany_rel", "partnercompany", nil},
		{"partnergroup_users_rel", "user", []string{"valid_from", "valid_to"}},
		{"partnergroup_contactperson_rel", "contactperson", nil},
		{"board_columnx_rel", "columnx", []string{"rank_order", "is_qualitygate", "has_stamp"}},
		{"board_documenttype_rel", "documenttype", nil},
		{"board_column_priority_rel", "priority", nil},
		{"area_contract_rel", "contract", nil},
		{"area_pos_rel", "pos", nil},
		{"area_serviceobject_rel", "serviceobject", nil},
		{"serviceobject_area_rel", "area", nil},
		{"serviceobject_location_rel", "location", nil},
		{"serviceobject_contract_rel", "contract", nil},
		{"tag_pos_rel", "pos", nil},
		{"costtype_externalcosttype_rel", "externalcosttype", nil},
		{"costtype_contract_rel", "contract", []string{"comment"}},
		{"invoice_value_types_rel", "invoicevaluetype", []string{"value"}},
		{"invoice_criteria_rel", "invoicecriteria", []string{"is_set"}},
		{"invoice_deadlines_rel", "invoicedeadline", nil},
		{"invoice_documents_rel", "document", nil},
		{"invoice_service_objects_rel", "serviceobject", nil},
		{"invoice_positions_rel", "invoiceposition", nil},
		{"ticket_document_rel", "document", nil},
		{"ticket_email_rel", "email", nil},
		{"email_attachments_rel", "document", nil},
	}
	reg := schema.Default()
	for _, c := range cases {
		_, rel, ok := reg.RelationByAPIName(c.api)
		if !ok {
			t.Errorf("relation %s is not defined", c.api)
			continue
		}
		if rel.Target != c.target {
			t.Errorf("%s targets %s, want %s", c.api, rel.Target, c.target)
		}
		for _, a := range c.attrs {
			if _, ok := reg.RelationField(rel, a); !ok {
				t.Errorf("%s rows lack attribute %s", c.api, a)
			}
		}
	}
}

func TestSpecLimitsAndLookups(t *testing.T) {
	inline := []string{"sachkonto", "unit", "choice", "areatype", "contracttype", "documentcontracttype", "product",
		"criteriatype", "locationtype", "maturitytype", "usagetype", "serviceobjecttype", "recurringpaymenttype",
		"partnertype", "translation", "attribute_i18n"}
	for _, e := range schema.All() {
		if got, want := e.Lookup, slices.Contains(inline, e.Name); got != want {
			t.Errorf("%s: inline edit %v, want %v", e.Name, got, want)
		}
	}
	limits := map[string]schema.Limits{
		"textmodule":            {NoCreate: true, NoDelete: true},
		"texttemplate":          {NoCreate: true, NoUpdate: true, NoDelete: true},
		"texttemplate_variable": {NoCreate: true, NoUpdate: true, NoDelete: true},
		"trackrecord":           {NoCreate: true, NoUpdate: true, NoDelete: true},
		"document":              {NoGenericList: true},
		"email":                 {NoCreate: true},
		"pos":                   {},
	}
	for name, want := range limits {
		if e, _ := schema.Get(name); e.Limits != want {
			t.Errorf("%s limits = %+v, want %+v", name, e.Limits, want)
		}
	}
}

// TestSpecRules checks the validation rules of section 5 of both documents.
func TestSpecRules(t *testing.T) {
	field := func(entity, name string) *schema.Field {
		t.Helper()
		e, ok := schema.Get(entity)
		if !ok {
			t.Fatalf("no entity %s", entity)
		}
		f, ok := e.Field(name)
		if !ok {
			t.Fatalf("no field %s.%s", entity, name)
		}
		return f
	}
	hasRule := func(f *schema.Field, kind schema.RuleKind, other string) bool {
		return slices.ContainsFunc(f.Checks(), func(r schema.Rule) bool { return r.Kind == kind && r.Field == other })
	}
	jsonOf := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	// Every end of a validity period or billing period is not before its start.
	reg := schema.Default()
	checkPeriods := func(owner string, fields []schema.Field) {
		for i := range fields {
			f := &fields[i]
			if strings.HasSuffix(f.Name, "valid_to") || strings.HasSuffix(f.Name, "_period_to") || strings.HasSuffix(f.Name, "_end_date") {
				if !slices.ContainsFunc(f.Rules, func(r schema.Rule) bool { return r.Kind == schema.RuleDateAfter }) {
					t.Errorf("%s.%s has no date_after rule", owner, f.Name)
				}
			}
		}
	}
	for _, e := range reg.Entities() {
		checkPeriods(e.Name, e.Fields)
	}
	for _, l := range reg.Links() {
		checkPeriods(l.Table, l.Attrs)
	}

	cases := []struct {
		name string
		ok   bool
	}{
		{"contract end not before begin", hasRule(field("contract", "contract_end_date"), schema.RuleDateAfter, "contract_begin_date")},
		{"units_customer lower than total units", hasRule(field("invoiceposition", "units_customer"), schema.RuleLower, "total_units")},
		{"partner shortname at most 10", field("partnercompany", "partnercompany_shortname").MaxLen == 10},
		{"point change required when percent change empty", hasRule(field("indexclause", "indexclause_minimal_point_change"), schema.RuleRequiredIfNull, "indexclause_minimal_percent_change")},
		{"extern_client team not for all customers needs customer groups",
			jsonOf(field("team", "customergroup_id").Required.When) == `{"op":"all","conds":[{"op":"in","field":"team_type","values":["extern_client"]},{"op":"falsy","field":"team_for_all_customer"}]}`},
		{"extern_partner team needs partner groups",
			jsonOf(field("team", "partnergroup_id").Required.When) == `{"op":"in","field":"team_type","values":["extern_partner"]}`},
		{"team_for_all_customer defaults to 1, not editable on update",
			field("team", "team_for_all_customer").Default == schema.Int(1) && field("team", "team_for_all_customer").Immutable},
		{"bank data belongs to exactly one of partner company and company", hasRule(field("bankdata", "partnercompany_id"), schema.RuleRequiredIfNull, "company_id")},
		{"user e-mail is checked", hasRule(field("user", "user_email"), schema.RuleEmail, "")},
		{"document upload size rule", slices.ContainsFunc(field("document", "document_file").Rules, func(r schema.Rule) bool {
			return r.Kind == schema.RuleSize && r.Value == schema.Int(100000)
		})},
		{"ticket deadlines not in the past", hasRule(field("ticket", "ticket_red_deadline"), schema.RuleNotPast, "")},
		{"defaults: pos_internal_id 56, ticket_progress 10, deadline values 24",
			field("pos", "pos_internal_id").Default == schema.Int(56) && field("ticket", "ticket_progress").Default == schema.Int(10) &&
				field("defaultvalue", "defaultvalue_red").Default == schema.Int(24)},
		{"user password optional, write-only, hidden on update",
			!field("user", "user_password").Required.Always() && field("user", "user_password").WriteOnly && field("user", "user_password").HiddenOnUpdate},
		{"user_locked hidden on create", field("user", "user_locked").HiddenOnCreate},
	}
	for _, c := range cases {
		if !c.ok {
			t.Errorf("rule missing: %s", c.name)
		}
	}

	// Contract criteria: value only for criteria 1 and 39; the choice is
	// required when the criteria offers choices.
	_, crit, _ := reg.RelationByAPIName("contract_criteria_rel")
	value, _ := reg.RelationField(crit, "value")
	choice, _ := reg.RelationField(crit, "choice_id")
	if got := jsonOf(value.ShowWhen); got != `{"op":"in","field":"criteria_id","values":[1,39]}` {
		t.Errorf("contract criteria value shown when %s", got)
	}
	if got := jsonOf(choice.Required.When); got != `{"op":"options_filled","field":"choice_id"}` {
		t.Errorf("contract criteria choice required when %s", got)
	}
}

func TestBooleansDefaultToZero(t *testing.T) {
	explicit := map[string]int64{"team_for_all_customer": 1, "has_value": 1, "legally_clear": 1}
	for _, e := range schema.All() {
		for i := range e.Fields {
			f := &e.Fields[i]
			if f.Type != schema.TypeBool {
				continue
			}
			want := schema.Int(0)
			if n, ok := explicit[f.Name]; ok && !(e.Name == "inspectionresult" && f.Name == "legally_clear") {
				want = schema.Int(n)
			}
			if f.Default != want {
				t.Errorf("%s.%s defaults to %v, want %v", e.Name, f.Name, f.Default, want)
			}
		}
	}
}

func TestDerivedFields(t *testing.T) {
	cases := []struct {
		entity, field string
		want          string
		stored        bool
	}{
		{"user", "user_abbreviation", `{"fn":"initials","args":["user_firstname","user_lastname"],"on_create":true}`, true},
		{"contactperson", "contactperson_shortname", `{"fn":"initials","args":["contactperson_firstname","contactperson_lastname"]}`, true},
		{"contract", "contract_rentalspace_sum", `{"fn":"sum","relation":"area","field":"rentalspace_value"}`, false},
		{"contract", "contract_allocationspace_sum", `{"fn":"sum","relation":"area","field":"allocationspace_value"}`, false},
		{"customergroup", "company_count", `{"fn":"count","relation":"companies"}`, false},
		{"serviceobject", "serviceobject_location_name", `{"fn":"list","relation":"location","field":"location_name"}`, false},
		{"serviceobject", "serviceobject_area_count", `{"fn":"count","relation":"area"}`, false},
		{"serviceobject", "serviceobject_contract_name", `{"fn":"list","relation":"contract","field":"contract_name"}`, false},
		{"serviceobject", "serviceobject_last_change_time", `{"fn":"now"}`, true},
		{"address", "city_zip", `{"fn":"ref","args":["city_id"],"field":"city_zip"}`, false},
		{"ticket", "ticket_deadline_status", `{"fn":"deadline_status","args":["ticket_yellow_deadline","ticket_red_deadline","ticket_closed"]}`, false},
	}
	for _, c := range cases {
		e, _ := schema.Get(c.entity)
		f, ok := e.Field(c.field)
		if !ok || f.Derived == nil {
			t.Errorf("%s.%s is not derived", c.entity, c.field)
			continue
		}
		b, _ := json.Marshal(f.Derived)
		if string(b) != c.want || f.Stored() != c.stored || f.Writable() {
			t.Errorf("%s.%s derived %s (stored %v, writable %v), want %s (stored %v, not writable)",
				c.entity, c.field, b, f.Stored(), f.Writable(), c.want, c.stored)
		}
	}
}

func TestTenantPaths(t *testing.T) {
	reg := schema.Default()
	cases := []struct {
		entity   string
		customer []string // first hop of each customer path, "" for the row itself
		partner  []string
		global   bool
	}{
		{entity: "customergroup", customer: []string{""}},
		{entity: "partnergroup", partner: []string{""}},
		{entity: "company", customer: []string{"customergroup_id"}},
		{entity: "pos", customer: []string{"company_id"}},
		{entity: "area", customer: []string{"location_id"}, partner: []string{"location_id"}},
		{entity: "contract", customer: []string{"company_id"}, partner: []string{"partner_company"}},
		{entity: "invoice", customer: []string{"company_id"}},
		{entity: "ticket", customer: []string{"pos_id"}},
		{entity: "document", customer: []string{"pos", "contract", "ticket", "invoice", "email"}},
		{entity: "email", customer: []string{"pos_id", "contract_id", "ticket_id"}},
		{entity: "partnercompany", partner: []string{"partnergroup_id"}},
		{entity: "unit", global: true},
		{entity: "role", global: true},
	}
	first := func(paths []schema.Path) []string {
		var out []string
		for _, p := range paths {
			if len(p) == 0 {
				out = append(out, "")
			} else {
				out = append(out, p[0])
			}
		}
		return out
	}
	for _, c := range cases {
		e, _ := reg.Entity(c.entity)
		if e.Tenant.Global != c.global || !slices.Equal(first(e.Tenant.Customer), c.customer) || !slices.Equal(first(e.Tenant.Partner), c.partner) {
			t.Errorf("%s tenant = %+v", c.entity, e.Tenant)
		}
		for _, p := range e.Tenant.Customer {
			hops, err := reg.Hops(e.Name, p, true)
			if err != nil {
				t.Errorf("%s: %v", c.entity, err)
			} else if len(hops) > 0 && hops[len(hops)-1].To != "customergroup" {
				t.Errorf("%s: customer path %v ends at %s", c.entity, p, hops[len(hops)-1].To)
			}
		}
	}
}
