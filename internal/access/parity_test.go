package access_test

import (
	"encoding/json"
	"os"
	"testing"

	"portfolio/internal/access"
)

// canCase is one case of testdata/can-cases.json: rules as GET /user/
// sends them, an action and a subject type, and whether they allow it.
type canCase struct {
	Name    string        `json:"name"`
	Rules   []access.Rule `json:"rules"`
	Action  string        `json:"action"`
	Subject string        `json:"subject"`
	Allowed bool          `json:"allowed"`
}

// TestCanCases evaluates the shared case table with Can. The browser's test
// web/src/lib/casl-parity.test.ts evaluates the same file with CASL
// (createMongoAbility), so the server and the browser agree on every case.
func TestCanCases(t *testing.T) {
	b, err := os.ReadFile("testdata/can-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []canCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("decode can-cases.json: %v", err)
	}
	if len(cases) < 20 {
		t.Fatalf("only %d cases", len(cases))
	}
	names := map[string]bool{}
	for _, c := range cases {
		if names[c.Name] {
			t.Fatalf("case %q appears twice", c.Name)
		}
		names[c.Name] = true
		t.Run(c.Name, func(t *testing.T) {
			if got := access.Can(c.Rules, c.Action, c.Subject); got != c.Allowed {
				t.Fatalf("Can(%s, %s) = %v, want %v; rules %s", c.Action, c.Subject, got, c.Allowed, mustJSON(c.Rules))
			}
		})
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
