package schema

// DefaultPriceIndexID is the price index series migration 0017 creates:
// the German consumer price index (2020 = 100), the default series of an
// index clause. Its values are imported by the seed (internal/indexation).
const DefaultPriceIndexID int64 = 1

// monthPattern is a month as YYYY-MM.
const monthPattern = `^[0-9]{4}-(0[1-9]|1[0-2])$`

// indexation: price index series, their monthly values and the rent
// adjustments index clauses propose (issue 13, decision 0011). Migration
// 0017_index_clauses.sql.
func indexation() ([]Entity, []Link) {
	viaPayment := Path{"recurringpayment_id", "contract_id", "company_id", "customergroup_id"}
	viaPaymentPartner := Path{"recurringpayment_id", "partnercompany_id", "partnergroup_id"}
	month := func(name string) Field {
		return str(name, 7).regex(monthPattern, "Enter the month as YYYY-MM, e.g. 2024-10.")
	}
	entities := []Entity{
		{
			Name: "priceindex", Small: true, Doc: "A price index series (consumer price index, ...): master data shared by every tenant.",
			Tenant: global, Unique: [][]string{{"priceindex_code"}},
			Fields: []Field{
				name("priceindex_name"),
				str("priceindex_code", lenShort).search().label("Code"),
				integer("priceindex_baseyear").label("Base year").minValue(1900).maxValue(2100),
				memo("priceindex_source").optional().label("Source"),
				memo("priceindex_licence").optional().label("Licence"),
			},
			Relations: []Relation{hasMany("values", "priceindexvalue", "priceindex_id")},
		},
		{
			Name: "priceindexvalue", Doc: "The value of a price index series in one month.",
			Label: []string{"priceindexvalue_month"}, Tenant: global,
			Unique: [][]string{{"priceindex_id", "priceindexvalue_month"}},
			Fields: []Field{
				ref("priceindex_id", "priceindex").cascade(),
				month("priceindexvalue_month").label("Month"),
				decimal("priceindexvalue_value").label("Value").minValue(0),
			},
		},
		{
			Name: "indexadjustment", Doc: "A rent adjustment an index clause yields for a recurring payment: proposed, approved or rejected.",
			Label:  []string{"recurringpayment_id", "indexadjustment_effective_date"},
			Tenant: byCustomer(viaPayment).orPartner(viaPaymentPartner),
			// Written by internal/indexation only (run, approve, reject).
			Limits: Limits{NoCreate: true, NoUpdate: true, NoDelete: true},
			Unique: [][]string{{"recurringpayment_id", "indexadjustment_reference_month", "indexadjustment_current_month"}},
			Fields: []Field{
				ref("recurringpayment_id", "recurringpayment").cascade(),
				ref("indexclause_id", "indexclause").cascade(),
				month("indexadjustment_reference_month").label("Reference month"),
				month("indexadjustment_current_month").label("Current month"),
				decimal("indexadjustment_reference_value").label("Reference value"),
				decimal("indexadjustment_current_value").label("Current value"),
				decimal("indexadjustment_change_points").label("Change (points)"),
				decimal("indexadjustment_change_percent").label("Change (%)"),
				decimal("indexadjustment_old_amount").label("Old amount"),
				decimal("indexadjustment_new_amount").label("New amount"),
				day("indexadjustment_effective_date").label("Effective date").index(),
				// The rule that produced the proposal, as JSON (a code with its
				// figures, internal/indexation.Rule), rendered in the reader's
				// language by the module (issue 39).
				memo("indexadjustment_rule").optional().label("Rule"),
				enum("indexadjustment_status", opt("proposed", "Proposed"), opt("approved", "Approved"), opt("rejected", "Rejected")).
					def(Text("proposed")).readOnly().index().label("Status"),
			},
		},
	}
	return entities, nil
}
