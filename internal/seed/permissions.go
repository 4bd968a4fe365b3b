package seed

import (
	"context"
	"fmt"
	"strings"

	"portfolio/internal/db"
)

// tablegroups put the tables into groups whose c/r/u/d flags a role holds.
var tablegroups = []struct {
	id     int64
	name   string
	tables []string
}{
	{1, "Portfolio", []string{"customergroup", "company", "companydetails", "pos", "area", "location", "address", "city", "contactperson", "contactdetails", "tag", "partnercompany", "partnergroup", "bankdata", "kreditornumber", "salesorder", "appointmenttrack"}},
	{2, "Contracts", []string{"contract", "contractaction", "recurringpayment", "indexclause", "specialright", "serviceobject", "criteria", "costtype"}},
	{3, "Invoices", []string{"invoice", "invoiceposition", "inspectionresult", "contradiction", "contradictionpackage", "contradictionpoint", "invoicedeadline"}},
	{4, "Tickets", []string{"ticket", "board", "columnx", "priority", "defaultvalue", "document", "email"}},
	{5, "Master data", []string{"sachkonto", "unit", "choice", "areatype", "contracttype", "documentcontracttype", "product", "criteriatype", "locationtype", "maturitytype", "usagetype", "serviceobjecttype", "recurringpaymenttype", "partnertype", "country", "currency", "language", "contacttitle", "contactsalutation", "documenttype", "subdocumenttype", "claimtype", "rating", "resultcategorization", "savingtype", "invoicevaluetype", "invoicecriteria", "externalcosttype", "textmodule", "texttemplate", "texttemplate_variable", "function"}},
	{6, "Administration", []string{"user", "role", "team", "usertype", "tablegroup", "tablename", "crud", "access", "translation", "attribute_i18n", "trackrecord", "payment", "taxrate"}},
}

// crudByRole gives each non-administrator role its flags per table group
// ("crud" letters present = flag set). The administrator manages everything
// without rows.
var crudByRole = map[string]map[string]string{
	"team_lead":         {"Portfolio": "cru", "Contracts": "cru", "Invoices": "cru", "Tickets": "cru", "Master data": "cru"},
	"team_member":       {"Portfolio": "cru", "Contracts": "cru", "Invoices": "cru", "Tickets": "cru", "Master data": "r"},
	"lead":              {"Portfolio": "r", "Contracts": "r", "Tickets": "cru"},
	"expansion_manager": {"Portfolio": "r", "Contracts": "r", "Tickets": "cru"},
	"area_manager":      {"Portfolio": "r", "Tickets": "cru"},
	"store_manager":     {"Portfolio": "r", "Tickets": "cru"},
	"ext_team_member":   {"Portfolio": "r", "Contracts": "r", "Tickets": "cru"},
	"lawyer":            {"Portfolio": "r", "Contracts": "r"},
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
			if _, err := tx.ExecContext(ctx, `INSERT INTO access (access_kind, access_subject, access_action, role_code, access_teams)
				VALUES ('menu', ?, 'read', ?, ?) ON CONFLICT DO NOTHING`, m.menu, code, m.teams); err != nil {
				return fmt.Errorf("seed menu access %s/%s: %w", m.menu, code, err)
			}
		}
	}
	return nil
}
