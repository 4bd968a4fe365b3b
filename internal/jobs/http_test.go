package jobs_test

import (
	"net/http"
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
		const admin, teamLead, external = "admin@demo.test", "team_lead@demo.test", "lead@demo.test"
		detail := []string{`"detail"`}
		ta.Run(t, []apptest.Scenario{
			{Name: "anonymous list", Method: "GET", Path: "/backoffice/jobs", Status: http.StatusUnauthorized, Contains: detail},
			{Name: "team lead list", As: teamLead, Method: "GET", Path: "/backoffice/jobs", Status: http.StatusForbidden, Contains: detail},
			{Name: "external list", As: external, Method: "GET", Path: "/backoffice/jobs", Status: http.StatusForbidden, Contains: detail},
			{Name: "team lead run", As: teamLead, Method: "POST", Path: "/backoffice/jobs/document_sweep/run", Status: http.StatusForbidden, Contains: detail},
			{Name: "admin run unknown", As: admin, Method: "POST", Path: "/backoffice/jobs/nope/run", Status: http.StatusNotFound,
				Contains: []string{`"detail":"There is no job named nope."`}},
			{Name: "admin list before", As: admin, Method: "GET", Path: "/backoffice/jobs", Status: http.StatusOK, Contains: []string{
				`"name":"document_sweep"`, `"schedule":"daily at 03:00 UTC"`, `"period_seconds":86400`, `"offset_seconds":10800`,
				`"name":"session_purge"`, `"name":"planner_statistics"`, `"state":""`, `"last_run_at":null`,
			}},
			{Name: "admin run", As: admin, Method: "POST", Path: "/backoffice/jobs/document_sweep/run", Status: http.StatusAccepted, Contains: []string{
				`"name":"document_sweep"`, `"state":"available"`, `"attempts":0`, `"max_attempts":5`,
			}},
			// The test app does not work jobs; the enqueued run waits for a
			// worker, which the next server start provides.
			{Name: "admin list after", As: admin, Method: "GET", Path: "/backoffice/jobs", Status: http.StatusOK, Contains: []string{`"state":"available"`},
				Check: func(t *testing.T, r testkit.Response) {
					var answer struct{ Jobs []jobs.Status }
					r.JSON(t, &answer)
					if len(answer.Jobs) < 3 || answer.Jobs[0].Name != "document_sweep" || answer.Jobs[0].NextRunAt == nil {
						t.Fatalf("jobs: %+v", answer.Jobs)
					}
				}},
		})
	})
}
