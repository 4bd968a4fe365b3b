package seed

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"portfolio/internal/access"
	"portfolio/internal/db"
)

// The default rights of every installation (specification, shell document
// and "portfolio and invoices", section 6), in two layers:
//
//   - table groups give reading: their c/r/u/d flags hold for every table
//     of the group and know no teams, so they only read (the team leads'
//     master data aside);
//   - table access rows give every other action, subject by subject, to the
//     members of the named teams: staff create and change within MVM and
//     FM, invoices also in NKA, tickets, documents and mails in every
//     internal team. Removing is the administrator's, except the rows of a
//     contract or an invoice that the flows replace as a whole.
//
// docs/rights-matrix.md is generated from these tables (TestRightsMatrixDoc),
// and RightsVersion brings an existing database to them (decision 0059).

// RightsVersion numbers the default rights. Raise it with every change of
// the tables below: ApplyRights then writes the defaults once more into a
// database that holds an older version.
const RightsVersion = 2

// tablegroups put the tables into groups whose c/r/u/d flags a role holds.
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
// without rows. Writing is granted by tableAccess, where teams restrict it.
var crudByRole = map[string]map[string]string{
	"team_lead":         {"Portfolio core": "r", "Portfolio details": "r", "Contracts": "r", "Invoices": "r", "Tickets": "r", "Master data": "cru", "Price indexes": "r"},
	"team_member":       {"Portfolio core": "r", "Portfolio details": "r", "Contracts": "r", "Invoices": "r", "Tickets": "r", "Master data": "r", "Price indexes": "r"},
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
	// Staff import the data they keep (the import checks create on every
	// imported entity, so the teams of tableAccess hold there too).
	{"import", internalRoles, ""},
	{"payment", []string{"team_lead"}, ""},
}

// tableRule grants actions on subjects to roles, optionally only to members
// of the named teams. Subjects are entity names (the engine accepts an
// entity's name and its access subject alike), the access subjects of
// section 6 (customer_group, partner_company, service_object, payment_info)
// and relation tabs by their API name (pos_location_rel). The access table
// keeps one row per kind, subject, action and role, so a role has one team
// restriction per subject and action (TestRightsRowsUnique).
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
	// portfolio and the contracts (section 6: "only within teams MVM and FM").
	mvmFM = "MVM,FM"
	// invoiceTeams also let service charge settlement (NKA) review invoices.
	invoiceTeams = "MVM,FM,NKA"
	// ticketTeams also let the other internal teams work on tickets, their
	// documents and mails.
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

	// portfolioDetails are the rows around points of sale and companies
	// staff keep: locations and their addresses, contact persons, bank data.
	portfolioDetails = []string{"location", "address", "contactperson", "contactdetails", "companydetails", "bankdata", "kreditornumber", "salesorder", "appointmenttrack"}
	// contractParts are the rows of the contract flow (steps 0, 2 and 7,
	// the contract's tabs). The parts a contract replaces as a whole
	// (step 2 saves every payment at once) may be removed too.
	contractParts    = []string{"contract", "contractaction", "recurringpayment", "indexclause", "specialright", "service_object", "criteria", "costtype"}
	contractRemovals = []string{"contractaction", "recurringpayment", "indexclause", "specialright", "criteria", "costtype"}
	// invoiceParts are the rows of the invoice review flow; the generator
	// replaces its own points and positions are corrected by removing them.
	invoiceParts    = []string{"invoice", "invoiceposition", "inspectionresult", "contradiction", "contradictionpackage", "contradictionpoint", "invoicedeadline"}
	invoiceRemovals = []string{"invoiceposition", "contradictionpoint", "inspectionresult"}
)

// tableAccess is the table access of section 6, action by action. Tax rates
// (taxrate, company_tax_rates_rel) and creating customer groups, companies
// and partner companies are the administrator's alone, as is removing
// almost anything.
var tableAccess = []tableRule{
	// Internal teams read everything they work on.
	{portfolioSubjects, readActions + ",note", internalRoles, ""},
	{contractSubjects, readActions + ",note", internalRoles, ""},
	{[]string{"ticket", "board", "payment_info"}, readActions + ",note", internalRoles, ""},
	// ... and change the portfolio and the contracts only within MVM and FM.
	{append([]string{"pos", "area", "tag"}, portfolioDetails...), writeActions, internalRoles, mvmFM},
	{[]string{"company", "customer_group", "partner_company"}, "update", internalRoles, mvmFM},
	{append(append([]string{}, posTabs...), contractTabs...), writeActions + ",remove", internalRoles, mvmFM},
	{companyTabs, writeActions, internalRoles, mvmFM},
	{contractParts, writeActions, internalRoles, mvmFM},
	{contractRemovals, "remove", internalRoles, mvmFM},
	// The invoice review: positions, the generator, packages and letters.
	{invoiceParts, writeActions, internalRoles, invoiceTeams},
	{invoiceRemovals, "remove", internalRoles, invoiceTeams},
	// Tickets on the teams' boards: move, comment, upload, sign; incoming
	// mails: classify, confirm, create a ticket.
	{[]string{"ticket"}, writeActions + ",remove", internalRoles, ticketTeams},
	{[]string{"document", "email"}, writeActions, internalRoles, ticketTeams},
	{[]string{"board", "columnx"}, writeActions, []string{"team_lead"}, mvmFM},
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
	// Every external user reports tickets for their points of sale and
	// comments on them.
	{[]string{"ticket"}, readActions + ",create,note", externalClient, ""},
	// The external facility management works its board (the board rule
	// of decision 0027 keeps it to the boards of its teams): it moves the
	// tickets and adds and signs their documents.
	{[]string{"ticket"}, "update", []string{"ext_team_member"}, "FM extern"},
	{[]string{"document"}, "create", []string{"ext_team_member"}, "FM extern"},
}

// accessRow is one default row of the access table.
type accessRow struct {
	kind, subject, action, role, teams string
}

// defaultAccessRows expands menuAccess and tableAccess into the rows of the
// access table, in their order.
func defaultAccessRows() []accessRow {
	var out []accessRow
	for _, m := range menuAccess {
		for _, code := range m.roles {
			out = append(out, accessRow{"menu", m.menu, "read", code, m.teams})
		}
	}
	for _, r := range tableAccess {
		for _, subject := range r.subjects {
			for _, action := range strings.Split(r.actions, ",") {
				for _, code := range r.roles {
					out = append(out, accessRow{"table", subject, action, code, r.teams})
				}
			}
		}
	}
	return out
}

// seedPermissions writes the default rights: rows missing are added, rows
// present are left as they are, unless reset is set, when the default rows
// take their default flags and teams again (ApplyRights, decision 0059).
// Rows an administrator added are never touched.
func seedPermissions(ctx context.Context, tx *db.Tx, reset bool) error {
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
	onConflict := "DO NOTHING"
	if reset {
		onConflict = "DO UPDATE SET crud_c = excluded.crud_c, crud_r = excluded.crud_r, crud_u = excluded.crud_u, crud_d = excluded.crud_d, row_version = crud.row_version + 1"
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
				SELECT role_id, ?, ?, ?, ?, ? FROM role WHERE role_code = ? ON CONFLICT (role_id, tablegroup_id) `+onConflict,
				groupID[group], flag("c"), flag("r"), flag("u"), flag("d"), code); err != nil {
				return fmt.Errorf("seed crud %s/%s: %w", code, group, err)
			}
		}
	}
	for _, r := range defaultAccessRows() {
		if err := insertAccess(ctx, tx, r, reset); err != nil {
			return err
		}
	}
	return nil
}

func insertAccess(ctx context.Context, tx *db.Tx, r accessRow, reset bool) error {
	onConflict := "DO NOTHING"
	if reset {
		onConflict = "DO UPDATE SET access_teams = excluded.access_teams, access_options = '', row_version = access.row_version + 1"
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO access (access_kind, access_subject, access_action, role_code, access_teams)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (access_kind, access_subject, access_action, role_code) `+onConflict,
		r.kind, r.subject, r.action, r.role, r.teams); err != nil {
		return fmt.Errorf("seed %s access %s/%s/%s: %w", r.kind, r.subject, r.action, r.role, err)
	}
	return nil
}
