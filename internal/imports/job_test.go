package imports_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"portfolio/internal/db"
	"portfolio/internal/imports"
	"portfolio/internal/testkit"
)

// startQueue works the app's job queue until the test ends.
func startQueue(t testing.TB, f *fixture) {
	t.Helper()
	if err := f.ta.Jobs.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := f.ta.Jobs.Stop(ctx); err != nil {
			t.Errorf("stop the queue: %v", err)
		}
	})
}

// readImport is GET /imports/{id} as the admin.
func (f *fixture) readImport(t testing.TB, id int64) (importAnswer, string) {
	t.Helper()
	r := f.ta.Do("GET", fmt.Sprintf("/imports/%d", id), f.ta.Token(admin), nil)
	if r.Status != http.StatusOK {
		t.Fatalf("read import: %d %s", r.Status, r.Body)
	}
	var im importAnswer
	r.JSON(t, &im)
	return im, string(r.Body)
}

// waitState polls the import until it is in state (a job works it).
func (f *fixture) waitState(t testing.TB, id int64, state string) (importAnswer, string) {
	t.Helper()
	var im importAnswer
	var body string
	for deadline := time.Now().Add(3 * time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if im, body = f.readImport(t, id); im.State == state {
			return im, body
		}
	}
	t.Fatalf("import %d never %s: %s", id, state, body)
	return im, body
}

// posRows are n valid rows of points of sale under posHeadings.
func posRows(prefix string, n int, contact string) [][]any {
	rows := [][]any{posHeadings}
	for i := range n {
		rows = append(rows, []any{"Nordhandel Retail GmbH", fmt.Sprintf("%s %d", prefix, i), fmt.Sprintf("%s-%05d", prefix, i), 2001, contact, "2015-06-01"})
	}
	return rows
}

// TestCommitJob: the commit of a large import is a job of the queue. It
// waits in the database while no instance works the queue (as across a
// restart) with its progress answered; an attempt that fails half-way
// wrote nothing and is retried from the start; the import ends
// committed, with history rows naming it, all of its rows written once.
// A row refused at commit time ends the job with the import invalid and
// its report; a user who may no longer act leaves it valid with the
// reason.
func TestCommitJob(t *testing.T) {
	testkit.ForEachDB(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		n := imports.AsyncRows + 500
		before := f.posCount(t)
		up := f.mustUpload(t, admin, "pos", workbook(t, posRows("Job", n, "Udo Unique")))
		if status, v, body := f.validate(t, admin, up.ImportID, posMapping); status != 200 || v.Valid != n {
			t.Fatalf("validate: %d %.300s", status, body)
		}
		res := f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID))
		if res.Status != http.StatusAccepted {
			t.Fatalf("commit: %d %s", res.Status, res.Body)
		}
		var im importAnswer
		res.JSON(t, &im)
		if im.State != "committing" || im.Progress == nil || im.Progress.Done != 0 || im.Progress.Total != n {
			t.Fatalf("enqueued: %s", res.Body)
		}
		// Nobody works the queue yet: the import waits, and refuses a
		// second commit and a validation meanwhile.
		if r := f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID)); r.Status != http.StatusConflict {
			t.Fatalf("second commit: %d %s", r.Status, r.Body)
		}
		if status, _, body := f.validate(t, admin, up.ImportID, posMapping); status != http.StatusConflict {
			t.Fatalf("validate while committing: %d %s", status, body)
		}
		if got := f.one(t, `SELECT COUNT(*) FROM river_job WHERE kind = ?`, imports.CommitJob); got != 1 {
			t.Fatalf("jobs enqueued: %d", got)
		}

		// The first attempt fails after its first chunk; the second finds
		// nothing of it written, and its progress stored (PostgreSQL).
		var mu sync.Mutex
		var seen []string
		imports.SetAfterChunk(f.ta.Imports, func(id int64, done int) error {
			mu.Lock()
			defer mu.Unlock()
			outside := f.one(t, `SELECT COUNT(*) FROM pos`)
			stored := f.one(t, `SELECT import_done_count FROM data_import WHERE import_id = ?`, id)
			seen = append(seen, fmt.Sprintf("%d/%d/%d", done, outside-before, stored))
			if len(seen) == 1 {
				return errors.New("the instance stops")
			}
			return nil
		})
		t.Cleanup(func() { imports.SetAfterChunk(f.ta.Imports, nil) })
		startQueue(t, f)
		im, body := f.waitState(t, up.ImportID, "committed")
		if im.Created != n || im.Progress != nil {
			t.Fatalf("committed: %s", body)
		}
		mu.Lock()
		stored := 0 // SQLite's commit holds the one write lock: only memory knows the count
		if d.Dialect() == db.Postgres {
			stored = 1000
		}
		if len(seen) != 4 || seen[0] != fmt.Sprintf("1000/0/%d", stored) || seen[1] != fmt.Sprintf("1000/0/%d", stored) {
			t.Fatalf("chunks seen (done/written outside/stored): %v", seen)
		}
		mu.Unlock()
		if got := f.posCount(t); got != before+int64(n) {
			t.Fatalf("pos count %d, want %d", got, before+int64(n))
		}
		note := fmt.Sprintf("import %d: points.xlsx", up.ImportID)
		if got := f.one(t, `SELECT COUNT(*) FROM trackrecord WHERE trackrecord_category = 'pos' AND trackrecord_type = 'create' AND trackrecord_comment = ?`, note); got != int64(n) {
			t.Fatalf("history rows naming the import: %d", got)
		}
		if got := f.one(t, `SELECT attempt FROM river_job WHERE kind = ?`, imports.CommitJob); got != 2 {
			t.Fatalf("attempts: %d", got)
		}
		imports.SetAfterChunk(f.ta.Imports, nil)

		t.Run("a row refused at commit time", func(t *testing.T) {
			before := f.posCount(t)
			sal := f.one(t, `SELECT MIN(contactsalutation_id) FROM contactsalutation`)
			if _, err := d.ExecContext(context.Background(), `INSERT INTO contactperson (contactperson_firstname, contactperson_lastname,
				contactperson_shortname, contactsalutation_id, company_id) VALUES ('Rita', 'Refused', 'RR', ?, ?)`, sal, f.companyA1); err != nil {
				t.Fatal(err)
			}
			up := f.mustUpload(t, admin, "pos", workbook(t, posRows("Gone", n, "Rita Refused")))
			if status, v, body := f.validate(t, admin, up.ImportID, posMapping); status != 200 || v.Valid != n {
				t.Fatalf("validate: %d %.300s", status, body)
			}
			// The contact person every row names is gone since.
			if _, err := d.ExecContext(context.Background(), `DELETE FROM contactperson WHERE contactperson_firstname = 'Rita' AND contactperson_lastname = 'Refused'`); err != nil {
				t.Fatal(err)
			}
			if r := f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID)); r.Status != http.StatusAccepted {
				t.Fatalf("commit: %d %s", r.Status, r.Body)
			}
			_, body := f.waitState(t, up.ImportID, "invalid")
			if !strings.Contains(body, `"loc":["rows",2,"contactperson_id"]`) || !strings.Contains(body, "Rita Refused") {
				t.Fatalf("report: %.600s", body)
			}
			if got := f.posCount(t); got != before {
				t.Fatalf("rows written: %d", got-before)
			}
		})

		t.Run("a user who may no longer act", func(t *testing.T) {
			before := f.posCount(t)
			up := f.mustUpload(t, admin, "pos", workbook(t, posRows("Locked", n, "Udo Unique")))
			if status, v, body := f.validate(t, admin, up.ImportID, posMapping); status != 200 || v.Valid != n {
				t.Fatalf("validate: %d %.300s", status, body)
			}
			if err := f.ta.Jobs.Stop(context.Background()); err != nil {
				t.Fatal(err)
			}
			if r := f.post(t, admin, fmt.Sprintf("/imports/%d/commit", up.ImportID)); r.Status != http.StatusAccepted {
				t.Fatalf("commit: %d %s", r.Status, r.Body)
			}
			if _, err := d.ExecContext(context.Background(), `UPDATE users SET user_locked = 1 WHERE user_email = ?`, admin); err != nil {
				t.Fatal(err)
			}
			if err := f.ta.Jobs.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			var state, reason string
			for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
				err := d.QueryRowContext(context.Background(), `SELECT import_state, COALESCE(import_commit_error, '') FROM data_import WHERE import_id = ?`, up.ImportID).Scan(&state, &reason)
				if err != nil {
					t.Fatal(err)
				}
				if state != "committing" {
					break
				}
			}
			if _, err := d.ExecContext(context.Background(), `UPDATE users SET user_locked = 0 WHERE user_email = ?`, admin); err != nil {
				t.Fatal(err)
			}
			if state != "valid" || reason == "" {
				t.Fatalf("state %q, reason %q", state, reason)
			}
			if got := f.posCount(t); got != before {
				t.Fatalf("rows written: %d", got-before)
			}
			im, body := f.readImport(t, up.ImportID)
			if im.State != "valid" || !strings.Contains(body, `"commit_error"`) {
				t.Fatalf("read: %s", body)
			}
		})
	})
}
