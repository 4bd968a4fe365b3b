package seed

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"portfolio/internal/app"
	"portfolio/internal/auth"
	"portfolio/internal/db"
	"portfolio/internal/platform/clock"
	"portfolio/internal/schema"
)

// Demo organisations: two customer groups with companies, one partner group
// with a partner company.
const (
	demoGroupA       int64 = 1
	demoGroupB       int64 = 2
	demoCompanyA1    int64 = 1
	demoCompanyA2    int64 = 2
	demoCompanyB1    int64 = 3
	demoPartnerGroup int64 = 1
	demoPartnerCo    int64 = 1
)

type demoUser struct {
	email, first, last, role, desc string
	usertype                       int64
	teams                          []int64
	company, customergroup         int64
	partnergroup                   int64
	partnercompanies               []int64
	director                       bool
}

var demoUsers = []demoUser{
	{email: "admin@demo.test", first: "Anna", last: "Admin", role: "admin", desc: "administrator", usertype: UsertypeIntern, teams: []int64{TeamMVM}},
	{email: "team_lead@demo.test", first: "Tom", last: "Leitner", role: "team_lead", desc: "internal team lead (MVM, FM)", usertype: UsertypeIntern, teams: []int64{TeamMVM, TeamFM}},
	{email: "team_member@demo.test", first: "Tina", last: "Mitglied", role: "team_member", desc: "internal team member (MVM)", usertype: UsertypeIntern, teams: []int64{TeamMVM}},
	{email: "lawyer@demo.test", first: "Lars", last: "Anwalt", role: "lawyer", desc: "external lawyer, customer group Nordhandel", usertype: UsertypeExtern, company: demoCompanyA1, customergroup: demoGroupA},
	{email: "lead@demo.test", first: "Lea", last: "Leiter", role: "lead", desc: "external lead (director), customer group Nordhandel", usertype: UsertypeExtern, company: demoCompanyA1, customergroup: demoGroupA, director: true, teams: []int64{TeamExtMVM}},
	{email: "expansion_manager@demo.test", first: "Erik", last: "Expansion", role: "expansion_manager", desc: "external expansion manager, Nordhandel", usertype: UsertypeExtern, company: demoCompanyA1, customergroup: demoGroupA},
	{email: "store_manager@demo.test", first: "Sara", last: "Filiale", role: "store_manager", desc: "external store manager, Nordhandel", usertype: UsertypeExtern, company: demoCompanyA2, customergroup: demoGroupA},
	{email: "area_manager@demo.test", first: "Alex", last: "Bezirk", role: "area_manager", desc: "external area manager, Nordhandel", usertype: UsertypeExtern, company: demoCompanyA2, customergroup: demoGroupA},
	{email: "ext_team_member@demo.test", first: "Emil", last: "Extern", role: "ext_team_member", desc: "external team member (MVM extern), Nordhandel", usertype: UsertypeExtern, company: demoCompanyA1, customergroup: demoGroupA, teams: []int64{TeamExtMVM}},
	{email: "fm@demo.test", first: "Frida", last: "Facility", role: "ext_team_member", desc: "external FM team member, Nordhandel (lands on boards)", usertype: UsertypeExtern, company: demoCompanyA1, customergroup: demoGroupA, teams: []int64{TeamExtFM}},
	{email: "lead.b@demo.test", first: "Ben", last: "Südmann", role: "lead", desc: "external lead, customer group Südmarkt", usertype: UsertypeExtern, company: demoCompanyB1, customergroup: demoGroupB, director: true,
		// The board rule (decision 0027): the MVM boards are the lead's through MVM extern.
		teams: []int64{TeamExtMVM}},
	{email: "partner@demo.test", first: "Paula", last: "Partner", role: "ext_team_member", desc: "external partner user, Rheinland Immobilien", usertype: UsertypeExtern, partnergroup: demoPartnerGroup, partnercompanies: []int64{demoPartnerCo}},
}

// Demo creates the base data and the demo data set and returns the demo
// logins. It is idempotent.
func Demo(ctx context.Context, a *app.App) ([]Login, error) {
	if err := Base(ctx, a.DB); err != nil {
		return nil, err
	}
	if err := DefaultPriceIndex(ctx, a); err != nil {
		return nil, err
	}
	if err := a.DB.InTx(ctx, func(tx *db.Tx) error { return demoOrganisations(ctx, a.DB, tx) }); err != nil {
		return nil, err
	}
	if err := demoPortfolio(ctx, a.DB); err != nil {
		return nil, err
	}
	if err := demoInvoiceReview(ctx, a.DB); err != nil {
		return nil, err
	}
	var logins []Login
	for _, u := range demoUsers {
		if err := a.DB.InTx(ctx, func(tx *db.Tx) error { return ensureDemoUser(ctx, a, tx, u) }); err != nil {
			return nil, fmt.Errorf("seed demo user %s: %w", u.email, err)
		}
		logins = append(logins, Login{Email: u.email, Description: u.desc})
	}
	if err := a.DB.InTx(ctx, func(tx *db.Tx) error { return demoStatementResponsible(ctx, tx) }); err != nil {
		return nil, err
	}
	if err := a.DB.InTx(ctx, func(tx *db.Tx) error { return demoSavings(ctx, tx, clock.Now()) }); err != nil {
		return nil, err
	}
	if err := DemoTickets(ctx, a.DB, clock.Now()); err != nil {
		return nil, err
	}
	return logins, nil
}

// demoPortfolios is the size of the demo portfolio of each customer group:
// points of sale with locations, areas, contracts and invoices.
var demoPortfolios = []struct {
	group     int64
	brand     string
	companies []int64
	pos       int
}{{demoGroupA, "Nordhandel", []int64{demoCompanyA1, demoCompanyA2}, 24}, {demoGroupB, "Südmarkt", []int64{demoCompanyB1}, 12}}

// demoPortfolio gives each demo customer group a small realistic portfolio,
// once: a group that already has points of sale is left alone.
func demoPortfolio(ctx context.Context, d *db.DB) error {
	for _, p := range demoPortfolios {
		var n int
		err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos JOIN company ON company.company_id = pos.company_id
			WHERE company.customergroup_id = ?`, p.group).Scan(&n)
		if err != nil {
			return fmt.Errorf("seed demo portfolio: %w", err)
		}
		if n > 0 {
			continue
		}
		if err := Scale(ctx, d, p.pos, nil, WithScaleCompanies(p.brand, p.companies...), WithScaleInvoices(1)); err != nil {
			return fmt.Errorf("seed demo portfolio of customer group %d: %w", p.group, err)
		}
	}
	return nil
}

func demoOrganisations(ctx context.Context, d *db.DB, tx *db.Tx) error {
	stmts := []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO customergroup (customergroup_id, customergroup_name, customergroup_description) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
			[]any{demoGroupA, "Nordhandel Gruppe", "Fashion retail chain in northern Germany"}},
		{`INSERT INTO customergroup (customergroup_id, customergroup_name, customergroup_description) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
			[]any{demoGroupB, "Südmarkt Holding", "Grocery stores in Bavaria and Austria"}},
		{`INSERT INTO company (company_id, customergroup_id, company_name, company_shortname, company_buchungskreis) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			[]any{demoCompanyA1, demoGroupA, "Nordhandel Retail GmbH", "NHR", "1000"}},
		{`INSERT INTO company (company_id, customergroup_id, company_name, company_shortname, company_buchungskreis) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			[]any{demoCompanyA2, demoGroupA, "Nordhandel Outlet GmbH", "NHO", "1100"}},
		{`INSERT INTO company (company_id, customergroup_id, company_name, company_shortname, company_buchungskreis) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			[]any{demoCompanyB1, demoGroupB, "Südmarkt Filialen GmbH", "SMF", "2000"}},
		{`INSERT INTO partnergroup (partnergroup_id, partnergroup_name, partnergroup_is_internal, partnergroup_description) VALUES (?, ?, 0, ?) ON CONFLICT DO NOTHING`,
			[]any{demoPartnerGroup, "Rheinland Immobilien Gruppe", "Landlords and property managers"}},
		{`INSERT INTO partnercompany (partnercompany_id, partnergroup_id, partnercompany_name, partnercompany_shortname) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			[]any{demoPartnerCo, demoPartnerGroup, "Rheinland Immobilien GmbH", "RHEINIMMO"}},
		// Document types, so documents can be uploaded right away.
		{`INSERT INTO documenttype (documenttype_id, documenttype_name, documenttype_short, documenttype_description) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			[]any{1, "Mietvertrag", "MV", "Lease contract and its annexes"}},
		{`INSERT INTO documenttype (documenttype_id, documenttype_name, documenttype_short, documenttype_description) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			[]any{2, "Übergabeprotokoll", "UP", "Handover of the premises"}},
		{`INSERT INTO documenttype (documenttype_id, documenttype_name, documenttype_short, documenttype_description) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			[]any{3, "Korrespondenz", "KO", "Letters to and from the landlord"}},
		{`INSERT INTO subdocumenttype (subdocumenttype_id, documenttype_id, subdocumenttype_name) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
			[]any{1, 1, "Hauptvertrag"}},
		{`INSERT INTO subdocumenttype (subdocumenttype_id, documenttype_id, subdocumenttype_name) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
			[]any{2, 1, "Nachtrag"}},
	}
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s.sql, s.args...); err != nil {
			return fmt.Errorf("seed demo organisations: %w", err)
		}
	}
	if err := demoPaymentLookups(ctx, tx); err != nil {
		return err
	}
	for _, seq := range [][2]string{{"customergroup", "customergroup_id"}, {"company", "company_id"}, {"partnergroup", "partnergroup_id"}, {"partnercompany", "partnercompany_id"},
		{"documenttype", "documenttype_id"}, {"subdocumenttype", "subdocumenttype_id"}, {"recurringpaymenttype", "recurringpaymenttype_id"},
		{"maturitytype", "maturitytype_id"}, {"documentcontracttype", "documentcontracttype_id"}} {
		if err := d.ResetSequences(ctx, tx, seq[0], seq[1]); err != nil {
			return err
		}
	}
	return nil
}

// demoPaymentTypes are the recurring payment types by their fixed ids: the
// schema shows a sum per month for ids 1 and 3-9 and a percentage for 2 and 10.
var demoPaymentTypes = []struct {
	id         int64
	name, desc string
}{
	{1, "Grundmiete", "Base rent per month"},
	{2, "Umsatzmiete", "Turnover rent, a percentage of the turnover"},
	{3, "Nebenkostenvorauszahlung", "Advance payment on service charges"},
	{4, "Heizkostenvorauszahlung", "Advance payment on heating costs"},
	{5, "Werbegemeinschaft", "Contribution to the shopping centre's marketing"},
	{6, "Stellplatzmiete", "Rent of parking spaces"},
	{7, "Lagermiete", "Rent of storage space"},
	{8, "Instandhaltungspauschale", "Flat rate for maintenance"},
	{9, "Verwaltungspauschale", "Flat rate for property management"},
	{10, "Umsatzmiete Zusatzfläche", "Turnover rent of an additional space, a percentage"},
}

// demoAccounts are the demo ledger accounts (Sachkonten).
var demoAccounts = []struct{ number, name string }{
	{"4210", "Mieten"}, {"4220", "Nebenkosten"}, {"4230", "Heizkosten"}, {"4240", "Werbekosten"},
	{"4250", "Instandhaltung"}, {"4260", "Verwaltungskosten"},
}

// demoTaxRates are the tax rates every demo company gets.
var demoTaxRates = []struct {
	code  string
	value string
}{{"UST19", "19"}, {"UST7", "7"}, {"UST0", "0"}}

// demoPaymentLookups seeds what a recurring payment needs, so one can be
// created right away: payment types, ledger accounts, the two maturity types
// (fixed date, ranges), the demo companies' tax rates and the document
// contract types. Rows that exist are left alone.
func demoPaymentLookups(ctx context.Context, tx *db.Tx) error {
	type stmt struct {
		sql  string
		args []any
	}
	var stmts []stmt
	for _, t := range demoPaymentTypes {
		stmts = append(stmts, stmt{`INSERT INTO recurringpaymenttype (recurringpaymenttype_id, recurringpaymenttype_name, recurringpaymenttype_description)
			VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, []any{t.id, t.name, t.desc}})
	}
	stmts = append(stmts,
		stmt{`INSERT INTO maturitytype (maturitytype_id, maturitytype_name, maturitytype_description) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
			[]any{schema.MaturityFixedDate, "Fester Termin", "Falls due on a fixed date"}},
		stmt{`INSERT INTO maturitytype (maturitytype_id, maturitytype_name, maturitytype_description) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
			[]any{schema.MaturityRanges, "Tages- und Monatsbereich", "Falls due within a range of days and months"}})
	for i, name := range []string{"Hauptvertrag", "Nachtrag", "Kündigung"} {
		stmts = append(stmts, stmt{`INSERT INTO documentcontracttype (documentcontracttype_id, documentcontracttype_name) VALUES (?, ?) ON CONFLICT DO NOTHING`,
			[]any{i + 1, name}})
	}
	for _, a := range demoAccounts {
		stmts = append(stmts, stmt{`INSERT INTO sachkonto (sachkonto_number, sachkonto_name) VALUES (?, ?) ON CONFLICT (sachkonto_number) DO NOTHING`,
			[]any{a.number, a.name}})
	}
	for _, company := range []int64{demoCompanyA1, demoCompanyA2, demoCompanyB1} {
		for _, r := range demoTaxRates {
			stmts = append(stmts, stmt{`INSERT INTO taxrate (company_id, taxrate_code, taxrate_value) VALUES (?, ?, ?) ON CONFLICT (company_id, taxrate_code) DO NOTHING`,
				[]any{company, r.code, r.value}})
		}
	}
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s.sql, s.args...); err != nil {
			return fmt.Errorf("seed demo payment lookups: %w", err)
		}
	}
	return nil
}

func ensureDemoUser(ctx context.Context, a *app.App, tx *db.Tx, u demoUser) error {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT user_id FROM users WHERE user_email_normalized = ?`, u.email).Scan(&id)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	nu := auth.NewUser{
		Email: u.email, FirstName: u.first, LastName: u.last, UsertypeID: u.usertype, RoleCodes: []string{u.role},
		TeamIDs: u.teams, IsDirector: u.director, Password: DemoPassword, Verified: true,
		PartnercompanyIDs: u.partnercompanies,
	}
	if u.company != 0 {
		nu.CompanyID, nu.CustomergroupID = &u.company, &u.customergroup
	}
	if u.partnergroup != 0 {
		nu.PartnergroupID = &u.partnergroup
	}
	_, err = a.Auth.CreateUser(ctx, tx, nu)
	return err
}
