package schema

// Fixed lookup ids the contract definitions rely on; the seed creates them.
const (
	// MaturityFixedDate is the maturity type showing a fixed maturity date.
	MaturityFixedDate int64 = 1
	// MaturityRanges is the maturity type showing daily and monthly ranges.
	MaturityRanges int64 = 2
	// CriteriaWithValueA and CriteriaWithValueB are the only criteria whose
	// contract criteria carry a numeric value.
	CriteriaWithValueA int64 = 1
	CriteriaWithValueB int64 = 39
)

// PaymentTypeBaseRent is the recurring payment type of the base rent (net
// rent per month, Grundmiete): the plausibility rules of the invoice
// review measure administration costs against it (decision 0061).
const PaymentTypeBaseRent int64 = 1

// Recurring payment type ids: the sum per month is shown for types 1, 3-9,
// the percentage for types 2 and 10.
var (
	paymentTypesWithSum        = idList(1, 3, 4, 5, 6, 7, 8, 9)
	paymentTypesWithPercentage = idList(2, 10)
)

// Deadline units of notice periods and extensions.
var periodUnits = []Option{opt("day", "Day"), opt("week", "Week"), opt("month", "Month"), opt("year", "Year")}

// contracts: contracts and everything hanging from them (area links,
// deadlines, recurring payments, criteria, special rights, cost types,
// service objects, index clauses) with their lookups. Migration
// 0004_contracts.sql.
func contracts() ([]Entity, []Link) {
	viaContract := Path{"contract_id", "company_id", "customergroup_id"}
	viaContractPartner := Path{"contract_id", "partner_company", "partnergroup_id"}
	optionTypes := In("contractaction_type", Text("active_option"), Text("automatic_option"), Text("automatic_extension"))

	entities := []Entity{
		lookup("contracttype", "Kind of contract (lease, service, ...)."),
		lookup("documentcontracttype", "Role of a document in a contract (main contract, amendment, ...)."),
		lookup("maturitytype", "How a recurring payment falls due. Fixed ids: 1 fixed date, 2 daily and monthly ranges."),
		lookup("recurringpaymenttype", "Kind of recurring payment. Ids 1, 3-9 are sums per month, 2 and 10 percentages."),
		lookup("serviceobjecttype", "Kind of service object."),
		{
			Name: "criteriatype", Doc: "Kind of criteria; has_value says whether its criteria carry a value, units the units offered.",
			Lookup: true, Tenant: global,
			Fields: []Field{
				name("criteriatype_name"),
				memo("criteriatype_description").optional(),
				flag("has_value").def(Int(1)).label("Has value"),
				multi("unit_id", "unit", "units").optional().label("Units"),
			},
			Relations: []Relation{manyToMany("units", "unit", "criteriatype_unit")},
		},
		{
			Name: "criteria", Doc: "A contract condition (criteria). Ids 1 and 39 carry a numeric value.",
			Tenant: global,
			Fields: []Field{
				name("criteria_name"),
				ref("criteriatype_id", "criteriatype"),
				memo("criteria_description").optional(),
			},
			Relations: []Relation{hasMany("choices", "choice", "criteria_id")},
		},
		{
			Name: "choice", Doc: "One answer a criteria offers.",
			Lookup: true, Tenant: global,
			Fields: []Field{
				ref("criteria_id", "criteria").cascade(),
				name("choice_name"),
				flag("has_value").def(Int(1)).label("Has value"),
			},
		},
		masterData("specialright", "A special right a contract may grant (pre-emption, sublease, ...).").
			withRelations(manyToMany("contract", "contract", "contract_specialright")),
		{
			Name: "costtype", Small: true, Doc: "An internal cost type, mapped to external cost types and to contracts.",
			Tenant: global,
			Fields: []Field{
				name("costtype_name"),
				flag("costtype_maingroup").label("Main group"),
				memo("costtype_description").optional(),
				// What the generator's plausibility rules treat the cost type
				// as (decision 0061): administration costs are checked against
				// the contract's cap or the customary range, maintenance of
				// common areas against the contract's cap.
				enum("costtype_category", opt("administration", "Administration costs"),
					opt("maintenance", "Maintenance and repair of common areas"), opt("other", "Other")).
					def(Text("other")).label("Category").withHelp(),
			},
			Relations: []Relation{
				manyToMany("externalcosttype", "externalcosttype", "costtype_externalcosttype"),
				manyToMany("contract", "contract", "contract_costtype"),
			},
		},
		masterData("externalcosttype", "A cost type as landlords name it on invoices.").
			withRelations(manyToMany("costtype", "costtype", "costtype_externalcosttype")),
		{
			Name: "indexclause", Doc: "An index clause: how a rent follows a price index.",
			Tenant: byCustomer(Path{"recurring_payment", "contract_id", "company_id", "customergroup_id"}),
			Fields: []Field{
				name("indexclause_name"),
				memo("indexclause_adjustment_rule"),
				memo("indexclause_description").label("Adjustment description"),
				integer("indexclause_baseyear").label("Base year").minValue(1900).maxValue(2100),
				day("indexclause_begin_date"),
				decimal("indextransmission_percent").minValue(0).maxValue(100),
				flag("change_in_percent"),
				decimal("indexclause_minimal_percent_change").optional().showWhen(IsTruthy("change_in_percent")),
				decimal("indexclause_minimal_point_change").optional().showWhen(IsFalsy("change_in_percent")).
					rules(RequiredIfNull("indexclause_minimal_percent_change")),
				// The series the clause follows (decision 0011, migration 0017):
				// empty means the default series, which internal/indexation
				// fills in on every create.
				ref("priceindex_id", "priceindex").optional().label("Price index"),
				// How the contract words the clause (issue 39, decision 0011);
				// empty is the rule before these fields existed.
				integer("indexclause_percent_decimals").optional().minValue(0).maxValue(4).label("Rate rounded to decimals").
					withHelp(),
				enum("indexclause_threshold_rule", opt("at_least", "At least the threshold"), opt("more_than", "More than the threshold")).
					def(Text("at_least")).label("Threshold rule").
					withHelp(),
				integer("indexclause_min_months").optional().minValue(1).maxValue(240).label("Unchanged for at least (months)").
					withHelp(),
				integer("indexclause_schedule_months").optional().minValue(1).maxValue(240).label("Fixed schedule (months)").
					withHelp(),
				decimal("indexclause_max_percent").optional().minValue(-100).maxValue(1000).label("Cap per adjustment (%)").
					withHelp(),
				decimal("indexclause_min_percent").optional().minValue(-100).maxValue(1000).label("Floor per adjustment (%)").
					rules(Lower("indexclause_max_percent")).
					withHelp(),
				flag("indexclause_upward_only").label("Upward only").
					withHelp(),
			},
			Relations: []Relation{
				hasMany("recurring_payment", "recurringpayment", "indexclause_id"),
				hasMany("adjustments", "indexadjustment", "indexclause_id"),
			},
		},
		{
			Name: "serviceobject", AccessSubject: "service_object", Doc: "A serviced object (installation, equipment) at areas, locations and contracts.",
			Tenant: byCustomer(
				Path{"location", "company_id", "customergroup_id"},
				Path{"contract", "company_id", "customergroup_id"},
				Path{"area", "location_id", "company_id", "customergroup_id"},
			),
			Fields: []Field{
				name("serviceobject_name"),
				str("serviceobject_name_external", lenName).optional().search(),
				memo("serviceobject_description").optional(),
				ref("serviceobjecttype_id", "serviceobjecttype"),
				str("serviceobject_location_name", 0).label("Location").derive(ListOf("location", "location_name")),
				integer("serviceobject_area_count").label("Amount of areas").derive(CountOf("area")),
				str("serviceobject_contract_name", 0).label("Contract").derive(ListOf("contract", "contract_name")),
				stamp("serviceobject_last_change_time").label("Last change").derive(Now(false)).index(),
			},
			Relations: []Relation{
				manyToMany("area", "area", "area_serviceobject"),
				manyToMany("location", "location", "location_serviceobject"),
				manyToMany("contract", "contract", "contract_serviceobject"),
			},
		},
		{
			Name: "contract", Doc: "A lease or service contract of a company for a point of sale at a location.",
			Tenant: byCustomer(viaCompany).orPartner(Path{"partner_company", "partnergroup_id"}),
			Fields: []Field{
				name("contract_name"),
				ref("contracttype_id", "contracttype"),
				ref("company_id", "company"),
				ref("pos_id", "pos").where("company_id", "company_id"),
				ref("location_id", "location").whereLinked("pos", "pos_id"),
				ref("currency_id", "currency"),
				day("contract_begin_date").index(),
				day("contract_end_date").after("contract_begin_date").index(),
				// The end the contract runs to now: the agreed end moved by
				// the options exercised and the automatic extensions made
				// (decision 0064). Computed by internal/contracts whenever
				// the end date or a deadline changes, and nightly.
				day("contract_current_end_date").optional().after("contract_end_date").readOnly().hideOnCreate().index().withHelp().label("Current end"),
				day("contract_first_possible_end_date").after("contract_begin_date").index(),
				flag("contract_migration_checked"),
				flag("contract_resiliation").kind(KindCustomSelect).
					withOptions(optInt(0, "Pending"), optInt(1, "Resiliated")),
				decimal("contract_rentalspace_sum").label("Rental space").derive(SumOver("area", "rentalspace_value")),
				decimal("contract_allocationspace_sum").label("Allocation space").derive(SumOver("area", "allocationspace_value")),
				day("contract_next_notice_date").label("Next notice date").derive(NextOver("deadlines", "contractaction_notice_date").OnlyWhere("contractaction_status", "active")),
				// The periods of a service-charge statement the lease agrees
				// (decision 0062); empty: twelve months each, as § 556 (3) BGB
				// words them.
				integer("contract_objection_months").optional().minValue(1).maxValue(60).withHelp().label("Objection period (months)"),
				integer("contract_settlement_months").optional().minValue(1).maxValue(60).withHelp().label("Settlement period (months)"),
				// What the lease agrees on its service charges (issue 39,
				// decision 0061): empty means the lease agrees nothing, and
				// the generator warns instead of claiming.
				decimal("contract_admin_cost_cap_percent").optional().minValue(0).maxValue(100).
					label("Administration costs cap (% of net rent)").withHelp(),
				decimal("contract_maintenance_cap").optional().minValue(0).
					label("Maintenance cap of common areas (per year)").withHelp(),
				integer("contract_billing_period_months").optional().minValue(1).maxValue(24).
					label("Billing period at most (months)").withHelp(),
			},
			Relations: []Relation{
				hasMany("invoice", "invoice", "contract_id"),
				manyToMany("area", "area", "contract_area"),
				manyToMany("partner_company", "partnercompany", "contract_partnercompany"),
				manyToMany("document", "document", "contract_document"),
				hasMany("deadlines", "contractaction", "contract_id"),
				hasMany("recurring_payment", "recurringpayment", "contract_id"),
				manyToMany("service_object", "serviceobject", "contract_serviceobject"),
				manyToMany("costtype", "costtype", "contract_costtype"),
				manyToMany("criteria", "criteria", "contract_criteria"),
				manyToMany("specialright", "specialright", "contract_specialright"),
			},
		},
		{
			Name: "contractaction", Doc: "A contract deadline: option, automatic extension or (special) resiliation with its notice period.",
			Label:  []string{"contractaction_type", "contractaction_notice_date"},
			Tenant: byCustomer(viaContract).orPartner(viaContractPartner),
			Fields: []Field{
				ref("contract_id", "contract").cascade(),
				// Where the deadline's contract is, read in the deadline's own
				// statement (the deadline list shows them on every row).
				str("contract_pos_name", lenName).label("Point of sale").derive(RefOf("pos_name", "contract_id", "pos_id")),
				str("contract_company_name", lenName).label("Company").derive(RefOf("company_name", "contract_id", "company_id")),
				enum("contractaction_acting_by", opt("mieter_vermieter", "Tenant and landlord"),
					opt("mieter", "Tenant"), opt("vermieter", "Landlord")).label("Acting by"),
				enum("contractaction_type", opt("active_option", "Active option"), opt("automatic_option", "Automatic option"),
					opt("automatic_extension", "Automatic extension"), opt("resiliation", "Resiliation"),
					opt("special_resiliation", "Special resiliation")).label("Type").index(),
				day("contractaction_resiliation_date").
					showWhen(In("contractaction_type", Text("resiliation"), Text("special_resiliation"))),
				integer("contractaction_options_count").optional().minValue(1).showWhen(optionTypes).
					label("Options (empty: unlimited)"),
				integer("contractaction_extension_value").minValue(0).showWhen(optionTypes).
					unit("contractaction_extension_unit", ""),
				enum("contractaction_extension_unit", periodUnits...).showWhen(optionTypes),
				integer("contractaction_notice_period_value").minValue(0).unit("contractaction_notice_period_unit", ""),
				enum("contractaction_notice_period_unit", periodUnits...),
				// How the notice date follows from the end (decision 0008):
				// the calendar rule or § 580a Abs. 2 BGB, and the end the
				// notice is given to.
				enum("contractaction_notice_rule", opt("calendar", "Notice period before the end"),
					opt("statutory_580a", "§ 580a (2) BGB: 3rd working day of a quarter")).def(Text("calendar")).withHelp().label("Notice rule"),
				enum("contractaction_notice_to", opt("date", "The date itself"), opt("month_end", "End of a month"),
					opt("quarter_end", "End of a quarter"), opt("half_year_end", "End of a half-year"),
					opt("year_end", "End of a year")).def(Text("date")).withHelp().label("Notice to"),
				// The options of an active option exercised so far, the last
				// one's declaration on contractaction_exercised_date.
				integer("contractaction_options_exercised").minValue(0).def(Int(0)).
					showWhen(In("contractaction_type", Text("active_option"))).withHelp().label("Options exercised"),
				day("contractaction_exercised_date").optional().
					showWhen(In("contractaction_type", Text("active_option"))).withHelp().label("Exercised on"),
				// Computed by internal/contracts on every write of the deadline
				// or of its contract's end date, and daily for options.
				day("contractaction_notice_date").optional().readOnly().hideOnCreate().index(),
				// Computed with the notice date: the end the notice is for,
				// how many uses of the option come before it, and whether
				// the deadline is used up (decision 0008).
				day("contractaction_effective_date").optional().readOnly().hideOnCreate().withHelp().label("Resulting end"),
				integer("contractaction_uses").def(Int(0)).readOnly().hideOnCreate().withHelp().label("Uses counted"),
				flag("contractaction_expired").readOnly().hideOnCreate().withHelp().label("Used up"),
				stamp("contractaction_creation_time").derive(Now(true)),
				// Who answers for the deadline and gets its alerts; filled with
				// the creating user when left empty (internal/contracts).
				ref("contractaction_responsible_user_id", UserEntity).optional().setNull().index().label("Responsible").reader(),
				enum("contractaction_status", opt("active", "Active"), opt("unactive", "Inactive"), opt("cancelled", "Cancelled"),
					opt("pulled", "Pulled"), opt("stopped", "Stopped")).def(Text("active")).index(),
			},
		},
		{
			Name: "recurringpayment", Doc: "A recurring payment of a contract (rent, service charge, ...).",
			Tenant: byCustomer(viaContract).orPartner(viaPartnercompany),
			Fields: []Field{
				name("recurringpayment_name"),
				ref("contract_id", "contract").cascade(),
				ref("partnercompany_id", "partnercompany").optional(),
				ref("bankdata_id", "bankdata").kind(KindCustomList).requiredWhen(OptionsFilled("bankdata_id")).
					where("partnercompany_id", "partnercompany_id"),
				// The rates of the contract's company (its company is the tenant's).
				ref("taxrate_id", "taxrate").kind(KindCustomList).whereOf("company_id", "contract_id", "company_id").
					optionLabel("taxrate_value", "company_id"),
				ref("recurringpaymenttype_id", "recurringpaymenttype"),
				ref("sachkonto_id", "sachkonto"),
				decimal("recurringpayment_sum_per_month").showWhen(In("recurringpaymenttype_id", paymentTypesWithSum...)),
				decimal("recurringpayment_condition_percentage").optional().minValue(0).maxValue(100),
				decimal("recurringpayment_percentage").minValue(0).maxValue(100).
					showWhen(In("recurringpaymenttype_id", paymentTypesWithPercentage...)),
				day("recurringpayment_begin_date").index(),
				day("recurringpayment_end_date").after("recurringpayment_begin_date").index(),
				memo("recurringpayment_condition_comment").optional(),
				memo("bemerkung").optional().label("Remark"),
				ref("maturitytype_id", "maturitytype"),
				day("recurringpayment_maturity_date").showWhen(In("maturitytype_id", Int(MaturityFixedDate))),
				integer("recurringpayment_maturity_daily_range").minValue(1).maxValue(31).
					showWhen(In("maturitytype_id", Int(MaturityRanges))),
				integer("recurringpayment_maturity_monthly_range").minValue(1).maxValue(12).
					showWhen(In("maturitytype_id", Int(MaturityRanges))),
				flag("recurringpayment_value_deposit").kind(KindYesNo),
				ref("indexclause_id", "indexclause").optional().showWhen(In("recurringpayment_value_deposit", Int(1))),
			},
			Relations: []Relation{hasMany("adjustments", "indexadjustment", "recurringpayment_id")},
		},
	}
	links := []Link{
		link("criteriatype_unit", "criteriatype", "unit"),
		link("costtype_externalcosttype", "costtype", "externalcosttype").cascadeBoth(),
		link("contract_area", "contract", "area",
			append([]Field{
				ref("usagetype_id", "usagetype"),
				ref("unit_id", "unit").def(Int(DefaultUnitID)),
				decimal("rentalspace_value").minValue(0).unit("unit_id", "area"),
				decimal("allocationspace_value").minValue(0).unit("unit_id", "area"),
				flag("mainusage").label("Main usage"),
			}, append(validity(true), memo("description").optional())...)...,
		).withID("contract_area_id"),
		link("contract_partnercompany", "contract", "partnercompany",
			enum("partner_role", opt("owner", "Owner"), opt("manager", "Manager")),
		).withID("contract_partnercompany_id").unique("contract_id", "partnercompany_id", "partner_role"),
		link("contract_costtype", "contract", "costtype", memo("comment").optional()),
		link("contract_criteria", "contract", "criteria",
			append([]Field{
				decimal("value").showWhen(In("criteria_id", Int(CriteriaWithValueA), Int(CriteriaWithValueB))),
				ref("choice_id", "choice").optional().requiredWhen(OptionsFilled("choice_id")).
					where("criteria_id", "criteria_id"),
			}, append(validity(true),
				flag("exists").label("Exists"),
				flag("is_obsolete").label("Obsolete"),
				memo("comment").optional())...)...,
		).withID("contract_criteria_id").
			// The condition list (/app/condition-list): every contract's
			// criteria, with the contract's point of sale.
			listed("contract", "criteria",
				str("contract_pos_name", lenName).label("Point of sale").derive(RefOf("pos_name", "contract_id", "pos_id"))),
		link("contract_specialright", "contract", "specialright",
			memo("description").optional(),
			day("date").label("Date"),
			flag("is_availed").label("Availed"),
			flag("is_passive").label("Passive"),
			day("prior_notice_date").optional(),
			day("termination_date").optional(),
		).withID("contract_specialright_id"),
		link("contract_serviceobject", "contract", "serviceobject").cascadeBoth(),
		link("area_serviceobject", "area", "serviceobject").cascadeBoth(),
		link("location_serviceobject", "location", "serviceobject").cascadeBoth(),
	}
	return entities, links
}
