package errorboard_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"strconv"
	"strings"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/jobs"
	"portfolio/internal/testkit"
	"portfolio/internal/testkit/apptest"
)

type failedImport struct {
	ID        int64
	UserEmail string `json:"user_email"`
	Entity    string
	FileName  string `json:"file_name"`
	Rows      int
	FailedAt  time.Time `json:"failed_at"`
	Reason    string
	Retryable bool
}

// uploadPos uploads a CSV of points of sale as user and validates it
// with the given mapping; it answers the import's id.
func uploadPos(t *testing.T, ta *apptest.TestApp, user, name, csv string, mapping map[string]string) int64 {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if err := mw.WriteField("entity", "pos"); err != nil {
		t.Fatal(err)
	}
	fw, err := mw.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write([]byte(csv))
	mw.Close()
	r := ta.Do("POST", "/uploadxlsx/", ta.Token(user), body.Bytes(), "Content-Type", mw.FormDataContentType())
	if r.Status != 201 {
		t.Fatalf("upload: %d %s", r.Status, r.Body)
	}
	var up struct {
		ImportID int64 `json:"import_id"`
	}
	r.JSON(t, &up)
	r = ta.Do("POST", fmt.Sprintf("/imports/%d/validate", up.ImportID), ta.Token(user), map[string]any{"mapping": mapping})
	var v struct{ Valid, Invalid int }
	if r.JSON(t, &v); r.Status != 200 || v.Invalid != 0 {
		t.Fatalf("validate: %d %s", r.Status, r.Body)
	}
	return up.ImportID
}

func boardImports(t *testing.T, ta *apptest.TestApp, user string) []failedImport {
	t.Helper()
	r := ta.Do("GET", "/backoffice/errors", ta.Token(user), nil)
	if r.Status != 200 {
		t.Fatalf("%s: GET /backoffice/errors: %d %s", user, r.Status, r.Body)
	}
	var b struct{ Imports []failedImport }
	r.JSON(t, &b)
	return b.Imports
}

// TestFailedImports: an import whose commit job failed for good (its
// uploader was locked before the job ran) is listed with who, which file,
// when and why; its retry is refused while the uploader is locked, runs
// the commit as the uploader once unlocked (the rows are created and the
// entry leaves the board); an import validated anew with errors cannot be
// retried but can be dismissed, once; only the board's users may act.
func TestFailedImports(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		ta := apptest.NewApp(t, d)
		ctx := context.Background()
		if err := ta.Jobs.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			stop, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := ta.Jobs.Stop(stop); err != nil {
				t.Errorf("stop the queue: %v", err)
			}
		})
		mapping := map[string]string{"Company": "company_id", "Name": "pos_name", "Branch number": "pos_branchnumber",
			"First year": "pos_first_year", "Contact person": "contactperson_id", "Opening date": "pos_opening_date"}
		var contact int64
		if err := d.QueryRowContext(ctx, `SELECT MIN(p.contactperson_id) FROM pos p JOIN company c ON c.company_id = p.company_id
			WHERE c.company_name = 'Nordhandel Retail GmbH'`).Scan(&contact); err != nil {
			t.Fatal(err)
		}
		csv := fmt.Sprintf("Company;Name;Branch number;First year;Contact person;Opening date\n"+
			"Nordhandel Retail GmbH;Failed import 1;FI-1;2020;%d;2015-06-01\n"+
			"Nordhandel Retail GmbH;Failed import 2;FI-2;2021;%d;2016-06-01\n", contact, contact)
		uploader := teamLead
		var uploaderID int64
		if err := d.QueryRowContext(ctx, `SELECT user_id FROM users WHERE user_email = ?`, uploader).Scan(&uploaderID); err != nil {
			t.Fatal(err)
		}
		first := uploadPos(t, ta, uploader, "shops.csv", csv, mapping)
		second := uploadPos(t, ta, uploader, "more-shops.csv", csv, mapping)

		// The commit jobs run after the uploader was locked: they end for
		// good with the reason, the imports valid again.
		if _, err := d.ExecContext(ctx, `UPDATE users SET user_locked = 1 WHERE user_id = ?`, uploaderID); err != nil {
			t.Fatal(err)
		}
		for _, id := range []int64{first, second} {
			if _, err := d.ExecContext(ctx, `UPDATE data_import SET import_state = 'committing' WHERE import_id = ?`, id); err != nil {
				t.Fatal(err)
			}
			if err := ta.Imports.RunCommitJob(ctx, jobs.Run{Arg: strconv.FormatInt(id, 10), Attempt: 1, MaxAttempts: 3}); err != nil {
				t.Fatalf("commit job of %d: %v", id, err)
			}
		}
		listed := boardImports(t, ta, admin)
		if len(listed) != 2 || listed[0].ID != second || listed[1].ID != first {
			t.Fatalf("failed imports: %+v, want %d and %d", listed, second, first)
		}
		f := listed[1]
		if f.UserEmail != uploader || f.Entity != "pos" || f.FileName != "shops.csv" || f.Rows != 2 || !f.Retryable ||
			!strings.Contains(f.Reason, "locked") || time.Since(f.FailedAt) > time.Minute {
			t.Errorf("failed import: %+v", f)
		}

		post := func(user, action string, id int64, want int) {
			t.Helper()
			if r := ta.Do("POST", fmt.Sprintf("/backoffice/errors/imports/%d/%s", id, action), ta.Token(user), nil); r.Status != want {
				t.Errorf("%s %s import %d: %d %s, want %d", user, action, id, r.Status, r.Body, want)
			}
		}
		post(teamMember, "retry", first, 403)
		post(lead, "dismiss", first, 403)
		post(admin, "retry", first, 409) // the uploader is still locked
		post(admin, "retry", 999999, 404)

		if _, err := d.ExecContext(ctx, `UPDATE users SET user_locked = 0 WHERE user_id = ?`, uploaderID); err != nil {
			t.Fatal(err)
		}
		// The second is validated anew, with errors (no company): it
		// cannot be retried, only dismissed.
		ta.ForgetToken(uploader)
		if r := ta.Do("POST", fmt.Sprintf("/imports/%d/validate", second), ta.Token(uploader),
			map[string]any{"mapping": map[string]string{"Name": "pos_name"}}); r.Status != 200 {
			t.Fatalf("validate anew: %d %s", r.Status, r.Body)
		}
		post(admin, "retry", second, 409)
		post(admin, "dismiss", second, 204)
		post(admin, "dismiss", second, 404)

		// The first runs again, as its uploader, through the queue.
		post(teamLead, "retry", first, 204)
		if got := boardImports(t, ta, admin); len(got) != 0 {
			t.Errorf("after retry and dismissal the board lists %+v", got)
		}
		post(admin, "retry", first, 404) // no longer failed
		deadline := time.Now().Add(30 * time.Second)
		state := ""
		for time.Now().Before(deadline) {
			if err := d.QueryRowContext(ctx, `SELECT import_state FROM data_import WHERE import_id = ?`, first).Scan(&state); err != nil {
				t.Fatal(err)
			}
			if state == "committed" {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if state != "committed" {
			var report string
			d.QueryRowContext(ctx, `SELECT COALESCE(import_report, '') FROM data_import WHERE import_id = ?`, first).Scan(&report)
			t.Fatalf("the retried import is %q: %s", state, report)
		}
		var n int
		if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM pos WHERE pos_branchnumber IN ('FI-1', 'FI-2')`).Scan(&n); err != nil || n != 2 {
			t.Errorf("created points of sale: %d (%v)", n, err)
		}
	})
}
