package access

import (
	"context"
	"fmt"
	"strings"

	"portfolio/internal/db"
)

// Crud is a set of c/r/u/d flags on one table group.
type Crud struct {
	TablegroupID   int64
	TablegroupName string
	C, R, U, D     bool
}

// Entry is one row of the access table that applies to the user: its teams
// and options restrictions are already checked.
type Entry struct {
	Kind     string // "menu" or "table"
	Subject  string
	Action   string
	RoleCode string
}

// Grants is everything the rights of a user are computed from, loaded once
// per request; Rules and Menus derive the two views of it.
type Grants struct {
	Subject Subject
	// RoleCruds holds the table-group flags of each role, by role code,
	// ordered by table group.
	RoleCruds map[string][]Crud
	// UserCruds are the user's own table-group flags.
	UserCruds []Crud
	// Tables lists the table names of every table group above.
	Tables map[int64][]string
	// Entries are the access rows of the user's roles that apply to the user.
	Entries []Entry
}

// externalHiddenMenus are the menu subjects external users never get
// (specification, section 6).
var externalHiddenMenus = map[string]bool{
	"payment": true, "administration": true, "user": true, "trackrecord": true,
	"contradictionpackage": true, "contradiction": true, "inspectionresult": true,
}

// Load reads the grants of s through q.
func Load(ctx context.Context, q db.Querier, s Subject) (*Grants, error) {
	g := &Grants{Subject: s, RoleCruds: map[string][]Crud{}, Tables: map[int64][]string{}}
	codes := s.RoleCodes()
	if err := g.loadRoleCruds(ctx, q, codes); err != nil {
		return nil, err
	}
	if err := g.loadUserCruds(ctx, q); err != nil {
		return nil, err
	}
	if err := g.loadTables(ctx, q); err != nil {
		return nil, err
	}
	if err := g.loadEntries(ctx, q, codes); err != nil {
		return nil, err
	}
	return g, nil
}

// RulesFor loads the grants of s and returns its rules.
func RulesFor(ctx context.Context, q db.Querier, s Subject) ([]Rule, error) {
	g, err := Load(ctx, q, s)
	if err != nil {
		return nil, err
	}
	return g.Rules(), nil
}

// placeholders returns "?, ?, ?" for n values.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

func anys[T any](vs []T) []any {
	out := make([]any, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

func (g *Grants) loadRoleCruds(ctx context.Context, q db.Querier, codes []string) error {
	if len(codes) == 0 {
		return nil
	}
	rows, err := q.QueryContext(ctx, `SELECT r.role_code, g.tablegroup_id, g.tablegroup_name, c.crud_c, c.crud_r, c.crud_u, c.crud_d
		FROM crud c JOIN role r ON r.role_id = c.role_id JOIN tablegroup g ON g.tablegroup_id = c.tablegroup_id
		WHERE r.role_code IN (`+placeholders(len(codes))+`) ORDER BY g.tablegroup_id`, anys(codes)...)
	if err != nil {
		return fmt.Errorf("access: read role table groups: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var code string
		c, err := scanCrud(rows, &code)
		if err != nil {
			return fmt.Errorf("access: scan role table group: %w", err)
		}
		g.RoleCruds[code] = append(g.RoleCruds[code], c)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("access: read role table groups: %w", err)
	}
	return nil
}

func (g *Grants) loadUserCruds(ctx context.Context, q db.Querier) error {
	rows, err := q.QueryContext(ctx, `SELECT g.tablegroup_id, g.tablegroup_name, u.crud_c, u.crud_r, u.crud_u, u.crud_d
		FROM user_tablegroup u JOIN tablegroup g ON g.tablegroup_id = u.tablegroup_id
		WHERE u.user_id = ? ORDER BY g.tablegroup_id`, g.Subject.UserID)
	if err != nil {
		return fmt.Errorf("access: read user table groups: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		c, err := scanCrud(rows)
		if err != nil {
			return fmt.Errorf("access: scan user table group: %w", err)
		}
		g.UserCruds = append(g.UserCruds, c)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("access: read user table groups: %w", err)
	}
	return nil
}

type scanner interface{ Scan(dest ...any) error }

// scanCrud scans (prefix..., tablegroup_id, tablegroup_name, c, r, u, d).
func scanCrud(s scanner, prefix ...any) (Crud, error) {
	var c Crud
	var fc, fr, fu, fd int
	dest := append(prefix, &c.TablegroupID, &c.TablegroupName, &fc, &fr, &fu, &fd)
	if err := s.Scan(dest...); err != nil {
		return Crud{}, err
	}
	c.C, c.R, c.U, c.D = fc == 1, fr == 1, fu == 1, fd == 1
	return c, nil
}

// GroupIDs lists every table group the grants mention, in ascending order
// of first mention by role then by user.
func (g *Grants) GroupIDs() []int64 {
	seen := map[int64]bool{}
	var ids []int64
	add := func(cs []Crud) {
		for _, c := range cs {
			if !seen[c.TablegroupID] {
				seen[c.TablegroupID] = true
				ids = append(ids, c.TablegroupID)
			}
		}
	}
	for _, code := range g.Subject.RoleCodes() {
		add(g.RoleCruds[code])
	}
	add(g.UserCruds)
	return ids
}

func (g *Grants) loadTables(ctx context.Context, q db.Querier) error {
	ids := g.GroupIDs()
	if len(ids) == 0 {
		return nil
	}
	rows, err := q.QueryContext(ctx, `SELECT tablegroup_id, table_name FROM tablename
		WHERE tablegroup_id IN (`+placeholders(len(ids))+`) ORDER BY tablegroup_id, table_name`, anys(ids)...)
	if err != nil {
		return fmt.Errorf("access: read table names: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return fmt.Errorf("access: scan table name: %w", err)
		}
		g.Tables[id] = append(g.Tables[id], name)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("access: read table names: %w", err)
	}
	return nil
}

func (g *Grants) loadEntries(ctx context.Context, q db.Querier, codes []string) error {
	if len(codes) == 0 {
		return nil
	}
	rows, err := q.QueryContext(ctx, `SELECT access_kind, access_subject, access_action, role_code, access_teams, access_options
		FROM access WHERE role_code IN (`+placeholders(len(codes))+`) ORDER BY access_id`, anys(codes)...)
	if err != nil {
		return fmt.Errorf("access: read access rows: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e Entry
		var teams, options string
		if err := rows.Scan(&e.Kind, &e.Subject, &e.Action, &e.RoleCode, &teams, &options); err != nil {
			return fmt.Errorf("access: scan access row: %w", err)
		}
		if g.applies(e, teams, options) {
			g.Entries = append(g.Entries, e)
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("access: read access rows: %w", err)
	}
	return nil
}

// applies checks an access row's restrictions against the user.
func (g *Grants) applies(e Entry, teams, options string) bool {
	if e.Kind == "menu" && g.Subject.External && externalHiddenMenus[e.Subject] {
		return false
	}
	return g.Subject.inTeams(teams) && g.Subject.hasOption(options)
}
