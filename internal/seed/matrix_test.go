package seed

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/rights-matrix.md from the default rights")

// matrixDoc is the committed rights table, relative to this package.
var matrixDoc = filepath.Join("..", "..", "docs", "rights-matrix.md")

// TestRightsMatrixDoc: docs/rights-matrix.md is what the default rights
// say, so the documentation cannot drift from the seed. Rewrite it with
// go test ./internal/seed -run TestRightsMatrixDoc -update.
func TestRightsMatrixDoc(t *testing.T) {
	want := RightsMatrixDoc()
	if *update {
		if err := os.WriteFile(matrixDoc, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(matrixDoc)
	if err != nil {
		t.Fatalf("%v (write it with -update)", err)
	}
	if string(got) != want {
		t.Fatalf("%s differs from the default rights: run go test ./internal/seed -run TestRightsMatrixDoc -update", matrixDoc)
	}
}

// TestRightsRowsUnique: the access table keeps one row per kind, subject,
// action and role, so two default rows with that key but different teams
// would silently keep only the first.
func TestRightsRowsUnique(t *testing.T) {
	seen := map[[4]string]string{}
	for _, r := range defaultAccessRows() {
		k := [4]string{r.kind, r.subject, r.action, r.role}
		if teams, ok := seen[k]; ok && teams != r.teams {
			t.Errorf("%v granted with teams %q and %q", k, teams, r.teams)
		}
		seen[k] = r.teams
	}
}

// TestDefaultRightsOfStaff: the rights the issue names (issue 38) are in
// the defaults, and what section 6 keeps for administrators is not.
func TestDefaultRightsOfStaff(t *testing.T) {
	has := map[[3]string]string{}
	for _, r := range DefaultRights() {
		has[[3]string{r.Role, r.Subject, r.Action}] = r.Teams
	}
	for _, role := range internalRoles {
		for _, want := range [][2]string{{"create", "recurringpayment"}, {"update", "recurringpayment"}, {"remove", "recurringpayment"},
			{"create", "contractaction"}, {"create", "document"}, {"update", "email"}, {"update", "ticket"}, {"create", "contradictionpackage"},
			{"create", "contract"}, {"update", "contract_document_rel"}} {
			if _, ok := has[[3]string{role, want[1], want[0]}]; !ok {
				t.Errorf("%s may not %s %s", role, want[0], want[1])
			}
		}
		for _, not := range [][2]string{{"create", "customergroup"}, {"create", "company"}, {"create", "partnercompany"}, {"list", "taxrate"},
			{"update", "company_tax_rates_rel"}, {"remove", "contract"}, {"remove", "pos"}, {"remove", "company"}} {
			if teams, ok := has[[3]string{role, not[1], not[0]}]; ok {
				t.Errorf("%s may %s %s (teams %q): administrators only", role, not[0], not[1], teams)
			}
		}
	}
	for _, role := range []string{"lead", "expansion_manager", "ext_team_member", "store_manager"} {
		for _, not := range []string{"recurringpayment", "contract", "pos", "document"} {
			for _, action := range []string{"update", "remove"} {
				if _, ok := has[[3]string{role, not, action}]; ok {
					t.Errorf("%s may %s %s: external users read", role, action, not)
				}
			}
		}
	}
}
