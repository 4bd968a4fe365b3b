package seed

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"portfolio/internal/access"
	"portfolio/internal/db"
)

// tablegroups put the tables into groups whose c/r/u/d flags a role holds.
// The subjects section 6 of the specification governs action by action
// (points of sale, contracts, companies, ...) are in "Portfolio core" and
// "Contracts", where the roles' flags only give reading; the table access
// rows below add the rest, restricted to teams where the spec says so.
var tablegroups = []struct {
	id     int64
	name   string
	tables []string
}{
	{1, "Portfolio core", []string{"customergroup", "company", "pos", "area", "partnercompany", "tag"}},
	{2, "Contracts", []string{"contract", "contractaction", "recurringpayment", "indexclause", "indexadjustment", "specialright", "serviceobject", "criteria", "costtype"}},
	{3, "Invoices", []string{"invoice", "invoiceposition", "inspectionresult", "contradiction", "contradictionpackage", "contradictionpoint", "invoicedeadline"}},
	{4, "Tickets", []string{"ticket", "board", "columnx", "priority", "defaultvalue", "document", "email"}},
	{5, "Master data", []string{"sachkonto", "unit", "choice", "areatype", "contracttype", "documentcontracttype", "product", "criteriatype", "locationtype", "maturitytype", "usagetype", "serviceobjecttype", "recurringpaymenttype", "partnertype", "country", "currency", "language", "contacttitle", "contactsalutation", "documenttype", "subdocumenttype", "claimtype", "rating", "resultcategorization", "savingtype", "invoicevaluetype", "invoicecriteria", "externalcosttype", "textmodule", "texttemplate", "texttemplate_variable", "function"}},
	{6, "Administration", []string{"user", "role", "team", "usertype", "tablegroup", "tablename", "crud", "access", "translation", "attribute_i18n", "trackrecord", "payment", "taxrate"}},
	{7, "Portfolio details", []string{"location", "address", "city", "contactperson", "contactdetails", "companydetails", "partnergroup", "bankdata", "kreditornumber", "salesorder", "appointmenttrack"}},
	// Price index series are master data every logged-in user reads and
	// only administrators write (issue 13).
	{8, "Price indexes", []string{"priceindex", "priceindexvalue"}},
}

// crudByRole gives each non-administrator role its flags per table group
// ("crud" letters present = flag set). The administrator manages everything
// without rows.
var crudByRole = map[string]map[string]string{
	"team_lead":         {"Portfolio core": "r", "Portfolio details": "cru", "Contracts": "r", "Invoices": "cru", "Tickets": "r", "Master data": "cru", "Price indexes": "r"},
	"team_member":       {"Portfolio core": "r", "Portfolio details": "cru", "Contracts": "r", "Invoices": "cru", "Tickets": "r", "Master data": "r", "Price indexes": "r"},
	"lead":              {"Portfolio core": "r", "Portfolio details": "r", "Contracts": "r", "Tickets": "r", "Price indexes": "r"},
	"expansion_manager": {"Portfolio core": "r", "Portfolio details": "r", "Contracts": "r", "Tickets": "r", "Price indexes": "r"},
	"area_manager":      {"Portfolio core": "r", "Portfolio details": "r", "Tickets": "r", "Price indexes": "r"},
	"store_manager":     {"Portfolio core": "r", "Portfolio details": "r", "Tickets": "r", "Price indexes": "r"},
	"ext_team_member":   {"Portfolio core": "r", "Portfolio details": "r", "Tickets": "r", "Price indexes": "r"},
	"lawyer":            {"Portfolio core": "r", "Portfolio details": "r", "Contracts": "r", "Price indexes": "r"},
}

var (
	allRoles      = []string{"team_lead", "team_member", "lawyer", "lead", "expansion_manager", "store_manager", "area_manager", "ext_team_member"}
	internalRoles = []string{"team_lead", "team_member"}
	externalRoles = []string{"lawyer", "lead", "expansion_manager", "store_manager", "area_manager", "ext_team_member"}
)

type menuRule struct {
	menu  string
	roles []string
	teams string // comma-separated team names; empty: no restriction
}

// menuAccess is the menu configuration of section 6: who sees which menu.
// The administrator sees every menu without rows.
var menuAccess = []menuRule{
	{"dashboard", allRoles, ""},
	{"ticket_dashboard", allRoles, ""},
	{"tickets", allRoles, ""},
	{"board", []string{"team_lead"}, ""},
	{"error_dashboard", []string{"team_lead"}, ""},
	{"incoming_mails", internalRoles, ""},
	{"master_data", internalRoles, ""},
	{"company", internalRoles, ""},
	{"contract", append(append([]string{}, internalRoles...), "lead", "expansion_manager"), ""},
	{"contract", []string{"ext_team_member"}, "FM extern,MVM extern,BuHa extern"},
	{"service_object", append(append([]string{}, internalRoles...), "lead"), ""},
	{"service_object", []string{"ext_team_member"}, "FM extern"},
	{"facility", externalRoles, ""},
	{"invoice", internalRoles, ""},
	{"backoffice", internalRoles, ""},
	{"import", []string{"team_lead"}, ""},
	{"payment", []string{"team_lead"}, ""},
}

// tableRule grants actions on subjects to roles, optionally only to members
// of the named teams. Subjects are the access subjects of entities
// (customer_group, partner_company, service_object, payment_info, ...) and
// relation tabs by their API name (pos_location_rel).
type tableRule struct {
	subjects []string
	actions  string // comma-separated
	roles    []string
	teams    string
}

const (
	readActions  = "list,read,seeHeader"
	writeActions = "create,update"
	// mvmFM are the teams whose internal members create and change the
	// portfolio (section 6: "only within teams MVM and FM").
	mvmFM = "MVM,FM"
	// ticketTeams also lets the other internal teams work on tickets.
	ticketTeams = "MVM,FM,NKA,FoMa,BackOffice"
)

var (
	posTabs      = slices.Clone(access.PosTabs)
	contractTabs = slices.Clone(access.ContractTabs)
	// companyTabs leaves out the tax rates tab: administrators only.
	companyTabs       = slices.DeleteFunc(slices.Clone(access.CompanyTabs), func(s string) bool { return s == access.TaxRatesTab })
	portfolioSubjects = append([]string{"pos", "area", "company", "customer_group", "partner_company", "tag"}, append(posTabs, companyTabs...)...)
	contractSubjects  = append([]string{"contract", "service_object"}, contractTabs...)
	externalClient    = []string{"lead", "expansion_manager", "area_manager", "store_manager", "ext_team_member", "lawyer"}
)

// tableAccess is the table access of section 6, action by action. Tax rates
// (company_tax_rates_rel) and creating customer groups, companies and partner
// companies are the administrator's alone, as is removing almost anything.
var tableAccess = []tableRule{
	// Internal teams read everything they work on.
	{portfolioSubjects, readActions + ",note", internalRoles, ""},
	{contractSubjects, readActions + ",note", internalRoles, ""},
	{[]string{"ticket", "board", "payment_info"}, readActions + ",note", internalRoles, ""},
	// ... and change it only within MVM and FM.
	{[]string{"pos", "area", "tag", "contract", "service_object"}, writeActions, internalRoles, mvmFM},
	{append(append([]string{}, posTabs...), contractTabs...), writeActions + ",remove", internalRoles, mvmFM},
	{[]string{"company", "customer_group", "partner_company"}, "update", internalRoles, mvmFM},
	{companyTabs, writeActions, internalRoles, mvmFM},
	{[]string{"ticket"}, writeActions + ",remove", internalRoles, ticketTeams},
	{[]string{"board"}, writeActions, []string{"team_lead"}, mvmFM},
	// Leads and expansion managers read the portfolio and the contracts.
	{[]string{"pos", "area", "company", "customer_group", "partner_company", "tag", "contract", "service_object"}, readActions, []string{"lead", "expansion_manager"}, ""},
	{[]string{"pos_location_rel", "pos_area_rel", "pos_contract_rel", "pos_tag_rel", "pos_ticket_rel", "pos_document_rel", "pos_email_rel",
		"company_pos_rel", "company_contact_person_rel", "company_tickets_rel"}, readActions, []string{"lead", "expansion_manager"}, ""},
	{contractTabs, readActions, []string{"lead", "expansion_manager"}, ""},
	// Other external members read their points of sale and areas.
	{[]string{"pos", "area", "company", "customer_group", "tag"}, readActions, []string{"area_manager", "store_manager", "ext_team_member", "lawyer"}, ""},
	{[]string{"pos_location_rel", "pos_area_rel", "pos_ticket_rel", "pos_document_rel"}, readActions, []string{"area_manager", "store_manager", "ext_team_member", "lawyer"}, ""},
	{append([]string{"contract"}, contractTabs...), readActions, []string{"ext_team_member"}, "FM extern,MVM extern,BuHa extern"},
	{[]string{"contract"}, readActions, []string{"lawyer"}, ""},
	{[]string{"service_object"}, readActions, []string{"ext_team_member"}, "FM extern"},
	{[]string{"board"}, readActions, []string{"ext_team_member"}, "FM extern"},
	// Team leads of the teams that change contracts run the index clauses
	// and approve or reject their adjustments, which sets the payment's
	// amount (issue 13, decision 0011); the generic API writes no
	// adjustment (its limits).
	{[]string{"indexadjustment"}, "create,update,remove", []string{"team_lead"}, mvmFM},
	{[]string{"recurringpayment"}, "update", []string{"team_lead"}, mvmFM},
	// Every external user works with the tickets of their points of sale.
	{[]string{"ticket"}, readActions + ",create,note", externalClient, ""},
}

func seedPermissions(ctx context.Context, tx *db.Tx) error {
	groupID := map[string]int64{}
	for _, g := range tablegroups {
		groupID[g.name] = g.id
		if _, err := tx.ExecContext(ctx, `INSERT INTO tablegroup (tablegroup_id, tablegroup_name) VALUES (?, ?) ON CONFLICT DO NOTHING`, g.id, g.name); err != nil {
			return fmt.Errorf("seed tablegroup %s: %w", g.name, err)
		}
		for _, t := range g.tables {
			if _, err := tx.ExecContext(ctx, `INSERT INTO tablename (tablegroup_id, table_name) VALUES (?, ?) ON CONFLICT DO NOTHING`, g.id, t); err != nil {
				return fmt.Errorf("seed tablename %s: %w", t, err)
			}
		}
	}
	for code, groups := range crudByRole {
		for group, flags := range groups {
			flag := func(c string) int {
				if strings.Contains(flags, c) {
					return 1
				}
				return 0
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO crud (role_id, tablegroup_id, crud_c, crud_r, crud_u, crud_d)
				SELECT role_id, ?, ?, ?, ?, ? FROM role WHERE role_code = ? ON CONFLICT DO NOTHING`,
				groupID[group], flag("c"), flag("r"), flag("u"), flag("d"), code); err != nil {
				return fmt.Errorf("seed crud %s/%s: %w", code, group, err)
			}
		}
	}
	for _, m := range menuAccess {
		for _, code := range m.roles {
			if err := insertAccess(ctx, tx, "menu", m.menu, "read", code, m.teams); err != nil {
				return err
			}
		}
	}
	for _, r := range tableAccess {
		for _, subject := range r.subjects {
			for _, action := range strings.Split(r.actions, ",") {
				for _, code := range r.roles {
					if err := insertAccess(ctx, tx, "table", subject, action, code, r.teams); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

func insertAccess(ctx context.Context, tx *db.Tx, kind, subject, action, role, teams string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO access (access_kind, access_subject, access_action, role_code, access_teams)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, kind, subject, action, role, teams); err != nil {
		return fmt.Errorf("seed %s access %s/%s/%s: %w", kind, subject, action, role, err)
	}
	return nil
}
