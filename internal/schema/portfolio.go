package schema

// Tenant paths shared by many portfolio entities.
var (
	viaCompany        = Path{"company_id", "customergroup_id"}
	viaPartnercompany = Path{"partnercompany_id", "partnergroup_id"}
	// A partner company linked to a customer group's contract or location
	// (its landlord, its property manager), read by the group's users.
	partnerOfContract = Path{"contracts", "company_id", "customergroup_id"}
	partnerOfLocation = Path{"locations", "company_id", "customergroup_id"}
)

// throughPartner prefixes the paths of a partner company with the steps
// from a row to its partner company.
func throughPartner(steps ...string) []Path {
	out := make([]Path, 0, 2)
	for _, p := range []Path{partnerOfContract, partnerOfLocation} {
		out = append(out, append(append(Path(nil), steps...), p...))
	}
	return out
}

// portfolio: contact persons, company details, tax rates, bank data,
// creditor numbers, payments, sales orders, appointments, locations, points
// of sale, areas and tags. Migration 0003_portfolio.sql.
func portfolio() ([]Entity, []Link) {
	entities := []Entity{
		lookup("areatype", "Kind of area (sales floor, storage, ...)."),
		lookup("usagetype", "How an area is used."),
		lookup("locationtype", "Kind of location (shopping centre, high street, ...)."),
		{
			Name: "tag", Doc: "A free label attached to points of sale.",
			Tenant: global,
			Fields: []Field{
				name("tag_name"),
				memo("tag_description").optional(),
				integer("tag_count").derive(CountOf("pos")),
			},
			Relations: []Relation{manyToMany("pos", "pos", "pos_tag")},
		},
		{
			Name: "contactdetails", Doc: "Phone numbers, e-mail and web site of a contact person.",
			Label: []string{"contactdetails_email", "contactdetails_phone"},
			Tenant: byCustomer(Path{"contactperson", "company_id", "customergroup_id"}).
				orPartner(Path{"contactperson", "partnercompany_id", "partnergroup_id"}).
				readByCustomer(throughPartner("contactperson", "partnercompany_id")...),
			Fields: []Field{
				str("contactdetails_email", 0).email().optional().search().index(),
				str("contactdetails_phone", lenShort).optional().search(),
				str("contactdetails_mobile", lenShort).optional(),
				str("contactdetails_fax", lenShort).optional(),
				str("contactdetails_website", lenName).optional(),
			},
			Relations: []Relation{hasMany("contactperson", "contactperson", "contactdetails_id")},
		},
		{
			Name: "contactperson", Doc: "A contact person of a company or a partner company.",
			Label:  []string{"contactperson_firstname", "contactperson_lastname"},
			Tenant: byCustomer(viaCompany).orPartner(viaPartnercompany).readByCustomer(throughPartner("partnercompany_id")...),
			Fields: []Field{
				name("contactperson_firstname").label("First name"),
				name("contactperson_lastname").label("Last name").index(),
				str("contactperson_department", lenName).optional(),
				str("contactperson_shortname", lenCode).derive(Initials("contactperson_firstname", "contactperson_lastname")),
				str("contactperson_function", lenName).optional(),
				ref("user_id", "user").optional().setNull(),
				ref("contactsalutation_id", "contactsalutation"),
				ref("contacttitle_id", "contacttitle").optional(),
				ref("contactdetails_id", "contactdetails").optional(),
				ref("address_id", "address").optional(),
				ref("company_id", "company").optional(),
				ref("partnercompany_id", "partnercompany").optional(),
			},
		},
		{
			Name: "companydetails", Doc: "Address and contact data of a company (one row per company).",
			Label: []string{"company_id"}, Tenant: byCustomer(viaCompany), Unique: [][]string{{"company_id"}},
			Fields: []Field{
				ref("company_id", "company").cascade(),
				ref("address_id", "address").optional(),
				str("companydetails_phone", lenShort).optional(),
				str("companydetails_email", 0).email().optional(),
				str("companydetails_website", lenName).optional(),
				str("companydetails_vat", lenCode).optional().label("VAT number"),
				str("companydetails_register_number", lenShort).optional(),
			},
		},
		{
			Name: "taxrate", Doc: "A tax rate of a company; listed by its value.",
			Label: []string{"taxrate_value"}, Tenant: byCustomer(viaCompany),
			Unique: [][]string{{"company_id", "taxrate_code"}},
			Fields: []Field{
				ref("company_id", "company").cascade(),
				str("taxrate_code", lenCode).search(),
				decimal("taxrate_value").minValue(0).maxValue(100).label("Rate (%)"),
			},
		},
		{
			Name: "bankdata", Doc: "A bank account of a partner company or of a company (exactly one of them).",
			Label:  []string{"bankdata_iban"},
			Tenant: byCustomer(viaCompany).orPartner(viaPartnercompany),
			Fields: []Field{
				ref("partnercompany_id", "partnercompany").optional().cascade().rules(RequiredIfNull("company_id")),
				ref("company_id", "company").optional().cascade(),
				str("bankdata_iban", 34).label("IBAN").search().masked().
					regex(`^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$`, "Enter the IBAN in capitals without spaces, e.g. DE89370400440532013000."),
				str("bankdata_bic", 11).label("BIC").optional().
					regex(`^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$`, "Enter the 8- or 11-character BIC in capitals."),
				str("bankdata_bank_name", lenName).optional().search(),
				str("bankdata_account_number", lenShort).optional(),
				str("bankdata_vat", lenCode).optional().label("VAT number"),
				flag("bankdata_is_active"),
			},
		},
		{
			Name: "kreditornumber", Doc: "The creditor number a company keeps for a partner company.",
			Label:  []string{"kreditornumber_number"},
			Tenant: byCustomer(viaCompany).orPartner(viaPartnercompany),
			Unique: [][]string{{"partnercompany_id", "company_id"}, {"company_id", "kreditornumber_number"}},
			Fields: []Field{
				ref("partnercompany_id", "partnercompany").cascade(),
				ref("company_id", "company"),
				str("kreditornumber_number", lenShort).search(),
			},
		},
		{
			Name: "payment", AccessSubject: "payment_info", Doc: "A payment booked for a company.",
			Label: []string{"payment_info"}, Tenant: byCustomer(viaCompany),
			Fields: []Field{
				ref("company_id", "company"),
				str("payment_info", lenName).search(),
				str("payment_debitor", lenName).search(),
				str("payment_objectreference", lenName).search(),
				decimal("payment_value"),
				day("payment_date").index(),
				str("payment_type", lenShort),
			},
		},
		{
			Name: "salesorder", Doc: "A sales order of a company (the provider's product sold to the client).",
			Label: []string{"salesorder_number"}, Tenant: byCustomer(viaCompany),
			Fields: []Field{
				ref("company_id", "company"),
				ref("product_id", "product").optional(),
				str("salesorder_number", lenShort).search(),
				day("salesorder_date").index(),
				decimal("salesorder_amount").optional(),
				memo("salesorder_description").optional(),
			},
		},
		{
			Name: "appointmenttrack", Doc: "An appointment or call with a company, kept as its appointment track.",
			Label: []string{"appointmenttrack_subject"}, Tenant: byCustomer(viaCompany),
			Fields: []Field{
				ref("company_id", "company").cascade(),
				ref("user_id", "user").optional().setNull(),
				stamp("appointmenttrack_date").index(),
				str("appointmenttrack_subject", lenName).search(),
				memo("appointmenttrack_comment").optional(),
			},
		},
		{
			Name: "location", Doc: "A site (building, centre) owned by a company, with areas and partner companies over time.",
			Tenant: byCustomer(viaCompany).orPartner(Path{"partnercompany", "partnergroup_id"}),
			Fields: []Field{
				name("location_name"),
				ref("locationtype_id", "locationtype"),
				decimal("location_total_area").optional().minValue(0),
				day("location_start_date").optional(),
				ref("company_id", "company").label("Owner company"),
				ref("address_id", "address"),
				str("state", 100).label("State").derive(RefOf("state", "address_id", "city_id")),
				str("country_name", lenName).label("Country").derive(RefOf("country_name", "address_id", "city_id", "country_id")),
			},
			Relations: []Relation{
				hasMany("areas", "area", "location_id"),
				manyToMany("partnercompany", "partnercompany", "location_partnercompany"),
				manyToMany("pos", "pos", "pos_location"),
				hasMany("contract", "contract", "location_id"),
				manyToMany("serviceobject", "serviceobject", "location_serviceobject"),
			},
		},
		{
			Name: "pos", Doc: "A point of sale (store) of a company.",
			Tenant: byCustomer(viaCompany),
			Fields: []Field{
				ref("company_id", "company"),
				name("pos_name"),
				str("pos_branchnumber", lenShort).search().index(),
				str("pos_name_external", lenName).optional().search(),
				integer("pos_first_year").minValue(1900).maxValue(2100),
				ref("contactperson_id", "contactperson").where("company_id", "company_id"),
				integer("pos_internal_id").def(Int(56)),
				day("pos_opening_date").index(),
			},
			Relations: []Relation{
				manyToMany("location", "location", "pos_location"),
				manyToMany("area", "area", "pos_area"),
				hasMany("contract", "contract", "pos_id"),
				manyToMany("tag", "tag", "pos_tag"),
				hasMany("ticket", "ticket", "pos_id"),
				hasMany("contradiction_package", "contradictionpackage", "pos_id"),
				hasMany("ta_invoices", "invoice", "contract_id", "pos_id"),
				manyToMany("document", "document", "pos_document"),
				hasMany("email", "email", "pos_id"),
			},
		},
		{
			Name: "area", Doc: "A rentable area of a location with its type and usage over time.",
			Tenant: byCustomer(Path{"location_id", "company_id", "customergroup_id"}).
				orPartner(Path{"location_id", "partnercompany", "partnergroup_id"}),
			Fields: []Field{
				ref("location_id", "location"),
				ref("areatype_id", "areatype"),
				name("area_name"),
				str("area_name_external", lenName).optional().search(),
				decimal("area_space_value").minValue(0).label("Space (m²)"),
				ref("usagetype_id", "usagetype"),
				day("area_usage_valid_from").label("Usage valid from").index(),
				day("area_usage_valid_to").label("Usage valid to").optional().after("area_usage_valid_from"),
			},
			Relations: []Relation{
				manyToMany("contract", "contract", "contract_area"),
				manyToMany("pos", "pos", "pos_area"),
				manyToMany("serviceobject", "serviceobject", "area_serviceobject"),
			},
		},
	}
	links := []Link{
		link("pos_location", "pos", "location"),
		link("pos_area", "pos", "area").cascadeBoth(),
		link("pos_tag", "pos", "tag").cascadeBoth(),
		link("user_pos", "user", "pos", validity(false)...).cascadeBoth(),
		link("location_partnercompany", "location", "partnercompany", append([]Field{
			ref("partnertype_id", "partnertype"),
		}, validity(true)...)...).withID("location_partnercompany_id"),
	}
	return entities, links
}
