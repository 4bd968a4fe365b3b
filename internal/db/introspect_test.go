package db_test

import (
	"context"
	"slices"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/testkit"
)

func TestDescribe(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		tables, err := d.Tables(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"schema_migrations", "users", "user_team"} {
			if !slices.Contains(tables, want) {
				t.Errorf("Tables() lacks %s: %v", want, tables)
			}
		}
		if _, err := d.Describe(ctx, "no_such_table"); err == nil {
			t.Error("Describe of a missing table succeeded")
		}

		users, err := d.Describe(ctx, "users")
		if err != nil {
			t.Fatal(err)
		}
		idType := map[db.Dialect]string{db.SQLite: "integer", db.Postgres: "bigint"}[d.Dialect()]
		cols := []struct {
			name, typ string
			notNull   bool
			dflt      string
			auto      bool
		}{
			{"user_id", idType, true, "", true},
			{"usertype_id", idType, true, "", false},
			{"user_firstname", "text", true, "", false},
			{"user_locked", "smallint", true, "0", false},
			{"user_abbreviation", "text", true, "", false},
			{"user_last_login_time", "timestamp", false, "", false},
			{"row_version", "integer", true, "1", false},
		}
		for _, want := range cols {
			c, ok := users.Column(want.name)
			if !ok {
				t.Errorf("users.%s missing", want.name)
				continue
			}
			if c.Type != want.typ || c.NotNull != want.notNull || c.DefaultLiteral() != want.dflt || c.AutoIncrement != want.auto {
				t.Errorf("users.%s = %+v (default %q), want %+v", want.name, c, c.DefaultLiteral(), want)
			}
		}
		if !slices.Equal(users.PrimaryKey, []string{"user_id"}) {
			t.Errorf("users key = %v", users.PrimaryKey)
		}
		if fk, ok := users.ForeignKeyOn("usertype_id"); !ok || fk.RefTable != "usertype" ||
			!slices.Equal(fk.RefColumns, []string{"usertype_id"}) || fk.OnDelete != "NO ACTION" {
			t.Errorf("users.usertype_id foreign key = %+v, %v", fk, ok)
		}
		if !users.LeadingIndex("user_lastname") || users.LeadingIndex("user_mobile") {
			t.Error("LeadingIndex wrong for users")
		}
		if !users.HasUnique([]string{"user_email_normalized"}) || users.HasUnique([]string{"user_email"}) {
			t.Error("HasUnique wrong for users")
		}
		// The label sort index (migration 0047) is on an expression.
		wantLabel := map[db.Dialect][]string{db.SQLite: {db.ExpressionColumn}, db.Postgres: {db.ExpressionColumn, "user_id"}}[d.Dialect()]
		var gotLabel []string
		for _, ix := range users.Indexes {
			if ix.Name == "users_label_sort" {
				gotLabel = ix.Columns
			}
		}
		if !slices.Equal(gotLabel, wantLabel) {
			t.Errorf("users_label_sort columns = %v, want %v", gotLabel, wantLabel)
		}

		link, err := d.Describe(ctx, "user_team")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(link.PrimaryKey, []string{"user_id", "team_id"}) || !link.HasUnique([]string{"team_id", "user_id"}) {
			t.Errorf("user_team key = %v", link.PrimaryKey)
		}
		if fk, ok := link.ForeignKeyOn("team_id"); !ok || fk.RefTable != "team" || fk.OnDelete != "CASCADE" {
			t.Errorf("user_team.team_id foreign key = %+v, %v", fk, ok)
		}
		if !link.LeadingIndex("team_id") {
			t.Error("user_team.team_id has no index")
		}
		if c, _ := link.Column("user_id"); c.AutoIncrement {
			t.Error("a composite key column is not auto-incremented")
		}

		all, err := d.DescribeAll(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != len(tables) {
			t.Errorf("DescribeAll has %d tables, Tables %d", len(all), len(tables))
		}
	})
}

func TestDefaultLiteral(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"0", "0"},
		{"('0')", "0"},
		{"'active'::text", "active"},
		{"'it''s'", "it's"},
		{"'2000-01-01 00:00:00'::timestamp with time zone", "2000-01-01 00:00:00"},
		{"(1)::numeric", "1"},
		{"CURRENT_TIMESTAMP", "CURRENT_TIMESTAMP"},
	}
	for _, c := range cases {
		if got := (db.Column{Default: c.in}).DefaultLiteral(); got != c.want {
			t.Errorf("DefaultLiteral(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
