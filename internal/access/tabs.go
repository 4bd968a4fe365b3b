package access

import "slices"

// Relation tabs section 6 of the specification governs one by one ("pos
// (relations location, area, ...)", "contract (relations ...)", "company
// (relations ...)"), by their API names. Each is a permission subject of its
// own: reading such a tab needs list on the tab subject (and read on the
// owner), linking and unlinking need update on it. Relation tabs not listed
// here are authorized through the related entity (list) and the owner
// (update). See docs/security.md, "Relation tabs".
var (
	// PosTabs are the governed relation tabs of a point of sale.
	PosTabs = []string{"pos_location_rel", "pos_area_rel", "pos_contract_rel", "pos_tag_rel", "pos_ticket_rel",
		"pos_contradiction_package_rel", "pos_ta_invoices_rel", "pos_document_rel", "pos_email_rel"}
	// ContractTabs are the governed relation tabs of a contract.
	ContractTabs = []string{"contract_area_rel", "contract_partner_company_rel", "contract_document_rel", "contract_deadlines_rel",
		"contract_recurring_payment_rel", "contract_service_object_rel", "contract_criteria_rel"}
	// CompanyTabs are the governed relation tabs of a company; the tax
	// rates tab is the administrator's alone (no access row names it).
	CompanyTabs = []string{"company_tickets_rel", "company_contradiction_rel", "company_review_invoices_rel", "company_sales_order_rel",
		"company_contact_person_rel", "company_appointment_track_rel", "company_bank_data_rel", "company_pos_rel",
		"company_payments_rel", "company_users_rel", TaxRatesTab}
)

// TaxRatesTab is the company's tax rates tab, which only administrators use.
const TaxRatesTab = "company_tax_rates_rel"

// GovernedTab reports whether the relation tab with API name api is a
// permission subject of its own (one of PosTabs, ContractTabs, CompanyTabs).
func GovernedTab(api string) bool {
	return slices.Contains(PosTabs, api) || slices.Contains(ContractTabs, api) || slices.Contains(CompanyTabs, api)
}
