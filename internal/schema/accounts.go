package schema

// Fixed ids the definitions rely on; the seed package creates these rows.
const (
	// UsertypeIntern is the user type of the provider's staff.
	UsertypeIntern int64 = 1
	// UsertypeExtern is the user type of client and partner users.
	UsertypeExtern int64 = 2
)

// accounts: users, roles, teams, user types, the organisations users belong
// to (customer groups, companies, partner groups and companies), the
// permission tables and the texts. Migration 0001_accounts.sql.
func accounts() ([]Entity, []Link) {
	internal := In("usertype_id", Int(UsertypeIntern))
	external := NotIn("usertype_id", Int(UsertypeIntern))
	notForAll := IsFalsy("team_for_all_customer")

	entities := []Entity{
		{
			Name: "usertype", Small: true, Doc: "Internal or external kind of user. Fixed ids: INTERN 1, EXTERN 2.",
			Tenant: global, Unique: [][]string{{"usertype_name"}},
			Fields: []Field{
				name("usertype_name").maxLen(lenShort),
				memo("usertype_description").optional(),
				flag("usertype_external"),
			},
		},
		{
			Name: "role", Small: true, Doc: "A role (admin, team_lead, ...); role_code is the code permission rules name.",
			Tenant: global, Unique: [][]string{{"role_name"}, {"role_code"}},
			Fields: []Field{
				name("role_name"),
				str("role_code", lenShort).regex(`^[a-z][a-z0-9_]*$`, "Use lower-case letters, digits and underscores."),
				memo("role_description").optional(),
				str("role_menu", lenName).optional().def(Text("")),
				flag("role_external"),
			},
			Relations: []Relation{manyToMany("users", "user", "user_role")},
		},
		masterData("function", "A job function of internal users."),
		lookup("partnertype", "Kind of partner company (landlord, property manager, ...)."),
		{
			Name: "customergroup", Small: true, AccessSubject: "customer_group",
			Doc:    "A client: a group of companies; external client users see only their own.",
			Tenant: byCustomer(Path{}),
			Fields: []Field{
				name("customergroup_name"),
				memo("customergroup_description").optional(),
				integer("company_count").derive(CountOf("companies")),
			},
			Relations: []Relation{hasMany("companies", "company", "customergroup_id")},
		},
		{
			Name: "company", Doc: "A client company of a customer group.",
			Tenant: byCustomer(Path{"customergroup_id"}),
			Fields: []Field{
				ref("customergroup_id", "customergroup"),
				name("company_name"),
				str("company_shortname", lenCode).search(),
				str("company_buchungskreis", lenCode).optional().label("Company code (Buchungskreis)"),
				// The language of the company's letters and contradiction
				// points (empty: German; migration 0026, decision 0016).
				languageCode("company_language").optional().label("Language"),
			},
			Relations: []Relation{
				hasMany("tickets", "ticket", "pos_id", "company_id"),
				hasMany("contradiction", "contradiction", "invoice_id", "company_id"),
				hasMany("review_invoices", "invoice", "company_id"),
				hasMany("sales_order", "salesorder", "company_id"),
				hasMany("contact_person", "contactperson", "company_id"),
				hasMany("appointment_track", "appointmenttrack", "company_id"),
				hasMany("bank_data", "bankdata", "company_id"),
				hasMany("pos", "pos", "company_id"),
				hasMany("payments", "payment", "company_id"),
				hasMany("users", "user", "company_id"),
				hasMany("tax_rates", "taxrate", "company_id"),
			},
		},
		{
			Name: "partnergroup", Small: true, Doc: "A group of partner companies; external partner users see only their own.",
			Tenant: byPartner(Path{}),
			Fields: []Field{
				name("partnergroup_name"),
				flag("partnergroup_is_internal"),
				memo("partnergroup_description").optional(),
			},
			Relations: []Relation{
				hasMany("partnercompany", "partnercompany", "partnergroup_id"),
				manyToMany("users", "user", "user_partnergroup"),
				hasMany("contactperson", "contactperson", "partnercompany_id", "partnergroup_id"),
			},
		},
		{
			Name: "partnercompany", AccessSubject: "partner_company",
			Doc: "A partner company (landlord, manager, service company) of a partner group.",
			// Client users read the partners of their contracts and locations.
			Tenant: byPartner(Path{"partnergroup_id"}).readByCustomer(partnerOfContract, partnerOfLocation),
			Fields: []Field{
				ref("partnergroup_id", "partnergroup"),
				name("partnercompany_name"),
				str("partnercompany_shortname", 10).search(),
				ref("partnertype_id", "partnertype").optional(),
			},
			Relations: []Relation{
				hasMany("contactperson", "contactperson", "partnercompany_id"),
				hasMany("bankdata", "bankdata", "partnercompany_id"),
				hasMany("kreditornumber", "kreditornumber", "partnercompany_id"),
				manyToMany("contracts", "contract", "contract_partnercompany"),
				manyToMany("locations", "location", "location_partnercompany"),
			},
		},
		{
			Name: "team", Small: true, Doc: "A team of users; client and partner teams may be limited to some customers or partners.",
			Tenant: global,
			Fields: []Field{
				name("team_name"),
				enum("team_type", opt("intern", "Internal"), opt("extern_client", "External client"),
					opt("extern_partner", "External partner"), opt("friendtzieze", "Friendtzieze")),
				ref("parent_id", "team").label("Parent team").optional().
					showWhen(In("team_type", Text("extern_client"), Text("friendtzieze"))).
					whereValue("team_type", Text("intern")),
				flag("team_for_all_customer").def(Int(1)).immutable().label("For all customers"),
				multi("customergroup_id", "customergroup", "customergroups").showWhen(notForAll).
					requiredWhen(AllOf(In("team_type", Text("extern_client")), notForAll)),
				multi("partnergroup_id", "partnergroup", "partnergroups").
					showWhen(AnyOf(notForAll, In("team_type", Text("extern_partner")))).
					requiredWhen(In("team_type", Text("extern_partner"))),
				multi("company_id", "company", "companies").optional().showWhen(notForAll).
					where("customergroup_id", "customergroup_id"),
				multi("partnercompany_id", "partnercompany", "partnercompanies").optional().showWhen(notForAll).
					where("partnergroup_id", "partnergroup_id"),
				memo("team_description").optional(),
			},
			Relations: []Relation{
				manyToMany("users", "user", "user_team"),
				manyToMany("roles", "role", "team_role"),
				manyToMany("customergroups", "customergroup", "team_customergroup"),
				manyToMany("partnergroups", "partnergroup", "team_partnergroup"),
				manyToMany("companies", "company", "team_company"),
				manyToMany("partnercompanies", "partnercompany", "team_partnercompany"),
			},
		},
		{
			Name: UserEntity, Small: true, Table: "users", Doc: "A person who logs in; the table is users because user is reserved in PostgreSQL.",
			Label: []string{"user_firstname", "user_lastname"},
			// A client user belongs to its customer group, named directly or
			// through its company.
			Tenant: byCustomer(Path{"customergroup_id"}, viaCompany).orPartner(Path{"partnergroup_id"}),
			Fields: []Field{
				ref("usertype_id", "usertype"),
				flag("user_is_director").showWhen(external),
				name("user_firstname"),
				name("user_lastname").index(),
				str("user_email", 0).email().search(),
				str("user_email_normalized", lenEmail).internal(),
				str("user_password", 128).kind(KindPassword).optional().writeOnly().hideOnUpdate().generate(),
				flag("user_password_reset_required"),
				flag("user_locked").hideOnCreate(),
				integer("user_wrong_password_counter").def(Int(0)).readOnly().hideOnCreate(),
				str("user_abbreviation", lenCode).derive(&Derivation{Func: DeriveInitials,
					Args: []string{"user_firstname", "user_lastname"}, OnCreate: true}),
				ref("function_id", "function").optional().showWhen(internal),
				multi("user_functions", "function", "functions").optional().showWhen(internal),
				enumInt("firmengroup_type", optInt(1, "Company"), optInt(0, "Partner Company")).showWhen(external),
				ref("partnergroup_id", "partnergroup").showWhen(In("firmengroup_type", Int(0))),
				multi("partnercompany_id", "partnercompany", "partnercompanies").
					showWhen(AnyOf(internal, In("firmengroup_type", Int(0)))).
					requiredWhen(In("firmengroup_type", Int(0))).
					// Internal users (no partner group) may get any partner company.
					whereIfFilled("partnergroup_id", "partnergroup_id"),
				ref("customergroup_id", "customergroup").showWhen(In("firmengroup_type", Int(1))),
				ref("company_id", "company").showWhen(In("firmengroup_type", Int(1))).
					where("customergroup_id", "customergroup_id"),
				stamp("user_last_login_time").optional().readOnly().hideOnCreate(),
				stamp("user_last_activity_time").optional().readOnly().hideOnCreate(),
				str("user_fix_phonenumber", lenShort).optional(),
				str("user_fax_phonenumber", lenShort).optional(),
				str("user_mobile", lenShort).optional(),
				ref("role_id", "role").label("Role").throughOne("roles"),
				multi("team_id", "team", "teams").optional().kind(KindCustomList),
				ref("hollyday_representative", "user").label("Holiday representative").optional().
					kind(KindCustomList).showWhen(AllOf(internal, IsFilled("partnercompany_id"))),
				stamp("user_verified_at").internal(),
				str("user_language", 2).internal(),
			},
			Relations: []Relation{
				manyToMany("customergroups", "customergroup", "user_customergroup"),
				manyToMany("companies", "company", "user_company"),
				manyToMany("pos", "pos", "user_pos"),
				manyToMany("teams", "team", "user_team"),
				manyToMany("roles", "role", "user_role"),
				manyToMany("partnercompanies", "partnercompany", "user_partnercompany"),
				manyToMany("partnergroups", "partnergroup", "user_partnergroup"),
				manyToMany("functions", "function", "user_function"),
				manyToMany("tablegroups", "tablegroup", "user_tablegroup"),
			},
		},
		{
			Name: "tablegroup", Small: true, Doc: "A group of tables whose c/r/u/d rights a role or user holds together.",
			Tenant: global, Unique: [][]string{{"tablegroup_name"}},
			Fields: []Field{name("tablegroup_name"), memo("tablegroup_description").optional()},
			Relations: []Relation{
				hasMany("tables", "tablename", "tablegroup_id"),
				hasMany("crud", "crud", "tablegroup_id"),
			},
		},
		{
			Name: "tablename", Small: true, Doc: "A table (entity name) of a table group.",
			Label: []string{"table_name"}, Tenant: global, Unique: [][]string{{"tablegroup_id", "table_name"}},
			Fields: []Field{ref("tablegroup_id", "tablegroup"), str("table_name", lenShort).search()},
		},
		{
			Name: "crud", Doc: "A role's create/read/update/delete flags on a table group.",
			Label: []string{"role_id", "tablegroup_id"}, Tenant: global, Unique: [][]string{{"role_id", "tablegroup_id"}},
			Fields: []Field{
				ref("role_id", "role").cascade(),
				ref("tablegroup_id", "tablegroup").cascade(),
				flag("crud_c").label("Create"), flag("crud_r").label("Read"),
				flag("crud_u").label("Update"), flag("crud_d").label("Delete"),
			},
		},
		{
			Name: "access", Doc: "A menu or table access rule: subject, action, role, optional teams and options.",
			Label:  []string{"access_subject", "access_action", "role_code"},
			Tenant: global, Unique: [][]string{{"access_kind", "access_subject", "access_action", "role_code"}},
			Fields: []Field{
				enum("access_kind", opt("menu", "Menu"), opt("table", "Table")),
				str("access_subject", lenShort),
				str("access_action", lenShort),
				str("role_code", lenShort),
				str("access_teams", lenName).optional().def(Text("")),
				str("access_options", lenName).optional().def(Text("")),
			},
		},
		{
			Name: "translation", Doc: "A UI text in one language.",
			Label: []string{"translation_key"}, Lookup: true, Tenant: global,
			Unique: [][]string{{"translation_key", "translation_lang"}},
			Fields: []Field{
				str("translation_key", lenName),
				languageCode("translation_lang"),
				memo("translation_text"),
				flag("translation_edited").internal(),
			},
		},
		{
			Name: "attribute_i18n", Doc: "The nice name of an attribute in one language.",
			Label: []string{"attribute_name"}, Lookup: true, Tenant: global,
			Unique: [][]string{{"attribute_name", "attribute_lang"}},
			Fields: []Field{
				str("attribute_name", lenName),
				languageCode("attribute_lang"),
				str("attribute_nice_name", lenName),
				flag("attribute_edited").internal(),
			},
		},
	}

	links := []Link{
		link("team_customergroup", "team", "customergroup"),
		link("team_partnergroup", "team", "partnergroup"),
		link("team_company", "team", "company"),
		link("team_partnercompany", "team", "partnercompany"),
		link("team_role", "team", "role"),
		link("user_role", "user", "role", append([]Field{
			integer("user_role_rank").optional().def(Int(0)).label("Rank"),
		}, validity(false)...)...),
		link("user_team", "user", "team", validity(false)...).cascadeBoth(),
		link("user_partnercompany", "user", "partnercompany"),
		link("user_partnergroup", "user", "partnergroup", validity(false)...),
		link("user_customergroup", "user", "customergroup", validity(false)...),
		link("user_company", "user", "company", validity(false)...),
		link("user_function", "user", "function"),
		link("user_tablegroup", "user", "tablegroup",
			flag("crud_c").label("Create"), flag("crud_r").label("Read"),
			flag("crud_u").label("Update"), flag("crud_d").label("Delete")).cascadeBoth(),
	}
	return entities, links
}

// languageCode is a UI language column (en, de, fr).
func languageCode(field string) Field {
	return enum(field, opt("en", "English"), opt("de", "German"), opt("fr", "French"))
}
