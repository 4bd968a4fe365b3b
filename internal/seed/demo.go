package seed

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"portfolio/internal/app"
	"portfolio/internal/auth"
	"portfolio/internal/db"
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
	{email: "lead.b@demo.test", first: "Ben", last: "Südmann", role: "lead", desc: "external lead, customer group Südmarkt", usertype: UsertypeExtern, company: demoCompanyB1, customergroup: demoGroupB, director: true},
	{email: "partner@demo.test", first: "Paula", last: "Partner", role: "ext_team_member", desc: "external partner user, Rheinland Immobilien", usertype: UsertypeExtern, partnergroup: demoPartnerGroup, partnercompanies: []int64{demoPartnerCo}},
}

// Demo creates the base data and the demo data set and returns the demo
// logins. It is idempotent.
func Demo(ctx context.Context, a *app.App) ([]Login, error) {
	if err := Base(ctx, a.DB); err != nil {
		return nil, err
	}
	if err := a.DB.InTx(ctx, func(tx *db.Tx) error { return demoOrganisations(ctx, a.DB, tx) }); err != nil {
		return nil, err
	}
	if err := demoPortfolio(ctx, a.DB); err != nil {
		return nil, err
	}
	var logins []Login
	for _, u := range demoUsers {
		if err := a.DB.InTx(ctx, func(tx *db.Tx) error { return ensureDemoUser(ctx, a, tx, u) }); err != nil {
			return nil, fmt.Errorf("seed demo user %s: %w", u.email, err)
		}
		logins = append(logins, Login{Email: u.email, Description: u.desc})
	}
	if err := DemoTickets(ctx, a.DB, time.Now()); err != nil {
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
	for _, seq := range [][2]string{{"customergroup", "customergroup_id"}, {"company", "company_id"}, {"partnergroup", "partnergroup_id"}, {"partnercompany", "partnercompany_id"},
		{"documenttype", "documenttype_id"}, {"subdocumenttype", "subdocumenttype_id"}} {
		if err := d.ResetSequences(ctx, tx, seq[0], seq[1]); err != nil {
			return err
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
