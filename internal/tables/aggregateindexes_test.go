package tables

import (
	"strings"
	"testing"

	"portfolio/internal/schema"
)

const aggregateIndexMigrationFile = "0046_aggregate_indexes.sql"

// TestAggregateIndexMigrationIsCurrent: migration 0046 holds what
// AggregateIndexMigration renders (UPDATE_MIGRATION=1 writes it): the
// contract's next notice date seeks one entry of its deadlines, and its two
// space sums share one index of the link.
func TestAggregateIndexMigrationIsCurrent(t *testing.T) {
	want := AggregateIndexMigration(schema.Default())
	checkGeneratedMigration(t, aggregateIndexMigrationFile, want, "TestAggregateIndexMigrationIsCurrent")
	for _, line := range []string{
		`DROP INDEX "contract_area_contract_idx";`,
		`CREATE INDEX "contractaction_contract_id_aggregate" ON "contractaction" ("contract_id", "contractaction_status", "contractaction_notice_date");`,
		`CREATE INDEX "contract_area_contract_id_aggregate" ON "contract_area" ("contract_id", "area_id", "rentalspace_value", "allocationspace_value");`,
	} {
		if !strings.Contains(want, line) {
			t.Errorf("missing %s in\n%s", line, want)
		}
	}
}

// TestTenantFollowsOwner: a relation's rows skip their own tenant test only
// when every tenant path of the owner, behind the foreign key, is one of
// theirs.
func TestTenantFollowsOwner(t *testing.T) {
	reg := schema.Default()
	entity := func(name string) *schema.Entity {
		e, ok := reg.Entity(name)
		if !ok {
			t.Fatalf("no entity %s", name)
		}
		return e
	}
	for _, c := range []struct {
		owner, target, fk string
		want              bool
	}{
		{"contract", "contractaction", "contract_id", true},          // deadlines: the contract's paths, one step longer
		{"invoice", "invoiceposition", "invoice_id", true},           // positions of an invoice
		{"pos", "contract", "pos_id", false},                         // a contract reaches its tenant through its own company
		{"location", "contract", "location_id", false},               // likewise
		{"contract", "recurringpayment", "contract_id", false},       // a payment's own paths differ
		{"contract", "contractaction", "contractaction_type", false}, // not a reference to the owner
		{"priceindex", "priceindexvalue", "priceindex_id", false},    // global owner
	} {
		if got := tenantFollowsOwner(entity(c.owner), entity(c.target), c.fk); got != c.want {
			t.Errorf("tenantFollowsOwner(%s, %s, %s) = %v, want %v", c.owner, c.target, c.fk, got, c.want)
		}
	}
	// A made-up owner with a partner path its rows lack: not followed.
	owner := *entity("contract")
	owner.Tenant.Partner = append(owner.Tenant.Partner, schema.Path{"pos_id", "partnercompany_id", "partnergroup_id"})
	if tenantFollowsOwner(&owner, entity("contractaction"), "contract_id") {
		t.Error("an owner path the rows do not extend must keep their tenant test")
	}
}

// TestLabelSortIndexMigrationIsCurrent: migration 0047 holds what
// LabelSortIndexMigration renders (UPDATE_MIGRATION=1 writes it): a point
// of sale's contact person and a ticket's user are sorted by an index on
// their two-name label, an invoice position's invoice by number and date.
func TestLabelSortIndexMigrationIsCurrent(t *testing.T) {
	want := LabelSortIndexMigration(schema.Default())
	checkGeneratedMigration(t, labelSortIndexMigrationFile, want, "TestLabelSortIndexMigrationIsCurrent")
	for _, line := range []string{
		`CREATE INDEX "contactperson_label_sort" ON "contactperson" ((NULLIF(COALESCE("contactperson_firstname" || ' ' || "contactperson_lastname", "contactperson_firstname", "contactperson_lastname"), '')), "contactperson_id");`,
		`CREATE INDEX "users_label_sort" ON "users" ((NULLIF(COALESCE("user_firstname" || ' ' || "user_lastname", "user_firstname", "user_lastname"), '')));`,
		`CREATE INDEX "invoice_label_sort" ON "invoice" ((NULLIF(COALESCE("invoice_number" || ' ' || "invoice_date", "invoice_number", "invoice_date"), '')));`,
	} {
		if !strings.Contains(want, line) {
			t.Errorf("missing %s in\n%s", line, want)
		}
	}
}
