package jobs_test

import (
	"net/http"
	"strings"
	"testing"

	"portfolio/internal/db"
	"portfolio/internal/jobs"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

// TestBackOfficeJobRoutes: administrators see the jobs and run one now;
// everybody else is refused; an unknown job answers 404.
func TestBackOfficeJobRoutes(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		t.Cleanup(ta.Jobs.Close)
		admin := ta.Login("admin@demo.test").AccessToken
		lead := ta.Login("team_lead@demo.test").AccessToken
		external := ta.Login("lead@demo.test").AccessToken

		for _, sc := range []struct {
			name, method, path, token string
			status                    int
			contains                  []string
		}{
			{"anonymous list", "GET", "/backoffice/jobs", "", http.StatusUnauthorized, []string{`"detail"`}},
			{"team lead list", "GET", "/backoffice/jobs", lead, http.StatusForbidden, []string{`"detail"`}},
			{"external list", "GET", "/backoffice/jobs", external, http.StatusForbidden, []string{`"detail"`}},
			{"team lead run", "POST", "/backoffice/jobs/document_sweep/run", lead, http.StatusForbidden, []string{`"detail"`}},
			{"admin run unknown", "POST", "/backoffice/jobs/nope/run", admin, http.StatusNotFound, []string{`"detail":"There is no job named nope."`}},
			{"admin list before", "GET", "/backoffice/jobs", admin, http.StatusOK, []string{
				`"name":"document_sweep"`, `"schedule":"daily at 03:00 UTC"`, `"period_seconds":86400`, `"offset_seconds":10800`,
				`"name":"session_purge"`, `"name":"planner_statistics"`, `"state":""`, `"last_run_at":null`,
			}},
			{"admin run", "POST", "/backoffice/jobs/document_sweep/run", admin, http.StatusAccepted, []string{
				`"name":"document_sweep"`, `"state":"available"`, `"attempts":0`, `"max_attempts":5`,
			}},
			{"admin list after", "GET", "/backoffice/jobs", admin, http.StatusOK, []string{`"state":"available"`}},
		} {
			t.Run(sc.name, func(t *testing.T) {
				res := ta.Do(sc.method, sc.path, sc.token, nil)
				body := string(res.Body)
				if res.Status != sc.status {
					t.Fatalf("%s %s: %d, want %d: %s", sc.method, sc.path, res.Status, sc.status, body)
				}
				for _, want := range sc.contains {
					if !strings.Contains(body, want) {
						t.Errorf("answer lacks %s: %s", want, body)
					}
				}
			})
		}

		// The test app does not work jobs; the enqueued run waits for a
		// worker, which the next server start provides.
		var answer struct{ Jobs []jobs.Status }
		ta.Do("GET", "/backoffice/jobs", admin, nil).JSON(t, &answer)
		if len(answer.Jobs) < 3 || answer.Jobs[0].Name != "document_sweep" || answer.Jobs[0].NextRunAt == nil {
			t.Fatalf("jobs: %+v", answer.Jobs)
		}
	})
}
