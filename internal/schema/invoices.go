package schema

// invoices: invoice review — invoices, positions, deadlines, value types and
// criteria, inspection results, contradictions and their packages and
// points, and the text modules and templates letters are written from.
// Migration 0005_invoices.sql.
func invoices() ([]Entity, []Link) {
	viaInvoice := Path{"invoice_id", "company_id", "customergroup_id"}
	rightBlock := func(n int64) Field {
		shown := make([]Literal, 0, 5)
		for i := n; i <= 5; i++ {
			shown = append(shown, Int(i))
		}
		return htmlText("textmodule_right_text_" + Int(n).String()).optional().
			label("Right text " + Int(n).String()).showWhen(In("textmodule_block_count", shown...))
	}

	entities := []Entity{
		masterData("invoicevaluetype", "A kind of value read from invoices, with its unit.",
			ref("unit_id", "unit"),
			flag("invoicevaluetype_preferred_unit").label("Preferred unit")),
		masterData("invoicecriteria", "A criteria an invoice is checked for."),
		masterData("claimtype", "Kind of claim an inspection result raises."),
		masterData("rating", "Rating of an inspection result."),
		masterData("resultcategorization", "Categorization of an inspection result."),
		masterData("savingtype", "Kind of saving an inspection result achieves."),
		{
			Name: "textmodule", Doc: "A text block letters are assembled from: a left text and up to five right-hand blocks.",
			Tenant: global, Limits: Limits{NoCreate: true, NoDelete: true},
			// The product finds its modules by code and language: one row
			// per language (migration 0026, decision 0016).
			Unique: [][]string{{"textmodule_code", "textmodule_language"}},
			Fields: []Field{
				name("textmodule_name"),
				str("textmodule_code", lenShort).optional().label("Code"),
				languageCode("textmodule_language").optional().label("Language"),
				memo("textmodule_description").optional(),
				htmlText("textmodule_templatetext").label("Template text"),
				htmlText("textmodule_left_text").optional().label("Left text"),
				integer("textmodule_block_count").def(Int(1)).minValue(0).maxValue(5).label("Number of right-hand blocks"),
				rightBlock(1), rightBlock(2), rightBlock(3), rightBlock(4), rightBlock(5),
			},
		},
		{
			// The product's letters use these templates by code, so none is
			// created or deleted (decision 0014); nor changed, as the
			// specification's limits say: the wording a customer gives a
			// letter is the text module of the same code (decision 0065).
			Name: "texttemplate", Doc: "A letter or mail template of the product in German, French and English; its wording is edited as the text module of the same code.",
			Tenant: global, Limits: Limits{NoCreate: true, NoUpdate: true, NoDelete: true},
			Unique: [][]string{{"texttemplate_code"}},
			Fields: []Field{
				name("texttemplate_name"),
				str("texttemplate_code", lenShort).search(),
				htmlText("texttemplate_content_de").label("Content (German)"),
				htmlText("texttemplate_content_fr").label("Content (French)"),
				htmlText("texttemplate_content_en").label("Content (English)"),
			},
		},
		{
			Name: "texttemplate_variable", Doc: "A placeholder text templates may use.",
			Tenant: global, Limits: Limits{NoCreate: true, NoUpdate: true, NoDelete: true},
			Unique: [][]string{{"texttemplate_variable_name"}},
			Fields: []Field{
				name("texttemplate_variable_name"),
				memo("texttemplate_variable_description").optional(),
			},
		},
		{
			Name: "invoice", Doc: "An invoice under review (service charge statement, rent invoice) of a company's contract.",
			Label:  []string{"invoice_id", "invoice_number", "invoice_date"},
			Tenant: byCustomer(viaCompany),
			Fields: []Field{
				day("invoice_date").index(),
				day("invoice_date_of_order").label("Date of order"),
				integer("invoice_contract_year").label("Contract year").minValue(1900).maxValue(2100).index(),
				ref("company_id", "company"),
				// Kept for sorting and search, not shown: the company field already names the company.
				str("company_name", lenName).label("Company").derive(RefOf("company_name", "company_id")).internal(),
				decimal("invoice_allocationarea").minValue(0).label("Allocation area"),
				day("invoice_payment_date").label("Payment date"),
				ref("contract_id", "contract").where("company_id", "company_id"),
				multi("area_id", "area", "areas"),
				ref("partnertype_id", "partnertype"),
				memo("invoice_description").optional(),
				str("invoice_number", lenShort).search().index(),
				day("invoice_billing_period_from").label("Billing period from").index(),
				day("invoice_billing_period_to").label("Billing period to").after("invoice_billing_period_from"),
				// A statement's deadlines (decision 0062): computed by
				// internal/invoices from the date it was received, the end of
				// its billing period and its contract's agreed periods.
				day("invoice_received_date").optional().withHelp().label("Received on"),
				day("invoice_objection_deadline").optional().readOnly().hideOnCreate().withHelp().label("Objection deadline"),
				day("invoice_settlement_deadline").optional().readOnly().hideOnCreate().withHelp().label("Settlement deadline"),
				// Who answers for the statement and hears of its objection deadline
				// (decision 0063): who entered it, unless someone else is named.
				ref("invoice_responsible_user_id", UserEntity).optional().setNull().index().withHelp().label("Responsible").reader(),
			},
			Relations: []Relation{
				manyToMany("value_types", "invoicevaluetype", "invoice_invoicevaluetype"),
				manyToMany("criteria", "invoicecriteria", "invoice_invoicecriteria"),
				hasMany("deadlines", "invoicedeadline", "invoice_id"),
				manyToMany("documents", "document", "invoice_document"),
				manyToMany("service_objects", "serviceobject", "invoice_serviceobject"),
				hasMany("positions", "invoiceposition", "invoice_id"),
				manyToMany("areas", "area", "invoice_area"),
				hasMany("contradiction", "contradiction", "invoice_id"),
				hasMany("inspection_results", "inspectionresult", "invoice_id"),
			},
		},
		{
			Name: "invoiceposition", Doc: "A position of an invoice; flat_rate and apportionable are switched inline.",
			Tenant: byCustomer(viaInvoice),
			Fields: []Field{
				ref("invoice_id", "invoice").cascade(),
				name("invoiceposition_name"),
				ref("externalcosttype_id", "externalcosttype"),
				ref("costtype_id", "costtype"),
				ref("unit_id", "unit").def(Int(DefaultUnitID)),
				decimal("total_units").minValue(0).unit("unit_id", ""),
				decimal("units_customer").minValue(0).unit("unit_id", "").rules(Lower("total_units")),
				flag("flat_rate").kind(KindBoolean),
				decimal("amount_total"),
				decimal("amount_customer"),
				flag("apportionable").kind(KindBoolean),
			},
		},
		{
			Name: "invoicedeadline", Doc: "A dated deadline of an invoice (objection, payment, reply).",
			Tenant: byCustomer(viaInvoice),
			Fields: []Field{
				ref("invoice_id", "invoice").cascade(),
				name("invoicedeadline_name"),
				day("invoicedeadline_date").index(),
			},
		},
		{
			Name: "contradictionpackage", Doc: "A package of contradictions of a point of sale sent together.",
			Tenant: byCustomer(Path{"pos_id", "company_id", "customergroup_id"}),
			Fields: []Field{
				ref("pos_id", "pos"),
				name("contradictionpackage_name"),
				memo("contradictionpackage_description").optional(),
				decimal("contradictionpackage_sum").label("Sum").derive(SumOver("contradictions", "contradiction_sum")),
				integer("contradictionpackage_count").label("Contradictions").derive(CountOf("contradictions")),
			},
			Relations: []Relation{hasMany("contradictions", "contradiction", "contradictionpackage_id")},
		},
		{
			Name: "contradiction", Doc: "An objection to an invoice, made of contradiction points.",
			Tenant: byCustomer(viaInvoice),
			Fields: []Field{
				ref("invoice_id", "invoice"),
				ref("contradictionpackage_id", "contradictionpackage").optional().setNull(),
				name("contradiction_name"),
				decimal("contradiction_sum").def(Int(0)).label("Sum"),
				memo("contradiction_description").optional(),
				integer("contradiction_point_count").label("Points").derive(CountOf("points")),
			},
			Relations: []Relation{hasMany("points", "contradictionpoint", "contradiction_id")},
		},
		{
			Name: "contradictionpoint", Doc: "One point of a contradiction with its claim and accommodation thresholds.",
			Label:  []string{"contradictionpoint_title"},
			Tenant: byCustomer(Path{"contradiction_id", "invoice_id", "company_id", "customergroup_id"}),
			Fields: []Field{
				ref("contradiction_id", "contradiction").cascade(),
				integer("contradictionpoint_rank").minValue(0).label("Rank").index(),
				str("contradictionpoint_title", lenName).search(),
				decimal("contradictionpoint_max_claim_green").optional(),
				decimal("contradictionpoint_max_claim_yellow").optional(),
				decimal("contradictionpoint_max_claim_red").optional(),
				decimal("contradictionpoint_max_accommodation_green").optional(),
				decimal("contradictionpoint_max_accommodation_yellow").optional(),
				decimal("contradictionpoint_max_accommodation_red").optional(),
				decimal("contradictionpoint_additional_accommodation").optional(),
				decimal("contradictionpoint_owner_offer").optional(),
				htmlText("contradictionpoint_text").label("Text"),
				htmlText("contradictionpoint_customer_text").optional().label("Customer text"),
				ref("textmodule_id", "textmodule").optional(),
				flag("legally_clear").def(Int(1)),
				flag("hidden"),
				// What the generator found (issue 14): the position objected to,
				// the amount claimed and the rule's code (empty for a point a
				// person wrote); the landlord's answer is the accepted amount.
				ref("invoiceposition_id", "invoiceposition").optional().setNull(),
				decimal("contradictionpoint_claim").optional().minValue(0).label("Claim"),
				enum("contradictionpoint_rule", contradictionRules...).optional().label("Rule"),
				decimal("contradictionpoint_accepted").optional().minValue(0).label("Accepted amount"),
			},
		},
		{
			Name: "inspectionresult", Doc: "The result of inspecting an invoice: value, saving, claim, rating.",
			Label:  []string{"inspectionresult_id", "inspectionresult_value"},
			Tenant: byCustomer(viaInvoice),
			Fields: []Field{
				ref("invoice_id", "invoice").cascade(),
				ref("invoiceposition_id", "invoiceposition").optional().setNull(),
				decimal("inspectionresult_value").label("Value"),
				flag("inspectionresult_realised").kind(KindYesNo).label("Realised"),
				enum("unique_or_perennial", opt("unique", "Unique"), opt("perennial", "Perennial")),
				flag("legally_clear"),
				ref("claimtype_id", "claimtype"),
				ref("savingtype_id", "savingtype"),
				ref("rating_id", "rating"),
				ref("resultcategorization_id", "resultcategorization"),
			},
		},
	}
	links := []Link{
		link("invoice_area", "invoice", "area"),
		link("invoice_invoicevaluetype", "invoice", "invoicevaluetype", decimal("value")),
		link("invoice_invoicecriteria", "invoice", "invoicecriteria", flag("is_set").label("Set")),
		link("invoice_serviceobject", "invoice", "serviceobject").cascadeBoth(),
	}
	return entities, links
}

// contradictionRules are the generator's rules (internal/invoices.Rules,
// decisions 0016 and 0061) by their code: a generated point names its
// rule, a point a person wrote none. The generic screens show the names.
var contradictionRules = []Option{
	opt("costtype_not_agreed", "Cost type not agreed"),
	opt("not_apportionable", "Not apportionable"),
	opt("share_exceeded", "Share exceeded"),
	opt("flat_rate_changed", "Flat rate raised"),
	opt("admin_costs_over_cap", "Administration costs above the cap"),
	opt("admin_costs_above_customary", "Administration costs above the customary range"),
	opt("maintenance_over_cap", "Maintenance above the cap"),
	opt("maintenance_without_cap", "Maintenance without a cap"),
	opt("billing_period_over_agreed", "Period longer than agreed"),
	opt("billing_period_over_12_months", "Period over 12 months"),
}
