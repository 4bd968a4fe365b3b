package schema

// DefaultUnitID is the unit preselected wherever a unit is chosen (the
// specification's "unit 1"); the seed creates it.
const DefaultUnitID int64 = 1

// lookups: geography, currencies, languages, addresses and shared master
// data. Migration 0002_lookups.sql.
func lookups() ([]Entity, []Link) {
	entities := []Entity{
		{
			Name: "currency", Small: true, Doc: "A currency.", Label: []string{"currency_short"},
			Tenant: global, Unique: [][]string{{"currency_iso4217"}},
			Fields: []Field{
				name("currency_name"),
				str("currency_short", 10).search(),
				str("currency_symbol", 10),
				str("currency_iso4217", 3).regex(`^[A-Z]{3}$`, "Enter the three-letter ISO 4217 code, e.g. EUR.").label("ISO 4217"),
			},
		},
		{
			Name: "country", Small: true, Doc: "A country and its currency.",
			Tenant: global, Unique: [][]string{{"country_short"}},
			Fields: []Field{
				name("country_name"),
				str("country_short", 3).regex(`^[A-Z]{2,3}$`, "Enter the two- or three-letter country code, e.g. DE.").search(),
				ref("currency_id", "currency"),
			},
		},
		{
			Name: "language", Small: true, Doc: "A language.",
			Tenant: global, Unique: [][]string{{"language_iso639"}},
			Fields: []Field{
				name("language_name"),
				str("language_iso639", 2).regex(`^[a-z]{2}$`, "Enter the two-letter ISO 639-1 code, e.g. de.").label("ISO 639"),
			},
		},
		{
			Name: "city", Doc: "A city with its zip code; the state is looked up from the zip.",
			Label: []string{"city_zip", "city_name"}, Tenant: global,
			Fields: []Field{
				name("city_name").index(),
				str("city_zip", 10).regex(`^[0-9A-Za-z][0-9A-Za-z -]{1,9}$`, "Enter a valid postal code.").search(),
				str("state", 100).label("State"),
				ref("country_id", "country"),
			},
		},
		{
			Name: "address", Doc: "A postal address; the list label shows zip, city name and street.",
			Label: []string{"city_zip", "city_name", "address_street"},
			Tenant: byCustomer(
				Path{"locations", "company_id", "customergroup_id"},
				Path{"contactpersons", "company_id", "customergroup_id"},
				Path{"companydetails", "company_id", "customergroup_id"},
			).orPartner(
				Path{"contactpersons", "partnercompany_id", "partnergroup_id"},
				Path{"locations", "partnercompany", "partnergroup_id"},
			),
			Fields: []Field{
				str("address_street", lenName).search().index(),
				str("address_house_number", lenCode),
				str("address_extra", lenName).optional(),
				ref("city_id", "city"),
				str("city_zip", 10).derive(RefOf("city_zip", "city_id")),
				str("city_name", lenName).derive(RefOf("city_name", "city_id")),
				str("country_name", lenName).derive(RefOf("country_name", "city_id", "country_id")),
			},
			Relations: []Relation{
				hasMany("locations", "location", "address_id"),
				hasMany("contactpersons", "contactperson", "address_id"),
				hasMany("companydetails", "companydetails", "address_id"),
			},
		},
		lookup("unit", "A unit of measure; unit_key groups the units a number field offers (area, period, ...). Id 1 is the default unit.",
			str("unit_short", lenCode).optional(),
			str("unit_key", lenCode).optional().index()),
		masterData("contacttitle", "An academic or honorary title of a contact person."),
		masterData("contactsalutation", "A salutation of a contact person."),
		lookup("product", "A product or service the provider sells."),
		{
			Name: "sachkonto", Doc: "A general-ledger account (Sachkonto) recurring payments are booked on.",
			Label: []string{"sachkonto_number", "sachkonto_name"}, Lookup: true, Tenant: global,
			Unique: [][]string{{"sachkonto_number"}},
			Fields: []Field{
				str("sachkonto_number", lenCode).search(),
				name("sachkonto_name"),
				memo("sachkonto_description").optional(),
			},
		},
	}
	return entities, nil
}
