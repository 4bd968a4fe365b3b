package translations_test

import (
	"net/http"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/i18n"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

type labelAnswer struct {
	Data struct {
		Data []struct {
			Name string `json:"attribute_name"`
			Text string `json:"attribute_nice_name"`
		} `json:"data"`
		Total int `json:"total"`
	} `json:"data"`
}

func TestSpecificAPIServesAttributeLabels(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d) // migrates, which syncs the shipped texts
		shipped := i18n.MustLoadAttributes()
		for _, c := range []struct {
			name    string
			body    map[string]any
			headers []string
			lang    string
			want    map[string]string
		}{
			{"lang in body", map[string]any{"entity": "1__attribute_i18n", "action": "read-rich", "lang": "de"}, nil, "de",
				map[string]string{"pos": "Filialen", "contract_resiliation.1": "Gekündigt", "pos_location_rel": "Standorte"}},
			{"lang from header", map[string]any{"entity": "1__attribute_i18n"}, []string{"Accept-Language", "fr-CH,fr;q=0.9"}, "fr",
				map[string]string{"pos": "Points de vente", "kreditornumber_number": "Numéro fournisseur"}},
			{"default English", map[string]any{"entity": "1__attribute_i18n", "per_page": 0}, nil, "en",
				map[string]string{"pos": "Points of sale", "pos_name": "Name"}},
		} {
			t.Run(c.name, func(t *testing.T) {
				res := ta.Do("POST", "/specific-api", "", c.body, c.headers...)
				if res.Status != http.StatusOK {
					t.Fatalf("status %d: %s", res.Status, res.Body)
				}
				if got := res.Header.Get("Content-Language"); got != c.lang {
					t.Errorf("Content-Language %q, want %q", got, c.lang)
				}
				var ans labelAnswer
				res.JSON(t, &ans)
				if want := len(shipped.Keys(c.lang)); ans.Data.Total != want || len(ans.Data.Data) != want {
					t.Errorf("total %d (%d rows), want %d", ans.Data.Total, len(ans.Data.Data), want)
				}
				got := map[string]string{}
				for _, r := range ans.Data.Data {
					got[r.Name] = r.Text
				}
				for k, want := range c.want {
					if got[k] != want {
						t.Errorf("%s: got %q, want %q", k, got[k], want)
					}
				}
			})
		}
	})
}
